"""The grader's side of the worker: start a zygote, spawn runners, call into them with deadlines.

Nothing here executes learner code. Replies are parsed strictly by :mod:`protocol`; the learner's
prints arrive on a separate pipe, are capped, and are only ever shown, never parsed.
"""

from __future__ import annotations

import os
import selectors
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from typing import Any

from grader.i18n import Text, as_text
from grader.messages import MESSAGES, text
from grader.worker import hugepages, protocol, sandbox, zygote
from grader.worker.fresh import FreshZygote

#: A runner that prints more than this is killed: the check gets an error.
OUTPUT_HARD_CAP = 1 * 2**20
#: Seconds the zygote may take to answer a control request (fork a runner, kill and reap one).
CONTROL_TIMEOUT_S = 60.0


class WorkerError(Exception):
    """The runner could not answer: base class for the ways that happens.

    ``text`` says what happened in every language (a :class:`~grader.i18n.Text`).
    """

    def __init__(self, message: Text | str = ""):
        self.text = as_text(message)
        super().__init__(self.text.en)


class WorkerLost(WorkerError):
    """The zygote itself failed (it exited, hung, or broke the protocol): a fault of the grader's
    machinery, not a verdict on the learner's code. The zygote is unusable afterwards."""


class RunnerTimeout(WorkerError):
    """The wall-clock deadline passed."""


class RunnerDied(WorkerError):
    """The runner exited or was killed before replying."""

    def __init__(self, message: Text, exit_info: dict[str, Any]):
        super().__init__(message)
        self.exit_info = exit_info


class OutputFlood(WorkerError):
    """The learner printed more than OUTPUT_HARD_CAP bytes."""


def describe_exit(info: dict[str, Any]) -> Text:
    """Say in words how a runner ended (for messages, after "the process ...")."""
    sig = info.get("signal")
    if sig is not None:
        name = signal.Signals(sig).name if sig in signal.Signals._value2member_map_ else f"signal {sig}"
        key = f"exit.{name}"
        return text(key if key in MESSAGES.entries else "exit.signal", signal=name)
    code = info.get("exit")
    if code is not None:
        return text("exit.status", code=code)
    return text("exit.unknown")


class Zygote:
    """One warm worker process; ``spawn`` gives a fresh runner for one submission.

    ``compact`` is for a zygote that will fork many runners (a batch worker's): its memory is
    backed by huge pages first, which makes each fork cheaper (see :mod:`hugepages`; a forked
    zygote gets the malloc half of that from its batch worker's environment).
    """

    def __init__(self, runtime: str, isolation: str = "limits", compact: bool = False):
        self.runtime, self.isolation = runtime, isolation
        self.fresh: FreshZygote | None = None
        self.lost: Text | None = None  # why the zygote cannot be used any more, once it failed
        self.reaped = False
        if isolation in ("full", "user"):  # a fresh interpreter (under bubblewrap or as the account)
            self.fresh = FreshZygote(runtime, isolation, huge_pages=compact)
            self.sock, self.pid = self.fresh.sock, self.fresh.process.pid
            self.sock.settimeout(CONTROL_TIMEOUT_S)
            if compact:
                self.request({"op": "compact"})
            return
        account = sandbox.fork_account()  # None unless we are root
        self.sock, child = socket.socketpair()
        self.sock.settimeout(CONTROL_TIMEOUT_S)
        zygote.preload(runtime)  # warm imports happen once, here, and are inherited by fork
        if compact:  # here, while this memory is still ours alone: cheap, and the fork inherits it
            hugepages.collapse()
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:  # the zygote
            status = 0
            try:
                self.sock.close()
                zygote.serve(child, runtime, isolation, account)
            except BaseException:  # noqa: BLE001
                status = 70
            finally:
                os._exit(status)
        child.close()
        self.pid = pid

    def request(self, header: dict[str, Any], fds: list[int] = (), blobs: list[bytes] = ()) -> dict[str, Any]:
        """Send one control request and return the zygote's reply (``{"error": ...}`` when it could
        not carry it out); WorkerLost, and the zygote unusable, when it cannot answer at all."""
        if self.lost is not None:
            raise WorkerLost(self.lost)
        try:
            protocol.send_message(self.sock, header, fds, blobs)
            message = protocol.recv_message(self.sock)
        except TimeoutError:
            message, why = None, text("worker.no_answer", seconds=CONTROL_TIMEOUT_S)
        except (OSError, protocol.ProtocolError) as err:
            message, why = None, text("worker.broken", detail=f"{type(err).__name__}: {err}")
        else:
            why = text("worker.exited")
        if message is None:
            self.lost = why
            raise WorkerLost(self.lost)
        return message[0]

    @property
    def alive(self) -> bool:
        """Whether the zygote can still take requests (a cheap check, no round trip)."""
        if self.lost is not None:
            return False
        if self.fresh is not None:
            return self.fresh.process.poll() is None
        try:
            pid, _status = os.waitpid(self.pid, os.WNOHANG)
        except ChildProcessError:
            return False
        if pid == 0:
            return True
        self.lost, self.reaped = text("worker.exited"), True
        return False

    def spawn(
        self, source: str, filename: str, probes: str | None, limits: dict[str, Any],
        helpers: dict[str, bytes] | None = None,
    ) -> RunnerProcess:
        """A fresh runner that imports ``source`` as ``filename`` (``helpers`` beside it)."""
        helpers = helpers or {}
        req_r, req_w = os.pipe()
        res_r, res_w = os.pipe()
        out_r, out_w = os.pipe()
        try:
            reply = self.request(
                {"op": "spawn", "filename": filename, "probes": probes, "limits": limits, "helpers": list(helpers)},
                [req_r, res_w, out_w],
                [source.encode("utf-8"), *helpers.values()],
            )
            if "pid" not in reply:  # e.g. fork failed: no runner, and no verdict either
                raise WorkerLost(text("worker.broken", detail=str(reply.get("error", "no runner"))))
        except BaseException:
            for fd in (req_w, res_r, out_r):
                os.close(fd)
            raise
        finally:
            for fd in (req_r, res_w, out_w):
                os.close(fd)
        return RunnerProcess(self, int(reply["pid"]), req_w, res_r, out_r, int(limits.get("output_kb", 64)) * 1024)

    def close(self) -> None:
        try:
            if self.lost is None:
                protocol.send_message(self.sock, {"op": "exit"})
        except OSError:
            pass
        self.sock.close()
        if self.fresh is not None:
            # Let the zygote exit (and bwrap reap it), so its CPU time is accounted to us; if it
            # does not, killing bwrap ends its whole pid namespace, /tmp included.
            process = self.fresh.process
            try:
                process.wait(timeout=5 if self.lost is None else 0.1)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            self.fresh.remove_tmpdir()
            return
        if self.reaped:
            return
        if self.lost is not None:  # it may hang: do not wait for it to read "exit"
            try:
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        try:
            os.waitpid(self.pid, 0)
        except ChildProcessError:
            pass

    def __enter__(self) -> Zygote:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@dataclass
class Reply:
    header: dict[str, Any]
    blobs: list[bytes]


class RunnerProcess:
    """One learner process. Calls are sequential; each waits for its reply or the deadline."""

    def __init__(self, owner: Zygote, pid: int, req_w: int, res_r: int, out_r: int, output_keep: int):
        self.owner, self.pid = owner, pid
        self.req_w, self.res_r, self.out_r = req_w, res_r, out_r
        self.output_keep = output_keep
        self.output = bytearray()
        self.output_total = 0
        self.output_truncated = False
        self.reader = protocol.FrameReader()
        self.exit_info: dict[str, Any] | None = None
        os.set_blocking(res_r, False)
        os.set_blocking(out_r, False)
        self.selector = selectors.DefaultSelector()  # one for the runner's life: a call makes no new epoll
        self.selector.register(res_r, selectors.EVENT_READ, "res")
        self.selector.register(out_r, selectors.EVENT_READ, "out")

    # -- calls ---------------------------------------------------------------------------

    def wait_ready(self, deadline: float) -> Reply:
        return self._receive(deadline)

    def call(self, header: dict[str, Any], blobs: list[bytes], deadline: float) -> Reply:
        try:
            protocol.write_all(self.req_w, protocol.pack(header, blobs))
        except (BrokenPipeError, OSError):
            self._died()
        return self._receive(deadline)

    def _receive(self, deadline: float) -> Reply:
        while True:
            frame = self.reader.pop()
            if frame is not None:
                self._drain_output()
                return Reply(*frame)
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                self._drain_output()
                self.kill()
                raise RunnerTimeout("deadline passed")
            for key, _ in self.selector.select(remaining):
                if key.data == "out":
                    self._drain_output()
                    continue
                try:
                    chunk = os.read(self.res_r, 1 << 20)
                except BlockingIOError:
                    continue
                if not chunk:
                    self._drain_output()
                    self._died()
                self.reader.feed(chunk)

    def _drain_output(self) -> None:
        while True:
            try:
                chunk = os.read(self.out_r, 1 << 16)
            except (BlockingIOError, OSError):
                return
            if not chunk:  # the learner closed its stdout and stderr: stop watching them
                if self.exit_info is None and self.out_r in self.selector.get_map():
                    self.selector.unregister(self.out_r)
                return
            self.output_total += len(chunk)
            room = self.output_keep - len(self.output)
            if room > 0:
                self.output += chunk[:room]
            if len(chunk) > room:
                self.output_truncated = True
            if self.output_total > OUTPUT_HARD_CAP:
                self.kill()
                raise OutputFlood(text("exit.output_flood", mib=OUTPUT_HARD_CAP // 2**20))

    def take_output(self) -> str:
        """The output captured since the last call, decoded, with a note if it was cut."""
        text = self.output.decode("utf-8", "replace")
        if self.output_truncated:
            text += f"\n[output truncated to {self.output_keep // 1024} KiB]"
        self.output.clear()
        self.output_truncated = False
        return text

    # -- ending --------------------------------------------------------------------------

    def _died(self) -> None:
        info = self.kill()
        if self.owner.lost is not None:  # the runner died with its zygote: not the learner's doing
            raise WorkerLost(self.owner.lost)
        raise RunnerDied(describe_exit(info), info)

    def kill(self) -> dict[str, Any]:
        """Kill the runner and everything it started; return how it ended (idempotent)."""
        if self.exit_info is None:
            try:
                self.exit_info = self.owner.request({"op": "kill", "pid": self.pid})
            except (OSError, WorkerError):
                self.exit_info = {"exit": None, "signal": None}
            self.selector.close()
            for fd in (self.req_w, self.res_r, self.out_r):
                try:
                    os.close(fd)
                except OSError:
                    pass
        return self.exit_info

    @property
    def alive(self) -> bool:
        return self.exit_info is None
