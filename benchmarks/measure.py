"""Run one measured command and make sure it did the work being timed, or stop the benchmark.

A command that fails is fast: a baseline whose ``pytest`` is not installed exits in 0.2 s, and a
ratio against it is a lie. So every benchmark runs its commands through :func:`run`, which times
the command (wall, and CPU of its whole process tree) and then checks its exit status and its
output. When either is wrong it raises :class:`Stopped` (a ``SystemExit``): the benchmark ends
with status 1 and one message naming the command and what it did instead, and prints no ratio.

    from measure import run, require
    done = run([sys.executable, "-c", "import numpy"], what="the baseline")
    done = run(cmd, what="pytest on student003", ok=(0, 1), expect=r"\\d+ (passed|failed)")
    require(results == expected, f"grade batch graded {results} of {expected} submissions")
"""

from __future__ import annotations

import os
import queue
import re
import shlex
import signal
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Mapping, Sequence

#: What the benchmark says before why it stopped.
PREFIX = "benchmark stopped, no ratio printed:"


class Stopped(SystemExit):
    """A measured command did not do its work; ``str()`` is the one-line reason."""

    def __init__(self, reason: str):
        super().__init__(f"{PREFIX} {reason}")


@dataclass(frozen=True)
class Measured:
    """One finished run of a command."""

    wall_s: float
    cpu_s: float  # user + system time of the command and every process it waited for
    returncode: int
    stdout: str
    stderr: str


def require(condition: bool, reason: str) -> None:
    """Stop the benchmark with ``reason`` unless ``condition`` holds (for in-process work)."""
    if not condition:
        raise Stopped(reason)


def _last_lines(text: str, count: int = 3) -> str:
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    return " | ".join(lines[-count:]) or "(no output)"


def run(
    cmd: Sequence[str],
    *,
    what: str,
    cwd: str | Path | None = None,
    env: Mapping[str, str] | None = None,
    timeout: float | None = None,
    ok: Sequence[int] = (0,),
    expect: str | Callable[[Measured], str | None] | None = None,
) -> Measured:
    """Run ``cmd`` (``what`` names it in messages) and return its timings and output.

    Stops the benchmark if it runs past ``timeout`` seconds, exits with a status not in ``ok``,
    or its output does not show the expected result: ``expect`` is a regular expression that must
    occur in its stdout, or a function returning None when the run is right and else why not.
    """
    shown = shlex.join(str(part) for part in cmd)
    if len(shown) > 160:
        shown = shown[:157] + "..."
    timed_out = threading.Event()

    def kill_group(pid: int) -> None:
        timed_out.set()
        try:
            os.killpg(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass

    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        proc = subprocess.Popen(list(cmd), cwd=cwd, env=None if env is None else dict(env),
                                stdout=out, stderr=err, start_new_session=True)
        timer = threading.Timer(timeout, kill_group, (proc.pid,)) if timeout else None
        if timer is not None:
            timer.start()
        try:
            _, status, usage = os.wait4(proc.pid, 0)  # the rusage of this command's tree alone
        finally:
            if timer is not None:
                timer.cancel()
        wall = time.perf_counter() - started
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        done = Measured(wall, usage.ru_utime + usage.ru_stime, proc.returncode,
                        out.read().decode("utf-8", "replace"), err.read().decode("utf-8", "replace"))
    if timed_out.is_set():
        raise Stopped(f"{what} ({shown}) did not finish within {timeout:g} s")
    if done.returncode not in ok:
        wanted = " or ".join(str(code) for code in ok)
        raise Stopped(f"{what} ({shown}) exited with {done.returncode}, expected {wanted}: "
                      f"{_last_lines(done.stderr or done.stdout)}")
    wrong = None
    if isinstance(expect, str):
        if re.search(expect, done.stdout) is None:
            wrong = f"printed no line matching /{expect}/: {_last_lines(done.stdout)}"
    elif expect is not None:
        wrong = expect(done)
    if wrong is not None:
        said = f"; exit status {done.returncode}, stderr: {_last_lines(done.stderr)}" if done.stderr.strip() else ""
        raise Stopped(f"{what} ({shown}) {wrong}{said}")
    return done


class Lines:
    """The stdout of a process that keeps running (``grade NAME --watch``), read line by line by a
    thread; :meth:`until` hands out what it printed up to a line matching a pattern."""

    def __init__(self, proc: subprocess.Popen, what: str):
        self.proc, self.what = proc, what
        self._lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            self._lines.put(line)
        self._lines.put(None)

    def until(self, pattern: str, timeout: float) -> tuple[str, float]:
        """Everything printed from here up to the first line matching ``pattern`` (included), and the
        ``time.perf_counter()`` when that line arrived. Stops the benchmark (killing the process)
        when the process ends or ``timeout`` seconds pass first."""
        seen: list[str] = []
        end = time.perf_counter() + timeout
        while True:
            try:
                line = self._lines.get(timeout=max(0.01, end - time.perf_counter()))
            except queue.Empty:
                self.proc.kill()
                raise Stopped(f"{self.what} printed no line /{pattern}/ within {timeout:g} s: "
                              f"{_last_lines(''.join(seen))}") from None
            if line is None:
                status = self.proc.wait()
                err = self.proc.stderr.read() if self.proc.stderr else ""
                raise Stopped(f"{self.what} exited with {status} before a line /{pattern}/: "
                              f"{_last_lines(err or ''.join(seen))}")
            seen.append(line)
            if re.search(pattern, line):
                return "".join(seen), time.perf_counter()
