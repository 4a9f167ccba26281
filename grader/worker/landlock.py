"""Landlock (Linux 5.13+): a runner may create, change or delete files only in its own folder.

Unprivileged and per process, so it works in every isolation level that has limits, with or
without bubblewrap: writes anywhere else (the grader's folder, the user's home, a shared ``/tmp``
where the next submission of a batch would look) fail with ``PermissionError``. Reading is not
restricted here; under ``full`` the files worth reading are simply not mounted.

Called through ``syscall(2)`` with ctypes; the numbers 444 to 446 are the same on every
architecture. Where the kernel has no Landlock, :func:`abi_version` is 0 and nothing is applied.
"""

from __future__ import annotations

import ctypes
import os
from functools import lru_cache

_CREATE_RULESET, _ADD_RULE, _RESTRICT_SELF = 444, 445, 446
_CREATE_RULESET_VERSION = 1
_RULE_PATH_BENEATH = 1
_PR_SET_NO_NEW_PRIVS = 38

WRITE_FILE = 1 << 1
#: Removing and creating entries of every kind (files, folders, fifos, sockets, devices, links).
_CHANGE_TREE = sum(1 << bit for bit in (4, 5, 6, 7, 8, 9, 10, 11, 12))
REFER = 1 << 13  # ABI 2: rename or link across folders
TRUNCATE = 1 << 14  # ABI 3


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


def restrict_writes_to(folder: str) -> None:
    """From now on this process may write only beneath ``folder`` (and to /dev/null). Irreversible."""
    abi = abi_version()
    if abi == 0:
        raise LandlockError("Landlock is not available in this kernel")
    write = WRITE_FILE | _CHANGE_TREE | (REFER if abi >= 2 else 0) | (TRUNCATE if abi >= 3 else 0)
    libc = _libc()
    attr = _RulesetAttr(write)
    ruleset = _check(libc.syscall(_CREATE_RULESET, ctypes.byref(attr), ctypes.c_size_t(ctypes.sizeof(attr)), 0), "create")
    try:
        for path, access in ((folder, write), (os.devnull, write & (WRITE_FILE | TRUNCATE))):
            fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
            try:
                rule = _PathBeneath(access, fd)
                _check(libc.syscall(_ADD_RULE, ruleset, _RULE_PATH_BENEATH, ctypes.byref(rule), 0), f"rule for {path}")
            finally:
                os.close(fd)
        _check(libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "no_new_privs")
        _check(libc.syscall(_RESTRICT_SELF, ruleset, 0), "restrict_self")
    finally:
        os.close(ruleset)
