"""The bubblewrap command line of the ``full`` isolation level, and whether it can run here.

The sandbox gets new user, mount, pid, network, ipc, uts and cgroup namespaces, no capabilities,
no network, an empty environment and a small private ``/tmp``. Mounted, all read-only: ``/usr``
(and the ``/lib``, ``/bin`` links), the dynamic linker's files from ``/etc``, the interpreter's
prefixes and site-packages, and the ``grader`` package itself, with every problem bank inside
them masked by an empty tmpfs (:mod:`grader.worker.visible`). Nothing else of the host exists
inside: not the problem banks (hidden tests, reference solutions), not the submissions, not the
user's home or working folder.

A grader running as root starts bubblewrap as the unprivileged sandbox account
(:mod:`grader.worker.privileges`), so that even the sandbox's own uid 0 is that account outside
(where the account can read the Python installation; see :func:`run_as`).
Where bubblewrap cannot run (no user namespaces, or a container whose ``/proc`` has masked
entries, where the kernel refuses a fresh ``/proc``: "Can't mount proc"), a root grader gets the
``user`` level instead (docs/security.md). :mod:`grader.worker.fresh` starts the zygote with
this command line.
"""

from __future__ import annotations

import os
import subprocess
import sys
from functools import lru_cache
from pathlib import Path

from grader.worker import hugepages, privileges, visible

#: Size of the sandbox's private /tmp, shared by the runners of one zygote (one at a time).
TMPFS_BYTES = 256 * 2**20

_NAMESPACES = ("--unshare-all", "--unshare-user", "--disable-userns", "--cap-drop", "ALL")
SAFE_ENV = {
    "PATH": "/usr/bin:/bin",
    "HOME": "/tmp",
    "TMPDIR": "/tmp",
    "LANG": "C.UTF-8",
    "OMP_NUM_THREADS": "1",
    "OPENBLAS_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
}
_NO_PROC = "Can't mount proc"


def executable() -> str | None:
    import shutil

    return shutil.which("bwrap")


def _top_links() -> list[str]:
    args = []
    for name in visible.TOP_LINKS:
        top = Path("/") / name
        if top.is_symlink():
            args += ["--symlink", os.readlink(top), str(top)]
        elif top.is_dir():
            args += ["--ro-bind", str(top), str(top)]
    return args


def command(runtime: str, isolation: str, fd: int, huge_pages: bool = False) -> list[str]:
    """The bwrap command line that runs ``grader.worker.zygote`` on socket ``fd``.

    ``huge_pages``: the zygote's malloc uses huge pages (see grader.worker.hugepages).
    """
    bwrap = executable()
    if bwrap is None:
        raise FileNotFoundError("bwrap is not installed")
    args = [bwrap, *_NAMESPACES, "--die-with-parent", "--new-session", "--clearenv"]
    environment = hugepages.malloc_environment(SAFE_ENV) if huge_pages else SAFE_ENV
    for key, value in environment.items():
        args += ["--setenv", key, value]
    # /tmp first: a later mount on /tmp would hide a prefix that lives under it (a venv in /tmp).
    args += ["--size", str(TMPFS_BYTES), "--tmpfs", "/tmp", "--ro-bind", "/usr", "/usr", *_top_links()]
    for name in visible.ETC_FILES:
        if (Path("/etc") / name).exists():
            args += ["--ro-bind", f"/etc/{name}", f"/etc/{name}"]
    roots = [r for r in visible.read_only_roots() if not visible.inside(r, Path("/usr"))]
    for root in roots:
        args += ["--ro-bind", str(root), str(root)]
    for secret in visible.secret_dirs():
        if any(visible.inside(secret, r) for r in [*roots, Path("/usr")]):
            args += ["--tmpfs", str(secret), "--remount-ro", str(secret)]
    args += ["--proc", "/proc", "--dev", "/dev", "--remount-ro", "/", "--chdir", "/tmp"]
    pkg = visible.package_dir()
    bootstrap = (
        f"import sys; sys.path.insert(0, {str(pkg.parent)!r}); "
        "from grader.worker.zygote import main; main()"
    )
    # sys.executable, not its target: a venv's interpreter finds the venv's site-packages.
    return [*args, "--", sys.executable, "-I", "-c", bootstrap, runtime, isolation, str(fd)]


def run_as() -> dict[str, object]:
    """``subprocess`` keyword arguments that start bwrap as the sandbox account when we are root.

    Where that account cannot read the Python installation, bwrap runs as root: the sandbox's
    uid 0 then has no capabilities and sees only the read-only folders mounted for it.
    """
    account = privileges.sandbox_account()
    if account is None or privileges.unreadable_python(account) is not None:
        return {}
    return {"user": account.uid, "group": account.gid, "extra_groups": [], "cwd": "/"}


@lru_cache(maxsize=1)
def unavailable_reason() -> str | None:
    """Probe once: None if bwrap can create this sandbox here, else why not (one line)."""
    bwrap = executable()
    if bwrap is None:
        return "bubblewrap is not installed (Debian/Ubuntu: apt-get install bubblewrap)"
    try:
        options = run_as()
    except privileges.PrivilegeError as err:
        return str(err)
    probe = [bwrap, *_NAMESPACES, "--die-with-parent", "--ro-bind", "/usr", "/usr", *_top_links()]
    probe += ["--proc", "/proc", "--dev", "/dev", "--size", "1048576", "--tmpfs", "/tmp", "--", "true"]
    try:
        done = subprocess.run(probe, stdin=subprocess.DEVNULL, capture_output=True, timeout=20, **options)
    except (OSError, subprocess.SubprocessError) as err:
        return f"bwrap failed to start ({err})"
    if done.returncode == 0:
        return None
    lines = done.stderr.decode("utf-8", "replace").strip().splitlines()
    message = lines[-1] if lines else f"exit {done.returncode}"
    if _NO_PROC in message:
        return f"bwrap cannot mount a fresh /proc in this container ({message})"
    return f"bwrap cannot create its sandbox here ({message})"
