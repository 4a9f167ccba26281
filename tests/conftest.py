"""Shared fixtures: the problem bank, a grading helper, and the CLI runner."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

import grader  # noqa: F401  (sets the single-thread environment before numpy/torch load)
from grader import engine
from grader.bank import ProblemBank
from grader.results import ProblemResult
from grader.worker import protocol

TESTS = Path(__file__).resolve().parent
CORPUS = TESTS / "corpus"


@pytest.fixture(autouse=True)
def _english_unless_asked(monkeypatch: pytest.MonkeyPatch):
    """Every test starts in English whatever the machine's locale; a test that wants Chinese asks.
    No test writes a grading history (into tests/corpus/...) unless it asks (tests/test_history.py)."""
    from grader import history, i18n

    monkeypatch.setenv(history.ENV, "off")
    monkeypatch.delenv(i18n.LANG_ENV, raising=False)
    for name in i18n.LOCALE_ENVS:
        if os.environ.get(name, "").lower().startswith("zh"):
            monkeypatch.setenv(name, "C.UTF-8")
    yield
    i18n._current = None


@pytest.fixture(name="bank", scope="session")
def _bank() -> ProblemBank:
    return ProblemBank()


@pytest.fixture(name="grade_file", scope="session")
def _grade_file(bank: ProblemBank):
    """grade_file(problem_name, path, **options) -> ProblemResult, through the real engine."""

    def grade_file(name: str, path: Path, **options) -> ProblemResult:
        return engine.grade(bank.get(name), Path(path), **options)

    return grade_file


@pytest.fixture(name="runner")
def _runner() -> CliRunner:
    return CliRunner()


def without_timings(data: dict, drop: tuple[str, ...] = ()) -> dict:
    """A result dict without its timings (which differ run to run) and the keys in ``drop``."""
    data = {k: v for k, v in data.items() if k != "duration_ms" and k not in drop}
    data["checks"] = [{k: v for k, v in c.items() if k != "duration_ms"} for c in data["checks"]]
    return data


def batch_results(out: Path) -> dict[tuple[str, str], dict]:
    """A batch's results.jsonl by (student, problem), without timings."""
    lines = (out / "results.jsonl").read_text(encoding="utf-8").splitlines()
    return {(r["student"], r["problem"]): without_timings(r) for r in map(json.loads, lines)}


def call_entry(runner, name: str):
    """Call the learner's function ``name`` (no arguments) in a live runner; its result."""
    request = {"op": "call", "target": name, "args": [], "kwargs": {"$": "dict", "items": []}}
    reply = runner.call(request, [], time.monotonic() + 20)
    assert reply.header.get("ok"), reply.header
    return protocol.decode(reply.header["value"], reply.blobs)["result"]
