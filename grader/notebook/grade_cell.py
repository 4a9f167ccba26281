"""Grade one ``%%grade`` cell in a process of its own, apart from the learner's kernel.

The cell magic (:mod:`grader.notebook.magic`) starts this module with the kernel's Python and
sends one request as JSON on stdin::

    {"problem": "self_attention", "cell": "<the cell's body>", "magic": "%%grade self_attention",
     "cwd": "/where/the/notebook/runs", "lang": "zh" | null, "seed": null, "timeout": null,
     "sandbox": "auto", "verbose": false, "history": true}

and reads one JSON reply on stdout: ``{"ok": true, "html": ..., "text": ..., "result": {...}}``
(the learner view, rendered in the language; ``result`` is ``--format json``'s schema) or
``{"ok": false, "error": "<one line>"}``.

So the kernel never imports the engine, numpy or torch for grading, never runs the learner's
code, and holds no reference solution: this process grades as ``grade NAME`` does, with the
same sandbox (the learner's code runs in a runner forked from a zygote, never here), and
nothing the learner ran in the kernel (a patched numpy, say) reaches the comparison.

A grading is added to the history in ``cwd`` as ``grade NAME`` adds one (:mod:`grader.history`,
file ``%%grade``), unless ``history`` is false or the history is off there (CI, Gradescope,
``GRADER_HISTORY=off``); a history that cannot be written is a line under the table.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import grader  # noqa: F401  (single-threaded environment before numpy/torch load)
from grader import i18n, submission
from grader.bank import Problem
from grader.errors import GraderError, GraderFault
from grader.messages import t, text
from grader.notebook.code import from_cells
from grader.submission import LearnerFiles


def cell_files(problem: Problem, magic: str, body: str, folder: Path) -> LearnerFiles:
    """What a ``%%grade`` cell gives the engine: its body (the line ``magic`` above it), named
    "this cell", as if it were ``folder/NAME.py`` (so that helper modules beside the notebook
    travel with it); the body of a data problem's cell (``qa``) is its answer file as it is."""
    path = folder / problem.spec.learner_file
    this_cell = text("notebook.this_cell")
    size = len(body.encode("utf-8", "replace"))
    if size > submission.MAX_FILE_BYTES:
        raise submission.too_large(this_cell.get(), size)
    if problem.spec.runtime == "data":
        return LearnerFiles(path, body, shown=this_cell)
    code = from_cells([(this_cell, this_cell, magic.rstrip("\n") + "\n" + body)], problem.name)
    helpers = submission.helper_modules(path, code.source)
    return LearnerFiles(path, code.source, helpers, code.spans, code.notes, shown=this_cell)


#: The history's ``file`` for a grading of a ``%%grade`` cell (it has no file).
HISTORY_FILE_NAME = "%%grade"


def grade_request(request: dict[str, Any]) -> dict[str, Any]:
    """The reply to one request (see the module docstring); never raises for a user's mistake."""
    from grader import engine
    from grader.bank import ProblemBank
    from grader.render.audience import learner_view
    from grader.render.html import render_html
    from grader.render.table import render_table

    try:
        lang = i18n.resolve(request.get("lang") or None)
    except ValueError:  # GRADER_LANG names no language: said as the CLI says it
        value = os.environ.get(i18n.LANG_ENV, "")
        return {"ok": False, "error": t("cli.bad_lang_env", i18n.DEFAULT, name=i18n.LANG_ENV, value=value,
                                        choices=", ".join(i18n.LANGS))}
    i18n.use(lang)
    try:
        problem = ProblemBank().get(str(request["problem"]))
        files = cell_files(problem, str(request["magic"]), str(request["cell"]), Path(str(request["cwd"])))
        sandbox = str(request.get("sandbox") or "auto")
        result = engine.grade(problem, files, seed=request.get("seed"), sandbox_mode=sandbox,
                              timeout_s=request.get("timeout"))
    except (GraderError, GraderFault) as err:
        return {"ok": False, "error": str(err)}
    warning = _record(result, Path(str(request["cwd"])), wanted=request.get("history", True) is not False)
    result.submission = t("notebook.this_cell", lang)  # "Edit this cell and grade again"
    shown = learner_view([result])
    verbose = bool(request.get("verbose"))
    footer = t("notebook.footer", lang, isolation=result.isolation, seed=result.seed, ms=result.duration_ms)
    footer += "\n" + t("notebook.not_run_here", lang) + (f"\n{warning}" if warning else "")
    return {
        "ok": True,
        "html": render_html(shown, verbose=verbose, lang=lang, again="cell", footer=footer),
        "text": render_table(shown, verbose=verbose, lang=lang, again="cell") + "\n" + footer,
        "result": shown[0].to_dict(lang),
    }


def _record(result: Any, folder: Path, wanted: bool) -> str | None:
    """Add the grading to ``folder``'s history (its file: :data:`HISTORY_FILE_NAME`); a warning or None."""
    from grader import history

    result.submission = HISTORY_FILE_NAME
    return history.record_where_kept([result], folder, "table", opted_out=not wanted)


def main() -> None:
    try:
        request = json.loads(sys.stdin.read())
        reply = grade_request(request)
    except (ValueError, KeyError, TypeError) as err:  # a request this module did not expect
        reply = {"ok": False, "error": text("notebook.grading_failed", detail=f"{type(err).__name__}: {err}").get()}
    sys.stdout.write(json.dumps(reply, ensure_ascii=False))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
