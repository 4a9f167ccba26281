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

from grader.render.feedback import STATUS_WORDS, check_feedback, learner_output, points, summary_line
from grader.results import ProblemResult, Status, total

OUTPUT_LIMIT = 1000  # characters of learner output kept per check in the log
_COMMAND_LINE = re.compile(r"^[\s\ufeff\u200b-\u200d\u2060]*::")


def neutralise(text: str) -> str:
    """``text`` with no line the Actions runner would execute as a workflow command.

    The runner reads a line as a command when, after leading whitespace, it starts with ``::``
    (and, in the legacy syntax, when ``##[`` appears anywhere). Lines are split the way the
    runner splits them (``\\r`` too), then such lines get a ``| `` prefix and ``##[`` is broken up.
    """
    lines = []
    for line in text.splitlines():
        line = line.replace("##[", "# #[")
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


def runner_result(results: list[ProblemResult], *, verbose: bool = False) -> dict[str, Any]:
    """The version-1 runner document: one test per check (names prefixed when several problems)."""
    prefix = len(results) > 1
    tests = []
    for result in results:
        for check in result.checks:
            tests.append(
                {
                    "name": neutralise(f"{result.problem}: {check.title}" if prefix else check.title),
                    "status": _test_status(check.status),
                    "score": check.score,
                    "message": neutralise(check_feedback(check, verbose=verbose)),
                    "test_code": "",
                    "filename": "",
                    "line_no": 0,
                    "duration": check.duration_ms,
                }
            )
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
    return {
        "version": 1,
        "status": "error",
        "max_score": max_score,
        "tests": [
            {"name": test_name, "status": "error", "score": 0, "message": message,
             "test_code": "", "filename": "", "line_no": 0, "duration": 0}
        ],
    }


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
        body.append(summary_line(result))
        for check in result.checks:
            label = STATUS_WORDS[check.status]
            body.append(f"  {label:<7} {check.title}  [{points(check.score)}/{points(check.max_score)}]")
            details = check_feedback(check, verbose=verbose)
            output = learner_output(check, limit=OUTPUT_LIMIT, verbose=verbose)
            if output:
                details += ("\n" if details else "") + "Your code printed:\n" + output
            body.extend("          " + line for line in details.splitlines())
    lines = [f"::stop-commands::{token}", neutralise("\n".join(body)), f"::{token}::"]
    score, max_score = total(results)
    names = ", ".join(r.problem for r in results)
    version = results[0].grader_version if results else ""
    lines.append(f"{names}: {points(score)}/{points(max_score)} points (attention-grader {version})")
    return "\n".join(lines)
