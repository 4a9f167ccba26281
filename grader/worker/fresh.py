"""Start the zygote as a fresh interpreter, not a fork of the grader (the ``full`` and ``user`` levels).

A fresh ``python -I`` with a clean environment holds nothing the grader knew: no seed, no
reference module, no past result, no path of a bank. Two ways to start it:

* ``full``: under bubblewrap (:mod:`grader.worker.bwrap`), which mounts nothing of the grader's data;
* ``user``: directly, where the grader is root but bubblewrap cannot run (a container without
  user namespaces, such as Gradescope's). The zygote imports numpy (and torch), then switches to
  the sandbox account and lets Landlock grant reads only beneath the interpreter, site-packages and
  the grader package, banks carved out (:func:`grader.worker.visible.landlock_readable`), and
  writes only in a private folder made for it here, where its runners get their own folders.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile

from grader.errors import GraderError
from grader.worker import bwrap, hugepages, privileges, protocol, visible

#: How long a fresh zygote may take to import numpy (and torch) before we give up.
START_TIMEOUT_S = 120.0


class ZygoteStartError(GraderError):
    """The sandboxed worker could not be started."""


class FreshZygote:
    """The zygote process, the grader's end of its socket, and the private folder to remove."""

    def __init__(self, runtime: str, isolation: str, huge_pages: bool = False):
        self.tmpdir: str | None = None
        ours, theirs = socket.socketpair()
        log = tempfile.TemporaryFile()
        try:
            args, options = self._command(runtime, isolation, theirs.fileno(), huge_pages)
            self.process = subprocess.Popen(
                args, pass_fds=(theirs.fileno(),), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                stderr=log, close_fds=True, **options,
            )
        except (OSError, privileges.PrivilegeError) as err:
            ours.close()
            self.remove_tmpdir()
            raise ZygoteStartError(f"cannot start the sandboxed worker: {err}") from None
        finally:
            theirs.close()
        self.sock = ours
        self._wait_ready(log)

    def _command(self, runtime: str, isolation: str, fd: int, huge_pages: bool) -> tuple[list[str], dict]:
        if isolation == "full":
            return bwrap.command(runtime, isolation, fd, huge_pages), bwrap.run_as()
        account = privileges.sandbox_account()
        if account is None:
            raise privileges.PrivilegeError("the user level needs a grader running as root")
        self.tmpdir = tempfile.mkdtemp(prefix="grader-user-")
        os.chown(self.tmpdir, account.uid, account.gid)
        environment = {**bwrap.SAFE_ENV, "HOME": self.tmpdir, "TMPDIR": self.tmpdir}
        if huge_pages:
            environment = hugepages.malloc_environment(environment)
        setup = {"account": [account.name, account.uid, account.gid], "readable": visible.landlock_readable()}
        bootstrap = (
            f"import sys; sys.path.insert(0, {str(visible.package_dir().parent)!r}); "
            "from grader.worker.zygote import main; main()"
        )
        args = [sys.executable, "-I", "-c", bootstrap, runtime, isolation, str(fd), json.dumps(setup)]
        return args, {"env": environment, "cwd": "/", "start_new_session": True}

    def _wait_ready(self, log) -> None:
        """Wait until the zygote answers (it has imported what its runtime needs), so that a
        sandbox that cannot start fails here with its own message, not at the first submission."""
        try:
            self.sock.settimeout(START_TIMEOUT_S)
            protocol.send_message(self.sock, {"op": "ping"})
            reply = protocol.recv_message(self.sock)
            self.sock.settimeout(None)
        except OSError:
            reply = None
        if reply is not None:
            log.close()
            return
        self.sock.close()
        self.process.kill()
        self.process.wait()
        self.remove_tmpdir()
        log.seek(0)
        lines = log.read().decode("utf-8", "replace").strip().splitlines()
        log.close()
        raise ZygoteStartError(
            "the sandboxed worker did not start" + (f": {lines[-1]}" if lines else f" (exit {self.process.returncode})")
        )

    def remove_tmpdir(self) -> None:
        if self.tmpdir is not None:
            shutil.rmtree(self.tmpdir, ignore_errors=True)
            self.tmpdir = None
