"""Plain-text feedback for one check, shared by the platform formats (Gradescope, Classroom, JUnit, Exercism).

It says what the table says, without markup and in the current language: the message (hidden
checks keep the details of a wrong answer to themselves), the named mistake, the hint. Learner
output is shown only for visible checks and only its tail.
"""

from __future__ import annotations

import math
import re
import shlex
from pathlib import PurePath

from grader.i18n import current
from grader.messages import t
from grader.results import CheckResult, ProblemResult, Status

#: Colour of each status in the terminal.
STATUS_COLOURS = {
    Status.PASS: "green",
    Status.FAIL: "red",
    Status.ERROR: "red",
    Status.TIMEOUT: "magenta",
    Status.NOT_ATTEMPTED: "yellow",
    Status.SKIPPED: "dim",
}


def status_word(status: Status, lang: str | None = None) -> str:
    """One word per status for people: PASS, FAIL, ERROR, TIMEOUT, TODO, SKIP (通过, 未通过, ...)."""
    return t(f"status.{status.value}", lang)


def points(value: float) -> str:
    """Points for people: ``1``, ``0.5``, ``7.25``, ``10.33`` (two decimals at most, no trailing zeros).

    Rounded *down*, so that a score never reads as more than it is (64.998 of 65 is not "65/65").
    Every human format uses this; machine formats (JSON, CSV, JUnit attributes) keep exact numbers.
    """
    hundredths = math.floor(value * 100 + 1e-6)
    text = f"{hundredths / 100:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def plain(text: str) -> str:
    """``text`` as valid Unicode: lone surrogates (which a learner's exception can carry) become "?"."""
    return text.encode("utf-8", "replace").decode("utf-8")


#: Terminal escape sequences (colours, cursor moves, titles) as a whole, then any other control byte.
_ESCAPES = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-_])")
_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def unix_text(text: str) -> str:
    """Plain text with Unix line endings: ``\r\n`` becomes ``\n``; a line rewritten with ``\r``
    (a progress bar) keeps what a terminal would show last; escape sequences and other control
    bytes are removed (tab and newline stay)."""
    lines = plain(text).replace("\r\n", "\n").split("\n")
    shown = [next((part for part in reversed(line.split("\r")) if part), "") for line in lines]
    return _CONTROLS.sub("", _ESCAPES.sub("", "\n".join(shown)))


def check_feedback(check: CheckResult, *, verbose: bool = False, lang: str | None = None) -> str:
    """The message, the mistake and the hint of a check that did not pass ("" for a pass)."""
    if check.status is Status.PASS:
        return ""
    lang = lang or current()
    parts = []
    if check.visibility == "hidden" and check.status is Status.FAIL and not verbose:
        parts.append(t("feedback.hidden_fail", lang))
    elif check.message.get(lang):
        parts.append(plain(check.message.get(lang)))
    if check.diagnosis is not None:
        parts.append(t("feedback.mistake", lang, title=check.diagnosis.title))
    if check.hint:
        parts.append(t("feedback.hint", lang, hint=check.hint))
    if check.reveal:
        parts.append(plain(t("feedback.reveal", lang, reveal=check.reveal)))
    return "\n".join(parts)


def learner_output(check: CheckResult, *, limit: int, verbose: bool = False) -> str:
    """The tail of what the learner's code printed during the check; nothing for hidden checks."""
    text = plain(check.output).rstrip()
    if not text or (check.visibility == "hidden" and not verbose):
        return ""
    if len(text) > limit:
        text = "…" + text[-(limit - 1):]
    return text


def learner_file(result: ProblemResult) -> str:
    """The graded file's name, as the learner knows it."""
    return PurePath(result.submission).name or result.problem


def grade_command(result: ProblemResult) -> str:
    """The command that grades this file again, from where it was graded."""
    if result.submission in (f"{result.problem}.py", f"{result.problem}.yaml", "qa.yaml", ""):
        return f"grade {result.problem}"
    return f"grade {result.problem} --file {shlex.quote(result.submission)}"


#: How to try again, by where the learner reads the result: a terminal, a submission site, a repository,
#: a terminal under ``grade NAME --watch``, a notebook's ``%%grade`` cell.
AGAIN = ("grade", "submit", "push", "save", "cell")


def next_step(result: ProblemResult, again: str = "grade", lang: str | None = None) -> str | None:
    """For a file that could not be graded: the one thing to do now ("Fix line 3 of x.py, then ...")."""
    if result.error is None:
        return None
    lang = lang or current()
    then = t(f"feedback.again_{again}", lang, **({"command": grade_command(result)} if again == "grade" else {}))
    if result.error_line is not None:
        return t("feedback.next_line", lang, line=result.error_line, file=learner_file(result), again=then)
    return t("feedback.next_file", lang, file=learner_file(result), again=then)


def not_graded(result: ProblemResult, again: str, lang: str | None = None) -> tuple[str, str]:
    """(title, message) of the one entry that says why a file could not be graded and what to do."""
    lang = lang or current()
    title = t("feedback.not_graded", lang, file=learner_file(result))
    error = plain(result.error.get(lang)) if result.error is not None else ""
    return title, f"{error}\n{next_step(result, again, lang)}"


def not_run(result: ProblemResult, lang: str | None = None) -> str:
    """What a check that did not run says, where a format needs a word per check."""
    return t("feedback.not_run", lang or current(), file=learner_file(result))


def summary_line(
    result: ProblemResult, again: str = "submit", lang: str | None = None, *, scored: tuple[float, float] | None = None
) -> str:
    """``self_attention: 7.5/10 points`` plus why, when it could not be graded (then a second line:
    the next step, ``again`` saying how to try again) or was not attempted.

    ``scored``: the (score, max) to show instead of the problem's total (the visible checks only,
    where the total must stay hidden)."""
    lang = lang or current()
    score, max_score = scored if scored is not None else (result.score, result.max_score)
    line = t("feedback.points_line", lang, problem=result.problem, score=points(score), max_score=points(max_score))
    if result.error:
        said = t("feedback.could_not_grade", lang, line=line, error=plain(result.error.get(lang)))
        return f"{said}\n{next_step(result, again, lang)}"
    if result.not_attempted:
        return t("feedback.not_attempted", lang, line=line, file=learner_file(result))
    return line
