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
The filter also sets ``no_new_privs``.

libseccomp compiles the rules into a classic BPF program once per process (:func:`program`,
called in the zygote before it forks); each runner only installs that program with two
``prctl`` calls (:func:`install`, tens of microseconds instead of a millisecond or more of
rule building per runner). The one rule that depends on the runner (``kill`` and friends only
of its own pid) is compiled with a placeholder pid; the instructions that hold it are found by
compiling twice with two different placeholders, and each runner writes its own pid there, so
the program it installs is exactly the one libseccomp would have compiled for that pid.
"""

from __future__ import annotations

import ctypes
import errno
import os
import struct
from dataclasses import dataclass
from functools import lru_cache

SCMP_ACT_ALLOW = 0x7FFF0000
SCMP_CMP_NE = 1
SCMP_CMP_MASKED_EQ = 7
CLONE_THREAD = 0x00010000
PR_SET_NO_NEW_PRIVS = 38
PR_SET_SECCOMP = 22
SECCOMP_MODE_FILTER = 2
#: Two pids no process has (above the kernel's PID_MAX_LIMIT of 2**22) that compile to different
#: constants: the instructions where the two programs differ are the ones that hold the pid.
_PLACEHOLDERS = (0x5EC0_0001, 0x5EC0_0002)
_INSTRUCTION = struct.Struct("=HBBI")  # struct sock_filter: code, jt, jf, k


def SCMP_ACT_ERRNO(code: int) -> int:  # noqa: N802 - the C macro's name
    return 0x00050000 | (code & 0xFFFF)


class _ArgCmp(ctypes.Structure):
    _fields_ = [("arg", ctypes.c_uint), ("op", ctypes.c_int), ("datum_a", ctypes.c_uint64), ("datum_b", ctypes.c_uint64)]


class _SockFprog(ctypes.Structure):  # struct sock_fprog
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


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
        lib.seccomp_export_bpf.argtypes = [ctypes.c_void_p, ctypes.c_int]
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


@dataclass(frozen=True)
class Program:
    """The compiled filter: ``struct sock_filter`` instructions, and which of them hold the pid."""

    instructions: bytes
    pid_slots: tuple[int, ...]

    def for_pid(self, pid: int) -> bytes:
        """The instructions with ``pid`` written into every pid slot."""
        code = bytearray(self.instructions)
        for slot in self.pid_slots:
            offset = slot * _INSTRUCTION.size
            op, jt, jf, _k = _INSTRUCTION.unpack_from(code, offset)
            _INSTRUCTION.pack_into(code, offset, op, jt, jf, pid)
        return bytes(code)


@lru_cache(maxsize=1)
def program() -> Program:
    """Compile the filter (once per process; a zygote calls :func:`prepare` before it forks)."""
    first, second = (compile_bpf(pid) for pid in _PLACEHOLDERS)
    size = _INSTRUCTION.size
    if len(first) != len(second) or not first or len(first) % size:
        raise SeccompError("libseccomp compiled the filter differently for two pids")
    slots = []
    for i in range(len(first) // size):
        a, b = _INSTRUCTION.unpack_from(first, i * size), _INSTRUCTION.unpack_from(second, i * size)
        if a == b:
            continue
        if a[:3] != b[:3] or (a[3], b[3]) != _PLACEHOLDERS:
            raise SeccompError(f"libseccomp compiled the filter differently for two pids (instruction {i})")
        slots.append(i)
    if not slots:  # libseccomp shares one comparison block among the self-only rules
        raise SeccompError("found no pid comparison in the compiled filter")
    return Program(first, tuple(slots))


def prepare() -> None:
    """Compile the filter and ready it for :func:`install`, in the zygote, before any fork."""
    _prepared()


def compile_bpf(pid: int) -> bytes:
    """libseccomp's BPF program (``struct sock_filter`` array) for a runner whose pid is ``pid``."""
    lib = library()
    if lib is None:
        raise SeccompError(unavailable_reason())
    ctx = lib.seccomp_init(SCMP_ACT_ALLOW)
    if not ctx:
        raise SeccompError("seccomp_init failed")
    try:
        eperm = SCMP_ACT_ERRNO(errno.EPERM)
        for name in DENIED:
            _rule(lib, ctx, eperm, name)
        for name in SELF_ONLY:
            _rule(lib, ctx, eperm, name, _ArgCmp(0, SCMP_CMP_NE, pid, 0))
        _rule(lib, ctx, eperm, "clone", _ArgCmp(0, SCMP_CMP_MASKED_EQ, CLONE_THREAD, 0))
        _rule(lib, ctx, SCMP_ACT_ERRNO(errno.ENOSYS), "clone3")
        fd = os.memfd_create("seccomp-bpf", os.MFD_CLOEXEC)
        try:
            rc = lib.seccomp_export_bpf(ctx, fd)
            if rc < 0:
                raise SeccompError(f"seccomp_export_bpf failed: {os.strerror(-rc)}")
            os.lseek(fd, 0, os.SEEK_SET)
            chunks = []
            while chunk := os.read(fd, 1 << 16):
                chunks.append(chunk)
            return b"".join(chunks)
        finally:
            os.close(fd)
    finally:
        lib.seccomp_release(ctx)


def install(pid: int | None = None) -> None:
    """Install the filter on the calling process (irreversible; inherited by its threads).

    Sets ``no_new_privs`` first (the kernel requires it of an unprivileged filter), then loads the
    precompiled program with ``prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER)``, as ``seccomp_load``
    does. Call it in a single-threaded process: other threads would not get the filter.
    """
    libc, buffer, fprog, slots = _prepared()
    me = os.getpid() if pid is None else pid
    for slot in slots:  # the k field of each pid comparison (offset 4 of struct sock_filter)
        struct.pack_into("=I", buffer, slot * _INSTRUCTION.size + 4, me)
    if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise SeccompError(f"prctl(PR_SET_NO_NEW_PRIVS) failed: {os.strerror(ctypes.get_errno())}")
    if libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(fprog), 0, 0) != 0:
        raise SeccompError(f"prctl(PR_SET_SECCOMP) failed: {os.strerror(ctypes.get_errno())}")


@lru_cache(maxsize=1)
def _prepared() -> tuple[ctypes.CDLL, ctypes.Array, _SockFprog, tuple[int, ...]]:
    """libc, the program in a C buffer and the ``sock_fprog`` pointing at it: made once, before
    the fork, so that a runner only writes its pid and calls ``prctl`` (each runner has its own
    copy-on-write copy of the buffer)."""
    compiled = program()
    buffer = ctypes.create_string_buffer(compiled.instructions, len(compiled.instructions))
    fprog = _SockFprog(len(compiled.instructions) // _INSTRUCTION.size, ctypes.addressof(buffer))
    return ctypes.CDLL(None, use_errno=True), buffer, fprog, compiled.pid_slots


def _rule(lib: ctypes.CDLL, ctx: int, action: int, name: str, *conditions: _ArgCmp) -> None:
    number = lib.seccomp_syscall_resolve_name(name.encode())
    if number < 0:  # no such system call on this architecture
        return
    array = (_ArgCmp * len(conditions))(*conditions) if conditions else None
    rc = lib.seccomp_rule_add_array(ctx, action, number, len(conditions), array)
    if rc < 0:
        raise SeccompError(f"seccomp rule for {name} failed: {os.strerror(-rc)}")
