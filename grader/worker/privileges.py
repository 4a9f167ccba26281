"""Learner code never runs as root: the unprivileged account a root grader's workers switch to.

A grader started as root (Gradescope's container, a CI job in Docker, ``sudo grade batch``) could
otherwise hand root to every submission: every file, every process, ``/proc/<pid>/environ``. So
wherever the grader's effective uid is 0, the zygote switches to an unprivileged account right
after it has imported what learner code needs, before it forks any runner
(:func:`drop`), at every isolation level.

The account is ``GRADER_SANDBOX_USER`` if set, else ``grader-learner`` (which
``integrations/gradescope/setup.sh`` creates), else ``nobody``. It must own nothing: whatever that
account can read, learner code can read (docs/security.md says what to keep root-only).
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from grader.worker import visible

#: Environment variable naming the account learner code runs as when the grader is root.
USER_ENV = "GRADER_SANDBOX_USER"
DEFAULT_USERS = ("grader-learner", "nobody")


class PrivilegeError(OSError):
    """The account to switch to does not exist, or the switch did not stick."""


@dataclass(frozen=True)
class Account:
    """An unprivileged account: its name, uid and primary gid."""

    name: str
    uid: int
    gid: int


def is_root() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0


@lru_cache(maxsize=4)
def _lookup(wanted: str | None) -> Account:
    import pwd

    names = (wanted,) if wanted else DEFAULT_USERS
    for name in names:
        try:
            entry = pwd.getpwnam(name)
        except KeyError:
            continue
        if entry.pw_uid == 0 or entry.pw_gid == 0:
            raise PrivilegeError(f"{USER_ENV}={name}: that account is root (uid or gid 0); name an unprivileged one")
        return Account(name, entry.pw_uid, entry.pw_gid)
    if wanted:
        raise PrivilegeError(f"{USER_ENV}={wanted}: no such account (create it, e.g. useradd --system {wanted})")
    raise PrivilegeError(f"no unprivileged account to run learner code as: create one of {', '.join(DEFAULT_USERS)}")


def sandbox_account() -> Account | None:
    """The account runners switch to: None unless the grader runs as root."""
    if not is_root():
        return None
    return _lookup(os.environ.get(USER_ENV, "").strip() or None)


def drop(account: Account) -> None:
    """Become ``account`` for good: no supplementary groups, real, effective and saved ids changed.

    Irreversible. Raises PrivilegeError if the process could still regain root afterwards.
    """
    os.setgroups([])
    os.setresgid(account.gid, account.gid, account.gid)
    os.setresuid(account.uid, account.uid, account.uid)
    if os.getresuid() != (account.uid,) * 3 or os.getresgid() != (account.gid,) * 3 or os.getgroups():
        raise PrivilegeError(f"switching to {account.name} did not take effect")
    try:
        os.setuid(0)
    except PermissionError:
        return
    raise PrivilegeError(f"after switching to {account.name} the process could become root again")


def readable_by(account: Account, path: Path) -> bool:
    """Whether ``account`` can read ``path`` by its permission bits (each folder above must be
    searchable), ignoring ACLs. A cheap check the grader uses to warn about a bank left readable."""
    groups = {account.gid}
    try:
        parts = [path, *path.parents][::-1]
        for i, part in enumerate(parts):
            info = part.stat()
            need = stat.S_IXOTH if i < len(parts) - 1 or stat.S_ISDIR(info.st_mode) else 0
            need |= stat.S_IROTH if i == len(parts) - 1 else 0
            if info.st_uid == account.uid:
                bits = (info.st_mode >> 6) & 7
            elif info.st_gid in groups:
                bits = (info.st_mode >> 3) & 7
            else:
                bits = info.st_mode & 7
            if bits & need != need:
                return False
    except OSError:
        return False
    return True


@lru_cache(maxsize=4)
def unreadable_python(account: Account) -> Path | None:
    """The first folder of the Python installation (interpreter, standard library, site-packages,
    the grader package) that ``account`` cannot read, or None: a zygote that switched to it could
    not import the modules learner code asks for later (pyenv under ``/root``, mode 0700)."""
    for root in visible.read_only_roots():
        if not readable_by(account, root):
            return root
    return None
