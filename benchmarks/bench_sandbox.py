"""What the sandbox layers cost: `grade self_attention` end to end under each --sandbox mode.

Runs the real CLI on the reference solution (full marks, every check runs) N times per mode,
interleaved, and prints the median wall time of each mode as a ratio to ``--sandbox none`` and to
``python -c "import numpy"`` (the issue-2 yardstick). Timings vary by machine; the ratios are
what to compare. A mode that cannot run here (no bubblewrap for ``full``) or a grade below full
marks stops the benchmark without a ratio (benchmarks/measure.py). Usage::

    python benchmarks/bench_sandbox.py [--runs 15] [--problem self_attention]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

from measure import run

ROOT = Path(__file__).resolve().parent.parent


def wall(name: str, cmd: list[str], cwd: Path) -> float:
    """Seconds of one run; the reference must get full marks (exit 0) under the mode asked for."""
    return run(cmd, what=name, cwd=cwd).wall_s


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--problem", default="self_attention")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        submission = work / f"{args.problem}.py"
        shutil.copyfile(ROOT / "reference" / f"{args.problem}.py", submission)
        grade = [sys.executable, "-m", "grader", args.problem, "--file", str(submission)]
        commands = {
            "import numpy": [sys.executable, "-c", "import numpy"],
            **{f"--sandbox {m}": [*grade, "--sandbox", m] for m in ("none", "limits", "full", "auto")},
        }
        for name, cmd in commands.items():  # warm the page cache
            wall(name, cmd, work)
        times: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(args.runs):
            for name, cmd in commands.items():
                times[name].append(wall(name, cmd, work))
    median = {name: statistics.median(t) for name, t in times.items()}
    print(f"{args.problem}, reference solution, median of {args.runs} interleaved runs")
    print(f"{'command':<18} {'median s':>9} {'vs none':>8} {'vs import numpy':>16}")
    for name, value in median.items():
        print(
            f"{name:<18} {value:>9.3f} {value / median['--sandbox none']:>8.2f} "
            f"{value / median['import numpy']:>16.2f}"
        )


if __name__ == "__main__":
    main()
