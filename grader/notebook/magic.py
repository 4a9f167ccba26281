"""The IPython extension: ``%load_ext grader``, then a cell that starts with ``%%grade NAME``.

The cell is graded, not run: its body goes to a grading process of its own
(:mod:`grader.notebook.grade_cell`, started with the kernel's Python), which grades it exactly as
``grade NAME`` grades a file, learner code in the sandbox. The kernel shows the reply as a table:
HTML in a notebook (:mod:`grader.render.html`, heatmaps of failed checks inline), the terminal
table as the plain-text fallback. The kernel never executes the cell's code, so its functions do
not exist in the kernel afterwards (the table says so); the learner runs the code in a plain cell
to use it there.

Options after the name, as on the command line: ``--lang en|zh`` (default: ``GRADER_LANG``, else
the locale), ``--seed N``, ``--timeout SECONDS``, ``--sandbox MODE``, ``-v``, ``--no-history`` (a
grading is added to ``.grade-history.jsonl`` in the notebook's folder as ``grade NAME`` adds one,
:mod:`grader.history`, unless this or ``GRADER_HISTORY=off``). A mistake in them
(an unknown problem, a bad option) is one line (IPython's ``UsageError``), never a traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

from grader import i18n
from grader.messages import t

#: Started with ``python -c``: the notebook's folder is not put first on ``sys.path``, so a
#: learner's ``grader.py`` or ``numpy.py`` there cannot stand in for the real ones.
_START = "import sys; del sys.path[0]; from grader.notebook.grade_cell import main; main()"
#: What ipykernel sets for its own output (colours, a pager, matplotlib's inline backend): the grading
#: process writes plain text for a notebook, not for a terminal.
_KERNEL_ONLY = ("MPLBACKEND", "FORCE_COLOR", "CLICOLOR_FORCE", "CLICOLOR", "TERM", "PAGER", "GIT_PAGER")
#: Width of the plain-text table (a notebook has no terminal to measure).
TEXT_WIDTH = 100


class GradeReport:
    """A graded cell as the notebook shows it: ``_repr_html_`` (the table, hints and heatmaps),
    ``repr`` (the plain-text table); ``score``, ``max_score``, ``status`` and ``result`` (the
    ``--format json`` dict) for code that reads it."""

    def __init__(self, reply: dict[str, Any]):
        self.html, self.text, self.result = str(reply["html"]), str(reply["text"]), dict(reply["result"])

    @property
    def score(self) -> float:
        return float(self.result["score"])

    @property
    def max_score(self) -> float:
        return float(self.result["max_score"])

    @property
    def status(self) -> str:
        return str(self.result["status"])

    def _repr_html_(self) -> str:
        return self.html

    def __repr__(self) -> str:
        return self.text


class _Parser(argparse.ArgumentParser):
    """argparse that raises instead of printing usage and exiting (which would end the kernel's cell badly)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise ValueError(message)


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="%%grade", add_help=False)
    parser.add_argument("name")
    parser.add_argument("--lang", choices=i18n.LANGS, default=None)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--timeout", type=float, default=None)
    parser.add_argument("--sandbox", choices=("auto", "full", "user", "limits", "none"), default="auto")
    parser.add_argument("-v", "--verbose", action="store_true")
    parser.add_argument("--no-history", action="store_true")
    return parser


def parse(line: str, lang: str) -> argparse.Namespace:
    """The magic's options; ValueError with one line when they are wrong."""
    try:
        args, unknown = _parser().parse_known_args(shlex.split(line))
    except (argparse.ArgumentError, ValueError) as err:
        raise ValueError(t("notebook.magic_usage", lang, problem=str(err))) from None
    if unknown:
        raise ValueError(t("notebook.magic_usage", lang, problem=" ".join(unknown)))
    return args


def _language(explicit: str | None) -> str:
    try:
        return i18n.resolve(explicit)
    except ValueError:
        return i18n.DEFAULT  # the grading process says what is wrong with GRADER_LANG


def grade_cell(line: str, cell: str, folder: Path | None = None) -> GradeReport:
    """Grade ``cell`` (the body under ``%%grade`` + ``line``) in a grading process; ValueError
    (one line) for a mistake of the learner's or a failed grading."""
    lang = _language(None)
    args = parse(line, lang)
    lang = _language(args.lang)
    request = {
        "problem": args.name, "cell": cell, "magic": f"%%grade {line}", "cwd": str(folder or Path.cwd()),
        "lang": args.lang, "seed": args.seed, "timeout": args.timeout, "sandbox": args.sandbox,
        "verbose": args.verbose, "history": not args.no_history,
    }
    env = {k: v for k, v in os.environ.items() if k not in _KERNEL_ONLY}
    env.update({"COLUMNS": str(TEXT_WIDTH), "PYTHONIOENCODING": "utf-8"})
    done = subprocess.run(
        [sys.executable, "-c", _START], input=json.dumps(request), capture_output=True, text=True,
        encoding="utf-8", env=env, cwd=request["cwd"], check=False,
    )
    try:
        reply = json.loads(done.stdout)
    except ValueError:
        last = (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1]
        raise ValueError(t("notebook.grading_failed", lang, detail=last[:300])) from None
    if not reply.get("ok"):
        raise ValueError(str(reply.get("error", "")))
    return GradeReport(reply)


def grade_magic(line: str, cell: str) -> None:
    """``%%grade NAME [options]``: grade the cell and display the table."""
    from IPython.core.error import UsageError
    from IPython.display import display

    try:
        report = grade_cell(line, cell)
    except ValueError as err:
        raise UsageError(str(err)) from None
    display(report)


def load_ipython_extension(ipython: Any) -> None:
    """Register ``%%grade`` (IPython calls this for ``%load_ext grader``)."""
    ipython.register_magic_function(grade_magic, magic_kind="cell", magic_name="grade")
