"""``--format json``: the exact schema of ProblemResult.to_dict, or ``{"problems": [...]}`` for grade all.

Ids, statuses and field names are English whatever the language; titles, messages and hints are
in the current language (``--lang``). A result that could not be graded also says what to do
next (``next_step``).
"""

from __future__ import annotations

import json
from typing import Any

from grader.i18n import current
from grader.render.feedback import next_step
from grader.results import ProblemResult, total


def _problem(result: ProblemResult) -> dict[str, Any]:
    data = result.to_dict(current())
    if result.error is not None:
        data["next_step"] = next_step(result)
    return data


def render_json(results: list[ProblemResult], *, verbose: bool = False, combined: bool = False) -> str:
    if not combined:
        data = _problem(results[0])
        if verbose:
            data["output"] = {c.id: c.output for c in results[0].checks if c.output}
        return json.dumps(data, indent=2, ensure_ascii=False)
    score, max_score = total(results)
    data = {"problems": [_problem(r) for r in results], "score": score, "max_score": max_score}
    return json.dumps(data, indent=2, ensure_ascii=False)
