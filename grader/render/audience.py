"""Who reads the output: what a learner may see of a result, and what only an instructor may.

Graded output (``grade NAME``, ``grade all``, the platform formats, a batch's per-student files)
is the **learner view** of the result model:

* a hidden check that fails says only "hidden check: wrong answer" (its message names the hidden
  inputs and the expected values), and one that raised names the exception and the line without
  the exception's text (the engine keeps that text in ``reveal``);
* nothing a hidden check's code printed is shown (learner code could print its hidden inputs);
* ``reveal`` (a qa question's answer and explanation, a hidden check's full message) is dropped.

``-v`` adds timings, the seed and the learner's output of visible checks, and still shows the
learner view. ``--instructor`` shows the result as it is: every message, every output, and
``reveal``. A batch's ``results.jsonl`` and ``report.html`` are for the instructor and keep it all.
"""

from __future__ import annotations

from dataclasses import replace

from grader.messages import text
from grader.results import CheckResult, ProblemResult, Status


def learner_view(results: list[ProblemResult]) -> list[ProblemResult]:
    """Copies of ``results`` holding only what a learner may read (the originals are untouched)."""
    return [replace(r, checks=[_learner_check(c) for c in r.checks]) for r in results]


def _learner_check(check: CheckResult) -> CheckResult:
    hidden = check.visibility == "hidden"
    # what a hidden check says about a wrong answer instead of its message (the inputs stay secret)
    message = text("feedback.hidden_fail") if hidden and check.status is Status.FAIL else check.message
    return replace(check, message=message, output="" if hidden else check.output, reveal=None)
