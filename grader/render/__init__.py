"""Renderers: each turns the one result model (grader.results) into one output format."""

from __future__ import annotations

import importlib
import re
from pathlib import Path
from typing import Callable

from grader.render.audience import learner_view
from grader.results import ProblemResult

#: Formats for ``grade NAME`` and ``grade all``; each takes (results, verbose) and returns text.
FORMATS = ("table", "json", "gradescope", "classroom", "junit", "exercism")

#: format -> "module:function" of its renderer, imported only when used.
_RENDERERS = {
    "table": "grader.render.table:render_table",
    "json": "grader.render.json_format:render_json",
    "gradescope": "grader.render.gradescope:render_gradescope",
    "classroom": "grader.render.classroom:render_classroom",
    "junit": "grader.render.junit:render_junit",
    "exercism": "grader.render.exercism:render_exercism",
}

#: The file name each format is written to by :func:`write_student_files`.
FILE_NAMES = {
    "table": "report.txt",
    "json": "result.json",
    "gradescope": "results.json",
    "classroom": "classroom.json",
    "junit": "junit.xml",
    "exercism": "results.json",
}


def _renderer(fmt: str) -> Callable[..., str]:
    if fmt not in _RENDERERS:
        raise ValueError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
    module, attr = _RENDERERS[fmt].split(":")
    return getattr(importlib.import_module(module), attr)


def render(
    results: list[ProblemResult], fmt: str, *, verbose: bool = False, combined: bool = False, instructor: bool = False
) -> str:
    """Render one result (``combined=False``) or the ``grade all`` list in format ``fmt``.

    Learners get the learner view (:mod:`grader.render.audience`); ``instructor`` renders the
    result as it is, ``verbose`` details included.
    """
    shown = results if instructor else learner_view(results)
    return _renderer(fmt)(shown, verbose=verbose or instructor, combined=combined)


def log_text(results: list[ProblemResult], fmt: str, *, verbose: bool = False, instructor: bool = False) -> str | None:
    """What the CLI prints on stderr beside the output: the fenced Actions log for ``classroom``."""
    if fmt == "classroom":
        from grader.render.classroom import render_log

        return render_log(results if instructor else learner_view(results), verbose=verbose or instructor)
    return None


def write_student_files(
    results: list[ProblemResult], formats: list[str] | tuple[str, ...] | str, out_dir: Path, student: str
) -> list[Path]:
    """Write one student's results in each format to ``out_dir/<fmt>/<student>/<file>``; return the paths.

    For batch grading: ``results`` are all the problems of one student. The file names are the
    ones the platforms expect (``results.json`` for Gradescope and Exercism, ``junit.xml``); the
    ``classroom`` file holds the runner JSON itself, not its base64.
    """
    if isinstance(formats, str):
        formats = [formats]
    results = learner_view(results)  # these files are the students' own feedback
    safe = re.sub(r"[^A-Za-z0-9._@+-]", "_", student).lstrip(".") or "_"
    written = []
    for fmt in formats:
        if fmt == "classroom":
            import json

            from grader.render.classroom import runner_result

            text = json.dumps(runner_result(results), indent=2, ensure_ascii=False)
        else:
            text = _renderer(fmt)(results, verbose=False, combined=True)  # already the learner view
        path = Path(out_dir) / fmt / safe / FILE_NAMES[fmt]
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text + "\n", encoding="utf-8", errors="replace")
        written.append(path)
    return written
