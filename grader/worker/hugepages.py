"""Back a long-lived zygote's memory with huge pages, so that forking a runner from it is cheap.

A torch zygote holds about 180 MiB of private memory (libtorch's operator tables, the imported
modules' objects). ``fork`` copies one page-table entry per 4 KiB page of it and the runner's exit
tears them down again: about 5 ms per runner, for a runner that often needs less than that to
grade. With that memory in 2 MiB huge pages, fork copies one entry where it copied 512, and
fork + exit of a torch process drops from about 4.7 ms to 2.2 ms
(``benchmarks/bench_hugepages.py``). A runner that writes to a huge page still gets its own 4 KiB
copy (the kernel splits the mapping in the child only), so isolation is unchanged.

Two steps, both for batch workers only (a single ``grade`` forks too few runners to gain):

* :data:`MALLOC_TUNABLE` in a worker's environment makes glibc's malloc ask for huge pages as its
  heap grows (``glibc.malloc.hugetlb=1``, glibc 2.35+): about 95 MiB of the 180, at no cost;
* :func:`collapse` (``MADV_COLLAPSE``, Linux 6.1+) then copies the rest (mostly Python's object
  arenas) into huge pages: tens to a few hundred ms, once per zygote.

On an older glibc or kernel, or with transparent huge pages off, each step does nothing.
"""

from __future__ import annotations

import ctypes

MADV_COLLAPSE = 25
HUGE_PAGE = 2 * 2**20
MALLOC_TUNABLE = "glibc.malloc.hugetlb=1"


def malloc_environment(environ: dict[str, str]) -> dict[str, str]:
    """``environ`` with glibc's malloc told to use huge pages (other GLIBC_TUNABLES kept)."""
    tunables = environ.get("GLIBC_TUNABLES", "")
    if "glibc.malloc.hugetlb" in tunables:
        return dict(environ)
    return {**environ, "GLIBC_TUNABLES": f"{tunables}:{MALLOC_TUNABLE}" if tunables else MALLOC_TUNABLE}


def _madvise():
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        madvise = libc.madvise
    except (OSError, AttributeError):  # not Linux
        return None
    madvise.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
    madvise.restype = ctypes.c_int
    return madvise


def private_ranges(maps_text: str) -> list[tuple[int, int]]:
    """The 2 MiB-aligned parts of the heap and anonymous private writable mappings in ``maps_text``."""
    ranges = []
    for line in maps_text.splitlines():
        fields = line.split()
        if len(fields) < 5 or fields[1] != "rw-p":
            continue
        name = fields[5] if len(fields) > 5 else ""
        if name not in ("", "[heap]"):
            continue
        low, high = (int(x, 16) for x in fields[0].split("-"))
        start = -(-low // HUGE_PAGE) * HUGE_PAGE
        end = high // HUGE_PAGE * HUGE_PAGE
        if end > start:
            ranges.append((start, end))
    return ranges


def collapse() -> int:
    """Collapse this process's private memory into huge pages; return how many MiB were collapsed."""
    madvise = _madvise()
    if madvise is None:
        return 0
    try:
        with open("/proc/self/maps") as f:
            ranges = private_ranges(f.read())
    except OSError:
        return 0
    collapsed = 0
    for start, end in ranges:
        if madvise(start, end - start, MADV_COLLAPSE) == 0:  # an error (EINVAL: no such advice) skips it
            collapsed += end - start
    return collapsed // 2**20
