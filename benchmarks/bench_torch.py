"""How long `grade multi_head_attention` takes, as a ratio to `python -c "import torch"` in the same run.

That import is the floor any torch grader pays; the target is a ratio of at most 1.3.

    python benchmarks/bench_torch.py [--repeat 10] [--problem multi_head_attention] [--sandbox auto]

The commands run alternately in fresh processes from the same interpreter and their medians are
compared, by wall time and by CPU time of the whole process tree (steadier on a shared machine).

A third command, `import torch, torch._dynamo`, is what the meta-device checks would cost if torch
were left to import torch._dynamo on its first meta-device op (grader/torch_startup.py defers it).
The last line says where one grading run spends its time (--format json). Every run must
succeed (the grade at full marks), or the benchmark stops without a ratio (benchmarks/measure.py).
"""

from __future__ import annotations

import argparse
import json
import shlex
import statistics
import sys
import tempfile
from pathlib import Path

from measure import run

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--problem", default="multi_head_attention")
    parser.add_argument("--sandbox", default="auto", choices=("auto", "full", "limits", "none"))
    parser.add_argument("--file", type=Path, default=None, help="submission (default: the reference)")
    args = parser.parse_args()
    submission = (args.file or ROOT / "reference" / f"{args.problem}.py").resolve()
    commands = {
        "python -c 'import torch'": [sys.executable, "-c", "import torch"],
        "python -c 'import torch, torch._dynamo'": [sys.executable, "-c", "import torch, torch._dynamo"],
        f"grade {args.problem}": [
            sys.executable, "-m", "grader", args.problem, "--file", str(submission), "--sandbox", args.sandbox,
        ],
    }
    times: dict[str, list[float]] = {name: [] for name in commands}
    cpus: dict[str, list[float]] = {name: [] for name in commands}
    with tempfile.TemporaryDirectory() as cwd:
        for cmd in commands.values():  # warm the OS file cache once
            run(cmd, what=shlex.join(cmd[1:]), cwd=cwd)
        for _ in range(args.repeat):  # exit 0: the import worked, the grade gave full marks
            for name, cmd in commands.items():
                done = run(cmd, what=name, cwd=cwd)
                times[name].append(done.wall_s)
                cpus[name].append(done.cpu_s)
        out = run([*commands[f"grade {args.problem}"], "--format", "json"], what="grade --format json",
                  cwd=cwd).stdout
    medians = {name: statistics.median(values) for name, values in times.items()}
    cpu_medians = {name: statistics.median(values) for name, values in cpus.items()}
    for name, median in medians.items():
        cpu = cpu_medians[name]
        print(f"{name:<42} median wall {median * 1000:7.1f} ms, CPU {cpu * 1000:7.1f} ms  (n={args.repeat})")
    (base, dynamo, graded), (base_cpu, dynamo_cpu, graded_cpu) = medians.values(), cpu_medians.values()
    print(f"ratio {graded / base:.2f}x wall, {graded_cpu / base_cpu:.2f}x CPU  (grade / import torch; target <= 1.3)")
    print(f"ratio {graded / dynamo:.2f}x wall, {graded_cpu / dynamo_cpu:.2f}x CPU  "
          "(grade / import torch + torch._dynamo)")
    result = json.loads(out)
    checks = sorted(result["checks"], key=lambda c: -c["duration_ms"])
    total = sum(c["duration_ms"] for c in checks)
    slowest = ", ".join(f"{c['id']} {c['duration_ms']}" for c in checks[:4])
    print(f"one run: {result['duration_ms']} ms in engine.grade, {total} ms in checks "
          f"(isolation {result['isolation']}); slowest checks (ms): {slowest}")


if __name__ == "__main__":
    main()
