"""Graded output never hands out an answer: every problem, every wrong corpus file, every format, -v too.

Each wrong submission under ``tests/corpus/<problem>/`` (every file but the full-marks ones and
the hangs) is graded once. The learner view of every check is then rendered on its own in every
format (table, json, gradescope, classroom with its Actions log, junit, exercism), with and
without ``-v``, and must not contain:

* a secret the check declared with ``ctx.secret`` (an expected answer in the forms a learner would
  recognise, a hidden input, a total), unless the submission itself contains it (a wrong answer of
  one question can be the right answer of another, and messages echo what the learner wrote);
* a hidden check's own message (it names the hidden inputs), what a hidden check's code printed,
  or ``reveal`` (the answer and explanation, for instructors).

Distinctive declared secrets (at least 6 characters: 1,050,624, an explanation's sentence) must
not appear anywhere in a submission's output either, nor in another problem's: param_count's
totals are qa answers.
The test knows no problem: a new problem, or a new check that declares its secrets, is covered
by adding its wrong submissions to the corpus. ``--instructor`` does show ``reveal``, so the
search has something to find.
"""

from __future__ import annotations

import base64
import html
import json
import re
from dataclasses import replace
from pathlib import Path

import pytest
import yaml

from conftest import CORPUS
from grader import engine, history, i18n
from grader.i18n import LANGS
from grader.render import FORMATS, log_text, render
from grader.results import ProblemResult, Status
from grader.worker import sandbox
from grader.worker.session import Zygote

#: Secrets at least this long are searched in every problem's output, not only their check's.
DISTINCTIVE = 6
#: What a hidden check's code prints here must never reach a learner.
PRINTED = "printed-by-learner-code-in-a-hidden-check"


def _wrong_submissions() -> list[tuple[str, Path]]:
    cases = []
    for expected_file in sorted(CORPUS.glob("*/expected.yaml")):
        for name, expectation in (yaml.safe_load(expected_file.read_text(encoding="utf-8")) or {}).items():
            if not expectation.get("full") and not expectation.get("options"):
                cases.append((expected_file.parent.name, expected_file.parent / name))
    return cases


@pytest.fixture(scope="module")
def graded(bank) -> dict[Path, ProblemResult]:
    """Every wrong corpus submission graded once, one warm zygote per runtime; timings zeroed."""
    cases = _wrong_submissions()
    results: dict[Path, ProblemResult] = {}
    for runtime in ("data", "numpy", "torch"):
        mine = [(name, path) for name, path in cases if bank.get(name).spec.runtime == runtime]
        if not mine:
            continue
        if runtime == "data":
            for name, path in mine:
                results[path] = engine.grade(bank.get(name), path)
            continue
        with Zygote(runtime, sandbox.resolve("auto")) as zygote:
            for name, path in mine:
                results[path] = engine.grade(bank.get(name), path, zygote=zygote)
    for result in results.values():
        result.duration_ms = 0
        for check in result.checks:
            check.duration_ms = 0
            if check.visibility == "hidden":
                check.output += PRINTED
    return results


def _strings(value: object) -> list[str]:
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return [str(value)]


def readable(fmt: str, text: str) -> str:
    """What a reader of ``fmt`` sees: JSON strings decoded, XML entities and base64 undone."""
    if fmt == "classroom":
        text = base64.b64decode(text).decode("utf-8")
    if fmt in ("json", "gradescope", "exercism", "classroom"):
        return "\n".join(_strings(json.loads(text)))
    return html.unescape(text) if fmt == "junit" else text


def outputs(results: list[ProblemResult], *, instructor: bool = False, verbosity=(False, True)) -> dict[str, str]:
    """Every format of ``results``, in both languages, with and without -v, as readable text."""
    shown = {}
    try:
        for lang in LANGS:
            i18n.use(lang)
            for fmt in FORMATS:
                for verbose in verbosity:
                    text = readable(fmt, render(results, fmt, verbose=verbose, combined=True, instructor=instructor))
                    log = log_text(results, fmt, verbose=verbose, instructor=instructor)
                    shown[f"{fmt}{' -v' if verbose else ''} ({lang})"] = " ".join((text + "\n" + (log or "")).split())
    finally:
        i18n.use("en")
    return shown


_NUMBER = re.compile(r"[-+\d.,e\[\] ]+")


_BEFORE = re.compile(r"[\w.,/]")  # a number right after one of these is part of a longer one
_AFTER = re.compile(r"[\w/]|[.,]\d")  # and so is one followed by these


def contains(text: str, secret: str) -> bool:
    """``secret`` occurs in ``text`` as a whole, white space collapsed: a number not inside a longer
    number (64 is not in 0.64, 640 or 1/64), other text anywhere."""
    secret = " ".join(secret.split())
    if not _NUMBER.fullmatch(secret):
        return secret in text
    start = text.find(secret)
    while start >= 0:
        end = start + len(secret)
        if not (start and _BEFORE.match(text, start - 1)) and not _AFTER.match(text, end):
            return True
        start = text.find(secret, start + 1)
    return False


def shown_secrets(text: str, secrets: frozenset[str]) -> list[str]:
    """The secrets found in ``text``."""
    return sorted(s for s in secrets if contains(text, s))


def _written(path: Path) -> str:
    """The submission as its author wrote it: what is in it is no secret to them (a wrong answer of one
    question may be the right answer of another, and messages echo it)."""
    return " ".join(path.read_text(encoding="utf-8").split())


def _forbidden(check, path: Path) -> list[str]:
    """What this check's learner view must not show, in any language."""
    forbidden = [s for s in check.secrets if not contains(_written(path), s)] + [PRINTED]
    if check.reveal:
        forbidden += [check.reveal.get(lang) for lang in LANGS]
    if check.visibility == "hidden" and check.status is Status.FAIL and check.message.en:
        forbidden += [check.message.get(lang) for lang in LANGS]
    return forbidden


@pytest.fixture(autouse=True)
def _wide_table(monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "100000")  # the table never wraps a secret over two lines


_CHECKED: set[tuple] = set()  # checks already searched: many corpus files leave the same questions unanswered


@pytest.mark.parametrize(("problem", "path"), _wrong_submissions(), ids=lambda v: getattr(v, "name", v))
def test_no_check_shows_its_secrets(problem: str, path: Path, graded) -> None:
    result = graded[path]
    for check in result.checks:
        key = (problem, repr(replace(check, duration_ms=0)))
        if key in _CHECKED:
            continue
        alone = replace(result, checks=[check])
        for where, text in outputs([alone]).items():
            for secret in _forbidden(check, path):
                assert not contains(text, secret), f"{problem}/{path.name}: {check.id} shows {secret!r} in {where}"
        _CHECKED.add(key)


def _distinctive(results) -> set[str]:
    return {s for r in results for c in r.checks for s in c.secrets if len(s) >= DISTINCTIVE}


def test_no_output_shows_a_distinctive_secret_of_any_problem(graded) -> None:
    """An answer must not leak through another check or another problem's hints and messages.

    Searched in one submission's output: its own checks' secrets and every other problem's (another
    learner of the same problem may have computed a value this one got right, and may echo it)."""
    by_problem: dict[str, list[ProblemResult]] = {}
    for result in graded.values():
        by_problem.setdefault(result.problem, []).append(result)
    assert len(_distinctive(graded.values())) > 100, "the problems declare their secrets"
    others = {
        name: frozenset(_distinctive(r for problem, rs in by_problem.items() if problem != name for r in rs))
        for name in by_problem
    }
    for path, result in graded.items():
        own = frozenset(_distinctive([result]))
        for where, text in outputs([result], verbosity=(True,)).items():  # -v shows all the rest shows
            shown = shown_secrets(text, others[result.problem]) + shown_secrets(text, own)
            shown = [s for s in shown if not contains(_written(path), s)]
            assert not shown, f"{path.parent.name}/{path.name} shows {shown[:3]} in {where}"


def test_the_grading_history_holds_no_secret(graded) -> None:
    """A history line (grader/history.py) is ids, statuses and scores: no check's secret, no message,
    nothing a hidden check printed, no reveal, in any language. Its scores are the totals every format
    shows (a total of 0.5 may equal an answer: that is no leak); the rest is a version and a time."""
    for path, result in graded.items():
        data = json.loads(history.Entry.of(result).line())
        assert (data.pop("score"), data.pop("max_score")) == (result.score, result.max_score)
        assert data.pop("v") == history.VERSION and re.fullmatch(r"[-\dT:]+Z", data.pop("at"))
        text = " ".join(_strings(data) + list(data["checks"]))
        for check in result.checks:
            for secret in _forbidden(check, path) + [m for m in (check.message.en, check.message.zh) if m]:
                assert not contains(text, secret), f"{path.parent.name}/{path.name}: history shows {secret!r}"


def test_the_instructor_sees_what_learners_do_not(graded) -> None:
    """--instructor shows each reveal and hidden message: the searches above can find them."""
    revealed = [(r, c) for r in graded.values() for c in r.checks if c.reveal]
    hidden = [(r, c) for r in graded.values() for c in r.checks if c.visibility == "hidden" and c.status is Status.FAIL]
    assert revealed and hidden
    for result, check in revealed[:5] + hidden[:5]:
        alone = replace(result, checks=[check])
        for where, text in outputs([alone], instructor=True).items():
            lang = where[-3:-1]
            shown = ([check.reveal] if check.reveal else []) + ([check.message] if check.visibility == "hidden" else [])
            for secret in shown:
                assert contains(text, secret.get(lang)), f"{check.id}: --instructor hides {secret!r} in {where}"
