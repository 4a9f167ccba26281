"""Notebook submissions: ``grade NAME --file x.ipynb`` and ``NAME.ipynb`` in a class grade the code cells.

A notebook is data to the grader (read with nbformat, never executed there); its code cells in
order become the source, IPython syntax left out and named, and that source runs in the sandbox
exactly as a ``.py`` file's does: the same code scores the same.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from conftest import CORPUS, TESTS, without_timings
from grader import engine
from grader.bank import ProblemBank
from grader.cli import cli
from grader.i18n import Text
from grader.notebook.code import from_cells, statement_starts
from grader.results import Status
from grader.submission import LearnerFiles
from notebooks import split_at_defs, write_notebook

BANK = ProblemBank()
ROOT = TESTS.parent
#: IPython lines a learner's notebook typically has; none of them is Python.
MAGICS = ["%pip install -q attention-grader\n!nvidia-smi", "%load_ext grader", "%%timeit\nsum(range(10))"]


def _notebook_of(source: str, path: Path) -> Path:
    """The code of ``source`` spread over cells, between markdown and IPython cells."""
    cells = ["md:# My attempt", *MAGICS[:2], *split_at_defs(source), "md:Trying it out", MAGICS[2]]
    return write_notebook(path, cells)


@pytest.mark.parametrize("problem, source", [
    ("self_attention", ROOT / "reference" / "self_attention.py"),
    ("self_attention", CORPUS / "self_attention" / "missing_scale.py"),
    pytest.param("multi_head_attention", ROOT / "reference" / "multi_head_attention.py", marks=pytest.mark.slow),
])
def test_a_notebook_scores_what_the_same_code_scores_as_a_py_file(tmp_path, problem: str, source: Path) -> None:
    py = tmp_path / f"{problem}.py"
    py.write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
    notebook = _notebook_of(source.read_text(encoding="utf-8"), tmp_path / f"{problem}.ipynb")
    as_py = engine.grade(BANK.get(problem), py, sandbox_mode="limits")
    as_notebook = engine.grade(BANK.get(problem), notebook, sandbox_mode="limits")
    assert as_notebook.score == as_py.score and as_notebook.status == as_py.status
    assert without_timings(as_notebook.to_dict(), drop=("notes",)) == without_timings(as_py.to_dict())
    assert as_py.notes == [] and len(as_notebook.notes) == 1
    if source.parent.name == "reference":
        assert as_notebook.score == as_notebook.max_score


def test_the_feedback_names_every_line_left_out_in_both_languages(tmp_path, runner, monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    notebook = _notebook_of((ROOT / "reference" / "self_attention.py").read_text(encoding="utf-8"),
                            tmp_path / "mine.ipynb")
    english = runner.invoke(cli, ["self_attention", "--file", str(notebook)])
    assert english.exit_code == 0, english.output
    said = ("Not graded (IPython, not Python): cell 2, line 1: %pip install -q attention-grader; "
            "cell 2, line 2: !nvidia-smi; cell 3, line 1: %load_ext grader; cell ")
    assert said in english.output and "(a %%timeit cell)" in english.output
    chinese = runner.invoke(cli, ["self_attention", "--file", str(notebook), "--lang", "zh"])
    assert "未参与评分（这些是 IPython 语法，不是 Python）：第 2 个单元格第 1 行：%pip install" in chinese.output
    assert "（%%timeit 单元格）" in chinese.output
    data = json.loads(runner.invoke(cli, ["self_attention", "--file", str(notebook), "--format", "json"]).output)
    assert data["score"] == data["max_score"] and data["notes"][0].startswith("Not graded (IPython")


def _solution_with(cell: str) -> list[str]:
    """The reference's cells with ``cell`` put before the last one (a learner's cell at a known place)."""
    cells = split_at_defs((ROOT / "reference" / "self_attention.py").read_text(encoding="utf-8"))
    return ["md:# Attention", *cells[:-1], cell, cells[-1]]


@pytest.mark.parametrize("cell, said", [
    ("x = 1\ndef broken(:\n    pass", "SyntaxError in mine.ipynb, cell {n}, line 2"),
    ("\n\nraise ValueError('at import')", "raised ValueError: at import at mine.ipynb, cell {n}, line 3"),
])
def test_a_line_in_error_is_named_by_its_cell_and_its_line_there(tmp_path, cell: str, said: str) -> None:
    cells = _solution_with(cell)
    notebook = write_notebook(tmp_path / "mine.ipynb", cells)
    result = engine.grade(BANK.get("self_attention"), notebook, sandbox_mode="limits")
    assert said.format(n=len(cells) - 1) in result.error.en, result.error
    assert "mine.ipynb 第" in result.error.zh and "个单元格" in result.error.zh
    assert result.error_line is None  # a line of a cell is not a line of the file: the message says where


def test_a_forbidden_call_is_named_by_its_cell(tmp_path) -> None:
    source = (ROOT / "reference" / "self_attention.py").read_text(encoding="utf-8")
    cells = ["md:# Attention", *split_at_defs(source.replace("np.exp(", "scipy_free_exp(")),
             "def scipy_free_exp(x):\n    import torch\n    return torch.exp(torch.as_tensor(x)).numpy()"]
    result = engine.grade(BANK.get("self_attention"), write_notebook(tmp_path / "mine.ipynb", cells),
                          sandbox_mode="limits")
    scratch = next(c for c in result.checks if c.id == "from_scratch")
    assert scratch.status is Status.FAIL
    assert f"(mine.ipynb, cell {len(cells)}, line 2)" in scratch.message.en, scratch.message


def test_ipython_syntax_is_found_only_where_a_statement_starts() -> None:
    lines = ["x = (10", "% 3)", 's = """', "!not a shell", '"""', "y = 3 \\", "  % 2", "!ls", "if y:", "    %time f()"]
    assert statement_starts(lines) == [True, False, True, False, False, True, False, True, True, True]
    code = from_cells([(Text.same("c1"), Text.same("c1"), "\n".join(lines))], None)
    assert code.source.splitlines() == [*lines[:7], "", "if y:", "    pass"]
    compile(code.source, "x.py", "exec")  # still Python, every line where it was


def test_future_imports_move_to_the_top_and_lines_keep_their_cells() -> None:
    cells = [(Text.same(f"c{n}"), Text.same(f"c{n}"), source) for n, source in
             enumerate(["import numpy as np", "from __future__ import annotations\ndef f(x: int) -> X:\n    pass"], 1)]
    code = from_cells(cells, None)
    compile(code.source, "x.py", "exec")
    assert code.source.splitlines()[0] == "from __future__ import annotations"
    line = code.source.splitlines().index("def f(x: int) -> X:") + 1
    assert LearnerFiles(Path("x.ipynb"), code.source, spans=code.spans).locate(line) == (Text.same("c2"), 2)


def test_grade_cells_of_another_problem_are_left_out(tmp_path) -> None:
    source = (ROOT / "reference" / "self_attention.py").read_text(encoding="utf-8")
    cells = ["%%grade masks\nraise SystemExit('not this one')", "%%grade self_attention\n" + source]
    result = engine.grade(BANK.get("self_attention"), write_notebook(tmp_path / "two.ipynb", cells),
                          sandbox_mode="limits")
    assert result.score == result.max_score
    assert "cell 1 (a %%grade masks cell)" in result.notes[0].en


@pytest.mark.parametrize("content", [b"{", b"", b"[1, 2]", b'{"cells": 3}', b'{"nbformat": 3, "worksheets": []}',
                                     b'{"nbformat": 4, "nbformat_minor": 5, "cells": []}', b"\xff\xfe{}"])
def test_a_corrupt_notebook_is_one_line_naming_the_file(tmp_path, runner, content: bytes) -> None:
    path = tmp_path / "broken.ipynb"
    path.write_bytes(content)
    result = runner.invoke(cli, ["self_attention", "--file", str(path)])
    assert result.exit_code == 2, result.output
    assert "broken.ipynb" in result.output and "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1, result.output


def test_without_nbformat_a_notebook_asks_for_the_jupyter_extra(tmp_path, runner, monkeypatch) -> None:
    notebook = write_notebook(tmp_path / "mine.ipynb", ["x = 1"])
    monkeypatch.setitem(sys.modules, "nbformat", None)  # import nbformat now raises ImportError
    result = runner.invoke(cli, ["self_attention", "--file", str(notebook)])
    assert result.exit_code == 2 and len(result.output.strip().splitlines()) == 1
    assert 'pip install "attention-grader[jupyter]"' in result.output and "mine.ipynb" in result.output
    py = tmp_path / "self_attention.py"
    py.write_text((ROOT / "reference" / "self_attention.py").read_text(encoding="utf-8"), encoding="utf-8")
    assert runner.invoke(cli, ["self_attention", "--file", str(py)]).exit_code == 0  # .py files need nothing


def test_grade_name_list_and_all_find_a_notebook_where_there_is_no_py(tmp_path, runner, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    _notebook_of((ROOT / "reference" / "self_attention.py").read_text(encoding="utf-8"),
                 tmp_path / "self_attention.ipynb")
    graded = runner.invoke(cli, ["self_attention", "--format", "json"])
    assert graded.exit_code == 0, graded.output
    listed = {row["name"]: row for row in json.loads(runner.invoke(cli, ["list", "--format", "json"]).output)}
    assert listed["self_attention"]["present"] and listed["self_attention"]["learner_file"] == "self_attention.ipynb"
    assert not listed["masks"]["present"]
    every = runner.invoke(cli, ["all", "--format", "json"])
    assert every.exit_code == 0 and "self_attention" in every.output


@pytest.mark.slow
def test_a_class_may_hand_in_notebooks_and_a_py_file_wins_over_its_notebook(tmp_path) -> None:
    from conftest import batch_results
    from grader.batch.run import BatchOptions, run_batch

    reference = (ROOT / "reference" / "self_attention.py").read_text(encoding="utf-8")
    subs = tmp_path / "subs"
    for student in ("alice", "bob", "carol"):
        (subs / student).mkdir(parents=True)
    _notebook_of(reference, subs / "alice" / "self_attention.ipynb")
    (subs / "bob" / "self_attention.py").write_text(reference, encoding="utf-8")
    write_notebook(subs / "bob" / "self_attention.ipynb", ["raise SystemExit('the notebook is not graded')"])
    (subs / "carol" / "self_attention.ipynb").write_text("{ not json", encoding="utf-8")
    run_batch(BatchOptions(subs, tmp_path / "out", problems=["self_attention"], jobs=1))
    results = batch_results(tmp_path / "out")
    alice, bob, carol = (results[(s, "self_attention")] for s in ("alice", "bob", "carol"))
    assert alice["score"] == alice["max_score"] and alice["notes"][0].startswith("Not graded (IPython")
    assert bob["score"] == bob["max_score"] and "notes" not in bob
    assert carol["score"] == 0 and "is not a Jupyter notebook the grader can read" in carol["error"]
    report = (tmp_path / "out" / "report.html").read_text(encoding="utf-8")
    assert "Not graded (IPython, not Python): cell 2, line 1: %pip install" in report  # alice's notebook
    grades = (tmp_path / "out" / "grades.csv").read_text(encoding="utf-8-sig")
    assert "self_attention.ipynb" in grades.split("bob", 1)[1].splitlines()[0]  # bob's notebook: flagged, not graded
