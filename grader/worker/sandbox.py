"""The OS layers around learner code: what the zygote and each runner do to themselves.

Isolation levels, recorded in every result as ``"isolation"``:

* ``none``: a separate process with a wall-clock deadline, nothing more (a learner's own laptop);
* ``limits``: plus per-runner rlimits (address space, CPU, file size, open files, no core dumps),
  a seccomp filter (no new processes, sockets, signals to others, ptrace; see
  :mod:`grader.worker.seccomp`) and Landlock (writes only in the runner's own folder; see
  :mod:`grader.worker.landlock`);
* ``user``: plus the zygote is a fresh interpreter (not a fork of the grader) that runs as an
  unprivileged account and may read only the interpreter, site-packages and the grader package
  (Landlock): the confidential level of a root grader where bubblewrap cannot run, such as
  Gradescope's container (see :mod:`grader.worker.fresh`);
* ``full``: plus the zygote is a fresh interpreter under bubblewrap, which mounts nothing of the
  grader's data and has no network (see :mod:`grader.worker.bwrap`).

Wherever the grader runs as root, the zygote of every level switches to an unprivileged account
before it forks a runner (:mod:`grader.worker.privileges`): learner code never runs as root.

``resolve`` (in the grader) picks the level for a ``--sandbox`` mode; ``confine_zygote`` (in the
``user`` zygote) and ``enter_runner`` (in the forked runner, before any learner code) apply it.
docs/security.md says what each layer stops.
"""

from __future__ import annotations

import ctypes
import os
import resource
import signal
import tempfile
import warnings
from typing import Any

from grader.errors import GraderError
from grader.messages import t, text
from grader.worker import bwrap, landlock, privileges, seccomp, visible

PR_SET_PDEATHSIG = 1
PR_SET_DUMPABLE = 4

#: Modules that the stdlib imports lazily and that a sandboxed runner may not be able to find later.
_LAZY_STDLIB = (
    "encodings.idna", "encodings.cp437", "sysconfig", "linecache", "tokenize", "traceback",
    "grader.worker.runner",
)
LEVELS = ("full", "user", "limits", "none")
MODES = ("auto", *LEVELS)

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


_statm_fd: int | None = None


def address_space_in_use() -> int:
    """This process's virtual memory size in bytes (0 if unknown).

    The file stays open, so that a zygote confined by Landlock (which cannot open ``/proc``) can
    still measure itself before each fork: a runner starts with the zygote's address space.
    """
    global _statm_fd
    try:
        if _statm_fd is None:
            _statm_fd = os.open("/proc/self/statm", os.O_RDONLY | os.O_CLOEXEC)
        return int(os.pread(_statm_fd, 256, 0).split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def confine_zygote(readable: list[str]) -> None:
    """The ``user`` zygote, already unprivileged: from now on read only beneath ``readable`` and
    write only in the temporary folder the grader made for it (Landlock, where the kernel has it)."""
    if landlock.abi_version():
        landlock.restrict(readable, [tempfile.gettempdir()], limit_reads=True)


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


def enter_runner(limits: dict[str, Any], isolation: str, workdir: str, address_space: int) -> None:
    """Apply this runner's layers. Called in the forked child before any learner code runs.

    ``address_space``: the zygote's size when it forked this runner (the memory limit is on top).
    """
    _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    _set(resource.RLIMIT_CORE, 0)
    if isolation == "none":
        return
    memory = int(limits.get("memory_mb", 1024)) * 2**20
    _set(resource.RLIMIT_AS, address_space + memory)
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
    """The isolation level a ``--sandbox`` mode gives on this machine: full, user, limits or none.

    * ``auto`` is ``limits`` for one local grade (a fresh zygote re-imports numpy, which would
      nearly double the time of a grade, and a learner's own laptop has no secrets to keep from
      the learner) and, for a batch (``batch=True``: the zygote is started once), the strongest
      level this machine has: ``full``, else ``user`` for a root grader, else ``limits`` with one
      warning.
    * ``full`` is bubblewrap. Where it cannot run, a root grader gets ``user`` with one warning
      (the level obtained is in every result); anyone else gets a GraderError.
    * ``user`` needs a grader running as root.

    As root, every level runs learner code as the sandbox account; a missing account is an error.
    """
    if mode not in MODES:
        raise GraderError(text("sandbox.bad_mode", mode=mode, choices=", ".join(MODES[:-1])))
    account = _sandbox_account()
    if mode == "none":
        return "none"
    missing_seccomp = seccomp.unavailable_reason()
    if mode == "user":
        if account is None:
            raise GraderError(text("sandbox.user_needs_root"))
        problem = _user_problem(account) or (f"seccomp: {missing_seccomp}" if missing_seccomp else None)
        if problem is not None:
            raise GraderError(text("sandbox.user_unavailable", problem=problem))
        return _user_level(account)
    if mode == "full":
        problem = bwrap.unavailable_reason() or (f"seccomp: {missing_seccomp}" if missing_seccomp else None)
        if problem is None:
            return "full"
        if account is not None and missing_seccomp is None:
            if (user_problem := _user_problem(account)) is None:
                warn_once(t("sandbox.full_as_user", problem=problem, account=account.name))
                return _user_level(account)
            raise GraderError(text("sandbox.full_and_user_unavailable", problem=problem, user_problem=user_problem))
        raise GraderError(text("sandbox.full_unavailable", problem=problem))
    if missing_seccomp is not None:
        warn_once(t("sandbox.no_seccomp", reason=missing_seccomp))
    if not landlock.abi_version():
        warn_once(t("sandbox.no_landlock"))
    if mode == "limits" or not batch:
        return "limits"
    problem = bwrap.unavailable_reason()
    if problem is None and missing_seccomp is None:
        return "full"
    if account is not None and missing_seccomp is None and _user_problem(account) is None:
        warn_once(t("sandbox.batch_as_user", problem=problem, account=account.name))
        return _user_level(account)
    if problem is not None:
        warn_once(t("sandbox.degraded", problem=problem))
    return "limits"


def _sandbox_account() -> privileges.Account | None:
    try:
        return privileges.sandbox_account()
    except privileges.PrivilegeError as err:
        raise GraderError(text("sandbox.no_account", problem=str(err))) from None


def _user_problem(account: privileges.Account) -> str | None:
    """Why the ``user`` level cannot run here (in the current language), or None."""
    unreadable = privileges.unreadable_python(account)
    if unreadable is not None:
        return t("sandbox.python_unreadable", account=account.name, path=str(unreadable))
    return None


def fork_account() -> privileges.Account | None:
    """The account a forked zygote (``limits``, ``none``) switches to: None unless we are root.

    Where the account cannot read the Python installation (pyenv under a ``/root`` of mode 0700),
    learner code would fail on its first import of a module the zygote did not load, so the
    zygote keeps root there: these levels promise no confidentiality (docs/security.md).
    """
    account = privileges.sandbox_account()
    if account is not None and _user_problem(account) is not None:
        return None
    return account


def _user_level(account: privileges.Account) -> str:
    """``user``; where Landlock is missing, warn about banks the account can read by their modes."""
    if not landlock.abi_version():
        for secret in visible.secret_dirs():
            if privileges.readable_by(account, secret):
                warn_once(t("sandbox.bank_readable", account=account.name, path=str(secret)))
    return "user"
