"""Where one student's grading time goes: each problem's reference graded N times on one warm zygote.

    python benchmarks/profile_student.py [--repeat 20] [--sandbox limits] [--problem NAME ...]
                                         [--cprofile PROBLEM] [--one-zygote]

The way ``grade batch`` grades (a batch worker's zygotes, one per runtime, started on first use;
``engine.grade`` per submission), serial, in this process; ``--one-zygote`` forks every runner
from one torch zygote instead (how batch workers worked before). For each problem it prints
medians over ``--repeat`` gradings of:

* grader CPU: this process (check code, reference and oracle work, protocol), ``RUSAGE_SELF``;
* runner CPU: the zygote's forks and the runners it reaped (the zygote's own CPU plus its
  ``RUSAGE_CHILDREN``, read from ``/proc/<zygote>/stat``): learner code, probes, import, encoding;
* wall time of ``engine.grade``;
* runner page faults (minor faults of the zygote and its runners): mostly copy-on-write copies
  of the zygote's memory, a count that a busy machine does not inflate.

and the per-student totals (one submission of every problem), which is what issue 6's
"<= 250 ms CPU per student" is about. The first ``--warmup`` gradings of each problem are not
counted (module imports, first-use costs a batch worker pays once). ``--cprofile PROBLEM`` prints
the top grader-side functions of that problem instead.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import resource
import statistics
import sys
import time
from pathlib import Path

from measure import require

import grader  # noqa: F401  (single-threaded environment before numpy/torch load)
from grader import engine
from grader.bank import ProblemBank
from grader.batch.worker import Worker
from grader.worker.session import Zygote

ROOT = Path(__file__).resolve().parents[1]
_TICK = os.sysconf("SC_CLK_TCK")


def self_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _stat(pid: int) -> list[str]:
    with open(f"/proc/{pid}/stat") as f:
        return f.read().rsplit(")", 1)[1].split()


def zygote_cpu(pid: int) -> float:
    """CPU seconds of the zygote and of every runner it has reaped (utime+stime+cutime+cstime)."""
    return sum(int(x) for x in _stat(pid)[11:15]) / _TICK  # fields 14-17 of proc(5)


def zygote_faults(pid: int) -> int:
    """Minor page faults of the zygote and its reaped runners (minflt+cminflt): copy-on-write work,
    a steadier measure than CPU time on a busy machine."""
    return sum(int(x) for x in _stat(pid)[7:9])  # fields 10-11 of proc(5)


def measure(problem, path: Path, zygote: Zygote | None, repeat: int, warmup: int) -> dict[str, float]:
    grader_cpu, runner_cpu, wall, faults = [], [], [], []
    for i in range(warmup + repeat):
        g0, w0 = self_cpu(), time.perf_counter()
        r0 = zygote_cpu(zygote.pid) if zygote else 0.0
        f0 = zygote_faults(zygote.pid) if zygote else 0
        result = engine.grade(problem, path, zygote=zygote)
        w1, g1 = time.perf_counter(), self_cpu()
        r1 = zygote_cpu(zygote.pid) if zygote else 0.0
        f1 = zygote_faults(zygote.pid) if zygote else 0
        require(result.score == result.max_score,
                f"{problem.name}: the reference scored {result.score}/{result.max_score}, not full marks")
        if i >= warmup:
            grader_cpu.append(g1 - g0)
            runner_cpu.append(r1 - r0)
            wall.append(w1 - w0)
            faults.append(f1 - f0)
    if not repeat:
        return {}
    # CPU clocks tick at 10 ms: means, not medians, for the CPU columns.
    return {
        "grader": statistics.fmean(grader_cpu) * 1000,
        "runner": statistics.fmean(runner_cpu) * 1000,
        "wall": statistics.median(wall) * 1000,
        "faults": statistics.median(faults),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--warmup", type=int, default=2)
    parser.add_argument("--sandbox", default="limits", choices=("limits", "none"))
    parser.add_argument("--problem", action="append", default=None)
    parser.add_argument("--cprofile", default=None, metavar="PROBLEM")
    parser.add_argument("--one-zygote", action="store_true", help="fork every runner from one torch zygote")
    args = parser.parse_args()
    bank = ProblemBank(())
    names = args.problem or sorted(bank.names())
    problems = [bank.get(n) for n in names]
    runtimes = {p.spec.runtime for p in problems}
    worker = Worker({"sandbox": args.sandbox, "runtimes": sorted(runtimes)})  # zygotes as grade batch has them
    isolation = worker.isolation
    if args.one_zygote:
        code_runtimes = runtimes - {"data"}
        one = Zygote("torch" if "torch" in code_runtimes else "numpy", isolation) if code_runtimes else None

        def zygote_for(runtime: str) -> Zygote | None:
            return None if runtime == "data" else one
    else:
        one, zygote_for = None, worker.zygote
    try:
        if args.cprofile:
            problem = bank.get(args.cprofile)
            path = ROOT / "reference" / Path(problem.spec.learner_file).name
            zygote = zygote_for(problem.spec.runtime)
            measure(problem, path, zygote, 0, args.warmup)
            profiler = cProfile.Profile(time.process_time)  # CPU, not time spent waiting
            profiler.enable()
            measure(problem, path, zygote, args.repeat, 0)
            profiler.disable()
            pstats.Stats(profiler, stream=sys.stdout).sort_stats("tottime").print_stats(25)
            return
        rows = {}
        for problem in problems:
            path = ROOT / "reference" / Path(problem.spec.learner_file).name
            rows[problem.name] = measure(problem, path, zygote_for(problem.spec.runtime), args.repeat, args.warmup)
    finally:
        worker.close()
        if one is not None:
            one.close()
    zygotes = "one warm torch zygote" if args.one_zygote else "a warm zygote per runtime"
    print(f"isolation {isolation}, {zygotes}, serial, n={args.repeat} per problem (ms)")
    print(f"{'problem':<24}{'grader CPU':>11}{'runner CPU':>11}{'CPU':>8}{'wall':>8}{'faults':>8}")
    for name, row in rows.items():
        cpu = row["grader"] + row["runner"]
        print(f"{name:<24}{row['grader']:>11.1f}{row['runner']:>11.1f}{cpu:>8.1f}{row['wall']:>8.1f}"
              f"{row['faults']:>8.0f}")
    total = {k: sum(r[k] for r in rows.values()) for k in ("grader", "runner", "wall", "faults")}
    cpu = total["grader"] + total["runner"]
    print(f"{'per student':<24}{total['grader']:>11.1f}{total['runner']:>11.1f}{cpu:>8.1f}{total['wall']:>8.1f}"
          f"{total['faults']:>8.0f}")


if __name__ == "__main__":
    main()
