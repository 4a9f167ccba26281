"""Plain-text feedback for one check, shared by the platform formats (Gradescope, Classroom, JUnit, Exercism).

It says what the table says, without markup: the message (hidden checks keep the details of a wrong
answer to themselves), the named mistake, the hint. Learner output is shown only for visible checks
and only its tail.
"""

from __future__ import annotations

from pathlib import PurePath

from grader.results import CheckResult, ProblemResult, Status

#: What a hidden check says about a wrong answer instead of its message (the inputs stay secret).
HIDDEN_FAIL = "hidden check: wrong answer"

#: One word per status, for plain-text lines.
STATUS_WORDS = {
    Status.PASS: "PASS",
    Status.FAIL: "FAIL",
    Status.ERROR: "ERROR",
    Status.TIMEOUT: "TIMEOUT",
    Status.NOT_ATTEMPTED: "TODO",
    Status.SKIPPED: "SKIP",
}


def points(value: float) -> str:
    """``1``, ``0.5``, ``7.25``: points without trailing zeros."""
    return f"{value:g}"


def plain(text: str) -> str:
    """``text`` as valid Unicode: lone surrogates (which a learner's exception can carry) become "?"."""
    return text.encode("utf-8", "replace").decode("utf-8")


def check_feedback(check: CheckResult, *, verbose: bool = False) -> str:
    """The message, the mistake and the hint of a check that did not pass ("" for a pass)."""
    if check.status is Status.PASS:
        return ""
    parts = []
    if check.visibility == "hidden" and check.status is Status.FAIL and not verbose:
        parts.append(HIDDEN_FAIL)
    elif check.message:
        parts.append(plain(check.message))
    if check.diagnosis is not None:
        parts.append(f"Mistake: {check.diagnosis.title}")
    if check.hint:
        parts.append(f"Hint: {check.hint}")
    return "\n".join(parts)


def learner_output(check: CheckResult, *, limit: int, verbose: bool = False) -> str:
    """The tail of what the learner's code printed during the check; nothing for hidden checks."""
    text = plain(check.output).rstrip()
    if not text or (check.visibility == "hidden" and not verbose):
        return ""
    if len(text) > limit:
        text = "…" + text[-(limit - 1):]
    return text


def summary_line(result: ProblemResult) -> str:
    """``self_attention: 7.5/10 points`` plus why, when it could not be graded or was not attempted."""
    line = f"{result.problem}: {points(result.score)}/{points(result.max_score)} points"
    if result.error:
        return f"{line}. Could not grade: {plain(result.error)}"
    if result.not_attempted:
        learner_file = PurePath(result.submission).name or result.problem
        return f"{line}. Not attempted yet: edit {learner_file} and submit again."
    return line
