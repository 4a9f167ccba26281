"""A container-like root for tests: what Gradescope's Docker container gives an autograder.

Built with bubblewrap (the tests run as root): uid 0 with Docker's default capabilities only (no
``CAP_SYS_ADMIN``), new pid, network, ipc and uts namespaces (no network at all), a fresh
``/proc`` with Docker's masked entries, and a seccomp filter like Docker's default profile that
refuses new namespaces and mounts, so that no user namespace can be created inside: the grader's
``full`` level (bubblewrap) cannot run there, as on Gradescope. ``landlock=False`` also answers
the Landlock system calls ``ENOSYS``, as a kernel without Landlock does.

Two kinds of root: the host's filesystem (read-write, as a container's own image is; for tests
that compare with grading on the host), or an image (``image=``, a folder of writable copies such
as ``/etc``, ``/opt`` and ``/autograder``, with the host's ``/usr``, ``/work`` and package
indexes read-only), so that what runs inside changes nothing on the host. Either way ``/tmp`` is
fresh and ``/root`` holds only the Python installation when it lives there (pyenv): a container
image keeps Python where every user can read it.
"""

from __future__ import annotations

import errno
import os
import shutil
import subprocess
import sys
from pathlib import Path

from grader.worker import privileges, seccomp

DOCKER_CAPS = (
    "CAP_CHOWN", "CAP_DAC_OVERRIDE", "CAP_FSETID", "CAP_FOWNER", "CAP_MKNOD", "CAP_NET_RAW",
    "CAP_SETGID", "CAP_SETUID", "CAP_SETFCAP", "CAP_SETPCAP", "CAP_NET_BIND_SERVICE",
    "CAP_SYS_CHROOT", "CAP_KILL", "CAP_AUDIT_WRITE",
)
#: /proc entries Docker hides (a tmpfs or /dev/null over them): why a fresh /proc cannot be
#: mounted inside ("Can't mount proc").
DOCKER_MASKED = ("/proc/acpi", "/proc/kcore", "/proc/keys", "/proc/latency_stats", "/proc/timer_list",
                 "/proc/sched_debug", "/proc/scsi")
NAMESPACE_FLAGS = (0x00020000, 0x02000000, 0x04000000, 0x08000000, 0x10000000, 0x20000000, 0x40000000)
REFUSED = ("unshare", "setns", "mount", "umount2", "pivot_root", "move_mount", "open_tree", "fsopen")
LANDLOCK = ("landlock_create_ruleset", "landlock_add_rule", "landlock_restrict_self")


def unavailable_reason() -> str | None:
    """Why a container cannot be simulated here (None if it can)."""
    if not privileges.is_root():
        return "simulating a root container needs root"
    if shutil.which("bwrap") is None:
        return "bubblewrap is not installed"
    if seccomp.unavailable_reason() is not None:
        return f"seccomp: {seccomp.unavailable_reason()}"
    return None


def docker_filter(landlock: bool = True) -> bytes:
    """A BPF program like Docker's default seccomp profile without CAP_SYS_ADMIN."""
    lib = seccomp.library()
    ctx = lib.seccomp_init(seccomp.SCMP_ACT_ALLOW)
    try:
        eperm = seccomp.SCMP_ACT_ERRNO(errno.EPERM)
        for name in REFUSED:
            seccomp._rule(lib, ctx, eperm, name)
        for flag in NAMESPACE_FLAGS:
            seccomp._rule(lib, ctx, eperm, "clone", seccomp._ArgCmp(0, seccomp.SCMP_CMP_MASKED_EQ, flag, flag))
        seccomp._rule(lib, ctx, seccomp.SCMP_ACT_ERRNO(errno.ENOSYS), "clone3")
        if not landlock:
            for name in LANDLOCK:
                seccomp._rule(lib, ctx, seccomp.SCMP_ACT_ERRNO(errno.ENOSYS), name)
        fd = os.memfd_create("docker-seccomp")
        try:
            if lib.seccomp_export_bpf(ctx, fd) < 0:
                raise OSError("seccomp_export_bpf failed")
            return os.pread(fd, 1 << 20, 0)
        finally:
            os.close(fd)
    finally:
        lib.seccomp_release(ctx)


def _python_root() -> Path | None:
    """The Python installation's top folder under /root, if that is where it lives."""
    for prefix in (sys.base_prefix, os.path.realpath(sys.executable)):
        path = Path(prefix).resolve()
        if Path("/root") in path.parents:
            return Path("/root") / path.relative_to("/root").parts[0]
    return None


#: Host folders an image sees read-only: the system, the local package indexes pip uses offline,
#: and (see :func:`_read_only`) the checkout and the venv the tests run from, wherever they are.
IMAGE_READ_ONLY = ("/usr", "/opt/wheels", "/opt/pypi", "/opt/pypi-more")
CHECKOUT = Path(__file__).resolve().parent.parent


def _read_only() -> list[str]:
    """The folders bound read-only into an image: :data:`IMAGE_READ_ONLY`, the checkout, the venv."""
    folders: list[str] = []
    for name in (*IMAGE_READ_ONLY, str(CHECKOUT), str(Path(sys.prefix).resolve())):
        if Path(name).exists() and not any(Path(name).is_relative_to(kept) for kept in folders):
            folders.append(name)
    return folders
#: Folders of an image that are its own writable copies (made on first use from the host's).
IMAGE_WRITABLE = ("/etc", "/opt", "/var", "/home", "/autograder")


def make_image(folder: Path) -> Path:
    """An image's writable folders under ``folder`` (``/etc`` copied from the host, the rest empty)."""
    for name in IMAGE_WRITABLE:
        target = folder / name.lstrip("/")
        if not target.exists():
            if name == "/etc":
                shutil.copytree("/etc", target, symlinks=True, ignore_dangling_symlinks=True)
            else:
                target.mkdir(parents=True)
    return folder


def _image_root(folder: Path) -> list[str]:
    args = ["--tmpfs", "/"]
    for name in IMAGE_WRITABLE:
        args += ["--bind", str(folder / name.lstrip("/")), name]
    for name in _read_only():
        # bwrap makes missing parents 0700: a checkout in /check/work/main would be root's only.
        for parent in reversed(Path(name).parents[:-1]):
            if str(parent) not in IMAGE_WRITABLE:
                args += ["--perms", "0755", "--dir", str(parent)]
        args += ["--ro-bind", name, name]
    for name in ("bin", "lib", "lib32", "lib64", "libx32", "sbin"):
        top = Path("/") / name
        if top.is_symlink():
            args += ["--symlink", os.readlink(top), str(top)]
        elif top.is_dir():
            args += ["--ro-bind", str(top), str(top)]
    return args


def command(binds: dict[str, str], seccomp_fd: int, env: dict[str, str], image: Path | None = None) -> list[str]:
    """The bwrap arguments of the container (then ``--`` and the command)."""
    args = ["bwrap", "--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts", "--die-with-parent",
            "--new-session", *(_image_root(image) if image is not None else ["--dev-bind", "/", "/"]),
            "--tmpfs", "/tmp"]
    if (root := _python_root()) is not None:
        args += ["--tmpfs", "/root", "--ro-bind", str(root), str(root)]
    args += ["--proc", "/proc"]
    for masked in DOCKER_MASKED:
        if Path(masked).is_dir():
            args += ["--tmpfs", masked]
        elif Path(masked).exists():
            args += ["--ro-bind", "/dev/null", masked]
    args += ["--dev", "/dev"]
    for source, target in binds.items():
        args += ["--bind", source, target]
    args += ["--cap-drop", "ALL"]
    for cap in DOCKER_CAPS:
        args += ["--cap-add", cap]
    args += ["--clearenv"]
    for key, value in env.items():
        args += ["--setenv", key, value]
    return [*args, "--seccomp", str(seccomp_fd)]


def run(argv: list[str], *, binds: dict[str, str] | None = None, env: dict[str, str] | None = None,
        landlock: bool = True, timeout: float = 600, cwd: str = "/", image: Path | None = None,
        ) -> subprocess.CompletedProcess:
    """Run ``argv`` as root in the container (on the host's root, or on ``image``, see
    :func:`make_image`); its output captured as text."""
    environment = {"PATH": f"{Path(sys.executable).parent}:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
                   "HOME": "/root",
                   "LANG": "C.UTF-8", **(env or {})}
    program = docker_filter(landlock)
    read_end, write_end = os.pipe()
    os.write(write_end, program)  # small enough for the pipe's buffer
    os.close(write_end)
    try:
        return subprocess.run(
            [*command(binds or {}, read_end, environment, image), "--chdir", cwd, "--", *argv],
            pass_fds=(read_end,), stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=timeout,
        )
    finally:
        os.close(read_end)
