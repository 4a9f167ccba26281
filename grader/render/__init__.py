"""Renderers: each turns the one result model (grader.results) into one output format."""

from __future__ import annotations

from typing import Callable

from grader.results import ProblemResult

#: Formats for ``grade NAME`` and ``grade all``; each takes (results, verbose) and returns text.
FORMATS = ("table", "json")


def render(results: list[ProblemResult], fmt: str, *, verbose: bool = False, combined: bool = False) -> str:
    """Render one result (``combined=False``) or the ``grade all`` list in format ``fmt``."""
    renderer: Callable[..., str]
    if fmt == "json":
        from grader.render.json_format import render_json as renderer
    elif fmt == "table":
        from grader.render.table import render_table as renderer
    else:  # pragma: no cover - click restricts the choice
        raise ValueError(f"unknown format {fmt!r}")
    return renderer(results, verbose=verbose, combined=combined)
