"""``--format exercism``: Exercism's test-runner ``results.json``, version 3.

Exercism has no points, only statuses. The top-level ``status`` is ``pass`` at full marks,
``error`` when nothing could run (the file did not load: ``message`` says why) and ``fail``
otherwise. Each check is a test, in spec order (Exercism shows the first failure): ``pass``,
``fail`` (wrong answer, not attempted, skipped) or ``error`` (raised, timed out), with the
feedback as ``message`` and at most 500 characters of learner ``output``.
"""

from __future__ import annotations

import json
from typing import Any

from grader.render.feedback import check_feedback, learner_output, plain
from grader.results import ProblemResult, Status

OUTPUT_LIMIT = 500
TRUNCATED = "Output was truncated. Please limit to 500 chars"
MESSAGE_LIMIT = 65535


def _output(text: str) -> str:
    if len(text) <= OUTPUT_LIMIT:
        return text
    keep = OUTPUT_LIMIT - len(TRUNCATED) - 1
    return text[:keep] + "\n" + TRUNCATED


def exercism_results(results: list[ProblemResult], *, verbose: bool = False) -> dict[str, Any]:
    prefix = len(results) > 1
    errors = [r.error for r in results if r.error]
    if results and len(errors) == len(results):
        return {"version": 3, "status": "error", "message": plain("\n".join(errors))[:MESSAGE_LIMIT], "tests": []}
    tests = []
    for result in results:
        for check in result.checks:
            status = "pass" if check.status is Status.PASS else (
                "error" if check.status in (Status.ERROR, Status.TIMEOUT) else "fail"
            )
            test: dict[str, Any] = {
                "name": f"{result.problem}: {check.title}" if prefix else check.title,
                "status": status,
                "message": (check_feedback(check, verbose=verbose) or check.status.value)[:MESSAGE_LIMIT]
                if status != "pass" else None,
            }
            output = learner_output(check, limit=10 * OUTPUT_LIMIT, verbose=verbose)
            if output:
                test["output"] = _output(output)
            tests.append(test)
    passed = all(r.status == "pass" for r in results)
    return {"version": 3, "status": "pass" if passed else "fail", "message": None, "tests": tests}


def render_exercism(results: list[ProblemResult], *, verbose: bool = False, combined: bool = False) -> str:
    return json.dumps(exercism_results(results, verbose=verbose), indent=2, ensure_ascii=False)
