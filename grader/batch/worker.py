"""A batch grading process: one warm zygote per runtime, reused for every submission it is sent.

Started by :mod:`grader.batch.pool` as ``python -m grader.batch.worker CONFIG_JSON``. It reads one
JSON job per line on stdin and writes one JSON reply per line on its own copy of stdout; fd 1
itself is pointed at stderr first, so a stray print cannot corrupt the reply channel. Replies are
``ProblemResult.to_dict(None)`` (texts in every language) plus the fingerprint: plain JSON, never a pickle. Learner code runs
only in the zygote's runners, never here.

Jobs: ``{"id": n, "problem": name, "path": file, "seed": s}``. Replies:
``{"id": n, "result": {...}, "fingerprint": str | null}``, or ``{"id": n, "error": text,
"grader_error": bool}`` when there is no result: ``grader_error`` is false when the file itself
cannot be graded (it vanished, or grew past the size limit, since discovery) and true when the
grader failed. A zygote that failed (it exited, hung or broke the protocol) is replaced and the
submission graded once more on the fresh one, so a broken zygote never grades anyone else; a
zygote found dead between jobs is replaced before the next job.

Zygotes are started on first use, one per runtime the jobs need: a numpy problem's runner forks
from a numpy zygote (a smaller process than a torch one: cheaper to fork and to copy on write),
a torch problem's from a torch zygote, and a data problem (no learner code) needs none.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any, TextIO

import grader  # noqa: F401  (single-threaded environment before numpy/torch load)
from grader import engine
from grader.bank import ProblemBank
from grader.batch.fingerprint import fingerprint
from grader.errors import GraderError, GraderFault, SubmissionError
from grader.i18n import Text
from grader.messages import text
from grader.submission import source_text
from grader.worker import sandbox
from grader.worker.session import Zygote


class Worker:
    """State of one batch worker: the bank and its warm zygotes, one per runtime, started lazily."""

    def __init__(self, config: dict[str, Any]):
        self.bank = ProblemBank(tuple(Path(p) for p in config.get("problems_dir", [])))
        self.isolation = sandbox.resolve(str(config.get("sandbox", "auto")), batch=True)
        #: Every runtime this batch's jobs need (from the scheduler), to order the zygotes' starts.
        self.runtimes = set(config.get("runtimes", ()))
        self.zygotes: dict[str, Zygote] = {}

    def zygote(self, runtime: str) -> Zygote | None:
        """The warm zygote for ``runtime`` (started now if this is its first job); None for data."""
        if runtime == "data":
            return None
        if runtime in self.zygotes and not self.zygotes[runtime].alive:
            self.restart(runtime)
        if runtime not in self.zygotes:
            if runtime == "torch" and self.isolation in ("limits", "none") and "numpy" in self.runtimes - set(self.zygotes):
                # A forked zygote inherits this process's imports: fork the numpy one before the
                # torch one imports torch here, or the numpy zygote would carry torch too.
                self.zygotes["numpy"] = Zygote("numpy", self.isolation, compact=True)
            self.zygotes[runtime] = Zygote(runtime, self.isolation, compact=True)
        return self.zygotes[runtime]

    def grade(self, job: dict[str, Any]) -> dict[str, Any]:
        problem = self.bank.get(str(job["problem"]))
        path = Path(str(job["path"]))
        runtime = problem.spec.runtime
        for attempt in (1, 2):
            try:
                result = engine.grade(  # sandbox_mode: a data problem (no zygote) records this batch's level too
                    problem, path, seed=job.get("seed"), sandbox_mode=self.isolation, zygote=self.zygote(runtime)
                )
                break
            except GraderError:
                raise
            except GraderFault as fault:  # the zygote failed: replace it, and grade this file once more
                self.restart(runtime)
                if attempt == 2:
                    raise _Failed(text("batch.failed_twice", why=fault.why)) from None
            except Exception as err:  # noqa: BLE001 - a grader bug: a fresh zygote for the next job
                self.restart(runtime)
                raise _Failed(text("batch.worker_bug", detail=f"{type(err).__name__}: {err}")) from None
        try:
            fp = fingerprint(source_text(path))  # a notebook's: its code cells
        except (OSError, UnicodeDecodeError, GraderError):
            fp = None
        return {"id": job["id"], "result": result.to_dict(None), "fingerprint": fp}

    def restart(self, runtime: str) -> None:
        """Close ``runtime``'s zygote; the next job of that runtime starts a fresh one."""
        zygote = self.zygotes.pop(runtime, None)
        if zygote is not None:
            try:
                zygote.close()
            except Exception:  # noqa: BLE001
                pass

    def close(self) -> None:
        for runtime in list(self.zygotes):
            self.restart(runtime)


def serve(worker: Worker, jobs: TextIO, replies: TextIO) -> None:
    _send(replies, {"ready": True, "pid": os.getpid()})
    for line in jobs:
        if not line.strip():
            continue
        job = json.loads(line)
        try:
            reply = worker.grade(job)
        except SubmissionError as err:  # the file's own fault, as `grade` would say
            reply = {"id": job.get("id"), "error": _json_text(err.text), "grader_error": False}
        except (GraderError, _Failed) as err:
            reply = {"id": job.get("id"), "error": _json_text(err.text), "grader_error": True}
        _send(replies, reply)


class _Failed(Exception):
    """The grader failed on a job; ``text`` says how (both languages)."""

    def __init__(self, message: Text):
        super().__init__(message.en)
        self.text = message


def _json_text(message: object) -> Any:
    """A message as the reply carries it: ``{en, zh}`` for a Text, else the string."""
    return message.to_json() if isinstance(message, Text) else str(message)


def _send(stream: TextIO, message: dict[str, Any]) -> None:
    stream.write(json.dumps(message, ensure_ascii=False, separators=(",", ":")) + "\n")
    stream.flush()


def main() -> None:
    replies = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)  # anything else that prints goes to the worker log, not the reply channel
    sys.stdout = sys.stderr
    worker = Worker(json.loads(sys.argv[1]))
    try:
        serve(worker, sys.stdin, replies)
    finally:
        worker.close()


if __name__ == "__main__":
    main()
