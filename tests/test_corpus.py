"""Golden corpus: every submission under tests/corpus/<problem>/ gets the outcome its expected.yaml states.

``expected.yaml`` maps a file name to what must hold when it is graded:

* ``full: true``: full marks (a correct solution written differently);
* ``diagnosis: ID``: loses points, and some check carries the named mistake ``ID``;
* ``checks: {check_id: status, ...}``: those checks end with those statuses;
* ``lost: [check_id, ...]``: exactly these checks lose points (all others pass);
* ``status: pass|fail|error``: the problem-level status;
* ``max_seconds: N``: grading finishes within N seconds (a fault must not hang the grader);
* ``options: {...}``: keyword options for ``engine.grade`` (e.g. ``timeout_s: 1`` for hangs).
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
import yaml

from conftest import CORPUS
from grader.results import Status

KEYS = {"full", "diagnosis", "checks", "lost", "status", "max_seconds", "why", "options"}


def _cases():
    for expected_file in sorted(CORPUS.glob("*/expected.yaml")):
        problem = expected_file.parent.name
        entries = yaml.safe_load(expected_file.read_text(encoding="utf-8")) or {}
        for file_name, expectation in entries.items():
            yield pytest.param(problem, expected_file.parent / file_name, expectation, id=f"{problem}/{file_name}")


@pytest.mark.parametrize(("problem", "path", "expectation"), list(_cases()))
def test_corpus_submission(problem: str, path: Path, expectation: dict, grade_file) -> None:
    """The submission's result matches every expectation written for it."""
    assert path.is_file(), f"{path} is listed in expected.yaml but missing"
    unknown = set(expectation) - KEYS
    assert not unknown, f"unknown expectation keys {unknown}"
    started = time.monotonic()
    result = grade_file(problem, path, **(expectation.get("options") or {}))
    elapsed = time.monotonic() - started
    summary = {c.id: (c.status.value, c.diagnosis.id if c.diagnosis else None, c.message.en[:120]) for c in result.checks}
    if expectation.get("full"):
        assert result.score == result.max_score, summary
    if "diagnosis" in expectation:
        assert result.score < result.max_score, summary
        diagnosed = {c.diagnosis.id for c in result.checks if c.diagnosis}
        assert expectation["diagnosis"] in diagnosed, summary
    for check_id, status in (expectation.get("checks") or {}).items():
        check = next(c for c in result.checks if c.id == check_id)
        assert check.status is Status(status), summary
        if status != "pass":
            assert check.score < check.max_score, summary
    if "lost" in expectation:
        lost = {c.id for c in result.checks if c.score < c.max_score}
        assert lost == set(expectation["lost"]), summary
    if "status" in expectation:
        assert result.status == expectation["status"], summary
    if "max_seconds" in expectation:
        assert elapsed < expectation["max_seconds"], f"took {elapsed:.1f} s"


def test_every_declared_mistake_is_reached_by_the_corpus(bank) -> None:
    """Each mistake a spec declares is the expected diagnosis of at least one corpus file."""
    for problem in bank:
        expected_file = CORPUS / problem.name / "expected.yaml"
        entries = yaml.safe_load(expected_file.read_text(encoding="utf-8")) if expected_file.exists() else {}
        reached = {e.get("diagnosis") for e in (entries or {}).values()}
        declared = {m.id for m in problem.spec.mistakes}
        assert declared <= reached, f"{problem.name}: no corpus file diagnoses {sorted(declared - reached)}"


def test_every_check_fails_on_some_corpus_file(bank) -> None:
    """Each check of each problem is pinned as losing points (``lost`` or a non-pass ``checks``
    entry) by at least one corpus file: no check that no wrong solution can fail."""
    for problem in bank:
        expected_file = CORPUS / problem.name / "expected.yaml"
        entries = yaml.safe_load(expected_file.read_text(encoding="utf-8")) if expected_file.exists() else {}
        pinned: set[str] = set()
        for expectation in (entries or {}).values():
            pinned |= set(expectation.get("lost") or [])
            pinned |= {c for c, status in (expectation.get("checks") or {}).items() if status != "pass"}
        never = [c.id for c in problem.spec.checks if c.id not in pinned]
        assert not never, f"{problem.name}: no corpus file is pinned as failing {never}"
