"""``--format classroom``: the result a GitHub Classroom grading reporter reads, base64-encoded.

GitHub Classroom's ``autograding-grading-reporter`` reads, for each runner named in its
``runners`` input, the environment variable ``<RUNNER>_RESULTS``: base64 of a JSON document in
the command grader's version-1 layout. The points it stores are the sum of ``tests[].score`` over
runners, out of the sum of their ``max_score``; so each check is one test with its own ``score``,
and ``max_score`` is the sum of the checks' points. ``status`` is ``pass`` only at full marks.

Everything learner-controlled (messages, exception text, printed output) is neutralised so that no
line can be read as a workflow command (``::notice ...``, ``##[...]``) by the Actions runner, and
the readable log (:func:`render_log`, printed on stderr) is fenced in ``::stop-commands::TOKEN``
with a random token, as GitHub's legacy autograder did.
"""

from __future__ import annotations

import base64
import json
import re
import secrets
from typing import Any

from grader.messages import t
from grader.render.feedback import check_feedback, learner_output, not_graded, points, status_word, summary_line
from grader.results import ProblemResult, Status, total

OUTPUT_LIMIT = 1000  # characters of learner output kept per check in the log
_COMMAND_LINE = re.compile(r"^[\s\ufeff\u200b-\u200d\u2060]*::")
#: Terminal escape sequences: CSI (colours, cursor moves, erasing), OSC (titles, links), and the short ESC forms.
_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-Z\\-_]?")
#: Control characters other than tab (line breaks are handled as lines), DEL, and the C1 controls.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def neutralise(text: str) -> str:
    """``text`` with no line the Actions runner would execute as a workflow command, and no
    terminal escape or control byte (a learner could colour, erase or rewrite the log's lines).

    The runner reads a line as a command when, after leading whitespace, it starts with ``::``
    (and, in the legacy syntax, when ``##[`` appears anywhere). Escape sequences are removed, lines
    are split the way the runner splits them (``\\r`` too), other control bytes removed, then such
    lines get a ``| `` prefix and ``##[`` is broken up.
    """
    lines = []
    for line in _ANSI.sub("", text).splitlines():
        line = _CONTROL.sub("", line).replace("##[", "# #[")
        if _COMMAND_LINE.match(line):
            line = "| " + line
        lines.append(line)
    return "\n".join(lines)


def _status(results: list[ProblemResult]) -> str:
    if all(r.status == "pass" for r in results):
        return "pass"
    if all(r.status == "error" for r in results):
        return "error"
    return "fail"


def _test_status(status: Status) -> str:
    if status is Status.PASS:
        return "pass"
    return "error" if status in (Status.ERROR, Status.TIMEOUT) else "fail"


def _test(name: str, status: str, score: float, message: str, duration_ms: int = 0) -> dict[str, Any]:
    return {"name": neutralise(name), "status": status, "score": score, "message": neutralise(message),
            "test_code": "", "filename": "", "line_no": 0, "duration": duration_ms}


def runner_result(results: list[ProblemResult], *, verbose: bool = False) -> dict[str, Any]:
    """The version-1 runner document: one test per check (names prefixed when several problems).

    A file that could not be graded is one ``error`` test that says why and what to do, and its
    checks are plain ``fail`` tests: the reporter prints an "Error:" block for every ``error``
    test, and one is enough.
    """
    prefix = len(results) > 1
    tests = []
    for result in results:
        if result.error is not None:
            title, message = not_graded(result, "push")
            tests.append(_test(f"{result.problem}: {title}" if prefix else title, "error", 0, message))
        for check in result.checks:
            status = "fail" if result.error is not None and check.status is not Status.PASS else _test_status(
                check.status)
            name = f"{result.problem}: {check.title.get()}" if prefix else check.title.get()
            tests.append(_test(name, status, check.score, check_feedback(check, verbose=verbose), check.duration_ms))
    _, max_score = total(results)
    return {
        "version": 1,
        "status": _status(results),
        "max_score": max_score,
        "tests": tests,
        "grader_version": results[0].grader_version if results else "",
    }


def missing_result(test_name: str, max_score: float, message: str) -> dict[str, Any]:
    """The runner document for a problem that could not be graded at all (0 of ``max_score``)."""
    return {"version": 1, "status": "error", "max_score": max_score, "tests": [_test(test_name, "error", 0, message)]}


def encode(document: dict[str, Any]) -> str:
    """base64 of compact JSON: the value of the step output the reporter reads."""
    compact = json.dumps(document, separators=(",", ":"), ensure_ascii=False)
    return base64.b64encode(compact.encode("utf-8")).decode("ascii")


def render_classroom(results: list[ProblemResult], *, verbose: bool = False, combined: bool = False) -> str:
    """One line: the base64 runner result (``echo "result=$(grade NAME --format classroom)"``)."""
    return encode(runner_result(results, verbose=verbose))


def render_log(results: list[ProblemResult], *, verbose: bool = False) -> str:
    """The readable report for the Actions log, learner text fenced in ``::stop-commands::``."""
    token = secrets.token_hex(16)
    body = []
    for result in results:
        body.append(summary_line(result, "push"))
        for check in result.checks:
            label = status_word(check.status)
            body.append(f"  {label:<7} {check.title.get()}  [{points(check.score)}/{points(check.max_score)}]")
            details = check_feedback(check, verbose=verbose)
            output = learner_output(check, limit=OUTPUT_LIMIT, verbose=verbose)
            if output:
                details += ("\n" if details else "") + t("feedback.printed") + "\n" + output
            body.extend("          " + line for line in details.splitlines())
    lines = [f"::stop-commands::{token}", neutralise("\n".join(body)), f"::{token}::"]
    score, max_score = total(results)
    names = ", ".join(r.problem for r in results)
    version = results[0].grader_version if results else ""
    lines.append(t("feedback.log_total", names=names, score=points(score), max_score=points(max_score), version=version))
    return "\n".join(lines)
