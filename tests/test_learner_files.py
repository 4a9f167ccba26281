"""A learner's ordinary files (issue 21): a BOM, helper modules beside the solution, --file names."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from grader import submission
from grader.bank import ProblemBank
from grader.batch.run import BatchOptions, run_batch
from grader.cli import cli

BANK = ProblemBank()
PROBLEM = BANK.get("self_attention")
CORRECT = PROBLEM.reference_file.read_text(encoding="utf-8")
HELPER = (
    "import numpy as np\n\n\n"
    "def stable_softmax(x, axis=-1):\n"
    "    e = np.exp(x - np.max(x, axis=axis, keepdims=True))\n"
    "    return e / e.sum(axis=axis, keepdims=True)\n"
)
#: The reference, with softmax taken from a helper module beside it.
USES_HELPER = CORRECT + "\nfrom attention_helpers import stable_softmax as softmax  # noqa: E402\n"


def test_a_utf8_bom_grades_like_without(tmp_path, grade_file) -> None:
    """Windows Notepad saves UTF-8 with a byte-order mark; Python runs such a file, so do we."""
    path = tmp_path / "self_attention.py"
    path.write_bytes(b"\xef\xbb\xbf" + CORRECT.encode("utf-8"))
    assert grade_file("self_attention", path).score == 10


@pytest.mark.parametrize("sandbox", ["limits", "full"])
def test_a_helper_module_beside_the_solution_is_importable(tmp_path, grade_file, sandbox) -> None:
    (tmp_path / "attention_helpers.py").write_text(HELPER, encoding="utf-8")
    path = tmp_path / "self_attention.py"
    path.write_text(USES_HELPER, encoding="utf-8")
    if sandbox == "full":
        from grader.worker import bwrap

        if bwrap.unavailable_reason():
            pytest.skip(f"no bubblewrap here: {bwrap.unavailable_reason()}")
    assert grade_file("self_attention", path, sandbox_mode=sandbox).score == 10


def test_an_error_inside_a_helper_names_the_helper_and_its_line(tmp_path, grade_file) -> None:
    (tmp_path / "attention_helpers.py").write_text(HELPER.replace("return e /", "raise ValueError('oops')\n    return e /"),
                                                    encoding="utf-8")
    path = tmp_path / "self_attention.py"
    path.write_text(USES_HELPER, encoding="utf-8")
    result = grade_file("self_attention", path)
    softmax = next(c for c in result.checks if c.id == "softmax")
    assert "ValueError: oops at attention_helpers.py, line 6" in softmax.message.en


def test_only_imported_modules_travel_and_links_are_not_followed(tmp_path) -> None:
    (tmp_path / "attention_helpers.py").write_text("import inner\n", encoding="utf-8")
    (tmp_path / "inner.py").write_text("X = 1\n", encoding="utf-8")
    (tmp_path / "unrelated.py").write_text("Y = 2\n", encoding="utf-8")
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("", encoding="utf-8")
    (tmp_path / "pkg" / "part.py").write_text("Z = 3\n", encoding="utf-8")
    (tmp_path / "linked.py").symlink_to(tmp_path / "unrelated.py")
    source = "import numpy as np\nimport attention_helpers, pkg.part\nfrom linked import Y\n"
    path = tmp_path / "self_attention.py"
    path.write_text(source, encoding="utf-8")
    files = submission.read(path)
    assert sorted(files.helpers) == ["attention_helpers.py", "inner.py", "pkg/__init__.py", "pkg/part.py"]


def test_a_batch_grades_helper_modules_and_regrades_when_one_changes(tmp_path) -> None:
    subs = tmp_path / "subs"
    (subs / "ann").mkdir(parents=True)
    (subs / "ann" / "self_attention.py").write_text(USES_HELPER, encoding="utf-8")
    (subs / "ann" / "attention_helpers.py").write_text(HELPER, encoding="utf-8")
    out = tmp_path / "out"
    run_batch(BatchOptions(subs, out, problems=["self_attention"], jobs=1))
    first = json.loads((out / "results.jsonl").read_text(encoding="utf-8"))
    assert first["score"] == 10
    (subs / "ann" / "attention_helpers.py").write_text(HELPER.replace("e.sum", "2 * e.sum"), encoding="utf-8")
    summary = run_batch(BatchOptions(subs, out, problems=["self_attention"], jobs=1, resume=True))
    assert summary.graded == 1  # the helper changed, so the result did too
    assert json.loads((out / "results.jsonl").read_text(encoding="utf-8"))["score"] < 10


def test_errors_name_the_file_given_with_file(tmp_path, runner) -> None:
    other = tmp_path / "my_attempt.py"
    other.write_text("def softmax(x:\n", encoding="utf-8")
    result = runner.invoke(cli, ["self_attention", "--file", str(other)])
    assert "SyntaxError in my_attempt.py, line 1" in result.output
    assert "self_attention.py" not in result.output
    other.write_text("import numpy as np\n\ndef softmax(x, axis=-1):\n    return x\n", encoding="utf-8")
    result = runner.invoke(cli, ["self_attention", "--file", str(other)], env={"COLUMNS": "250"})
    assert "my_attempt.py does not define `scaled_dot_product_attention`" in result.output


def test_a_file_over_the_limit_is_one_line_with_the_limit(tmp_path, runner) -> None:
    path = tmp_path / "self_attention.py"
    path.write_text(CORRECT + "#" * (2 * 2**20), encoding="utf-8")
    result = runner.invoke(cli, ["self_attention", "--file", str(path)])
    assert result.exit_code == 2
    assert result.output.count("\n") == 1 and "is 2.0 MiB; the grader reads learner files up to 1 MiB" in result.output
