"""The Dask worker's side of ``grade batch --scheduler``: one warm grading process per Dask worker.

:func:`grade_submission` is the task. It lives in this importable module, so Dask sends a
reference to it, not a pickled function per task; the grader must be installed on every worker.
It takes and returns text only: the batch configuration and the job as JSON strings (the job
carries the submission's *text*, never a path on the client's machine or an object) and the
reply as a JSON string, which the client validates before journaling it.

Each Dask worker process keeps one grading process, ``python -m grader.batch.worker`` (the same
program a local batch runs, holding one warm sandboxed zygote), started by its first task and
reused by every later one; a lock serialises its use, so start Dask workers with ``--nthreads 1``
and one process per core. Learner code runs only in that zygote's runners. Like the local pool,
a grading process that dies or overruns a job's budget is replaced and the job retried once; a
second failure is an error reply for that submission only. :class:`GradingPlugin` closes the
grading process when the Dask worker shuts down.
"""

from __future__ import annotations

import json
import os
import selectors
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from distributed import WorkerPlugin

#: Seconds a grading process may take to start (import numpy or torch, start its zygote).
START_TIMEOUT_S = 120.0

_LOCK = threading.Lock()  # one job at a time through the one grading process
_STATE: dict[str, Any] = {"child": None, "started": 0, "graded": 0}


class _Child:
    """One ``grader.batch.worker`` process: JSON lines in, JSON lines out."""

    def __init__(self, config_json: str):
        self.config_json = config_json
        self.popen = subprocess.Popen(
            [sys.executable, "-m", "grader.batch.worker", config_json],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, start_new_session=True,
        )
        self.buffer = b""
        self.timed_out = False  # the last read ended at its deadline (not at the process's end)
        ready = self._read(time.monotonic() + START_TIMEOUT_S)
        if ready is None or not ready.get("ready"):
            self.close()
            raise RuntimeError("the grading process did not start (see the Dask worker's log)")
        self.pid = int(ready.get("pid", self.popen.pid))

    def ask(self, job: dict[str, Any], budget_s: float) -> dict[str, Any] | None:
        """The reply to ``job``, or None when the process died or overran ``budget_s``."""
        self.timed_out = False
        try:
            self.popen.stdin.write(json.dumps(job).encode() + b"\n")
            self.popen.stdin.flush()
        except OSError:
            return None
        deadline = time.monotonic() + budget_s
        while True:
            reply = self._read(deadline)
            if reply is None or reply.get("id") == job["id"]:
                return reply

    def _read(self, deadline: float) -> dict[str, Any] | None:
        stream = self.popen.stdout
        with selectors.DefaultSelector() as sel:
            sel.register(stream, selectors.EVENT_READ)
            while b"\n" not in self.buffer:
                wait = deadline - time.monotonic()
                if wait <= 0 or not sel.select(wait):
                    self.timed_out = True
                    return None
                chunk = os.read(stream.fileno(), 1 << 20)
                if not chunk:
                    return None
                self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        try:
            message = json.loads(line)
        except ValueError:
            return None
        return message if isinstance(message, dict) else None

    def close(self) -> None:
        """EOF on stdin lets it close its zygote; kill the whole session if it does not."""
        try:
            self.popen.stdin.close()
            self.popen.wait(5)
        except (OSError, subprocess.TimeoutExpired):
            pass
        try:
            os.killpg(self.popen.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        self.popen.wait()
        self.popen.stdout.close()


def grade_submission(config_json: str, job_json: str) -> str:
    """Grade one submission on this Dask worker; JSON text in, JSON text out.

    ``job_json``: ``{"id", "problem", "filename", "text", "helpers", "seed", "budget_s"}`` (``helpers``: the
    modules the submission imports from its folder, base64 by relative path). The reply is the
    local worker's (``{"id", "result", "fingerprint"}`` or ``{"id", "error"}``) plus ``restarts``,
    or ``{"id", "fatal"}`` when this worker cannot grade for this batch at all (the client stops).
    """
    job = json.loads(job_json)
    folder = Path(tempfile.mkdtemp(prefix="grade-"))
    try:
        path = folder / Path(str(job["filename"])).name
        path.write_text(str(job["text"]), encoding="utf-8")
        _write_helpers(folder, job.get("helpers") or {})
        request = {"id": job["id"], "problem": job["problem"], "path": str(path), "seed": job["seed"]}
        with _LOCK:
            return json.dumps(_grade(config_json, request, float(job["budget_s"])), ensure_ascii=False)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _write_helpers(folder: Path, helpers: dict[str, str]) -> None:
    """The helper modules that came with the submission (base64), beside it as on the client."""
    import base64

    for name, data in helpers.items():
        parts = Path(str(name)).parts
        if not parts or Path(str(name)).is_absolute() or ".." in parts:
            continue
        target = folder.joinpath(*parts)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(base64.b64decode(str(data)))


def _grade(config_json: str, request: dict[str, Any], budget_s: float) -> dict[str, Any]:
    fatal = _check_config(config_json, request["problem"], request["seed"])
    if fatal is not None:
        return {"id": request["id"], "fatal": fatal}
    restarts = 0
    for _attempt in range(2):
        child = _STATE["child"]
        if child is not None and (child.config_json != config_json or child.popen.poll() is not None):
            child.close()
            child = _STATE["child"] = None
        if child is None:
            try:
                child = _STATE["child"] = _Child(config_json)
            except (OSError, RuntimeError) as err:
                return {"id": request["id"], "fatal": f"the Dask worker on {os.uname().nodename}: {err}"}
            _STATE["started"] += 1
        reply = child.ask(request, budget_s)
        if reply is not None:
            _STATE["graded"] += 1
            return {**reply, "restarts": restarts}
        why = "went past its time budget" if child.timed_out else "died"
        child.close()
        _STATE["child"] = None
        restarts += 1
    # The local pool's words (grader.batch.pool), so both give the same result.
    return {"id": request["id"], "error": f"the grading worker {why} twice on this submission", "restarts": restarts}


_CHECKED: dict[tuple[str, str, int], str | None] = {}


def _check_config(config_json: str, problem_name: str, seed: int) -> str | None:
    """None if this worker grades ``problem_name`` exactly as the client expects, else why not."""
    key = (config_json, problem_name, seed)
    if key not in _CHECKED:
        _CHECKED[key] = _config_problem(json.loads(config_json), problem_name, seed, os.uname().nodename)
    return _CHECKED[key]


def _config_problem(config: dict[str, Any], problem_name: str, seed: int, host: str) -> str | None:
    from grader.bank import ProblemBank
    from grader.batch.config import config_hash
    from grader.errors import GraderError
    from grader.worker import seccomp

    isolation = str(config["isolation"])
    if isolation == "limits" and (missing := seccomp.unavailable_reason()) is not None:
        # Without bubblewrap only seccomp keeps learner code off the network (and off the scheduler).
        return f"the Dask worker on {host} cannot keep learner code off the network ({missing}); use --sandbox full"
    try:
        bank = ProblemBank(tuple(Path(p) for p in config.get("problems_dir", [])))
        mine = config_hash(bank.get(problem_name), seed, isolation)
    except GraderError as err:
        return f"the Dask worker on {host} cannot grade {problem_name}: {err}"
    if mine != config["configs"].get(problem_name):
        return (f"the Dask worker on {host} has a different grader version or problem bank for {problem_name}; "
                "install the same grader and problems on every worker")
    return None


def stats() -> dict[str, int]:
    """For tests and the benchmark: grading processes started and jobs graded by this Dask worker."""
    child = _STATE["child"]
    return {"started": _STATE["started"], "graded": _STATE["graded"], "pid": child.pid if child else 0}


def echo(config_json: str, job_json: str) -> str:
    """The task's round trip without grading (the benchmark's scheduling overhead)."""
    job = json.loads(job_json)
    return json.dumps({"id": job["id"], "error": "echo", "restarts": 0})


def close() -> None:
    """Close this Dask worker's grading process, if any."""
    with _LOCK:
        child, _STATE["child"] = _STATE["child"], None
        if child is not None:
            child.close()


class GradingPlugin(WorkerPlugin):
    """Closes the Dask worker's grading process (and its zygote) when the worker shuts down."""

    idempotent = True  # registered by every batch; the first registration stays

    def teardown(self, worker: Any) -> None:
        threading.Thread(target=close, daemon=True).start()  # never block the worker's event loop
