"""The Jupyter extension, run as a learner runs it: real notebooks executed in a real IPython kernel.

``%load_ext grader`` then ``%%grade NAME`` cells: the table shows in the cell's output (HTML with
the inline heatmaps of failed checks, the plain-text table beside it), in the language asked for;
the learner's code runs in the sandbox of a grading process, never in the kernel, and mistakes in
the magic's line are one line. ``grade init NAME --notebook`` writes a starter notebook that runs
as it is and grades "not attempted" until the learner writes something.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from conftest import CORPUS, TESTS
from grader import engine
from grader.bank import ProblemBank
from grader.cli import cli
from notebooks import write_notebook

pytestmark = pytest.mark.slow

REFERENCE = (TESTS.parent / "reference" / "self_attention.py").read_text(encoding="utf-8")
INVERTED_MASK = (CORPUS / "self_attention" / "inverted_mask.py").read_text(encoding="utf-8")
KERNEL = "attention-grader-tests"


@pytest.fixture(name="kernel", scope="module")
def _kernel(tmp_path_factory) -> str:
    """A kernelspec for this test's Python (whatever kernels the machine has installed)."""
    folder = tmp_path_factory.mktemp("jupyter") / "kernels" / KERNEL
    folder.mkdir(parents=True)
    spec = {"argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
            "display_name": "attention-grader tests", "language": "python"}
    (folder / "kernel.json").write_text(json.dumps(spec), encoding="utf-8")
    mp = pytest.MonkeyPatch()
    mp.setenv("JUPYTER_PATH", str(folder.parents[1]))
    yield KERNEL
    mp.undo()


def _run(path: Path, kernel: str) -> nbformat.NotebookNode:
    """Execute the notebook at ``path`` in its folder, errors kept as outputs; the executed notebook."""
    notebook = nbformat.read(str(path), as_version=4)
    NotebookClient(notebook, timeout=300, kernel_name=kernel, allow_errors=True,
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    return notebook


def _shown(cell: nbformat.NotebookNode) -> dict[str, str]:
    """What a cell displayed, by MIME type (text/html, text/plain), and its stream and error text."""
    shown: dict[str, str] = {}
    for output in cell.outputs:
        if output.output_type in ("display_data", "execute_result"):
            for mime, data in output.data.items():
                shown[mime] = shown.get(mime, "") + str(data)
        elif output.output_type == "stream":
            shown["stream"] = shown.get("stream", "") + output.text
        elif output.output_type == "error":
            shown["error"] = f"{output.ename}: {output.evalue}\n" + "\n".join(output.traceback)
    return shown


@pytest.fixture(name="executed", scope="module")
def _executed(kernel, tmp_path_factory) -> list[dict[str, str]]:
    """One notebook holding every case, executed once (a kernel start costs seconds)."""
    folder = tmp_path_factory.mktemp("learner")
    cells = [
        "import os\nprint('kernel pid', os.getpid())",
        "%load_ext grader",
        # the reference, printing its process id when imported (shown with -v)
        "%%grade self_attention -v\nimport os\nprint('learner pid', os.getpid())\nGRADED_HERE = True\n" + REFERENCE,
        "print('GRADED_HERE' in globals(), 'scaled_dot_product_attention' in globals())",
        "%%grade self_attention --lang zh\n" + INVERTED_MASK,
        "%%grade no_such_problem\nx = 1",
        "%%grade self_attention --seed many\nx = 1",
        "%%grade self_attention\n\n\ndef softmax(x, axis=-1):\n    return x +\n",
    ]
    path = write_notebook(folder / "lesson.ipynb", cells)
    return [_shown(cell) for cell in _run(path, kernel).cells]


def test_a_graded_cell_shows_the_score_and_the_checks_as_html_and_text(executed) -> None:
    shown = executed[2]
    assert "error" not in shown, shown.get("error")
    html, plain = shown["text/html"], shown["text/plain"]
    for output in (html, plain):
        assert "self_attention: 10/10" in output and "boolean mask: True = may attend" in output
    assert "<table>" in html and "All checks pass: 10/10" in html and "┃ Status" in plain
    assert "\x1b[" not in plain  # plain text, not a terminal's colours


def test_the_learner_code_ran_in_the_sandbox_not_in_the_kernel(executed) -> None:
    kernel_pid = int(re.search(r"kernel pid (\d+)", executed[0]["stream"]).group(1))
    learner_pid = int(re.search(r"learner pid (\d+)", executed[2]["text/plain"]).group(1))
    assert learner_pid != kernel_pid
    assert re.search(r"isolation (limits|full|user)\b", executed[2]["text/plain"])  # a sandbox level, not "none"
    assert executed[3]["stream"].split() == ["False", "False"]  # the graded cell defined nothing in the kernel


def test_a_wrong_cell_gets_its_mistake_hint_and_heatmap_in_chinese(executed) -> None:
    html, plain = executed[4]["text/html"], executed[4]["text/plain"]
    assert "self_attention: 7.5/10" in html and "布尔掩码：True 表示可以关注" in html
    assert "错因：把掩码理解成了 True 表示屏蔽" in html and "提示：" in html
    assert "<svg" in html and 'class="heatmap"' in html  # the failed check's picture, inline
    assert "图示" in plain and "得分：7.5/10" in plain


def test_a_mistake_in_the_magic_line_is_one_line_not_a_traceback(executed) -> None:
    unknown, bad_option = executed[5], executed[6]  # IPython prints a UsageError as one line on stderr
    assert set(unknown) == {"stream"} == set(bad_option)
    assert unknown["stream"] == 'UsageError: Unknown problem "no_such_problem". Run "grade list" to see them all.\n'
    assert bad_option["stream"].startswith("UsageError: usage: %%grade NAME")
    assert "argument --seed: invalid int value: 'many'" in bad_option["stream"]
    assert bad_option["stream"].count("\n") == 1


def test_an_error_names_the_line_of_the_cell(executed) -> None:
    plain = executed[7]["text/plain"]
    assert "SyntaxError in this cell, line 5" in plain  # the %%grade line is line 1
    assert "Fix line 5 of this cell, then run the cell again." in plain


def test_the_starter_notebook_runs_as_written_and_is_not_attempted(kernel, tmp_path, runner, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    made = runner.invoke(cli, ["init", "self_attention", "--notebook", "--install", "attention-grader==0.1.0"])
    assert made.exit_code == 0, made.output
    path = tmp_path / "self_attention.ipynb"
    notebook = nbformat.read(str(path), as_version=4)
    nbformat.validate(notebook)
    sources = [c.source for c in notebook.cells]
    assert [c.cell_type for c in notebook.cells] == ["markdown", "code", "code", "code"]
    assert "Scaled dot-product" in sources[0] and '%pip install -q "attention-grader==0.1.0"' in sources[1]
    assert sources[2] == "%load_ext grader" and sources[3].startswith("%%grade self_attention\n")
    before = path.read_bytes()
    again = runner.invoke(cli, ["init", "self_attention", "--notebook"])
    assert again.exit_code == 2 and "already exists; pass --force" in again.output and path.read_bytes() == before
    assert engine.grade(ProblemBank().get("self_attention"), path).not_attempted  # as an untouched stub is
    notebook.cells[1].source = "# the grader is installed here"  # no network in the tests
    nbformat.write(notebook, str(path))
    shown = _shown(_run(path, kernel).cells[3])
    assert "Not attempted yet: 0/10" in shown["text/html"] and "TODO" in shown["text/plain"]


def test_a_starter_notebook_without_a_reachable_install_says_so(tmp_path, runner, monkeypatch) -> None:
    from grader.notebook import starter

    monkeypatch.setattr(starter, "colab_install", lambda explicit=None: explicit)  # as from a local folder
    made = runner.invoke(cli, ["init", "masks", str(tmp_path), "--notebook", "--lang", "zh"])
    assert made.exit_code == 0 and "--install SPEC" in made.output and "masks.ipynb" in made.output
    notebook = nbformat.read(str(tmp_path / "masks.ipynb"), as_version=4)
    assert notebook.cells[1].source.splitlines()[1].startswith("# %pip install")
    assert "注意力掩码" in notebook.cells[0].source and "在下面的 `%%grade masks` 单元格中" in notebook.cells[0].source


def test_learner_text_reaches_the_html_escaped(tmp_path) -> None:
    from grader.notebook.grade_cell import grade_request

    cell = "raise ValueError('<img src=x onerror=alert(1)>')\n" + REFERENCE
    reply = grade_request({"problem": "self_attention", "magic": "%%grade self_attention", "cell": cell,
                           "cwd": str(tmp_path), "lang": "en"})
    assert reply["ok"] and "ValueError" in reply["result"]["error"]
    assert "<img" not in reply["html"] and "&lt;img src=x onerror=alert(1)&gt;" in reply["html"]
    assert "at this cell, line 2" in reply["html"]


@pytest.fixture(name="local_run")
def _local_run(monkeypatch) -> None:
    """A learner's own machine: no CI, history on."""
    for name in ("CI", "GITHUB_ACTIONS", "GRADER_HISTORY"):
        monkeypatch.delenv(name, raising=False)


def test_a_graded_cell_is_added_to_the_history_of_the_notebooks_folder(tmp_path, local_run) -> None:
    from grader import history
    from grader.notebook.grade_cell import grade_request

    request = {"problem": "self_attention", "magic": "%%grade self_attention", "cwd": str(tmp_path), "lang": "en"}
    assert grade_request({**request, "cell": REFERENCE})["ok"]
    assert grade_request({**request, "cell": INVERTED_MASK, "history": True})["ok"]
    assert grade_request({**request, "cell": REFERENCE, "history": False})["ok"]  # %%grade NAME --no-history
    assert grade_request({**request, "cell": "def softmax(x, axis=-1):\n    return x +\n"})["ok"]  # not graded
    entries = history.History.load(tmp_path).entries
    assert [(e.problem, e.file) for e in entries] == [("self_attention", "%%grade")] * 2
    assert entries[0].score == entries[0].max_score > entries[1].score
    assert entries[1].mistakes


def test_a_history_that_cannot_be_written_is_a_line_under_the_table(tmp_path, local_run) -> None:
    from grader.history import HISTORY_FILE
    from grader.notebook.grade_cell import grade_request

    (tmp_path / HISTORY_FILE).mkdir()  # not a file: appending fails
    reply = grade_request({"problem": "self_attention", "magic": "%%grade self_attention", "cell": REFERENCE,
                           "cwd": str(tmp_path), "lang": "zh"})
    assert reply["ok"] and reply["result"]["score"] == reply["result"]["max_score"]
    assert HISTORY_FILE in reply["text"].splitlines()[-1]


def test_the_magic_takes_no_history(tmp_path) -> None:
    from grader.notebook.magic import parse

    assert parse("self_attention --no-history", "en").no_history
    assert not parse("self_attention", "en").no_history


def test_loading_the_extension_gives_the_kernel_its_thread_settings_back() -> None:
    import os
    import subprocess

    code = ("import os, grader; print(os.environ.get('OMP_NUM_THREADS'));"
            "grader.load_ipython_extension(type('Shell', (), {'register_magic_function': lambda *a, **k: None})());"
            "print(os.environ.get('OMP_NUM_THREADS'), os.environ.get('MKL_NUM_THREADS'))")
    env = {k: v for k, v in os.environ.items() if not k.endswith(("_NUM_THREADS", "_THREAD_LIMIT"))}
    env["MKL_NUM_THREADS"] = "4"
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["1", "None", "4"]  # 1 while grader is imported; the learner's afterwards
