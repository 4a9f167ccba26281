"""A seccomp filter for runner processes, through ctypes over the system's ``libseccomp.so.2``.

The filter is a deny-list on top of "allow" (torch and numpy make too many different system
calls for an allow-list to stay maintainable). What it denies, each with ``EPERM`` so that the
learner's code sees an ordinary ``PermissionError`` (an error for that check, not a crash):

* new processes: ``fork``, ``vfork``, ``clone`` without ``CLONE_THREAD`` (threads still work),
  ``clone3`` (answered ``ENOSYS`` so the C library falls back to ``clone``), ``execve``;
* the network and other local services: ``socket``, ``socketpair``;
* other processes: ``kill``/``tgkill``/``rt_sigqueueinfo`` aimed anywhere but at itself,
  ``tkill``, ``pidfd_*``, ``ptrace``, ``process_vm_readv``/``writev``, ``kcmp``;
* the system: mounts, namespaces, modules, ``bpf``, ``perf_event_open``, ``io_uring`` (whose
  requests bypass seccomp), keyrings, ``userfaultfd``, clocks, reboot, handle-based opens.

Syscalls of other ABIs (32-bit ``int 0x80``) kill the process (libseccomp's bad-arch default).
The filter also sets ``no_new_privs``. Installing it takes about a millisecond.
"""

from __future__ import annotations

import ctypes
import errno
import os
from functools import lru_cache

SCMP_ACT_ALLOW = 0x7FFF0000
SCMP_CMP_NE = 1
SCMP_CMP_MASKED_EQ = 7
CLONE_THREAD = 0x00010000


def SCMP_ACT_ERRNO(code: int) -> int:  # noqa: N802 - the C macro's name
    return 0x00050000 | (code & 0xFFFF)


class _ArgCmp(ctypes.Structure):
    _fields_ = [("arg", ctypes.c_uint), ("op", ctypes.c_int), ("datum_a", ctypes.c_uint64), ("datum_b", ctypes.c_uint64)]


#: Denied outright.
DENIED = (
    "fork", "vfork", "execve", "execveat",
    "socket", "socketpair",
    "tkill", "pidfd_open", "pidfd_send_signal", "pidfd_getfd",
    "ptrace", "process_vm_readv", "process_vm_writev", "kcmp",
    "mount", "umount2", "pivot_root", "chroot", "move_mount", "open_tree", "fsopen", "fsmount",
    "fspick", "mount_setattr", "unshare", "setns",
    "init_module", "finit_module", "delete_module", "kexec_load", "kexec_file_load",
    "bpf", "perf_event_open", "userfaultfd", "io_uring_setup", "io_uring_enter", "io_uring_register",
    "keyctl", "add_key", "request_key", "name_to_handle_at", "open_by_handle_at", "lookup_dcookie",
    "fanotify_init", "quotactl", "acct", "swapon", "swapoff", "reboot", "sethostname",
    "setdomainname", "settimeofday", "clock_settime", "clock_adjtime", "adjtimex", "iopl", "ioperm",
    "personality",
)
#: Allowed only when the first argument (a pid or thread-group id) is the runner itself.
SELF_ONLY = ("kill", "tgkill", "rt_sigqueueinfo", "rt_tgsigqueueinfo")


@lru_cache(maxsize=1)
def library() -> ctypes.CDLL | None:
    """libseccomp, or None where it cannot be loaded (then :func:`install` is unavailable)."""
    for name in ("libseccomp.so.2", "libseccomp.so"):
        try:
            lib = ctypes.CDLL(name, use_errno=True)
        except OSError:
            continue
        lib.seccomp_init.restype = ctypes.c_void_p
        lib.seccomp_init.argtypes = [ctypes.c_uint32]
        lib.seccomp_rule_add_array.argtypes = [
            ctypes.c_void_p, ctypes.c_uint32, ctypes.c_int, ctypes.c_uint, ctypes.POINTER(_ArgCmp)
        ]
        lib.seccomp_syscall_resolve_name.argtypes = [ctypes.c_char_p]
        lib.seccomp_load.argtypes = [ctypes.c_void_p]
        lib.seccomp_release.argtypes = [ctypes.c_void_p]
        lib.seccomp_release.restype = None
        return lib
    return None


def unavailable_reason() -> str | None:
    """Why a filter cannot be installed here, or None if it can."""
    if not os.path.exists("/proc/self/status"):
        return "not Linux"
    if library() is None:
        return "libseccomp.so.2 was not found (Debian/Ubuntu package libseccomp2)"
    return None


class SeccompError(OSError):
    """The filter could not be built or loaded."""


def install(pid: int | None = None) -> None:
    """Install the filter on the calling process (irreversible; inherited by its threads)."""
    lib = library()
    if lib is None:
        raise SeccompError(unavailable_reason())
    me = os.getpid() if pid is None else pid
    ctx = lib.seccomp_init(SCMP_ACT_ALLOW)
    if not ctx:
        raise SeccompError("seccomp_init failed")
    try:
        eperm = SCMP_ACT_ERRNO(errno.EPERM)
        for name in DENIED:
            _rule(lib, ctx, eperm, name)
        for name in SELF_ONLY:
            _rule(lib, ctx, eperm, name, _ArgCmp(0, SCMP_CMP_NE, me, 0))
        _rule(lib, ctx, eperm, "clone", _ArgCmp(0, SCMP_CMP_MASKED_EQ, CLONE_THREAD, 0))
        _rule(lib, ctx, SCMP_ACT_ERRNO(errno.ENOSYS), "clone3")
        rc = lib.seccomp_load(ctx)
        if rc < 0:
            raise SeccompError(f"seccomp_load failed: {os.strerror(-rc)}")
    finally:
        lib.seccomp_release(ctx)


def _rule(lib: ctypes.CDLL, ctx: int, action: int, name: str, *conditions: _ArgCmp) -> None:
    number = lib.seccomp_syscall_resolve_name(name.encode())
    if number < 0:  # no such system call on this architecture
        return
    array = (_ArgCmp * len(conditions))(*conditions) if conditions else None
    rc = lib.seccomp_rule_add_array(ctx, action, number, len(conditions), array)
    if rc < 0:
        raise SeccompError(f"seccomp rule for {name} failed: {os.strerror(-rc)}")
