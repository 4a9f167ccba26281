"""A batch worker's compacted zygote: which memory is collapsed, and that runners stay isolated."""

from __future__ import annotations

import time

from conftest import call_entry
from grader.worker import hugepages
from grader.worker.session import Zygote

MAPS = """\
55d0c0000000-55d0c0a00000 rw-p 00000000 00:00 0                          [heap]
7f0000001000-7f0000500000 rw-p 00000000 00:00 0
7f0000600000-7f0000700000 rw-p 00000000 00:00 0
7f0000800000-7f0000c00000 r--p 00000000 00:00 0
7f0001000000-7f0001400000 rw-p 00001000 08:01 123                        /usr/lib/libtorch_cpu.so
7f0002000000-7f0002400000 rw-s 00000000 00:05 7                          /dev/shm/x
7ffc00000000-7ffc00400000 rw-p 00000000 00:00 0                          [stack]
"""


def test_only_the_aligned_part_of_private_anonymous_memory_is_collapsed() -> None:
    ranges = hugepages.private_ranges(MAPS)
    assert ranges == [
        (0x55D0C0000000, 0x55D0C0A00000),  # the heap, 10 MiB, already aligned
        (0x7F0000200000, 0x7F0000400000),  # 1 MiB in, 5 MiB long: only [2 MiB, 4 MiB) is whole
    ]  # not: the 1 MiB mapping, read-only, file-backed, shared or the stack


def test_runners_of_a_compacted_zygote_cannot_change_what_the_next_one_sees() -> None:
    """A runner writes over memory it inherited (numpy's own module dict and a cached array); the
    next runner from the same zygote still sees the originals."""
    source = (
        "import numpy as np\n"
        "def tamper():\n"
        "    before = float(np.pi)\n"
        "    np.pi = 3.0\n"
        "    table = np.arange(1 << 20, dtype=np.float64)\n"
        "    np.core_table = table\n"
        "    return before\n"
        "def look():\n"
        "    return float(np.pi), hasattr(np, 'core_table')\n"
    )
    limits = {"timeout_s": 20, "memory_mb": 1024, "output_kb": 64, "cpu_s": 30}
    with Zygote("numpy", "limits", compact=True) as zygote:
        first = zygote.spawn(source, "tamper.py", None, limits)
        try:
            assert first.wait_ready(time.monotonic() + 20).header.get("ok")
            assert call_entry(first, "tamper") == 3.141592653589793
        finally:
            first.kill()
        second = zygote.spawn(source, "tamper.py", None, limits)
        try:
            assert second.wait_ready(time.monotonic() + 20).header.get("ok")
            assert call_entry(second, "look") == (3.141592653589793, False)
        finally:
            second.kill()


def test_collapse_reports_what_it_did_and_never_fails() -> None:
    """On a kernel without MADV_COLLAPSE it collapses nothing; elsewhere, some of this process."""
    collapsed = hugepages.collapse()
    assert isinstance(collapsed, int) and collapsed >= 0
    with open("/proc/self/smaps_rollup") as f:
        huge_kib = int(f.read().split("AnonHugePages:")[1].split()[0])
    if collapsed:
        assert huge_kib > 0
