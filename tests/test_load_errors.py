"""A file that does not load is one message, not one per check, in every format.

A syntax error, a missing import, ``sys.exit`` or ``os._exit`` at import, an endless loop at
module level: the result's ``error`` says it once, with the line; every check is ``error`` (or
``timeout``) with no message and no hint of its own; and there is one next step ("Fix line 3 of
self_attention.py, then run grade self_attention again"), worded for where the learner reads it.
"""

from __future__ import annotations

import base64
import dataclasses
import json
import shutil
from pathlib import Path

import pytest

from grader import engine
from grader.bank import ProblemBank
from grader.batch.gradebook import result_from_dict
from grader.cli import cli
from grader.render import feedback, render
from grader.render.classroom import render_log, runner_result
from grader.results import ProblemResult, Status

BANK = ProblemBank()
PROBLEM = BANK.get("self_attention")
REFERENCE = (Path(__file__).resolve().parents[1] / "reference" / "self_attention.py").read_text(encoding="utf-8")
#: A working solution with something that breaks the import at a known line.
BROKEN = {
    "syntax error": ("def helper(:\n    pass\n", 1, "SyntaxError in self_attention.py, line 1"),
    "missing import": ("import numpy_the_sequel\n", 1, "ModuleNotFoundError: No module named 'numpy_the_sequel'"),
    "sys.exit": ("import sys\n\nsys.exit('bye')\n", 3, "raised SystemExit: bye at self_attention.py, line 3"),
    "os._exit": ("import os\nos._exit(0)\n", None, "the process exited with status 0"),
}


def _broken_file(folder: Path, kind: str) -> Path:
    prefix, _, _ = BROKEN[kind]
    body = REFERENCE.replace("from __future__ import annotations\n", "")
    path = folder / "self_attention.py"
    path.write_text(prefix + body, encoding="utf-8")
    return path


@pytest.fixture(name="graded", scope="module", params=list(BROKEN))
def _graded(request, tmp_path_factory) -> tuple[str, ProblemResult]:
    folder = tmp_path_factory.mktemp(request.param.replace(" ", "_").replace(".", ""))
    return request.param, engine.grade(PROBLEM, _broken_file(folder, request.param))


def test_the_error_is_said_once_with_its_line_and_the_checks_are_quiet(graded) -> None:
    kind, result = graded
    _, line, said = BROKEN[kind]
    assert said in result.error.en and result.error_line == line
    assert result.status == "error" and result.score == 0
    assert {c.status for c in result.checks} == {Status.ERROR}
    assert all(c.message.en == "" and c.hint is None and c.diagnosis is None for c in result.checks)


def test_one_next_step_names_the_line_and_the_command(graded) -> None:
    kind, result = graded
    _, line, _ = BROKEN[kind]
    where = f"Fix line {line} of self_attention.py" if line else "Fix self_attention.py so that it loads"
    here = dataclasses.replace(result, submission="self_attention.py")
    assert feedback.next_step(here) == f"{where}, then run grade self_attention again."
    assert feedback.next_step(here, "push") == f"{where}, then commit and push again."
    elsewhere = dataclasses.replace(result, submission="work/mine.py")
    assert feedback.next_step(elsewhere).endswith("then run grade self_attention --file work/mine.py again.")


def _outputs(result: ProblemResult) -> dict[str, str]:
    texts = {fmt: render([result], fmt) for fmt in ("table", "json", "gradescope", "junit", "exercism")}
    texts["classroom log"] = render_log([result])
    texts["classroom reporter"] = base64.b64decode(render([result], "classroom")).decode("utf-8")
    return texts


def test_every_format_shows_the_error_once_and_no_check_hint(graded) -> None:
    _, result = graded
    hints = [c.hint.en for c in PROBLEM.spec.checks if c.hint]
    for fmt, text in _outputs(result).items():
        if fmt in ("json", "gradescope", "exercism", "classroom reporter"):
            text = json.dumps(json.loads(text), ensure_ascii=False)  # one string per line break
        flat = " ".join(text.split())  # the table wraps long lines
        assert flat.count(" ".join(result.error.en.split())) == 1, fmt
        assert flat.count("Fix ") == 1, fmt
        assert not [h for h in hints if " ".join(h.split()) in flat], fmt


def test_the_classroom_reporter_prints_one_error_block(graded) -> None:
    """GitHub's reporter prints an "Error:" block per `error` test: there is one, with the next step."""
    _, result = graded
    tests = runner_result([result])["tests"]
    errors = [t for t in tests if t["status"] == "error"]
    assert len(errors) == 1 and errors[0]["name"] == "self_attention.py could not be graded"
    assert result.error.en in errors[0]["message"] and "then commit and push again." in errors[0]["message"]
    assert len(tests) == len(result.checks) + 1 and sum(t["score"] for t in tests) == 0


def test_an_endless_loop_at_import_is_one_timeout(tmp_path: Path) -> None:
    path = tmp_path / "self_attention.py"
    path.write_text(REFERENCE + "\nwhile True:\n    pass\n", encoding="utf-8")
    result = engine.grade(PROBLEM, path, timeout_s=0.5)
    assert "did not finish within 0.5 s" in result.error.en and result.error_line is None
    assert {c.status for c in result.checks} == {Status.TIMEOUT}
    assert all(c.message.en == "" and c.hint is None for c in result.checks)


def test_a_malformed_answer_file_is_one_message_with_its_line(tmp_path: Path) -> None:
    path = tmp_path / "qa.yaml"
    path.write_text("why_sqrt_dk: B\nsoftmax_role: [A, C\n", encoding="utf-8")
    result = engine.grade(BANK.get("qa"), path)
    assert result.error.en.startswith("qa.yaml, line ") and result.error_line is not None
    assert all(c.status is Status.ERROR and c.message.en == "" and c.hint is None for c in result.checks)
    assert feedback.next_step(result).startswith(f"Fix line {result.error_line} of qa.yaml, then ")


def test_the_journal_keeps_the_line(graded) -> None:
    _, result = graded
    assert result_from_dict(result.to_dict()).error_line == result.error_line


def test_the_cli_prints_the_error_and_the_next_step(runner, tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    _broken_file(tmp_path, "syntax error")
    done = runner.invoke(cli, ["self_attention"])
    assert done.exit_code == 1
    assert done.output.count("SyntaxError in self_attention.py, line 1") == 1
    assert "Fix line 1 of self_attention.py, then run grade self_attention again." in done.output
    shutil.rmtree(tmp_path / "__pycache__", ignore_errors=True)

