"""How long `grade self_attention` takes, as a ratio to `python -c "import numpy"` in the same run.

That import is the floor any numpy grader pays; the target is a ratio of at most 2.5.

    python benchmarks/bench_grade.py [--repeat 15]

Both commands run alternately in fresh processes from the same interpreter; the medians of wall
time and of CPU time (user + system, the process and every process it waited for) are compared.
CPU time is the steadier figure on a shared machine.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run(cmd: list[str], cwd: str) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one run of ``cmd``, children included."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed ({done.returncode}): {done.stderr.decode()[-500:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return elapsed, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--problem", default="self_attention")
    parser.add_argument("--baseline", default="import numpy")
    parser.add_argument("--file", type=Path, default=None, help="submission (default: the reference)")
    args = parser.parse_args()
    submission = (args.file or ROOT / "reference" / f"{args.problem}.py").resolve()
    baseline_cmd = [sys.executable, "-c", args.baseline]
    grade_cmd = [sys.executable, "-m", "grader", args.problem, "--file", str(submission)]
    with tempfile.TemporaryDirectory() as cwd:
        run(grade_cmd, cwd)  # warm the OS file cache once
        run(baseline_cmd, cwd)
        base, graded = [], []
        for _ in range(args.repeat):
            base.append(run(baseline_cmd, cwd))
            graded.append(run(grade_cmd, cwd))
    for i, what in ((0, "wall"), (1, "CPU ")):
        b = statistics.median(x[i] for x in base)
        g = statistics.median(x[i] for x in graded)
        print(f"{what}: python -c {args.baseline!r} {b * 1000:6.1f} ms, grade {args.problem} {g * 1000:6.1f} ms, "
              f"ratio {g / b:.2f}x  (medians of {args.repeat})")

if __name__ == "__main__":
    main()
