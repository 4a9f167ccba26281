"""``--format json``: the exact schema of ProblemResult.to_dict, or ``{"problems": [...]}`` for grade all."""

from __future__ import annotations

import json

from grader.results import ProblemResult, total


def render_json(results: list[ProblemResult], *, verbose: bool = False, combined: bool = False) -> str:
    if not combined:
        data = results[0].to_dict()
        if verbose:
            data["output"] = {c.id: c.output for c in results[0].checks if c.output}
        return json.dumps(data, indent=2, ensure_ascii=False)
    score, max_score = total(results)
    data = {"problems": [r.to_dict() for r in results], "score": score, "max_score": max_score}
    return json.dumps(data, indent=2, ensure_ascii=False)
