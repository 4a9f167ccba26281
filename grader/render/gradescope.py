"""``--format gradescope``: the ``results.json`` of Gradescope's autograder specification.

One test per check: ``score``, ``max_score``, ``status`` (``passed`` only at full marks), ``name``,
``number`` (``problem.check`` for ordering), ``output`` and ``visibility``. The top level holds the
total ``score``, ``execution_time`` in seconds and an ``output`` summary; ``extra_data`` (stored,
not shown to students) records the grader version and our own statuses.

Hidden checks take the Gradescope visibility named by ``GRADER_GRADESCOPE_HIDDEN``
(``hidden``, ``after_due_date``, ``after_published`` or ``visible``; default ``after_due_date``).
Gradescope hides a student's total while any test is hidden, hence the default.
"""

from __future__ import annotations

import json
import os
from typing import Any

from grader.errors import GraderError
from grader.render.feedback import check_feedback, learner_output, summary_line
from grader.results import ProblemResult, Status, total

#: Environment variable naming the Gradescope visibility of hidden checks.
HIDDEN_ENV = "GRADER_GRADESCOPE_HIDDEN"
VISIBILITIES = ("hidden", "after_due_date", "after_published", "visible")
DEFAULT_HIDDEN = "after_due_date"
OUTPUT_LIMIT = 2000  # characters of learner output kept per test


def hidden_visibility() -> str:
    value = os.environ.get(HIDDEN_ENV, "").strip() or DEFAULT_HIDDEN
    if value not in VISIBILITIES:
        raise GraderError(f"{HIDDEN_ENV}={value!r}: must be one of {', '.join(VISIBILITIES)}")
    return value


def gradescope_results(results: list[ProblemResult], *, verbose: bool = False) -> dict[str, Any]:
    """The results.json document for one submission (all its problems)."""
    hidden = hidden_visibility()
    tests = []
    for i, result in enumerate(results, start=1):
        for j, check in enumerate(result.checks, start=1):
            parts = [check_feedback(check, verbose=verbose)]
            output = learner_output(check, limit=OUTPUT_LIMIT, verbose=verbose)
            if output:
                parts.append("Your code printed:\n" + output)
            tests.append(
                {
                    "name": f"{result.problem}: {check.title}",
                    "number": f"{i}.{j}",
                    "score": check.score,
                    "max_score": check.max_score,
                    "status": "passed" if check.status is Status.PASS else "failed",
                    "output": "\n\n".join(p for p in parts if p),
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
    return {
        "score": score,
        "execution_time": round(sum(r.duration_ms for r in results) / 1000, 2),
        "output": "\n".join(summary_line(r) for r in results),
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


def render_gradescope(results: list[ProblemResult], *, verbose: bool = False, combined: bool = False) -> str:
    return json.dumps(gradescope_results(results, verbose=verbose), indent=2, ensure_ascii=False)
