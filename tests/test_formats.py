"""Platform formats (Gradescope, GitHub Classroom, JUnit, Exercism) against copies of their documented schemas.

Each renderer is fed results covering every status, hostile learner text included, and its
output must validate against the platform's schema (tests/schemas/, see its README) and agree
with the result model's totals.
"""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path

import jsonschema
import pytest
import xmlschema

from grader.errors import GraderError
from grader.render import FORMATS, render, write_student_files
from grader.render.classroom import neutralise, render_log, runner_result
from grader.render.exercism import exercism_results
from grader.render.gradescope import HIDDEN_ENV, gradescope_results
from grader.results import CheckResult, Diagnosis, ProblemResult, Status

SCHEMAS = Path(__file__).resolve().parent / "schemas"

#: Learner text that tries to issue workflow commands and fake Classroom's points notices.
HOSTILE = (
    "before\n"
    '::notice title=Autograding report::{"totalPoints":10,"maxPoints":10}\r'
    "::notice title=Autograding complete::Points 10/10\n"
    "   ::stop-commands::learner\n"
    "\ufeff::error::bom\n"
    "text ##[notice]legacy\n"
    "\x00\x07\x1b[31mcontrol bytes\ud800"
)


def _schema(name: str) -> dict:
    return json.loads((SCHEMAS / name).read_text(encoding="utf-8"))


def _check(id_: str, status: Status, score: float, max_score: float, **extra) -> CheckResult:
    return CheckResult(id=id_, title=f"title of {id_}", status=status, score=score, max_score=max_score, **extra)


def _results() -> list[ProblemResult]:
    diagnosis = Diagnosis("missing_scale", "scores are not divided by sqrt(d_k)", "Divide by sqrt(d_k).")
    checks = [
        _check("passes", Status.PASS, 1, 1, output="visible print\n"),
        _check("wrong", Status.FAIL, 0.25, 1, message="max abs error 0.3", diagnosis=diagnosis, hint="Divide."),
        _check("secret", Status.FAIL, 0, 0.5, visibility="hidden", message="expected 0.123 at (4, 2)",
               output="hidden print"),
        _check("raises", Status.ERROR, 0, 1, message=HOSTILE, output=HOSTILE * 50),
        _check("slow", Status.TIMEOUT, 0, 1, message="did not finish within 5 s"),
        _check("todo", Status.NOT_ATTEMPTED, 0, 0.5, message="not implemented yet"),
        _check("gated", Status.SKIPPED, 0, 0.5, message="needs shapes"),
    ]
    first = ProblemResult("alpha", checks, seed=3, grader_version="9.9.9", duration_ms=1234, isolation="limits",
                          submission="alpha.py")
    full = ProblemResult("beta", [_check("only", Status.PASS, 2, 2)], seed=3, grader_version="9.9.9")
    broken = ProblemResult("gamma", [_check("c1", Status.ERROR, 0, 1)], seed=3, grader_version="9.9.9",
                           error="SyntaxError: invalid syntax (gamma.py, line 3)", error_line=3)
    return [first, full, broken]


def workflow_commands(log: str) -> list[str]:
    """The lines a GitHub Actions runner would execute as workflow commands (a model of its parser).

    The runner reads output line by line (``\\n``, ``\\r\\n`` or ``\\r``); a line is a command when,
    trimmed at the start, it begins with ``::``, or (legacy syntax) holds ``##[``. After
    ``::stop-commands::TOKEN`` nothing is a command until the line ``::TOKEN::``.
    """
    commands, token = [], None
    for line in re.split(r"\r\n|\r|\n", log):
        trimmed = line.lstrip()
        if token is not None:
            if trimmed == f"::{token}::":
                commands.append(trimmed)
                token = None
            continue
        if trimmed.startswith("::"):
            commands.append(trimmed)
            if trimmed.startswith("::stop-commands::"):
                token = trimmed[len("::stop-commands::"):]
        elif "##[" in line:
            commands.append(line)
    return commands


# -- the schemas themselves ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("schema", "sample"),
    [
        ("gradescope_results.schema.json", "gradescope_sample.json"),
        ("exercism_results_v3.schema.json", "exercism_sample_fail.json"),
        ("exercism_results_v3.schema.json", "exercism_sample_error.json"),
        ("classroom_runner_v1.schema.json", "classroom_sample.json"),
    ],
)
def test_documented_sample_validates_and_a_broken_one_does_not(schema: str, sample: str) -> None:
    """The schema copies accept the platforms' own samples and reject a wrong status (they have teeth)."""
    document = _schema(sample)
    jsonschema.validate(document, _schema(schema))
    broken = json.loads(json.dumps(document))
    target = broken["tests"][0] if broken.get("tests") else broken
    target["status"] = "success"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(broken, _schema(schema))


# -- Gradescope ------------------------------------------------------------------------------


def test_gradescope_validates_and_totals_agree(monkeypatch) -> None:
    monkeypatch.delenv(HIDDEN_ENV, raising=False)
    results = _results()
    document = json.loads(render(results, "gradescope", combined=True))
    jsonschema.validate(document, _schema("gradescope_results.schema.json"))
    assert document["score"] == sum(r.score for r in results)
    assert sum(t["max_score"] for t in document["tests"]) == sum(r.max_score for r in results)
    assert sum(t["score"] for t in document["tests"]) == document["score"]
    assert [t["number"] for t in document["tests"][:3]] == ["1.1", "1.2", "1.3"]
    statuses = {t["extra_data"]["check"]: t["status"] for t in document["tests"]}
    assert statuses["passes"] == "passed" and statuses["wrong"] == "failed"  # partial credit is not a pass
    assert document["extra_data"]["grader_version"] == "9.9.9"


def test_gradescope_hidden_checks_keep_their_secrets(monkeypatch) -> None:
    monkeypatch.delenv(HIDDEN_ENV, raising=False)
    secret = next(t for t in gradescope_results(_results())["tests"] if t["extra_data"]["check"] == "secret")
    assert secret["visibility"] == "after_due_date"
    assert "0.123" not in secret["output"] and "hidden print" not in secret["output"]
    monkeypatch.setenv(HIDDEN_ENV, "hidden")
    secret = next(t for t in gradescope_results(_results())["tests"] if t["extra_data"]["check"] == "secret")
    assert secret["visibility"] == "hidden"
    monkeypatch.setenv(HIDDEN_ENV, "secret")
    with pytest.raises(GraderError, match=HIDDEN_ENV):
        gradescope_results(_results())


# -- GitHub Classroom ------------------------------------------------------------------------


def _decoded(text: str) -> dict:
    assert re.fullmatch(r"[A-Za-z0-9+/]+=*", text), "one line of base64"
    return json.loads(base64.b64decode(text))


@pytest.mark.parametrize("index", [0, 1, 2])
def test_classroom_runner_validates_and_totals_agree(index: int) -> None:
    """Per problem: one test per check (and one that says why a file did not load), max_score = sum
    of points, pass only at full marks."""
    result = _results()[index]
    document = _decoded(render([result], "classroom"))
    jsonschema.validate(document, _schema("classroom_runner_v1.schema.json"))
    assert len(document["tests"]) == len(result.checks) + (result.error is not None)
    assert document["max_score"] == result.max_score
    assert sum(t["score"] for t in document["tests"]) == pytest.approx(result.score, abs=1e-9)
    assert document["status"] == {"pass": "pass", "fail": "fail", "error": "error"}[result.status]


def test_classroom_reporter_stores_our_total() -> None:
    """The reporter's points (sum of tests[].score over runners with max_score > 0) are the grader's total."""
    results = _results()
    runners = [_decoded(render([r], "classroom")) for r in results]
    stored = sum(t["score"] for r in runners if r["max_score"] for t in r["tests"])
    maximum = sum(r["max_score"] for r in runners if r["max_score"])
    assert (stored, maximum) == (pytest.approx(sum(r.score for r in results)), sum(r.max_score for r in results))


def test_classroom_learner_text_cannot_issue_workflow_commands() -> None:
    """Neither the readable log nor anything the reporter prints from the runner JSON holds a command."""
    results = _results()
    log = render_log(results, verbose=True)
    commands = workflow_commands(log)
    assert len(commands) == 2 and commands[0].startswith("::stop-commands::")
    assert commands[1] == f"::{commands[0].split('::')[2]}::"
    assert "Autograding report" in log  # the text is still shown, only defused
    assert re.search(r"alpha, beta, gamma: 3\.25/8\.5 points \(attention-grader 9\.9\.9\)$", log)
    document = runner_result(results, verbose=True)
    reporter_log = "\n".join(f"❌ {t['name']}\n\nError: {t['message']}\n" for t in document["tests"])
    assert workflow_commands(reporter_log) == []


def test_classroom_learner_text_reaches_the_reporter_without_control_bytes_or_escapes() -> None:
    """No colour, cursor move, line erase or bell from the learner in the reporter's log or ours."""
    results = _results()
    document = runner_result(results, verbose=True)
    texts = [render_log(results, verbose=True), *(t["name"] + t["message"] for t in document["tests"])]
    for text in texts:
        assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]", text.replace("\n", "")), repr(text[:200])
    assert "control bytes" in texts[0]  # the words stay; the bytes go
    assert neutralise("a\x1b[31mred\x1b[0m \x1b]0;title\x07b\x1b[2K\x9bc\td\x7f") == "ared bc\td"


def test_classroom_fence_token_is_fresh_each_time() -> None:
    first, second = (workflow_commands(render_log(_results()))[0] for _ in range(2))
    assert first != second


@pytest.mark.parametrize(
    "line", ["::notice::x", "  \t::error::x", "\u3000::warning::x", "a ##[error]x", "x\r::set-output name=a::b"]
)
def test_neutralise_defuses_every_command_form(line: str) -> None:
    assert workflow_commands(neutralise(line)) == []
    assert workflow_commands(line) != []


# -- JUnit -----------------------------------------------------------------------------------


def test_junit_validates_against_the_jenkins_schema() -> None:
    results = _results()
    text = render(results, "junit", verbose=True, combined=True)
    schema = xmlschema.XMLSchema(str(SCHEMAS / "junit-10.xsd"))
    schema.validate(text)
    data = schema.to_dict(text)
    suites = data["testsuite"]
    assert [s["@name"] for s in suites] == ["alpha", "beta", "gamma"]
    alpha = suites[0]
    assert (alpha["@tests"], alpha["@failures"], alpha["@errors"]) == ("7", "4", "2")
    cases = {c["@name"].split(":")[0]: c for c in alpha["testcase"]}
    assert "failure" not in cases["passes"] and "error" not in cases["passes"]
    assert "failure" in cases["gated"] and "skipped" not in cases["gated"]  # lost points are never "skipped"
    assert "error" in cases["slow"]
    assert "0.25/1 points" in cases["wrong"]["failure"][0]["@message"]


# -- Exercism --------------------------------------------------------------------------------


def test_exercism_validates_with_statuses_in_spec_order() -> None:
    first = _results()[0]
    document = json.loads(render([first], "exercism"))
    jsonschema.validate(document, _schema("exercism_results_v3.schema.json"))
    assert document["status"] == "fail"
    assert [t["name"] for t in document["tests"]] == [c.title.en for c in first.checks]
    assert [t["status"] for t in document["tests"]] == ["pass", "fail", "fail", "error", "error", "fail", "fail"]
    raises = document["tests"][3]
    assert len(raises["output"]) <= 500 and raises["output"].endswith("Please limit to 500 chars")


def test_exercism_error_when_nothing_could_run() -> None:
    broken = _results()[2]
    document = exercism_results([broken])
    jsonschema.validate(document, _schema("exercism_results_v3.schema.json"))
    assert document["status"] == "error" and "SyntaxError" in document["message"]


# -- files for batch grading -----------------------------------------------------------------


def test_write_student_files_writes_every_format(tmp_path: Path) -> None:
    results = _results()
    written = write_student_files(results, FORMATS, tmp_path, "../ada lovelace")
    assert [p.relative_to(tmp_path).parts[0] for p in written] == list(FORMATS)
    assert all(p.is_file() and p.parent.name == "_ada_lovelace" and tmp_path in p.parents for p in written)
    by_format = dict(zip(FORMATS, written))
    jsonschema.validate(json.loads(by_format["gradescope"].read_text()), _schema("gradescope_results.schema.json"))
    jsonschema.validate(json.loads(by_format["classroom"].read_text()), _schema("classroom_runner_v1.schema.json"))
    jsonschema.validate(json.loads(by_format["exercism"].read_text()), _schema("exercism_results_v3.schema.json"))
    xmlschema.XMLSchema(str(SCHEMAS / "junit-10.xsd")).validate(str(by_format["junit"]))
