"""What a batch result depends on besides the submission, shared by the client and its workers.

:func:`config_hash` names the grader version, seed, isolation and problem files a result was
graded with. ``grade batch`` computes it for every problem (:mod:`grader.batch.run`), a Dask
worker recomputes it before grading (:mod:`grader.batch.dask_worker`) and refuses to grade when
the two differ; ``grade merge`` checks shards against :func:`problem_files`. It sits below all of
them so that the batch package reads top-down: run -> dask_executor -> dask_worker -> config.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from grader import __version__
from grader.bank import Problem


def problem_files(problem: Problem) -> tuple[Path, ...]:
    """The files a problem's results depend on."""
    return (problem.folder / "spec.yaml", problem.checks_file, problem.reference_file,
            problem.folder / "probes.py", problem.stub_file)


def config_hash(problem: Problem, seed: int, isolation: str) -> str:
    """What a result depends on besides the submission: grader, seed, isolation, the problem's files."""
    h = hashlib.sha256(f"{__version__}|{seed}|{isolation}|{problem.name}".encode())
    for path in problem_files(problem):
        if path.is_file():
            h.update(path.name.encode() + b"\0" + path.read_bytes())
    return h.hexdigest()[:20]
