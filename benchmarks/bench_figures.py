"""What a failed check's picture costs: wrong submissions graded with and without their figures.

    python benchmarks/bench_figures.py [--repeat 10]

A figure is drawn only when a check naming it fails (a passing submission costs nothing), so
this grades corpus files that fail such checks, on one warm zygote per runtime, alternately with
figures and with the engine's figure drawing switched off, and prints the CPU (this process and
the zygote's runners, as profile_student.py counts it) of each and their ratio. It also times
drawing the table with the heatmaps against the table alone. Before any ratio it checks that
both runs gave the same verdicts and that the figures really were drawn (and really were not).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from contextlib import contextmanager
from pathlib import Path

from measure import require
from profile_student import self_cpu, zygote_cpu

import grader  # noqa: F401  (single-threaded environment before numpy/torch load)
from grader import engine
from grader.bank import ProblemBank
from grader.render import render
from grader.worker import sandbox
from grader.worker.session import Zygote

ROOT = Path(__file__).resolve().parents[1]
WRONG = {  # a wrong submission per problem that fails checks naming a figure
    "masks": "causal_off_by_one.py",
    "multi_head_attention": "inverted_mask.py",
    "additive_attention": "valid_lens_ignored.py",
    "transformer_block": "mask_not_inverted.py",
}


@contextmanager
def figures_off():
    drawing = engine._figure
    engine._figure = lambda *args, **kwargs: None
    try:
        yield
    finally:
        engine._figure = drawing


def verdict(result) -> list[tuple]:
    return [(c.id, c.status.value, c.score, c.diagnosis.id if c.diagnosis else None) for c in result.checks]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=10)
    args = parser.parse_args()
    bank = ProblemBank(())
    cpu = {"with": [], "without": []}
    draw = {"with": [], "without": []}
    with Zygote("torch", sandbox.resolve("limits")) as zygote:
        for name, file_name in WRONG.items():  # warm up: imports, first-use costs, the reference's memo
            engine.grade(bank.get(name), ROOT / "tests" / "corpus" / name / file_name, zygote=zygote)
        for _ in range(args.repeat):
            for mode in ("with", "without"):
                total = 0.0
                results = []
                for name, file_name in WRONG.items():
                    path = ROOT / "tests" / "corpus" / name / file_name
                    g0, r0 = self_cpu(), zygote_cpu(zygote.pid)
                    if mode == "with":
                        result = engine.grade(bank.get(name), path, zygote=zygote)
                    else:
                        with figures_off():
                            result = engine.grade(bank.get(name), path, zygote=zygote)
                    total += self_cpu() - g0 + zygote_cpu(zygote.pid) - r0
                    results.append(result)
                    drawn = [c.figure for c in result.checks if c.figure is not None]
                    require(bool(drawn) == (mode == "with"), f"{name}/{file_name}: figures {mode} drew {len(drawn)}")
                cpu[mode].append(total)
                started = time.perf_counter()
                render(results, "table", combined=True)
                draw[mode].append(time.perf_counter() - started)
                if mode == "with":
                    verdicts = [verdict(r) for r in results]
                else:
                    require(verdicts == [verdict(r) for r in results], "the verdicts differ with and without figures")
    n = len(WRONG)
    with_cpu, without_cpu = (statistics.fmean(cpu[m]) * 1000 / n for m in ("with", "without"))
    with_draw, without_draw = (statistics.median(draw[m]) * 1000 for m in ("with", "without"))
    print(f"{n} wrong submissions, each failing checks that name a figure, n={args.repeat} (ms per submission)")
    print(f"grading CPU: {with_cpu:.1f} with figures, {without_cpu:.1f} without: {with_cpu / without_cpu:.2f}x")
    print(f"table of all {n}: {with_draw:.1f} with heatmaps, {without_draw:.1f} without: "
          f"{with_draw / without_draw:.2f}x")


if __name__ == "__main__":
    sys.exit(main())
