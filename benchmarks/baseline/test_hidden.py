"""The baseline for bench_batch.py: hidden tests run the way course staff run them with stock tools.

One fresh ``pytest`` process per student folder (``BASELINE_SUBMISSION=DIR``): it imports numpy
and torch, imports each learner file *in its own process*, and runs each check of each problem
as one pytest test, comparing with the reference in the same process. No sandbox, no warm worker.

    BASELINE_SUBMISSION=class/student000 python -m pytest -q -p no:cacheprovider benchmarks/baseline/test_hidden.py
"""

from __future__ import annotations

import os
import sys
import types
from pathlib import Path

import pytest

import grader  # noqa: F401  (one thread: same conditions as the batch)
from grader import engine, static
from grader.bank import ProblemBank
from grader.checks import CheckContext
from grader.worker import protocol
from grader.worker.runner import Runner

FOLDER = Path(os.environ.get("BASELINE_SUBMISSION", "."))
BANK = ProblemBank()


def _cases():
    for problem in BANK:
        path = FOLDER / problem.spec.learner_file
        if not path.is_file():
            continue
        for check in problem.spec.checks:
            yield pytest.param(problem.name, check.id, id=f"{problem.name}::{check.id}")


_LOADED: dict[str, types.SimpleNamespace] = {}


def _learner(name: str) -> types.SimpleNamespace:
    """The learner module imported into this very process (what a plain pytest suite does)."""
    if name not in _LOADED:
        problem = BANK.get(name)
        path = FOLDER / problem.spec.learner_file
        source = path.read_text(encoding="utf-8")
        probes = problem.folder / "probes.py"
        runner = Runner(source, str(path), probes.read_text(encoding="utf-8") if probes.exists() else None)
        with _no_process_exit():
            runner.load()
        _LOADED[name] = types.SimpleNamespace(runner=runner, source=source, problem=problem)
    return _LOADED[name]


class _LearnerExited(Exception):
    """The learner's file called os._exit: a failed test here, not the end of the whole pytest run."""


class _no_process_exit:
    """While a learner file is imported, ``os._exit`` raises instead of ending this process.

    Stock pytest would simply die there, leaving the student's other tests unrun; this baseline
    runs them all (more work for the baseline, so the ratio can only be understated), and
    bench_batch.py can check that every test ran.
    """

    def __enter__(self) -> None:
        self.saved = os._exit

        def refuse(code: int) -> None:
            raise _LearnerExited(f"os._exit({code}) in the learner's file")

        os._exit = refuse

    def __exit__(self, *exc: object) -> None:
        os._exit = self.saved


def _in_process(runner: Runner):
    def send(request, entry):
        encoder = protocol.Encoder()
        header = {k: encoder.encode(v) if k in ("args", "kwargs", "target") else v for k, v in request.items()}
        value = runner.handle(header, encoder.blobs)
        tree, blobs = protocol.encode(value)
        return protocol.decode(tree, blobs)

    return send


@pytest.mark.parametrize(("problem_name", "check_id"), list(_cases()))
def test_hidden(problem_name: str, check_id: str) -> None:
    problem = BANK.get(problem_name)
    spec = problem.spec
    if spec.runtime == "data":
        result = engine.grade(problem, FOLDER / spec.learner_file)
        check = next(c for c in result.checks if c.id == check_id)
        assert check.status.value == "pass", check.message
        return
    check = spec.check(check_id)
    learner = _learner(problem_name)
    if check.kind == "from_scratch":
        assert not static.forbidden_uses(learner.source, spec.forbidden)
        return
    registry, reference = engine.load_registry(problem), engine.load_reference(problem)
    ctx = CheckContext(check_id=check_id, seed=engine.resolve_seed(None, spec), reference=reference,
                       registry=registry, transport=_in_process(learner.runner))
    registry.tests[check_id](ctx)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(pytest.main([__file__, "-q"]))
