"""What huge pages save per runner: fork + exit of a warm torch process, and a whole runner.

    python benchmarks/bench_hugepages.py [--forks 200] [--spawns 60] [--repeat 3]

Each configuration runs in a fresh process (the first two steps of grader.worker.hugepages are
set before the interpreter starts) and prints, as medians over ``--repeat`` processes:

* ``fork+exit``: CPU ms to fork the warm process (torch imported and warmed up as a zygote has
  it) and reap a child that exits at once: the page-table copy and teardown the runner pays;
* ``runner``: CPU ms of a whole runner for a trivial learner file (fork, sandbox, import, reply,
  kill), from a zygote started the way a single ``grade`` (plain) or a batch worker (compacted)
  starts it;
* ``start``: CPU ms the process spent before the first fork (import, warm-up, collapse);
* ``huge``: MiB of the zygote's memory in huge pages.

Configurations: plain; malloc tunable only (``GLIBC_TUNABLES=glibc.malloc.hugetlb=1``); tunable
and ``MADV_COLLAPSE`` (what a batch worker does). Ratios are against plain, in the same run.
A probe that fails (its runner did not start, no result line) stops the benchmark without a
ratio (benchmarks/measure.py).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from pathlib import Path

from measure import run

ROOT = Path(__file__).resolve().parent.parent

PROBE = r"""
import json, os, resource, sys, time
import grader
from grader.worker import hugepages
from grader.worker.session import Zygote

def cpu(who=resource.RUSAGE_SELF):
    r = resource.getrusage(who)
    return r.ru_utime + r.ru_stime

def tree_cpu():
    return cpu() + cpu(resource.RUSAGE_CHILDREN)

forks, spawns, collapse = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3] == "1"
import grader.worker.zygote as zygote_module
zygote_module.preload("torch")
if collapse:
    hugepages.collapse()
start = cpu()
before = tree_cpu()
for _ in range(forks):
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)
fork_ms = (tree_cpu() - before) / forks * 1000

def zygote_cpu(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return sum(int(x) for x in fields[11:15]) / os.sysconf("SC_CLK_TCK")

zygote = Zygote("torch", "limits", compact=collapse)
limits = {"timeout_s": 20, "memory_mb": 1024, "output_kb": 64, "cpu_s": 30}
def one():
    runner = zygote.spawn("x = 1\n", "trivial.py", None, limits)
    if not runner.wait_ready(time.monotonic() + 20).header.get("ok"):
        sys.exit("the trivial runner did not import its file")
    runner.kill()
for _ in range(3):
    one()
before = zygote_cpu(zygote.pid)
for _ in range(spawns):
    one()
runner_ms = (zygote_cpu(zygote.pid) - before) / spawns * 1000
with open(f"/proc/{zygote.pid}/smaps_rollup") as f:
    huge_mib = int(f.read().split("AnonHugePages:")[1].split()[0]) / 1024
zygote.close()
print(json.dumps({"fork+exit": fork_ms, "runner": runner_ms, "start": start * 1000, "huge": huge_mib}))
"""

CONFIGS = {
    "plain": ({}, False),
    "malloc tunable": ({"GLIBC_TUNABLES": "glibc.malloc.hugetlb=1"}, False),
    "tunable + collapse (batch)": ({"GLIBC_TUNABLES": "glibc.malloc.hugetlb=1"}, True),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--forks", type=int, default=200)
    parser.add_argument("--spawns", type=int, default=60)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    rows: dict[str, dict[str, float]] = {}
    for _ in range(args.repeat):  # interleaved, so drift on a noisy machine hits every config alike
        for name, (extra_env, collapse) in CONFIGS.items():
            env = {k: v for k, v in os.environ.items() if k != "GLIBC_TUNABLES"} | extra_env
            out = run([sys.executable, "-c", PROBE, str(args.forks), str(args.spawns), "1" if collapse else "0"],
                      what=f"the {name!r} probe", cwd=ROOT, env=env, expect=r'"fork\+exit"').stdout
            for key, value in json.loads(out.strip().splitlines()[-1]).items():
                rows.setdefault(name, {}).setdefault(key, []).append(value)
    plain = {k: statistics.median(v) for k, v in rows["plain"].items()}
    print(f"medians of {args.repeat} processes; {args.forks} forks and {args.spawns} runners each (CPU ms)")
    print(f"{'configuration':<28}{'fork+exit':>10}{'ratio':>7}{'runner':>9}{'ratio':>7}{'start':>8}{'huge MiB':>10}")
    for name, values in rows.items():
        m = {k: statistics.median(v) for k, v in values.items()}
        print(
            f"{name:<28}{m['fork+exit']:>10.2f}{m['fork+exit'] / plain['fork+exit']:>7.2f}"
            f"{m['runner']:>9.2f}{m['runner'] / plain['runner']:>7.2f}{m['start']:>8.0f}{m['huge']:>10.0f}"
        )


if __name__ == "__main__":
    main()
