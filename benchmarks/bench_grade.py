"""How long `grade self_attention` takes, as a ratio to `python -c "import numpy"` in the same run.

That import is the floor any numpy grader pays; the target is a ratio of at most 2.5.

    python benchmarks/bench_grade.py [--repeat 15]

Both commands run alternately in fresh processes from the same interpreter; the medians are compared.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def wall(cmd: list[str], cwd: str) -> float:
    started = time.perf_counter()
    done = subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - started
    if done.returncode not in (0,):
        raise SystemExit(f"{' '.join(cmd)} failed ({done.returncode}): {done.stderr.decode()[-500:]}")
    return elapsed


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
        wall(grade_cmd, cwd)  # warm the OS file cache once
        wall(baseline_cmd, cwd)
        base, graded = [], []
        for _ in range(args.repeat):
            base.append(wall(baseline_cmd, cwd))
            graded.append(wall(grade_cmd, cwd))
    b, g = statistics.median(base), statistics.median(graded)
    print(f"python -c {args.baseline!r:<16} median {b * 1000:7.1f} ms  (n={args.repeat})")
    print(f"grade {args.problem:<22} median {g * 1000:7.1f} ms  (n={args.repeat})")
    print(f"ratio {g / b:.2f}x")


if __name__ == "__main__":
    main()
