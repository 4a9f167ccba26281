"""grader/autograder.py, Gradescope's run_autograder: settings, finding the learner's files, what
the student is told, and the results file that always exists. (The whole run in a container on
hostile uploads: tests/test_gradescope_container.py.)"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from grader import autograder
from grader.errors import GraderError


def _touch(path: Path, text: str = "x = 1\n") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


@pytest.mark.parametrize(
    "uploaded",
    ["Masks.py", "masks (1).py", "masks(2).py", "MASKS.PY", "masks - Copy.py", "masks - Copy (3).py",
     "masks copy.py", "Masks copy 2.py"],
)
def test_names_students_and_browsers_give_the_file_are_found(tmp_path: Path, uploaded: str) -> None:
    _touch(tmp_path / uploaded)
    assert autograder.find_learner_file(tmp_path, "masks.py") == tmp_path / uploaded


@pytest.mark.parametrize("uploaded", ["masks_v2.py", "my_masks.py", "masks.py.bak", "masks (1).txt", "masksx.py"])
def test_other_files_are_not_taken_for_the_learner_file(tmp_path: Path, uploaded: str) -> None:
    _touch(tmp_path / uploaded)
    assert autograder.find_learner_file(tmp_path, "masks.py") is None


def test_the_exact_name_wins_then_case_then_copies_then_the_shallowest(tmp_path: Path) -> None:
    _touch(tmp_path / "masks (1).py")
    _touch(tmp_path / "deep" / "er" / "Masks.py")
    assert autograder.find_learner_file(tmp_path, "masks.py") == tmp_path / "deep" / "er" / "Masks.py"
    _touch(tmp_path / "deep" / "masks.py")
    assert autograder.find_learner_file(tmp_path, "masks.py") == tmp_path / "deep" / "masks.py"


def test_links_and_files_outside_the_upload_are_ignored(tmp_path: Path) -> None:
    outside = _touch(tmp_path / "reference" / "masks.py")
    upload = tmp_path / "upload"
    upload.mkdir()
    (upload / "masks.py").symlink_to(outside)
    (upload / "linked").symlink_to(outside.parent)
    assert autograder.find_learner_file(upload, "masks.py") is None


def test_settings_are_read_as_data(tmp_path: Path) -> None:
    env = _touch(tmp_path / "grader.env", 'PROBLEMS="self_attention masks"\nGRADER_SEED=77\n# note\n'
                                         "GRADER_GRADESCOPE_HIDDEN='hidden'\nGRADER_LANG=zh\nPATH=/evil\n")
    settings = autograder.read_settings(env)
    assert settings == autograder.Settings(("self_attention", "masks"), 77, "hidden", "zh")
    assert os.environ.get("GRADER_GRADESCOPE_HIDDEN") is None  # nothing exported
    assert autograder.read_settings(tmp_path / "missing.env") == autograder.Settings()


@pytest.mark.parametrize(("line", "message"), [("GRADER_SEED=abc", "whole number"), ("GRADER_LANG=fr", "en or zh"),
                                               ("just words", "KEY=VALUE")])
def test_bad_settings_name_the_file_and_key(tmp_path: Path, line: str, message: str) -> None:
    env = _touch(tmp_path / "grader.env", line + "\n")
    with pytest.raises(GraderError, match=message) as caught:
        autograder.read_settings(env)
    assert str(env) in str(caught.value)


def test_stage_copies_the_file_its_helpers_and_tells_the_student(tmp_path: Path, bank) -> None:
    upload, work = tmp_path / "upload", tmp_path / "work"
    work.mkdir()
    _touch(upload / "src" / "Self_Attention (1).py", "import helpers\n")
    _touch(upload / "src" / "helpers.py")
    _touch(upload / "src" / "not a module.py")
    _touch(upload / "src" / "self_attention.py.orig")
    _touch(upload / "src" / "Masks (2).py", "# another problem's file: graded as masks, not a helper\n")
    _touch(upload / "other" / "unrelated.py")
    problems = [bank.get("self_attention"), bank.get("masks"), bank.get("positional_encoding")]
    staged = autograder.stage(upload, work, problems, "en")
    assert sorted(p.name for p in work.iterdir()) == [
        "helpers.py", "masks.py", "positional_encoding.py", "self_attention.py"
    ]
    assert (work / "self_attention.py").read_text() == "import helpers\n"
    assert (work / "masks.py").read_text().startswith("# another problem's file")
    assert (work / "positional_encoding.py").read_bytes() == bank.get("positional_encoding").stub_file.read_bytes()
    assert staged.notes == [
        "self_attention: graded src/Self_Attention (1).py as self_attention.py.",
        "self_attention: your other files beside it were kept for it to import: helpers.py.",
        "masks: graded src/Masks (2).py as masks.py.",
        "positional_encoding: no positional_encoding.py or positional_encoding.ipynb in your upload, "
        "so it is graded as not attempted.",
    ]
    chinese = autograder.stage(upload, tmp_path, problems[:1], "zh").notes
    assert chinese[0] == "self_attention：已将 src/Self_Attention (1).py 作为 self_attention.py 评分。"


def test_a_notebook_is_graded_where_no_py_file_was_uploaded(tmp_path: Path, bank) -> None:
    from notebooks import split_at_defs, write_notebook

    from grader import engine

    upload, work = tmp_path / "upload", tmp_path / "work"
    work.mkdir()
    reference = (Path(__file__).parents[1] / "reference" / "masks.py").read_text(encoding="utf-8")
    (upload / "hw").mkdir(parents=True)
    write_notebook(upload / "hw" / "Masks (1).ipynb", ["md:# Masks", *split_at_defs(reference)])
    _touch(upload / "hw" / "helpers.py")
    _touch(upload / "self_attention.ipynb", "{}")  # a .py file of the same problem wins over it
    _touch(upload / "Self_Attention.py", "x = 2\n")
    problems = [bank.get("masks"), bank.get("self_attention"), bank.get("positional_encoding"), bank.get("qa")]
    staged = autograder.stage(upload, work, problems, "en")
    assert sorted(p.name for p in work.iterdir()) == [
        "helpers.py", "masks.ipynb", "positional_encoding.py", "qa.yaml", "self_attention.py"
    ]
    assert staged.notes == [
        "masks: graded hw/Masks (1).ipynb as masks.ipynb.",
        "masks: your other files beside it were kept for it to import: helpers.py.",
        "self_attention: graded Self_Attention.py as self_attention.py.",
        "positional_encoding: no positional_encoding.py or positional_encoding.ipynb in your upload, "
        "so it is graded as not attempted.",
        "qa: no qa.yaml in your upload, so it is graded as not attempted.",
    ]
    (tmp_path / "zh").mkdir()
    assert autograder.stage(upload, tmp_path / "zh", problems[2:3], "zh").notes == [
        "positional_encoding：你的提交中既没有 positional_encoding.py 也没有 positional_encoding.ipynb，因此按未作答评分。"
    ]
    result = engine.grade(bank.get("masks"), work / "masks.ipynb", sandbox_mode="limits")
    assert result.score == result.max_score


def test_lock_down_leaves_nothing_for_other_users(tmp_path: Path) -> None:
    for name in ("source/grader.env", "source/bank/reference/x.py", "submission/x.py", "results/results.json",
                 "submission_metadata.json"):
        _touch(tmp_path / name).chmod(0o644)
    autograder.lock_down(tmp_path)
    for path in [tmp_path, *tmp_path.rglob("*")]:
        assert stat.S_IMODE(path.stat().st_mode) & 0o077 == 0, path


def test_a_failed_run_still_leaves_results_that_replace_the_learners(tmp_path: Path) -> None:
    _touch(tmp_path / "source" / "grader.env", "PROBLEMS=no_such_problem\nGRADER_LANG=zh\n")
    _touch(tmp_path / "results" / "results.json", '{"score": 999}')
    assert autograder.main([str(tmp_path)]) == 0
    document = json.loads((tmp_path / "results" / "results.json").read_text())
    assert document["score"] == 0 and document["output"] == "自动评分程序无法为这次提交评分，请告诉你的老师。"
