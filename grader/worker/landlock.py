"""Landlock (Linux 5.13+): which files a process may read and write, for good.

Unprivileged and per process, and layers stack (each must allow an access), so it works in every
isolation level that has limits, with or without bubblewrap:

* every runner may create, change or delete files only in its own folder
  (:func:`restrict_writes_to`): writes anywhere else (the grader's folder, the user's home, a
  shared ``/tmp`` where the next submission of a batch would look) fail with ``PermissionError``;
* under the ``user`` level the zygote also may read only beneath the folders it needs
  (:func:`restrict`, with :func:`grader.worker.visible.landlock_readable`), so its runners cannot
  read a bank, a submission or ``/proc``. Under ``full`` those are simply not mounted.

Called through ``syscall(2)`` with ctypes; the numbers 444 to 446 are the same on every
architecture. Where the kernel has no Landlock, :func:`abi_version` is 0 and nothing is applied.
"""

from __future__ import annotations

import ctypes
import os
import stat
from functools import lru_cache

_CREATE_RULESET, _ADD_RULE, _RESTRICT_SELF = 444, 445, 446
_CREATE_RULESET_VERSION = 1
_RULE_PATH_BENEATH = 1
_PR_SET_NO_NEW_PRIVS = 38

EXECUTE = 1 << 0
WRITE_FILE = 1 << 1
READ_FILE = 1 << 2
READ_DIR = 1 << 3
#: Removing and creating entries of every kind (files, folders, fifos, sockets, devices, links).
_CHANGE_TREE = sum(1 << bit for bit in (4, 5, 6, 7, 8, 9, 10, 11, 12))
REFER = 1 << 13  # ABI 2: rename or link across folders
TRUNCATE = 1 << 14  # ABI 3
#: Rights that apply to a file (a rule on a file may grant only these).
_FILE_RIGHTS = EXECUTE | WRITE_FILE | READ_FILE | TRUNCATE


class _RulesetAttr(ctypes.Structure):
    _fields_ = [("handled_access_fs", ctypes.c_uint64)]


class _PathBeneath(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


@lru_cache(maxsize=1)
def _libc() -> ctypes.CDLL:
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    return libc


@lru_cache(maxsize=1)
def abi_version() -> int:
    """The kernel's Landlock ABI version, or 0 where Landlock is missing or disabled."""
    try:
        version = _libc().syscall(_CREATE_RULESET, None, ctypes.c_size_t(0), ctypes.c_uint32(_CREATE_RULESET_VERSION))
    except (OSError, AttributeError):
        return 0
    return max(int(version), 0)


class LandlockError(OSError):
    """The ruleset could not be built or enforced."""


def _check(result: int, what: str) -> int:
    if result < 0:
        code = ctypes.get_errno()
        raise LandlockError(code, f"landlock {what}: {os.strerror(code)}")
    return result


def _write_rights(abi: int) -> int:
    return WRITE_FILE | _CHANGE_TREE | (REFER if abi >= 2 else 0) | (TRUNCATE if abi >= 3 else 0)


def restrict_writes_to(folder: str) -> None:
    """From now on this process may write only beneath ``folder`` (and to /dev/null). Irreversible."""
    restrict(writable=[folder])


def restrict(readable: list[str] | tuple[str, ...] = (), writable: list[str] | tuple[str, ...] = (),
             *, limit_reads: bool = False) -> None:
    """From now on write only beneath ``writable`` (and /dev/null); with ``limit_reads``, also
    read only beneath ``readable`` and ``writable``. Irreversible; raises LandlockError.

    A path that no longer exists is skipped (it cannot be read anyway)."""
    abi = abi_version()
    if abi == 0:
        raise LandlockError("Landlock is not available in this kernel")
    write = _write_rights(abi)
    read = READ_FILE | READ_DIR if limit_reads else 0
    rules = [(path, read) for path in readable] if limit_reads else []
    rules += [(path, write | read) for path in writable]
    rules.append((os.devnull, write | read))
    libc = _libc()
    attr = _RulesetAttr(write | read)
    ruleset = _check(libc.syscall(_CREATE_RULESET, ctypes.byref(attr), ctypes.c_size_t(ctypes.sizeof(attr)), 0), "create")
    try:
        for path, access in rules:
            try:
                fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
            except FileNotFoundError:
                continue
            try:
                if not stat.S_ISDIR(os.fstat(fd).st_mode):
                    access &= _FILE_RIGHTS
                rule = _PathBeneath(access, fd)
                _check(libc.syscall(_ADD_RULE, ruleset, _RULE_PATH_BENEATH, ctypes.byref(rule), 0), f"rule for {path}")
            finally:
                os.close(fd)
        _check(libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "no_new_privs")
        _check(libc.syscall(_RESTRICT_SELF, ruleset, 0), "restrict_self")
    finally:
        os.close(ruleset)

