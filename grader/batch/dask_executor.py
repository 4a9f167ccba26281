"""The client's side of ``grade batch --scheduler tcp://HOST:PORT``: the batch's jobs on a Dask cluster.

:class:`DaskExecutor` is an :class:`~grader.batch.pool.Executor`, like the local worker pool, so
everything around it (discovery, the journal, resume, the gradebook, the report) is the same
code as a local batch and gives the same results. It needs the optional extra
(``pip install "attention-grader[dask]"``); nothing else in the grader imports Dask.

What crosses the wire: to a worker, the name of an importable task
(:func:`grader.batch.dask_worker.grade_submission`) and two JSON strings, the batch configuration
and one job holding the submission's text; back, one JSON string, parsed and checked here
(:func:`validate`) before it reaches the journal. No learner object is ever pickled.

Failures: a Dask worker that dies mid-task has its tasks rescheduled by the Dask scheduler on
another worker (up to ``distributed.scheduler.allowed-failures`` times, 3 by default, then this
submission gets an error result); a worker whose grader or problem bank differs from this
machine's stops the batch with a one-line error. At most a few tasks per Dask thread are in
flight at a time, so the scheduler's memory does not grow with the class.
"""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any, Iterable

from grader.batch.gradebook import result_from_dict
from grader.batch.pool import Job, OnReply
from grader.errors import GraderError
from grader.messages import text

#: Seconds to wait for the scheduler, and for at least one worker to join it.
CONNECT_TIMEOUT_S = 10.0
WORKERS_TIMEOUT_S = 120.0
#: Tasks in flight per Dask worker thread.
TASKS_PER_THREAD = 4
PLUGIN_NAME = "attention-grader"


class DaskExecutor:
    """Run batch jobs on the Dask cluster whose scheduler is at ``address``."""

    def __init__(self, address: str, config: dict[str, Any], task: str = "grade_submission"):
        if config["isolation"] == "none":
            raise GraderError(text("dask.needs_sandbox"))
        try:
            import distributed
        except ImportError:
            raise GraderError(
                'grading on a Dask cluster needs the dask extra: pip install "attention-grader[dask]"'
            ) from None
        from grader.batch import dask_worker

        self.distributed = distributed
        self.task = getattr(dask_worker, task)
        # Workers run the sandbox that was chosen here, never their own "auto" (results name it).
        self.config_json = json.dumps({**config, "sandbox": config["isolation"]}, sort_keys=True)
        self.restarts = 0
        self.token = uuid.uuid4().hex[:8]
        self.address = address
        try:
            self.client = distributed.Client(address, timeout=CONNECT_TIMEOUT_S, set_as_default=False)
        except (OSError, TimeoutError, ValueError) as err:
            raise GraderError(text("dask.unreachable", address=address, reason=str(err))) from None
        try:
            self.client.wait_for_workers(1, timeout=WORKERS_TIMEOUT_S)
            self.client.register_plugin(dask_worker.GradingPlugin(), name=PLUGIN_NAME)
        except (OSError, TimeoutError) as err:
            self.client.close()
            raise GraderError(text("dask.no_workers", address=address, reason=str(err))) from None
        self._futures: dict[str, tuple[Any, Job]] = {}

    def run(self, jobs: Iterable[Job], on_reply: OnReply) -> None:
        """Grade every job on the cluster, a bounded number in flight; ``on_reply`` as each finishes."""
        pending = iter(jobs)
        done = self.distributed.as_completed(loop=self.client.loop, with_results=True, raise_errors=False)
        threads = sum(self.client.nthreads().values()) or 1

        def submit_next() -> None:
            for job in pending:
                try:
                    payload = _payload(job)
                except (OSError, UnicodeDecodeError) as err:  # changed since discovery: as a local worker does
                    on_reply(job, {"id": job.id, "error": f"{Path(job.path).name}: cannot read it ({err})"})
                    continue
                future = self.client.submit(self.task, self.config_json, payload, key=f"grade-{self.token}-{job.id}",
                                            pure=False, retries=1)
                self._futures[future.key] = (future, job)
                done.add(future)
                return

        for _ in range(TASKS_PER_THREAD * threads):
            submit_next()
        for future, outcome in done:  # results fetched in the background: ~2 ms less per task than .result()
            _, job = self._futures.pop(future.key)
            reply = self._reply(future, outcome, job)
            self.restarts += int(reply.pop("restarts", 0) or 0)
            on_reply(job, reply)
            submit_next()

    def _reply(self, future: Any, outcome: Any, job: Job) -> dict[str, Any]:
        """The reply for ``job`` from its finished future (``outcome``: the result, or the error's info)."""
        if future.status == "cancelled" or isinstance(outcome, BaseException):
            raise GraderError(text("dask.cancelled", address=self.address))
        if future.status == "error":
            err = outcome[1]
            if isinstance(err, self.distributed.KilledWorker):
                self.restarts += 1
                return {"id": job.id, "error": "Dask workers died repeatedly while grading this submission"}
            return {"id": job.id, "error": f"the Dask task failed ({type(err).__name__}: {err})"}
        return validate(outcome, job)

    def close(self) -> None:
        """Cancel what is still queued (Ctrl-C, an error) and disconnect; the cluster keeps running."""
        if self._futures:
            self.client.cancel([future for future, _ in self._futures.values()])
            self._futures.clear()
        self.client.close()


def _payload(job: Job) -> str:
    """The job as the worker gets it: the submission's text and the helper modules it imports
    (base64, by relative path), not its path on this machine."""
    import base64

    from grader import submission

    path = Path(job.path)
    text = path.read_text(encoding="utf-8")
    code = path.suffix in submission.CODE_SUFFIXES  # a .py file or a notebook: its helper modules travel too
    helpers = submission.read(path, problem=job.problem).helpers if code else {}
    return json.dumps({"id": job.id, "problem": job.problem, "filename": path.name, "text": text,
                       "helpers": {name: base64.b64encode(data).decode() for name, data in helpers.items()},
                       "seed": job.seed, "budget_s": job.budget_s}, ensure_ascii=False)


def validate(text: Any, job: Job) -> dict[str, Any]:
    """A worker's JSON reply, checked: the job's own id and problem, a well-formed result.

    Returns ``{"id", "result", "fingerprint", "restarts"}`` or ``{"id", "error", "restarts"}``;
    raises GraderError for a ``fatal`` reply (this worker cannot grade this batch).
    """
    try:
        reply = json.loads(text) if isinstance(text, str) else None
    except ValueError:
        reply = None
    if not isinstance(reply, dict) or reply.get("id") != job.id:
        return {"id": job.id, "error": "the Dask worker sent a reply that is not this job's result"}
    restarts = reply.get("restarts", 0)
    restarts = restarts if isinstance(restarts, int) and restarts >= 0 else 0
    if isinstance(reply.get("fatal"), str):
        raise GraderError(reply["fatal"])
    if isinstance(reply.get("error"), str):
        return {"id": job.id, "error": reply["error"], "grader_error": reply.get("grader_error") is not False,
                "restarts": restarts}
    result, fingerprint = reply.get("result"), reply.get("fingerprint")
    try:
        if not isinstance(result, dict) or result.get("problem") != job.problem:
            raise ValueError("not this problem's result")
        if fingerprint is not None and not (isinstance(fingerprint, str) and len(fingerprint) <= 128):
            raise ValueError("bad fingerprint")
        result_from_dict(result)
    except (KeyError, TypeError, ValueError) as err:
        return {"id": job.id, "error": f"the Dask worker sent a malformed result ({err})", "restarts": restarts}
    return {"id": job.id, "result": result, "fingerprint": fingerprint, "restarts": restarts}
