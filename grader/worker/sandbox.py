"""The OS layers around learner code: what the zygote and each runner do to themselves.

Isolation levels, recorded in every result as ``"isolation"``:

* ``none``: a separate process with a wall-clock deadline, nothing more (a learner's own laptop);
* ``limits``: plus per-runner rlimits (address space, CPU, file size, open files, no core dumps);
* ``full``: plus the zygote runs under bubblewrap (see :mod:`grader.worker.bwrap`).

Everything here runs in the worker, never in the grader.
"""

from __future__ import annotations

import ctypes
import os
import resource
import signal
from typing import Any

PR_SET_PDEATHSIG = 1
PR_SET_DUMPABLE = 4

#: Modules that the stdlib imports lazily and that a sandboxed runner may not be able to find later.
_LAZY_STDLIB = ("encodings.idna", "encodings.cp437", "sysconfig", "linecache", "tokenize", "traceback")

FILE_SIZE_LIMIT = 64 * 2**20
OPEN_FILES_LIMIT = 256


def _prctl(option: int, value: int) -> None:
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(option, value, 0, 0, 0)
    except (OSError, AttributeError):  # not Linux
        pass


def preload_modules() -> None:
    for name in _LAZY_STDLIB:
        try:
            __import__(name)
        except ImportError:
            pass


def harden_zygote() -> None:
    """Die with the grader; let no runner read the zygote's memory."""
    _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    _prctl(PR_SET_DUMPABLE, 0)
    scrub_environment()


def _address_space_in_use() -> int:
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError):
        return 0


def _set(limit: int, soft: int, hard: int | None = None) -> None:
    hard = soft if hard is None else hard
    current_soft, current_hard = resource.getrlimit(limit)
    if current_hard != resource.RLIM_INFINITY:
        hard = min(hard, current_hard)
        soft = min(soft, hard)
    try:
        resource.setrlimit(limit, (soft, hard))
    except (ValueError, OSError):
        pass


def enter_runner(limits: dict[str, Any], isolation: str, workdir: str) -> None:
    """Apply this runner's layers. Called in the forked child before any learner code runs."""
    _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    _set(resource.RLIMIT_CORE, 0)
    if isolation == "none":
        return
    memory = int(limits.get("memory_mb", 1024)) * 2**20
    _set(resource.RLIMIT_AS, _address_space_in_use() + memory)
    cpu = max(1, int(limits.get("cpu_s", 60)))
    _set(resource.RLIMIT_CPU, cpu, cpu + 1)
    _set(resource.RLIMIT_FSIZE, FILE_SIZE_LIMIT)
    _set(resource.RLIMIT_NOFILE, OPEN_FILES_LIMIT)


def scrub_environment() -> None:
    """Remove the grader's own settings (the secret seed, private bank paths) from the worker."""
    for key in list(os.environ):
        if key.startswith("GRADER_"):
            del os.environ[key]


def resolve(mode: str) -> str:
    """The isolation level a ``--sandbox`` mode gives on this machine."""
    from grader.errors import GraderError

    if mode in ("auto", "limits"):
        return "limits"
    if mode == "none":
        return "none"
    if mode == "full":
        raise GraderError("--sandbox full: bubblewrap isolation is not available on this machine")
    raise GraderError(f"--sandbox {mode!r}: choose auto, full, limits or none")
