"""From saving the file to the new result printed under `grade NAME --watch`, as a ratio to a cold
`grade NAME` in the same run (default multi_head_attention; target at most 0.15).

    python benchmarks/bench_watch.py [--repeat 10] [--problem multi_head_attention] [--sandbox auto]

The reference solution is copied into a temporary folder. One `grade NAME --watch` process grades
it and waits; each round then times a cold `grade NAME --file` of the same file in a fresh process,
and a save of the file (a changed comment; saved by renaming a temporary file over it and in place,
by turns) until the watch has printed the new result and the line that says it is watching again.
Medians are compared. Every cold grade must give full marks, every save must be graded at full
marks with "no check changed", and Ctrl-C must end the watch with exit status 130; otherwise the
benchmark stops without a ratio (benchmarks/measure.py).
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from measure import Lines, Stopped, require, run

ROOT = Path(__file__).resolve().parents[1]
#: The line the watch prints once a grading is shown and it waits for the next save.
WATCHING = r"^Watching "
#: Seconds one grading may take before the benchmark stops.
LIMIT_S = 300.0


class WatchProcess:
    """`grade NAME --watch`, handed out one grading at a time."""

    def __init__(self, cmd: list[str], cwd: str, env: dict[str, str]):
        self.shown = "grade " + " ".join(cmd[3:])
        self.proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True, encoding="utf-8")
        self.lines = Lines(self.proc, self.shown)

    def next_grading(self) -> tuple[str, float]:
        """What it printed up to the next "Watching" line, and when that line arrived."""
        return self.lines.until(WATCHING, LIMIT_S)

    def interrupt(self) -> int:
        self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            raise Stopped(f"{self.shown} did not stop within 60 s of Ctrl-C") from None
        return self.proc.returncode


def save(path: Path, source: str, atomic: bool) -> None:
    if atomic:  # as many editors save: a temporary file renamed over the old one
        tmp = path.with_name(f".{path.name}.swp-bench")
        tmp.write_text(source, encoding="utf-8")
        os.replace(tmp, path)
    else:
        path.write_text(source, encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--problem", default="multi_head_attention")
    parser.add_argument("--sandbox", default="auto", choices=("auto", "full", "limits", "none"))
    parser.add_argument("--file", type=Path, default=None, help="submission (default: the reference)")
    args = parser.parse_args()
    source_file = (args.file or ROOT / "reference" / f"{args.problem}.py").resolve()
    source = source_file.read_text(encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in ("GRADER_LANG", "COLUMNS")}
    env.update(LANG="C.UTF-8", COLUMNS="200")
    full = "All checks pass"
    with tempfile.TemporaryDirectory() as cwd:
        path = Path(cwd) / f"{args.problem}.py"
        shutil.copyfile(source_file, path)
        grade = [sys.executable, "-m", "grader", args.problem, "--file", str(path), "--sandbox", args.sandbox]
        cold_what = f"a cold grade {args.problem} (full marks expected)"
        run(grade, what=cold_what, cwd=cwd, env=env, expect=full)  # warms the OS file cache; not counted
        watch = WatchProcess([*grade, "--watch"], cwd, env)
        try:
            first, _ = watch.next_grading()
            require(full in first, f"grade {args.problem} --watch did not give full marks: {first[-300:]!r}")
            time.sleep(1.5)  # its watcher starts once the first result is out (a save before is caught later)
            cold, warm = [], []
            for i in range(args.repeat):
                cold.append(run(grade, what=cold_what, cwd=cwd, env=env, expect=full).wall_s)
                save(path, f"{source}\n# edit {i}\n", atomic=i % 2 == 0)
                saved = time.perf_counter()
                printed, done = watch.next_grading()
                require("saved: grading it again" in printed and full in printed
                        and "no check changed" in printed,
                        f"save {i + 1} was not graded at full marks with no change: {printed[-400:]!r}")
                warm.append(done - saved)
                time.sleep(0.2)
            code = watch.interrupt()
            require(code == 130, f"Ctrl-C ended grade {args.problem} --watch with {code}, not 130")
        finally:
            if watch.proc.poll() is None:
                watch.proc.kill()
    c, w = statistics.median(cold), statistics.median(warm)
    print(f"cold grade {args.problem}: median {c * 1000:7.1f} ms  (n={args.repeat})")
    print(f"save -> result under --watch: median {w * 1000:7.1f} ms (min {min(warm) * 1000:.1f}, "
          f"max {max(warm) * 1000:.1f})")
    print(f"ratio {w / c:.3f}  (save -> result / cold grade; target <= 0.15)")


if __name__ == "__main__":
    main()
