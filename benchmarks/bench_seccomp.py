"""What installing the seccomp filter costs a runner: compiled per runner vs precompiled in the zygote.

    python benchmarks/bench_seccomp.py [--runners 200] [--runtime torch]

Forks ``--runners`` children from a process that has imported the runtime (as the zygote has),
alternating two ways of entering the filter, and reports the medians of the time each child
spends on it (``perf_counter`` inside the child) and of each child's whole CPU time (``wait4``):

* ``per runner``: build the rules with libseccomp and ``seccomp_load`` them in every runner (what
  runners did before ``seccomp.program()``);
* ``precompiled``: ``seccomp.install()``: write the pid into the program compiled once before
  the fork, then two ``prctl`` calls.

A child that cannot enter its filter stops the benchmark without a ratio (benchmarks/measure.py).
"""

from __future__ import annotations

import argparse
import ctypes
import errno
import os
import statistics
import struct
import time

from measure import require

import grader  # noqa: F401  (single-threaded environment before numpy/torch load)
from grader.worker import seccomp, zygote


def load_per_runner() -> None:
    """The old path: build the rule set and let libseccomp compile and load it."""
    lib = seccomp.library()
    lib.seccomp_load.argtypes = [ctypes.c_void_p]
    ctx = lib.seccomp_init(seccomp.SCMP_ACT_ALLOW)
    try:
        eperm = seccomp.SCMP_ACT_ERRNO(errno.EPERM)
        for name in seccomp.DENIED:
            seccomp._rule(lib, ctx, eperm, name)
        for name in seccomp.SELF_ONLY:
            seccomp._rule(lib, ctx, eperm, name, seccomp._ArgCmp(0, seccomp.SCMP_CMP_NE, os.getpid(), 0))
        seccomp._rule(lib, ctx, eperm, "clone", seccomp._ArgCmp(0, seccomp.SCMP_CMP_MASKED_EQ, seccomp.CLONE_THREAD, 0))
        seccomp._rule(lib, ctx, seccomp.SCMP_ACT_ERRNO(errno.ENOSYS), "clone3")
        if lib.seccomp_load(ctx) < 0:
            raise seccomp.SeccompError("seccomp_load failed")
    finally:
        lib.seccomp_release(ctx)


def one_child(how: str) -> tuple[float, float]:
    """Fork a child that enters the filter ``how``; (ms inside the child, child CPU ms)."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            started = time.perf_counter()
            (load_per_runner if how == "per runner" else seccomp.install)()
            os.write(write_end, struct.pack("d", time.perf_counter() - started))
            code = 0
        finally:
            os._exit(code)  # never return into the parent's loop
    os.close(write_end)
    reply = os.read(read_end, 8)
    os.close(read_end)
    _, status, usage = os.wait4(pid, 0)
    require(len(reply) == 8 and os.waitstatus_to_exitcode(status) == 0,
            f"a child could not enter the filter {how!r} (exit status {os.waitstatus_to_exitcode(status)})")
    inside = struct.unpack("d", reply)[0]
    return inside * 1000, (usage.ru_utime + usage.ru_stime) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runners", type=int, default=200)
    parser.add_argument("--runtime", default="torch", choices=("numpy", "torch"))
    args = parser.parse_args()
    if (reason := seccomp.unavailable_reason()) is not None:
        raise SystemExit(f"no seccomp here: {reason}")
    zygote.preload(args.runtime)  # imports, and compiles the filter once (sandbox.preload_modules)
    hows = ("per runner", "precompiled")
    samples: dict[str, list[tuple[float, float]]] = {how: [] for how in hows}
    for i in range(args.runners):
        how = hows[i % 2]
        samples[how].append(one_child(how))
    print(f"{args.runners} runners forked from a {args.runtime} process, alternating (median ms)")
    print(f"{'filter':<14}{'in child':>10}{'child CPU':>11}")
    medians = {}
    for how in hows:
        inside = statistics.median(s[0] for s in samples[how])
        cpu = statistics.median(s[1] for s in samples[how])
        medians[how] = inside
        print(f"{how:<14}{inside:>10.3f}{cpu:>11.2f}")
    print(f"precompiled / per runner (time in child): {medians['precompiled'] / medians['per runner']:.2f}")


if __name__ == "__main__":
    main()
