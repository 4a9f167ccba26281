"""``--format gradescope``: the ``results.json`` of Gradescope's autograder specification.

One test per check: ``score``, ``max_score``, ``status`` (``passed`` only at full marks), ``name``,
``number`` (``problem.check`` for ordering), ``output`` and ``visibility``. The top level holds the
total ``score``, ``execution_time`` in seconds and an ``output`` summary; ``extra_data`` (stored,
not shown to students) records the grader version and our own statuses.

Hidden checks take the Gradescope visibility named by ``GRADER_GRADESCOPE_HIDDEN``
(``hidden``, ``after_due_date``, ``after_published`` or ``visible``; default ``after_due_date``),
or the ``hidden`` argument (``run_autograder`` reads it from ``grader.env``). Gradescope hides a
student's total while any test is ``after_due_date`` or ``after_published``; the top-level
``output``, which students always see, then counts only the visible checks' points and says when
the rest appear. Every text is plain with Unix line endings (no ``\r``, no escape sequences or
other control bytes: the specification asks for plain text).
"""

from __future__ import annotations

import json
import os
from typing import Any

from grader.errors import GraderError
from grader.messages import t, text
from grader.render.feedback import check_feedback, learner_output, summary_line, unix_text
from grader.results import ProblemResult, Status, total

#: Environment variable naming the Gradescope visibility of hidden checks.
HIDDEN_ENV = "GRADER_GRADESCOPE_HIDDEN"
VISIBILITIES = ("hidden", "after_due_date", "after_published", "visible")
DEFAULT_HIDDEN = "after_due_date"
OUTPUT_LIMIT = 2000  # characters of learner output kept per test


#: Visibilities under which Gradescope hides the student's total until a date or a click.
HIDES_TOTAL = ("after_due_date", "after_published")

def hidden_visibility(value: str | None = None) -> str:
    """The visibility of hidden checks: ``value``, else ``GRADER_GRADESCOPE_HIDDEN``, else the default."""
    value = (value if value is not None else os.environ.get(HIDDEN_ENV, "")).strip() or DEFAULT_HIDDEN
    if value not in VISIBILITIES:
        raise GraderError(text("gradescope.bad_hidden", name=HIDDEN_ENV, value=value, choices=", ".join(VISIBILITIES)))
    return value


def gradescope_results(
    results: list[ProblemResult],
    *,
    verbose: bool = False,
    hidden: str | None = None,
    execution_time: float | None = None,
    notes: list[str] = (),
) -> dict[str, Any]:
    """The results.json document for one submission (all its problems).

    ``execution_time``: the run's wall time in seconds (default: the time spent grading checks).
    ``notes``: lines for the top of the student-visible ``output`` (what was graded).
    """
    hidden = hidden_visibility(hidden)
    tests = []
    for i, result in enumerate(results, start=1):
        for j, check in enumerate(result.checks, start=1):
            parts = [check_feedback(check, verbose=verbose)]
            output = learner_output(check, limit=OUTPUT_LIMIT, verbose=verbose)
            if output:
                parts.append(t("feedback.printed") + "\n" + output)
            tests.append(
                {
                    "name": unix_text(f"{result.problem}: {check.title.get()}"),
                    "number": f"{i}.{j}",
                    "score": check.score,
                    "max_score": check.max_score,
                    "status": "passed" if check.status is Status.PASS else "failed",
                    "output": unix_text("\n\n".join(p for p in parts if p)),
                    "visibility": hidden if check.visibility == "hidden" else "visible",
                    "extra_data": {
                        "problem": result.problem,
                        "check": check.id,
                        "status": check.status.value,
                        "diagnosis": check.diagnosis.id if check.diagnosis else None,
                    },
                }
            )
    score, _ = total(results)
    if execution_time is None:
        execution_time = sum(r.duration_ms for r in results) / 1000
    return {
        "score": score,
        "execution_time": round(execution_time, 2),
        "output": unix_text("\n".join([*notes, *_summary(results, hidden)])),
        "output_format": "text",
        "test_output_format": "text",
        "tests": tests,
        "extra_data": {
            "grader_version": results[0].grader_version if results else "",
            "problems": {
                r.problem: {"score": r.score, "max_score": r.max_score, "status": r.status, "isolation": r.isolation}
                for r in results
            },
        },
    }


def _summary(results: list[ProblemResult], hidden: str) -> list[str]:
    """One line per problem; while Gradescope hides the total, only the visible checks' points."""
    if hidden not in HIDES_TOTAL or not any(c.visibility == "hidden" for r in results for c in r.checks):
        return [summary_line(r, "submit") for r in results]
    lines = []
    for result in results:
        shown = [c for c in result.checks if c.visibility != "hidden"]
        scored = (sum(c.score for c in shown), sum(c.max_score for c in shown))
        lines.append(summary_line(result, "submit", scored=scored))
    return [*lines, t(f"gradescope.later.{hidden}")]


def render_gradescope(results: list[ProblemResult], *, verbose: bool = False, combined: bool = False) -> str:
    return json.dumps(gradescope_results(results, verbose=verbose), indent=2, ensure_ascii=False)
