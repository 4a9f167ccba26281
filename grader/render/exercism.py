"""``--format exercism``: Exercism's test-runner ``results.json``, version 3.

Exercism has no points, only statuses. The top-level ``status`` is ``pass`` at full marks,
``error`` when nothing could run (the file did not load: ``message`` says why) and ``fail``
otherwise. Each check is a test, in spec order (Exercism shows the first failure): ``pass``,
``fail`` (wrong answer, not attempted, skipped) or ``error`` (raised, timed out), with the
feedback as ``message``, at most 500 characters of what the learner's code printed as
``output`` (Python's warnings, numpy's "overflow encountered" included, are not the learner's
output and are left out, as the interface asks), ``test_code`` (the command that grades it and
the check: tests are hidden, so this is what a learner can run) and ``task_id``: the entry point
the check exercised, numbered as the problem's ``entry_points`` (an Exercism exercise lists one
task per function, in that order), when it exercised exactly one. ``integrations/exercism/bin/run.sh``
is the runner's entry point.
"""

from __future__ import annotations

import json
import re
from typing import Any

from grader.messages import t
from grader.render.feedback import check_feedback, learner_output, not_graded, not_run
from grader.results import ProblemResult, Status

OUTPUT_LIMIT = 500
TRUNCATED = "Output was truncated. Please limit to 500 chars"
MESSAGE_LIMIT = 65535
#: A warning as Python prints it ("file.py:12: RuntimeWarning: overflow ...") and its source line, if shown.
_WARNING = re.compile(r"^[^\n]*:\d+: \w*Warning: [^\n]*(?:\n {2}[^\n]*)?(?:\n|$)", re.MULTILINE)


def without_warnings(text: str) -> str:
    """What the learner printed, without the warnings Python and numpy printed for them."""
    return _WARNING.sub("", text).strip("\n")


def _output(text: str) -> str:
    if len(text) <= OUTPUT_LIMIT:
        return text
    keep = OUTPUT_LIMIT - len(TRUNCATED) - 1
    return text[:keep] + "\n" + TRUNCATED


def exercism_results(results: list[ProblemResult], *, verbose: bool = False) -> dict[str, Any]:
    prefix = len(results) > 1
    errors = [not_graded(r, "submit")[1] for r in results if r.error]
    if results and len(errors) == len(results):
        return {"version": 3, "status": "error", "message": "\n".join(errors)[:MESSAGE_LIMIT], "tests": []}
    tests = []
    for result in results:
        if result.error is not None:  # grade all: one problem did not load, the others did
            title, message = not_graded(result, "submit")
            tests.append({"name": f"{result.problem}: {title}", "status": "error", "message": message[:MESSAGE_LIMIT]})
        for check in result.checks:
            status = "pass" if check.status is Status.PASS else (
                "error" if check.status in (Status.ERROR, Status.TIMEOUT) else "fail"
            )
            test: dict[str, Any] = {
                "name": f"{result.problem}: {check.title.get()}" if prefix else check.title.get(),
                "status": status,
                "message": (check_feedback(check, verbose=verbose) or (not_run(result) if result.error else "")
                            or check.status.value)[:MESSAGE_LIMIT]
                if status != "pass" else None,
            }
            test["test_code"] = t("exercism.test_code", problem=result.problem, check=check.id)
            if check.task is not None:
                test["task_id"] = check.task
            output = without_warnings(learner_output(check, limit=10 * OUTPUT_LIMIT, verbose=verbose))
            if output:
                test["output"] = _output(output)
            tests.append(test)
    passed = all(r.status == "pass" for r in results)
    return {"version": 3, "status": "pass" if passed else "fail", "message": None, "tests": tests}


def render_exercism(results: list[ProblemResult], *, verbose: bool = False, combined: bool = False) -> str:
    return json.dumps(exercism_results(results, verbose=verbose), indent=2, ensure_ascii=False)
