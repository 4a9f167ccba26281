"""How long `grade self_attention` takes, as a ratio to `python -c "import numpy"` in the same run.

That import is the floor any numpy grader pays; the target is a ratio of at most 2.5.

    python benchmarks/bench_grade.py [--repeat 15]

Both commands run alternately in fresh processes from the same interpreter; the medians of wall
time and of CPU time (user + system, the process and every process it waited for) are compared.
CPU time is the steadier figure on a shared machine. Every run must succeed (the grade at full
marks), or the benchmark stops without a ratio (benchmarks/measure.py).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

from measure import run

ROOT = Path(__file__).resolve().parents[1]


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
        base, graded = [], []
        for _ in range(args.repeat + 1):  # the first round warms the OS file cache and is not counted
            # Exit 0 is full marks for the grader and a successful import for the baseline.
            base.append(run(baseline_cmd, what="the baseline", cwd=cwd))
            graded.append(run(grade_cmd, what=f"grade {args.problem} (full marks expected)", cwd=cwd))
        base, graded = base[1:], graded[1:]
    for field, what in (("wall_s", "wall"), ("cpu_s", "CPU ")):
        b = statistics.median(getattr(x, field) for x in base)
        g = statistics.median(getattr(x, field) for x in graded)
        print(f"{what}: python -c {args.baseline!r} {b * 1000:6.1f} ms, grade {args.problem} {g * 1000:6.1f} ms, "
              f"ratio {g / b:.2f}x  (medians of {args.repeat})")

if __name__ == "__main__":
    main()
