"""``grade init NAME --notebook``: a starter notebook for Jupyter and Colab.

Four cells, in the chosen language: the prompt (markdown), an install cell (``%pip install``
of what :func:`grader.classroom_workflow.install_source` finds this grader was installed from,
as ``grade classroom init`` does; ``--install`` chooses), ``%load_ext grader``, and the stub under
``%%grade NAME``. An untouched starter notebook is "not attempted", as an untouched stub is.
The notebook is written as nbformat 4.5 JSON directly: writing one needs no extra package.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from grader.bank import Problem
from grader.errors import GraderError
from grader.messages import t

#: What the install cell shows, commented out, when no source Colab can reach is known.
PLACEHOLDER = "attention-grader @ git+https://github.com/ORG/attention-grader"


def colab_install(explicit: str | None = None) -> str | None:
    """What a Colab notebook can ``%pip install`` to get this grader: ``explicit``, else where this
    grader came from when Colab can reach it (an index, a git or archive URL), else None."""
    if explicit:
        return explicit
    from grader.classroom_workflow import install_source

    try:
        source = install_source()
    except GraderError:  # a local folder, or not installed with pip
        return None
    return source.spec if source.wheel is None else None  # a local wheel: Colab cannot reach it


def _lines(text: str) -> list[str]:
    """A cell's source as Jupyter stores it: lines that keep their newline, the last without."""
    lines = text.splitlines(keepends=True)
    if lines:
        lines[-1] = lines[-1].rstrip("\n")
    return lines


def _cell(kind: str, cell_id: str, text: str) -> dict[str, Any]:
    cell: dict[str, Any] = {"cell_type": kind, "id": cell_id, "metadata": {}, "source": _lines(text)}
    if kind == "code":
        cell.update(execution_count=None, outputs=[])
    return cell


def starter_notebook(problem: Problem, lang: str, install: str | None) -> dict[str, Any]:
    """The notebook as JSON data (nbformat 4.5)."""
    spec = problem.spec
    summary = spec.summary.get(lang).strip()
    if not summary.startswith("# "):  # a prompt with no heading of its own gets the title
        summary = f"# {spec.title.get(lang)}\n\n{summary}"
    prompt = f"{summary}\n\n{t('notebook.starter_howto', lang, name=problem.name)}"
    if install is None:
        setup = f"# {t('notebook.starter_no_install', lang)}\n# %pip install -q \"{PLACEHOLDER}\""
    else:
        setup = f"# {t('notebook.starter_install', lang)}\n%pip install -q \"{install}\""
    stub = problem.stub_for(lang).read_text(encoding="utf-8")
    cells = [
        _cell("markdown", "prompt", prompt),
        _cell("code", "install", setup),
        _cell("code", "load-grader", "%load_ext grader"),
        _cell("code", "solution", f"%%grade {problem.name}\n{stub}"),
    ]
    metadata = {
        "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
        "language_info": {"name": "python"},
    }
    return {"cells": cells, "metadata": metadata, "nbformat": 4, "nbformat_minor": 5}


def notebook_path(problem: Problem, directory: Path) -> Path:
    """``DIRECTORY/NAME.ipynb``."""
    return directory / (Path(problem.spec.learner_file).stem + ".ipynb")


def write(problem: Problem, target: Path, lang: str, install: str | None) -> None:
    """Write the starter notebook to ``target`` (the caller decides whether it may be replaced)."""
    text = json.dumps(starter_notebook(problem, lang, install), indent=1, ensure_ascii=False)
    target.write_text(text + "\n", encoding="utf-8")
