"""The scheduler's side of the batch: N worker processes, jobs handed out as workers free up.

Each worker (:mod:`grader.batch.worker`) is a separate Python process with one warm zygote, so
the cost of importing numpy and torch is paid once per worker, not once per submission. Jobs and
replies are JSON lines over pipes; nothing is unpickled.

When there are no more workers than CPUs this process may use, each worker is pinned to a CPU of
its own, and its zygote and runners (forked from it) inherit that CPU. A grading is a chain of
processes that take turns (worker, runner, worker, ...); kept on one CPU, the turns never wait for
a wake-up on another CPU, which kept about 8% of the machine idle on 2 cores.

Failures are contained per job: if a worker dies or overruns a job's time budget, it is killed
and replaced, the job is retried once on a fresh worker, and a second failure becomes an error
result for that student x problem only.
"""

from __future__ import annotations

import json
import os
import selectors
import signal
import subprocess
import sys
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Protocol

from grader.errors import GraderError
from grader.messages import text
from grader.worker import hugepages

#: Seconds a worker may take to start (import torch, fork its zygote).
START_TIMEOUT_S = 120.0


@dataclass
class Job:
    """One student x problem to grade; ``budget_s`` is the backstop beyond the engine's own limits."""

    id: int
    problem: str
    path: str
    seed: int | None
    budget_s: float
    tries: int = 0


OnReply = Callable[[Job, dict[str, Any]], None]


class Executor(Protocol):
    """Where a batch's jobs run: this :class:`WorkerPool`, or a Dask cluster (grader.batch.dask_executor).

    ``run`` calls ``on_reply(job, reply)`` exactly once per job, in the scheduler's thread, with the
    worker's JSON reply (``{"id", "result", "fingerprint"}``) or ``{"id", "error"}``; it returns when
    every job has had its reply. ``close`` releases the workers; ``restarts`` counts replaced workers.
    """

    restarts: int

    def run(self, jobs: Iterable[Job], on_reply: OnReply) -> None: ...

    def close(self) -> None: ...


@dataclass
class _Proc:
    popen: subprocess.Popen
    buffer: bytearray = field(default_factory=bytearray)
    ready: bool = False
    job: Job | None = None
    deadline: float = 0.0
    cpu: int | None = None


class WorkerPool:
    """Run jobs on ``jobs`` workers; ``on_reply(job, reply)`` gets each JSON reply dict."""

    def __init__(self, config: dict[str, Any], jobs: int, log: Path | None = None):
        self.config = config
        self.size = max(1, jobs)
        self.log = log
        self.procs: list[_Proc] = []
        self.sel = selectors.DefaultSelector()
        self.restarts = 0

    # -- processes ------------------------------------------------------------------------

    def _spawn(self) -> _Proc:
        stderr = open(self.log, "ab") if self.log is not None else subprocess.DEVNULL  # noqa: SIM115
        try:
            popen = subprocess.Popen(
                [sys.executable, "-m", "grader.batch.worker", json.dumps(self.config)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=stderr,
                start_new_session=True,  # Ctrl-C reaches the scheduler only; it stops the workers
                env=hugepages.malloc_environment(dict(os.environ)),  # cheaper forks of its zygotes
            )
        finally:
            if stderr is not subprocess.DEVNULL:
                stderr.close()
        os.set_blocking(popen.stdout.fileno(), False)
        proc = _Proc(popen, deadline=time.monotonic() + START_TIMEOUT_S, cpu=self._pin(popen.pid))
        self.sel.register(popen.stdout, selectors.EVENT_READ, proc)
        self.procs.append(proc)
        return proc

    def _pin(self, pid: int) -> int | None:
        """Pin a new worker to the allowed CPU no other worker has; None if not pinned."""
        if not hasattr(os, "sched_setaffinity"):
            return None
        allowed = sorted(os.sched_getaffinity(0))
        taken = {p.cpu for p in self.procs}
        free = [cpu for cpu in allowed if cpu not in taken]
        if self.size > len(allowed) or not free:
            return None  # more workers than CPUs: let the kernel balance them
        try:
            os.sched_setaffinity(pid, {free[0]})
        except OSError:  # it already exited, or a policy forbids it
            return None
        return free[0]

    def _kill(self, proc: _Proc) -> None:
        try:
            self.sel.unregister(proc.popen.stdout)
        except (KeyError, ValueError):
            pass
        try:
            os.killpg(proc.popen.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        proc.popen.wait()
        for stream in (proc.popen.stdin, proc.popen.stdout):
            try:
                stream.close()
            except OSError:
                pass
        if proc in self.procs:
            self.procs.remove(proc)

    def stop(self) -> None:
        """Kill every worker now (Ctrl-C): what they were grading is lost, the journal is not."""
        for proc in list(self.procs):
            self._kill(proc)

    def close(self) -> None:
        """Ask idle workers to finish (EOF on stdin), then make sure all are gone."""
        for proc in list(self.procs):
            try:
                proc.popen.stdin.close()
            except OSError:
                pass
        end = time.monotonic() + 10
        for proc in list(self.procs):
            try:
                proc.popen.wait(max(0.1, end - time.monotonic()))
            except subprocess.TimeoutExpired:
                pass
            self._kill(proc)
        self.sel.close()

    # -- scheduling -----------------------------------------------------------------------

    def run(self, jobs: Iterable[Job], on_reply: Callable[[Job, dict[str, Any]], None]) -> None:
        """Grade every job; returns when all have a reply (a real one, or an error made here)."""
        pending = iter(jobs)
        retry: deque[Job] = deque()
        exhausted = False
        outstanding = 0

        def next_job() -> Job | None:
            nonlocal exhausted
            if retry:
                return retry.popleft()
            if exhausted:
                return None
            job = next(pending, None)
            if job is None:
                exhausted = True
            return job

        for _ in range(self.size):
            self._spawn()
        while True:
            for proc in list(self.procs):
                if proc.ready and proc.job is None:
                    job = next_job()
                    if job is None:
                        continue
                    self._dispatch(proc, job)
                    outstanding += 1
            if outstanding == 0 and exhausted and not retry:
                return
            timeout = min((p.deadline for p in self.procs if p.job is not None or not p.ready), default=None)
            wait = None if timeout is None else max(0.0, timeout - time.monotonic())
            for key, _ in self.sel.select(wait if wait is None else min(wait, 1.0)):
                outstanding -= self._deliver(key.data, on_reply)
            now = time.monotonic()
            for proc in list(self.procs):
                dead = proc.popen.poll() is not None
                if dead:
                    outstanding -= self._deliver(proc, on_reply)  # a reply written just before dying
                late = now > proc.deadline and (proc.job is not None or not proc.ready)
                if not (dead or late):
                    continue
                job = proc.job
                self._kill(proc)
                self.restarts += 1
                if job is None and self.restarts > 3 * self.size:
                    raise GraderError(text("batch.workers_fail", log=self.log))
                if job is not None:
                    outstanding -= 1
                    job.tries += 1
                    if job.tries < 2:
                        retry.append(job)
                    else:
                        why = "died" if dead else "went past its time budget"
                        on_reply(job, {"id": job.id, "error": f"the grading worker {why} twice on this submission"})
                self._spawn()

    def _deliver(self, proc: _Proc, on_reply: Callable[[Job, dict[str, Any]], None]) -> int:
        """Read what ``proc`` sent and hand each reply on; returns how many jobs finished."""
        finished = 0
        for message in self._read(proc):
            if message.get("ready"):
                proc.ready = True
                continue
            job = proc.job
            if job is None or message.get("id") != job.id:
                continue
            proc.job = None
            finished += 1
            on_reply(job, message)
        return finished

    def _dispatch(self, proc: _Proc, job: Job) -> None:
        proc.job = job
        proc.deadline = time.monotonic() + job.budget_s
        line = json.dumps({"id": job.id, "problem": job.problem, "path": job.path, "seed": job.seed}) + "\n"
        try:
            proc.popen.stdin.write(line.encode())
            proc.popen.stdin.flush()
        except (BrokenPipeError, OSError):
            pass  # noticed as a dead worker by the loop

    def _read(self, proc: _Proc) -> list[dict[str, Any]]:
        try:
            while True:
                chunk = os.read(proc.popen.stdout.fileno(), 1 << 20)
                if not chunk:
                    break
                proc.buffer += chunk
        except (BlockingIOError, OSError, ValueError):
            pass
        messages = []
        while b"\n" in proc.buffer:
            line, _, rest = bytes(proc.buffer).partition(b"\n")
            proc.buffer = bytearray(rest)
            try:
                messages.append(json.loads(line))
            except ValueError:
                continue
        return messages
