"""The OS layers around learner code: what the zygote and each runner do to themselves.

Isolation levels, recorded in every result as ``"isolation"``:

* ``none``: a separate process with a wall-clock deadline, nothing more (a learner's own laptop);
* ``limits``: plus per-runner rlimits (address space, CPU, file size, open files, no core dumps),
  a seccomp filter (no new processes, sockets, signals to others, ptrace; see
  :mod:`grader.worker.seccomp`) and Landlock (writes only in the runner's own folder; see
  :mod:`grader.worker.landlock`);
* ``full``: plus the zygote is a fresh interpreter under bubblewrap, which mounts nothing of the
  grader's data and has no network (see :mod:`grader.worker.bwrap`).

``resolve`` (in the grader) picks the level for a ``--sandbox`` mode; ``enter_runner`` (in the
forked runner, before any learner code) applies it. docs/security.md says what each layer stops.
"""

from __future__ import annotations

import ctypes
import os
import resource
import signal
import tempfile
import warnings
from typing import Any

from grader.worker import landlock, seccomp

PR_SET_PDEATHSIG = 1
PR_SET_DUMPABLE = 4

#: Modules that the stdlib imports lazily and that a sandboxed runner may not be able to find later.
_LAZY_STDLIB = (
    "encodings.idna", "encodings.cp437", "sysconfig", "linecache", "tokenize", "traceback",
    "grader.worker.runner",
)
LEVELS = ("full", "limits", "none")

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
    if seccomp.library() is not None:  # load libseccomp while its file is surely reachable
        try:
            seccomp.prepare()  # compile the filter once; forked runners only install it
        except seccomp.SeccompError:
            pass  # reported by seccomp.install in the runner, where a check can say so


def harden_zygote() -> None:
    """Die with the grader; let no runner read the zygote's memory."""
    _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    scrub_environment()
    scrub_initial_environment()
    _prctl(PR_SET_DUMPABLE, 0)


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
    os.environ["TMPDIR"] = tempfile.tempdir = workdir
    if landlock.abi_version():
        landlock.restrict_writes_to(workdir)
    if seccomp.library() is not None:
        seccomp.install()


def scrub_environment() -> None:
    """Remove the grader's own settings (the secret seed, private bank paths) from the worker."""
    for key in list(os.environ):
        if key.startswith("GRADER_"):
            del os.environ[key]


class SandboxWarning(UserWarning):
    """A sandbox layer is missing here, so grading runs with less isolation than asked."""


_warned: set[str] = set()


def warn_once(message: str) -> None:
    """Say once per process that a layer is missing (``auto`` degrades, it does not fail)."""
    if message not in _warned:
        _warned.add(message)
        warnings.warn(message, SandboxWarning, stacklevel=3)


def scrub_initial_environment() -> None:
    """Blank ``GRADER_*`` in the environment block the process started with.

    ``os.environ`` is a copy; the original strings stay in memory and in ``/proc/self/environ``,
    which a forked runner inherits. Overwriting them in place (same length) removes the seed.
    """
    try:
        with open("/proc/self/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
        start, end = int(fields[47]), int(fields[48])  # env_start, env_end: fields 50 and 51 of stat
    except (OSError, ValueError, IndexError):
        return
    if not 0 < start < end or end - start > 1 << 24:
        return
    block = ctypes.string_at(start, end - start)
    offset = 0
    for entry in block.split(b"\0"):
        if entry.startswith(b"GRADER_"):
            ctypes.memset(start + offset, ord("x"), len(entry))
        offset += len(entry) + 1


def resolve(mode: str, *, batch: bool = False) -> str:
    """The isolation level a ``--sandbox`` mode gives on this machine: full, limits or none.

    ``full`` raises GraderError where bubblewrap cannot run. ``auto`` is ``limits`` for one local
    grade (a fresh bubblewrap zygote re-imports numpy, which would nearly double the time of a
    grade, and a learner's own laptop has no secrets to keep from the learner) and ``full`` for
    a batch (``batch=True``: the zygote is started once), degrading to ``limits`` with one
    warning where bubblewrap cannot run.
    """
    from grader.errors import GraderError
    from grader.worker import bwrap

    if mode == "none":
        return "none"
    if mode not in ("auto", "full", "limits"):
        raise GraderError(f"--sandbox {mode!r}: choose auto, full, limits or none")
    missing_seccomp = seccomp.unavailable_reason()
    if mode == "full":
        problem = bwrap.unavailable_reason() or (f"seccomp: {missing_seccomp}" if missing_seccomp else None)
        if problem is not None:
            raise GraderError(
                f"--sandbox full is not available on this machine: {problem}. "
                "Use --sandbox limits (no filesystem or network isolation) or fix the above."
            )
        return "full"
    if missing_seccomp is not None:
        warn_once(f"sandbox: no seccomp filter ({missing_seccomp}); learner code can start processes")
    if not landlock.abi_version():
        warn_once("sandbox: this kernel has no Landlock; learner code can write files outside its folder")
    if mode == "limits" or not batch:
        return "limits"
    problem = bwrap.unavailable_reason()
    if problem is None and missing_seccomp is None:
        return "full"
    if problem is not None:
        warn_once(
            f"sandbox: {problem}; grading with --sandbox limits (learner code can read your files "
            "and reach the grader's memory). Pass --sandbox limits to silence this, "
            "or --sandbox full to require isolation."
        )
    return "limits"
