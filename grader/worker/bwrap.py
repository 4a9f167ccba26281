"""Start the zygote as a fresh interpreter under bubblewrap (the ``full`` isolation level).

The sandbox gets new user, mount, pid, network, ipc, uts and cgroup namespaces, no capabilities,
no network, an empty environment and a small private ``/tmp``. Mounted, all read-only: ``/usr``
(and the ``/lib``, ``/bin`` links), the dynamic linker's files from ``/etc``, the interpreter's
prefixes and site-packages, and the ``grader`` package itself, with its bundled problem bank
masked by an empty tmpfs. Nothing else of the host exists inside: not the problem banks
(hidden tests, reference solutions), not the submissions, not the user's home or working folder.

Because the zygote is a fresh ``python -I`` process (not a fork of the grader), its memory holds
nothing the grader knew: no seed, no paths, no other submission.
"""

from __future__ import annotations

import os
import site
import socket
import subprocess
import sys
import tempfile
from functools import lru_cache
from pathlib import Path

import grader
from grader.errors import GraderError
from grader.worker import hugepages

#: Size of the sandbox's private /tmp, shared by the runners of one zygote (one at a time).
TMPFS_BYTES = 256 * 2**20
#: How long a fresh zygote may take to import numpy (and torch) before we give up.
START_TIMEOUT_S = 120.0

_ETC = ("ld.so.cache", "ld.so.conf", "ld.so.conf.d", "localtime", "passwd", "group", "nsswitch.conf")
_TOP_LINKS = ("lib", "lib32", "lib64", "libx32", "bin", "sbin")
_NAMESPACES = ("--unshare-all", "--unshare-user", "--disable-userns", "--cap-drop", "ALL")
_SAFE_ENV = {
    "PATH": "/usr/bin:/bin",
    "HOME": "/tmp",
    "TMPDIR": "/tmp",
    "LANG": "C.UTF-8",
    "OMP_NUM_THREADS": "1",
    "OPENBLAS_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
}


class BwrapUnavailable(GraderError):
    """bubblewrap is missing or cannot create its namespaces here."""


def executable() -> str | None:
    import shutil

    return shutil.which("bwrap")


def package_dir() -> Path:
    return Path(grader.__file__).resolve().parent


def secret_dirs() -> list[Path]:
    """Folders that must never be visible inside: the problem banks the grader knows of."""
    from grader import bank

    dirs = [package_dir() / "bundled", bank.bundled_root() / "problems", bank.bundled_root() / "reference"]
    for entry in os.environ.get(bank.PROBLEMS_ENV, "").split(os.pathsep):
        if entry:
            dirs.append(Path(entry))
    found = sorted({d.resolve() for d in dirs if d.exists()}, key=lambda d: len(d.parts))
    # Masking a folder masks what is in it; masking inside an already-masked (empty, read-only)
    # folder would fail (an installed grader keeps its bank in grader/bundled/problems).
    outermost: list[Path] = []
    for d in found:
        if not any(_inside(d, kept) for kept in outermost):
            outermost.append(d)
    return outermost


def _inside(path: Path, root: Path) -> bool:
    return path == root or root in path.parents


def read_only_roots() -> list[Path]:
    """The host folders the zygote needs: interpreter, stdlib, site-packages, grader package."""
    wanted = {Path(p) for p in (sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix)}
    wanted.add(Path(os.path.realpath(sys.executable)).parent.parent)
    for entry in site.getsitepackages():
        wanted.add(Path(entry))
    # Package folders added by .pth files or PYTHONPATH; only package folders, never the working
    # directory, which may hold a checkout or other students' submissions.
    for entry in sys.path:
        if entry and Path(entry).name in ("site-packages", "dist-packages") and Path(entry).is_dir():
            wanted.add(Path(entry))
    for module in ("numpy", "torch"):
        loaded = sys.modules.get(module)
        if loaded is not None and getattr(loaded, "__file__", None):
            wanted.add(Path(loaded.__file__).resolve().parent.parent)
    roots = sorted({p.resolve() for p in wanted if p.exists()}, key=lambda p: len(p.parts))
    kept: list[Path] = []
    for root in roots:
        if root == Path("/") or any(_inside(root, k) for k in kept):
            continue
        kept.append(root)
    return kept


def command(runtime: str, isolation: str, fd: int, huge_pages: bool = False) -> list[str]:
    """The bwrap command line that runs ``grader.worker.zygote`` on socket ``fd``.

    ``huge_pages``: the zygote's malloc uses huge pages (see grader.worker.hugepages).
    """
    bwrap = executable()
    if bwrap is None:
        raise BwrapUnavailable("bwrap is not installed")
    args = [bwrap, *_NAMESPACES, "--die-with-parent", "--new-session", "--clearenv"]
    environment = hugepages.malloc_environment(_SAFE_ENV) if huge_pages else _SAFE_ENV
    for key, value in environment.items():
        args += ["--setenv", key, value]
    # /tmp first: a later mount on /tmp would hide a prefix that lives under it (a venv in /tmp).
    args += ["--size", str(TMPFS_BYTES), "--tmpfs", "/tmp", "--ro-bind", "/usr", "/usr"]
    for name in _TOP_LINKS:
        top = Path("/") / name
        if top.is_symlink():
            args += ["--symlink", os.readlink(top), str(top)]
        elif top.is_dir():
            args += ["--ro-bind", str(top), str(top)]
    for name in _ETC:
        if (Path("/etc") / name).exists():
            args += ["--ro-bind", f"/etc/{name}", f"/etc/{name}"]
    roots = [r for r in read_only_roots() if not _inside(r, Path("/usr"))]
    pkg = package_dir()
    if not any(_inside(pkg, r) for r in roots):
        roots.append(pkg)
    for root in roots:
        args += ["--ro-bind", str(root), str(root)]
    for secret in secret_dirs():
        if any(_inside(secret, r) for r in [*roots, Path("/usr")]):
            args += ["--tmpfs", str(secret), "--remount-ro", str(secret)]
    args += ["--proc", "/proc", "--dev", "/dev", "--remount-ro", "/", "--chdir", "/tmp"]
    bootstrap = (
        f"import sys; sys.path.insert(0, {str(pkg.parent)!r}); "
        "from grader.worker.zygote import main; main()"
    )
    # sys.executable, not its target: a venv's interpreter finds the venv's site-packages.
    return [*args, "--", sys.executable, "-I", "-c", bootstrap, runtime, isolation, str(fd)]


@lru_cache(maxsize=1)
def unavailable_reason() -> str | None:
    """Probe once: None if bwrap can create this sandbox here, else why not (one line)."""
    bwrap = executable()
    if bwrap is None:
        return "bubblewrap is not installed (Debian/Ubuntu: apt-get install bubblewrap)"
    probe = [bwrap, *_NAMESPACES, "--die-with-parent", "--ro-bind", "/usr", "/usr"]
    for name in _TOP_LINKS:
        top = Path("/") / name
        if top.is_symlink():
            probe += ["--symlink", os.readlink(top), str(top)]
    probe += ["--proc", "/proc", "--dev", "/dev", "--size", "1048576", "--tmpfs", "/tmp", "--", "true"]
    try:
        done = subprocess.run(probe, stdin=subprocess.DEVNULL, capture_output=True, timeout=20)
    except (OSError, subprocess.SubprocessError) as err:
        return f"bwrap failed to start ({err})"
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        return f"bwrap cannot create its sandbox here ({message[-1] if message else f'exit {done.returncode}'})"
    return None


def start_zygote(
    runtime: str, isolation: str = "full", huge_pages: bool = False
) -> tuple[subprocess.Popen, socket.socket]:
    """Start a sandboxed zygote; return the bwrap process and the grader's end of its socket.

    Waits until the zygote answers (it has imported what ``runtime`` needs), so a sandbox that
    cannot start fails here with bwrap's own message instead of at the first submission.
    """
    from grader.worker import zygote

    ours, theirs = socket.socketpair()
    log = tempfile.TemporaryFile()
    try:
        process = subprocess.Popen(
            command(runtime, isolation, theirs.fileno(), huge_pages),
            pass_fds=(theirs.fileno(),),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=log,
            close_fds=True,
        )
    except OSError as err:
        ours.close()
        raise BwrapUnavailable(f"cannot run bwrap: {err}") from None
    finally:
        theirs.close()
    try:
        ours.settimeout(START_TIMEOUT_S)
        zygote.send_message(ours, {"op": "ping"})
        reply = zygote.recv_message(ours)
        ours.settimeout(None)
    except OSError:
        reply = None
    if reply is None:
        ours.close()
        process.kill()
        process.wait()
        log.seek(0)
        lines = log.read().decode("utf-8", "replace").strip().splitlines()
        raise BwrapUnavailable(
            "the sandboxed worker did not start" + (f": {lines[-1]}" if lines else f" (exit {process.returncode})")
        )
    log.close()
    return process, ours
