"""The problem bank is consistent: every reference scores full, every stub is not_attempted."""

from __future__ import annotations

import pytest

from conftest import without_timings
from grader.bank import ProblemBank
from grader.results import Status

PROBLEMS = ProblemBank().names()


@pytest.mark.parametrize("name", PROBLEMS)
def test_reference_scores_full_marks(name: str, bank, grade_file) -> None:
    """The reference solution passes every check."""
    problem = bank.get(name)
    result = grade_file(name, problem.reference_file)
    failing = {c.id: (c.status.value, c.message.en) for c in result.checks if c.status is not Status.PASS}
    assert result.score == result.max_score, failing
    assert result.status == "pass"


@pytest.mark.parametrize("name", PROBLEMS)
def test_untouched_stub_is_not_attempted(name: str, bank, grade_file) -> None:
    """The stub as shipped scores 0 with every check not_attempted."""
    problem = bank.get(name)
    result = grade_file(name, problem.stub_file)
    assert result.score == 0
    assert {c.status for c in result.checks} == {Status.NOT_ATTEMPTED}


CODE_PROBLEMS = [p.name for p in ProblemBank() if p.spec.runtime != "data"]


@pytest.mark.parametrize("name", CODE_PROBLEMS)
def test_stub_that_only_raises_is_not_attempted(name: str, bank, grade_file, tmp_path) -> None:
    """An edited stub runs; every function still raises NotImplementedError, so all are not_attempted."""
    problem = bank.get(name)
    edited = tmp_path / problem.spec.learner_file
    edited.write_text(problem.stub_file.read_text(encoding="utf-8") + "\nEDITED = True\n", encoding="utf-8")
    result = grade_file(name, edited)
    assert result.score == 0
    assert {c.status for c in result.checks} == {Status.NOT_ATTEMPTED}, [
        (c.id, c.status.value, c.message.en) for c in result.checks
    ]


@pytest.mark.parametrize("name", PROBLEMS)
def test_same_seed_same_result(name: str, bank, grade_file) -> None:
    """Grading is deterministic for one seed (no flaky checks)."""
    problem = bank.get(name)
    first = grade_file(name, problem.reference_file, seed=7).to_dict()
    second = grade_file(name, problem.reference_file, seed=7).to_dict()
    assert without_timings(first) == without_timings(second)
