"""The grade CLI end to end with CliRunner: exit codes and the exact one-line errors."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from conftest import CORPUS
from grader import __version__
from grader.cli import cli

REFERENCE = Path(__file__).resolve().parents[1] / "reference" / "self_attention.py"


@pytest.fixture(name="workdir")
def _workdir(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("GRADER_SEED", raising=False)
    return tmp_path


def test_full_score_exits_0_and_prints_the_table(runner, workdir) -> None:
    """grade NAME grades ./NAME.py; a full score exits 0."""
    shutil.copy(REFERENCE, workdir / "self_attention.py")
    result = runner.invoke(cli, ["self_attention"])
    assert result.exit_code == 0, result.output
    assert "All checks pass: 10/10" in result.output


def test_partial_score_exits_1_with_named_hint(runner, workdir) -> None:
    """A graded but imperfect file exits 1 and the table names the mistake."""
    result = runner.invoke(cli, ["self_attention", "--file", str(CORPUS / "self_attention" / "missing_scale.py")])
    assert result.exit_code == 1
    assert "You forgot the 1/sqrt(d_k) scale" in " ".join(result.output.split())


def test_json_output_has_the_exact_schema(runner, workdir) -> None:
    """--format json prints the documented keys, per check too."""
    shutil.copy(REFERENCE, workdir / "self_attention.py")
    result = runner.invoke(cli, ["self_attention", "--format", "json", "--seed", "99"])
    data = json.loads(result.output)
    assert list(data)[:8] == [
        "problem", "score", "max_score", "status", "seed", "grader_version", "duration_ms", "isolation"
    ]
    assert data["seed"] == 99 and data["grader_version"] == __version__ and data["status"] == "pass"
    assert set(data["checks"][0]) == {
        "id", "title", "status", "score", "max_score", "visibility", "message", "hint", "diagnosis", "duration_ms",
        "task",
    }


def test_verbose_keeps_hidden_checks_hidden_and_instructor_shows_them(runner, workdir) -> None:
    """-v adds timings and visible output; a hidden check's inputs (its message) need --instructor."""
    wrong = str(CORPUS / "param_count" / "missing_final_norm.py")
    learner = json.loads(runner.invoke(cli, ["param_count", "--file", wrong, "--format", "json", "-v"]).output)
    hidden = [c for c in learner["checks"] if c["visibility"] == "hidden"]
    assert hidden and all(c["message"] == "hidden check: wrong answer" for c in hidden)
    assert not any("reveal" in c for c in learner["checks"])
    teacher = json.loads(runner.invoke(cli, ["param_count", "--file", wrong, "--format", "json", "--instructor"]).output)
    hidden = [c for c in teacher["checks"] if c["visibility"] == "hidden"]
    assert all("d_model=" in c["message"] and c["reveal"].startswith("the built model has") for c in hidden)


def test_seed_comes_from_the_environment(runner, workdir, monkeypatch) -> None:
    """GRADER_SEED sets the seed when --seed is absent."""
    shutil.copy(REFERENCE, workdir / "self_attention.py")
    monkeypatch.setenv("GRADER_SEED", "4321")
    result = runner.invoke(cli, ["self_attention", "--format", "json"])
    assert json.loads(result.output)["seed"] == 4321


def test_unknown_problem_suggests_the_closest(runner, workdir) -> None:
    result = runner.invoke(cli, ["self_atention"])
    assert result.exit_code == 2
    assert result.output == 'Error: Unknown problem "self_atention". Did you mean "self_attention"? Run "grade list" to see them all.\n'


def test_missing_file_says_how_to_start(runner, workdir) -> None:
    result = runner.invoke(cli, ["self_attention"])
    assert result.exit_code == 2
    assert result.output == (
        'Error: self_attention.py: no such file. Run "grade init self_attention" to create it, or pass --file PATH.\n'
    )


def test_missing_explicit_file(runner, workdir) -> None:
    result = runner.invoke(cli, ["self_attention", "--file", "nope.py"])
    assert result.exit_code == 2
    assert result.output == "Error: nope.py: no such file. Check the path.\n"


def test_non_utf8_file_is_a_clear_error(runner, workdir) -> None:
    (workdir / "self_attention.py").write_bytes(b"x = '\xff\xfe'\n")
    result = runner.invoke(cli, ["self_attention"])
    assert result.exit_code == 2
    assert result.output == "Error: self_attention.py: not UTF-8 text (byte 5); save it as UTF-8\n"


def test_bad_seed_environment_is_a_clear_error(runner, workdir, monkeypatch) -> None:
    shutil.copy(REFERENCE, workdir / "self_attention.py")
    monkeypatch.setenv("GRADER_SEED", "abc")
    result = runner.invoke(cli, ["self_attention"])
    assert result.exit_code == 2
    assert result.output == "Error: GRADER_SEED='abc' is not an integer; set it to a whole number\n"


def test_init_copies_the_stub_and_never_overwrites(runner, workdir) -> None:
    """init writes the stub; a second init refuses without --force and keeps the learner's work."""
    first = runner.invoke(cli, ["init", "self_attention"])
    assert first.exit_code == 0, first.output
    target = workdir / "self_attention.py"
    assert "raise NotImplementedError" in target.read_text()
    target.write_text("# my work\n")
    second = runner.invoke(cli, ["init", "self_attention"])
    assert second.exit_code == 2
    assert second.output == (
        "Error: self_attention.py already exists; pass --force to overwrite it (your work would be lost)\n"
    )
    assert target.read_text() == "# my work\n"
    forced = runner.invoke(cli, ["init", "self_attention", "--force"])
    assert forced.exit_code == 0 and "raise NotImplementedError" in target.read_text()


def test_init_into_a_folder(runner, workdir) -> None:
    result = runner.invoke(cli, ["init", "self_attention", "sub/dir"])
    assert result.exit_code == 0
    assert (workdir / "sub" / "dir" / "self_attention.py").is_file()


def test_stub_is_not_attempted_and_exits_1(runner, workdir) -> None:
    runner.invoke(cli, ["init", "self_attention"])
    result = runner.invoke(cli, ["self_attention", "--format", "json"])
    assert result.exit_code == 1
    data = json.loads(result.output)
    assert data["score"] == 0 and {c["status"] for c in data["checks"]} == {"not_attempted"}


def test_list_shows_problems_and_present_files(runner, workdir) -> None:
    shutil.copy(REFERENCE, workdir / "self_attention.py")
    rows = json.loads(runner.invoke(cli, ["list", "--format", "json"]).output)
    row = next(r for r in rows if r["name"] == "self_attention")
    assert row["present"] is True and row["points"] == 10


def test_list_follows_the_course_section_by_section(runner, workdir) -> None:
    """The order and the sections come from the specs (order:, group:), whatever problems exist."""
    rows = json.loads(runner.invoke(cli, ["list", "--format", "json"]).output)
    names, groups = [r["name"] for r in rows], [r["group"] for r in rows]
    assert names[:6] == ["self_attention", "multi_head_attention", "masks", "positional_encoding", "param_count", "qa"]
    assert names[6:8] == ["transformer_block", "additive_attention"]
    assert names[8:12] == ["kv_cache", "grouped_query_attention", "rotary_embedding", "flash_attention"]
    unplaced = [r["name"] for r in rows if r["group"] not in ("core", "course", "modern") or r["order"] is None]
    assert not unplaced, f"give {unplaced} an order: and a group: in spec.yaml (docs/authoring.md)"
    assert groups == sorted(groups, key=["core", "course", "modern"].index)  # each section in one piece
    table = runner.invoke(cli, ["list", "--lang", "zh"], env={"COLUMNS": "120"}).output
    headings = [table.index(h) for h in ("基础：从零实现注意力", "课程扩展", "现代：推理与长上下文")]
    assert headings == sorted(headings) and headings[1] < table.index("transformer_block") < headings[2]


def test_section_headings_never_widen_a_narrow_list_with_scores(runner, workdir, monkeypatch) -> None:
    """Below 80 columns with a grading history the titles give way; a heading then sits in the
    Problem column, cut to the names' width, and the table still fits."""
    from rich.cells import cell_len

    for name in ("GRADER_HISTORY", "CI", "GITHUB_ACTIONS"):  # a learner's laptop: history on
        monkeypatch.delenv(name, raising=False)
    shutil.copy(REFERENCE, workdir / "self_attention.py")
    assert runner.invoke(cli, ["self_attention"]).exit_code == 0  # writes the folder's history
    for columns in (50, 70):
        out = runner.invoke(cli, ["list"], env={"COLUMNS": str(columns)}).output
        assert max(cell_len(line.rstrip()) for line in out.splitlines()) <= columns, out
        assert "Last" in out and "Core: attention" in out and "Course additions" in out, out
        assert "Modern: inference and long context" not in out and "Modern: inference" in out, out  # cut


def test_show_prints_the_prompt(runner, workdir) -> None:
    result = runner.invoke(cli, ["show", "self_attention"])
    assert result.exit_code == 0
    assert "Scaled dot-product attention" in result.output and "grade init self_attention" in result.output


def test_show_unknown_problem(runner, workdir) -> None:
    result = runner.invoke(cli, ["show", "nope"])
    assert result.exit_code == 2
    assert result.output.startswith('Error: Unknown problem "nope".')


def test_all_grades_present_files_and_totals(runner, workdir) -> None:
    shutil.copy(REFERENCE, workdir / "self_attention.py")
    result = runner.invoke(cli, ["all", "--format", "json"])
    data = json.loads(result.output)
    assert [p["problem"] for p in data["problems"]] == ["self_attention"]
    assert data["score"] == data["max_score"] == 10
    assert result.exit_code == 0


def test_all_with_no_files_is_a_usage_error(runner, workdir) -> None:
    result = runner.invoke(cli, ["all"])
    assert result.exit_code == 2
    assert result.output == "Error: .: no learner files here. Start one with: grade init NAME (see grade list)\n"


def test_version(runner) -> None:
    result = runner.invoke(cli, ["--version"])
    assert result.output == f"grade, version {__version__}\n"


def test_invalid_private_bank_is_a_clear_error(runner, workdir) -> None:
    (workdir / "bank").mkdir()
    result = runner.invoke(cli, ["--problems-dir", "bank", "list"])
    assert result.exit_code == 2
    assert result.output == "Error: problem bank bank: no problems/ folder in it (a bank holds problems/ and reference/)\n"


def test_invalid_spec_names_file_and_key(runner, workdir) -> None:
    """A private bank's broken spec.yaml is one line naming the file and the key."""
    folder = workdir / "bank" / "problems" / "broken"
    folder.mkdir(parents=True)
    (workdir / "bank" / "reference").mkdir()
    (folder / "spec.yaml").write_text(
        "id: broken\ntitle: t\nsummary: s\nlearner_file: broken.py\nentry_points: [f]\n"
        "checks:\n  - {id: one, title: One, points: ten}\n"
    )
    result = runner.invoke(cli, ["--problems-dir", "bank", "show", "broken"])
    assert result.exit_code == 2
    assert result.output == "Error: bank/problems/broken/spec.yaml: checks[0].points: expected a number, got 'ten'\n"
