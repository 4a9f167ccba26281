"""What a zygote started as a fresh interpreter may see of the host, and what it must never see.

Both confidential levels draw their view from here: ``full`` bind-mounts :func:`read_only_roots`
into an empty bubblewrap root and masks :func:`secret_dirs` inside them; ``user`` lets Landlock
grant reads beneath :func:`landlock_readable` only (the same roots with the secrets carved out).
Needed: the interpreter and its standard library, site-packages, the ``grader`` package, the
system's libraries and a few files of ``/etc``. Never: a problem bank (hidden tests, reference
solutions), the submissions, the user's home or working folder, ``/proc`` of other processes.
"""

from __future__ import annotations

import os
import site
import sys
from pathlib import Path

import grader

#: Files of /etc the dynamic linker, time zones and user lookups need.
ETC_FILES = ("ld.so.cache", "ld.so.conf", "ld.so.conf.d", "localtime", "passwd", "group", "nsswitch.conf")
#: Top-level folders that are (or link to) parts of /usr on merged-/usr systems.
TOP_LINKS = ("lib", "lib32", "lib64", "libx32", "bin", "sbin")
#: Devices learner code may open.
DEVICES = ("/dev/null", "/dev/zero", "/dev/urandom", "/dev/random")


def package_dir() -> Path:
    return Path(grader.__file__).resolve().parent


def inside(path: Path, root: Path) -> bool:
    return path == root or root in path.parents


def secret_dirs() -> list[Path]:
    """Folders that must never be visible inside: the problem banks the grader knows of."""
    from grader import bank

    dirs = [package_dir() / "bundled", bank.bundled_root() / "problems", bank.bundled_root() / "reference"]
    # The fresh interpreter of a zygote imports ``grader`` from site-packages, which need not be the
    # copy this process imported (a source checkout on sys.path beside an installed wheel): the
    # bank of every installed copy is secret too.
    dirs += [Path(entry) / "grader" / "bundled" for entry in _package_folders()]
    for entry in os.environ.get(bank.PROBLEMS_ENV, "").split(os.pathsep):
        if entry:
            dirs.append(Path(entry))
    found = sorted({d.resolve() for d in dirs if d.exists()}, key=lambda d: len(d.parts))
    # Masking a folder masks what is in it; masking inside an already-masked (empty, read-only)
    # folder would fail (an installed grader keeps its bank in grader/bundled/problems).
    outermost: list[Path] = []
    for d in found:
        if not any(inside(d, kept) for kept in outermost):
            outermost.append(d)
    return outermost


def _package_folders() -> list[Path]:
    """site-packages folders: the interpreter's, and those added by .pth files or PYTHONPATH (only
    package folders, never the working directory, which may hold a checkout or submissions)."""
    folders = [Path(entry) for entry in site.getsitepackages()]
    folders += [Path(entry) for entry in sys.path
                if entry and Path(entry).name in ("site-packages", "dist-packages") and Path(entry).is_dir()]
    return folders


def read_only_roots() -> list[Path]:
    """The host folders the zygote needs: interpreter, stdlib, site-packages, grader package."""
    wanted = {Path(p) for p in (sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix)}
    wanted.add(Path(os.path.realpath(sys.executable)).parent.parent)
    wanted.update(_package_folders())
    for module in ("numpy", "torch"):
        loaded = sys.modules.get(module)
        if loaded is not None and getattr(loaded, "__file__", None):
            wanted.add(Path(loaded.__file__).resolve().parent.parent)
    wanted.add(package_dir())
    roots = sorted({p.resolve() for p in wanted if p.exists()}, key=lambda p: len(p.parts))
    kept: list[Path] = []
    for root in roots:
        if root == Path("/") or any(inside(root, k) for k in kept):
            continue
        kept.append(root)
    return kept


def _without(root: Path, secrets: list[Path], seen: set[Path] | None = None) -> list[Path]:
    """``root`` as a list of folders and files that covers all of it except ``secrets``.

    Judged by where a path really leads: Landlock grants what a symbolic link points to, so a
    link such as a venv's ``lib64 -> lib`` must be carved like the folder it names."""
    real = root.resolve()
    if not any(inside(s, real) for s in secrets):
        return [root]
    seen = set() if seen is None else seen
    if any(inside(real, s) for s in secrets) or real in seen:
        return []
    seen.add(real)
    try:
        children = sorted(real.iterdir())
    except OSError:
        return []
    return [kept for child in children for kept in _without(child, secrets, seen)]


def landlock_readable() -> list[str]:
    """Every path the ``user`` level's zygote may read beneath, secrets carved out."""
    secrets = secret_dirs()
    paths: list[Path] = []
    for root in [Path("/usr"), *read_only_roots()]:
        if not any(inside(root, kept) for kept in paths):
            paths += _without(root, secrets)
    for name in TOP_LINKS:
        top = Path("/") / name
        if top.is_dir() and not top.is_symlink():
            paths.append(top)
    paths += [Path("/etc") / name for name in ETC_FILES]
    paths += [Path(device) for device in DEVICES]
    return [str(p) for p in paths if p.exists()]
