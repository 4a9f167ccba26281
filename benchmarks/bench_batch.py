"""Batch throughput: ``grade batch`` against one fresh pytest process per submission (the baseline).

    python benchmarks/bench_batch.py [--students 200] [--baseline-sample 40] [--jobs 2] [--memory 50,200]

Makes a synthetic class (benchmarks/make_class.py, every problem in the bank), grades it with
``grade batch``, and grades ``--baseline-sample`` of the same student folders with the baseline
(benchmarks/baseline/test_hidden.py: one ``pytest`` per student, learner code imported in-process),
the same number of processes in parallel. Prints, from this one run:

* throughput (students per second) of each, and their ratio (target: >= 20);
* CPU ms per student (all processes: scheduler, workers, zygotes, runners; target: <= 250);
* the scheduler's peak RSS for each class size in ``--memory`` (flat = it does not hold results);
* where the time goes: grading time per problem and the slowest checks, from results.jsonl.

Both sides must do their work: ``grade batch`` must grade every submission and each baseline
``pytest`` must run all of its student's tests (its summary line says so); otherwise the
benchmark stops without a ratio (benchmarks/measure.py).

A student is one "submission": a folder with files for every problem the generator gave them.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
import time
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
from make_class import make_class  # noqa: E402
from measure import Measured, run  # noqa: E402

from grader.bank import ProblemBank  # noqa: E402  (make_class put the repository on sys.path)

SCHEDULER = """
import json, resource, sys
from pathlib import Path
from grader.batch.run import BatchOptions, run_batch
s = run_batch(BatchOptions(Path(sys.argv[1]), Path(sys.argv[2]), jobs=int(sys.argv[3]), sandbox=sys.argv[4]))
print(json.dumps({"maxrss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, "students": s.students,
                  "results": s.results, "restarts": s.worker_restarts}))
"""


def ours(subs: Path, out: Path, jobs: int, sandbox: str = "limits") -> dict:
    """Grade the class with ``grade batch`` (in a fresh process); it must grade every submission."""
    expected = sum(len(got) for got in json.loads((subs / "class.json").read_text())["students"].values())

    def graded_all(done: Measured) -> str | None:
        lines = done.stdout.strip().splitlines()
        summary = json.loads(lines[-1]) if lines and lines[-1].startswith("{") else {}
        if summary.get("results") != expected:
            return f"graded {summary.get('results', 'no')} of the class's {expected} submissions"
        return None

    done = run([sys.executable, "-c", SCHEDULER, str(subs), str(out), str(jobs), sandbox],
               what="grade batch", cwd=ROOT, expect=graded_all)
    return {"wall_s": done.wall_s, "cpu_s": done.cpu_s, **json.loads(done.stdout.strip().splitlines()[-1])}


def pytest_ran(expected: int):
    """An ``expect`` for one baseline run: pytest's summary line shows all ``expected`` tests run.

    Exit status 1 means "some tests failed" (a student's mistakes) but also "No module named
    pytest", so the status alone proves nothing: the summary line does.
    """

    def check(done: Measured) -> str | None:
        tail = done.stdout.strip().splitlines()[-1:] or [""]
        counts = {word: int(n) for n, word in re.findall(r"(\d+) (passed|failed|errors?)", tail[0])}
        ran = counts.get("passed", 0) + counts.get("failed", 0)
        if ran != expected or counts.get("error") or counts.get("errors"):
            return f"ran {ran} of the student's {expected} hidden tests ({tail[0] or 'no pytest summary'})"
        return None

    return check


def baseline(subs: Path, folders: list[Path], jobs: int) -> dict:
    test_file = ROOT / "benchmarks" / "baseline" / "test_hidden.py"
    students = json.loads((subs / "class.json").read_text())["students"]
    bank = ProblemBank()
    checks = {p.name: len(p.spec.checks) for p in bank}

    def one(folder: Path) -> Measured:
        env = {**os.environ, "BASELINE_SUBMISSION": str(folder)}
        cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(test_file)]
        expected = sum(checks[problem] for problem in students[folder.name])
        return run(cmd, what=f"the baseline on {folder.name}", cwd=ROOT, env=env, timeout=600, ok=(0, 1),
                   expect=pytest_ran(expected))

    started = time.perf_counter()
    with ThreadPoolExecutor(jobs) as pool:
        runs = list(pool.map(one, folders))
    wall = time.perf_counter() - started
    return {"wall_s": wall, "cpu_s": sum(r.cpu_s for r in runs), "students": len(folders)}


def profile(results: Path) -> list[str]:
    by_problem: dict[str, list[int]] = defaultdict(list)
    by_check: dict[tuple[str, str], int] = defaultdict(int)
    for line in results.read_text(encoding="utf-8").splitlines():
        r = json.loads(line)
        by_problem[r["problem"]].append(r["duration_ms"])
        for c in r["checks"]:
            by_check[(r["problem"], c["id"])] += c["duration_ms"]
    total = sum(sum(v) for v in by_problem.values()) or 1
    lines = ["grading time by problem (sum of per-result wall ms, share, median ms):"]
    for name, values in sorted(by_problem.items(), key=lambda kv: -sum(kv[1])):
        values.sort()
        lines.append(f"  {name:24s} {sum(values):8d} ms  {100 * sum(values) / total:5.1f}%  median {values[len(values) // 2]} ms")
    lines.append("slowest checks (sum of wall ms over the class):")
    for (name, check), ms in sorted(by_check.items(), key=lambda kv: -kv[1])[:8]:
        lines.append(f"  {name}.{check:28s} {ms:8d} ms")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=200)
    parser.add_argument("--baseline-sample", type=int, default=40, help="students graded by the baseline (0: all)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--memory", default="50,200", help="class sizes for the scheduler-RSS check ('' to skip)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--problems", default="", help="comma-separated problem names (default: all)")
    parser.add_argument("--sandbox", default="limits", choices=("limits", "full", "none"),
                        help="isolation of the batch (CPU is only fully counted at limits: bubblewrap's pid "
                             "namespace hides the sandboxed processes' CPU time from rusage)")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        subs = tmp_path / "class"
        problems = [p for p in args.problems.split(",") if p] or None
        make_class(subs, args.students, seed=args.seed, problems=problems, broken=False)
        ours_run = ours(subs, tmp_path / "out", args.jobs, args.sandbox)
        folders = sorted(p for p in subs.iterdir() if p.is_dir())
        sample = folders if args.baseline_sample in (0, None) else folders[: args.baseline_sample]
        base = baseline(subs, sample, args.jobs)
        ours_rate = ours_run["students"] / ours_run["wall_s"]
        base_rate = base["students"] / base["wall_s"]
        print(f"sandbox: {args.sandbox}")
        print(f"class: {args.students} students x {len(json.loads((subs / 'class.json').read_text())['problems'])} "
              f"problems ({ours_run['results']} results), {args.jobs} parallel processes, seed {args.seed}")
        print(f"grade batch : {ours_run['wall_s']:7.1f} s wall  {ours_rate:6.2f} students/s  "
              f"{1000 * ours_run['cpu_s'] / ours_run['students']:7.0f} ms CPU/student  "
              f"(worker restarts {ours_run['restarts']})")
        print(f"baseline    : {base['wall_s']:7.1f} s wall  {base_rate:6.2f} students/s  "
              f"{1000 * base['cpu_s'] / base['students']:7.0f} ms CPU/student  (sample of {base['students']})")
        print(f"throughput ratio (batch / baseline): {ours_rate / base_rate:.1f}x   target >= 20x")
        for line in profile(tmp_path / "out" / "results.jsonl"):
            print(line)
        sizes = [int(s) for s in args.memory.split(",") if s]
        for n in sizes:
            small = tmp_path / f"mem{n}"
            make_class(small, n, seed=args.seed + 1, broken=False, problems=["self_attention"])
            mem_run = ours(small, tmp_path / f"mem{n}-out", args.jobs)
            print(f"scheduler peak RSS, {n:5d} students: {mem_run['maxrss_kb'] / 1024:6.1f} MiB")


if __name__ == "__main__":
    main()
