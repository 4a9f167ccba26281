"""The grading history (grader/history.py): what a local grading appends, when nothing is written,
a corrupt file, and what `grade list` and `grade progress` make of it, in both languages."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from conftest import CORPUS
from grader import history
from grader.cli import cli
from grader.results import CheckResult, ProblemResult, Status

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = ROOT / "reference" / "self_attention.py"
MISSING_SCALE = CORPUS / "self_attention" / "missing_scale.py"
HISTORY = history.HISTORY_FILE


@pytest.fixture(name="workdir")
def _workdir(tmp_path, monkeypatch):
    """A learner's folder, on a laptop: no CI variables, history on (conftest turns it off)."""
    monkeypatch.chdir(tmp_path)
    for name in ("GRADER_SEED", history.ENV, "CI", "GITHUB_ACTIONS"):
        monkeypatch.delenv(name, raising=False)
    return tmp_path


def _lines(folder: Path) -> list[dict]:
    path = folder / HISTORY
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()] if path.exists() else []


def _grade(runner, workdir: Path, source: Path, *args: str):
    shutil.copy(source, workdir / "self_attention.py")
    return runner.invoke(cli, ["self_attention", *args])


def test_each_local_grading_appends_one_line_of_ids_statuses_and_scores(runner, workdir) -> None:
    assert _grade(runner, workdir, MISSING_SCALE).exit_code == 1
    assert _grade(runner, workdir, REFERENCE).exit_code == 0
    first, second = _lines(workdir)
    assert first["v"] == 1 and first["problem"] == "self_attention" and first["file"] == "self_attention.py"
    assert (first["score"], first["max_score"]) == (4.0, 10.0) and first["mistakes"] == ["missing_scale"]
    assert first["checks"]["values"] == "fail" and first["checks"]["softmax"] == "pass"
    assert first["at"].endswith("Z") and len(first["at"]) == 20
    assert second["score"] == 10.0 and set(second["checks"].values()) == {"pass"} and second["mistakes"] == []
    assert set(first) == {"v", "at", "problem", "file", "score", "max_score", "checks", "mistakes"}


def test_grade_all_and_file_record_beside_the_graded_file(runner, workdir) -> None:
    elsewhere = workdir / "elsewhere"
    elsewhere.mkdir()
    shutil.copy(MISSING_SCALE, elsewhere / "mine.py")
    assert runner.invoke(cli, ["self_attention", "--file", str(elsewhere / "mine.py")]).exit_code == 1
    assert [e["file"] for e in _lines(elsewhere)] == ["mine.py"] and not (workdir / HISTORY).exists()
    shutil.copy(REFERENCE, elsewhere / "self_attention.py")
    assert runner.invoke(cli, ["all", "--dir", str(elsewhere)]).exit_code == 0
    assert [e["file"] for e in _lines(elsewhere)] == ["mine.py", "self_attention.py"]


@pytest.mark.parametrize(
    ("args", "env"),
    [
        (["--format", "json"], {}),
        (["--format", "junit"], {}),
        (["--no-history"], {}),
        ([], {history.ENV: "off"}),
        ([], {history.ENV: "0"}),
        ([], {"CI": "true"}),
        ([], {"GITHUB_ACTIONS": "true"}),
    ],
)
def test_nothing_is_written_for_programs_ci_or_when_opted_out(runner, workdir, monkeypatch, args, env) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    result = _grade(runner, workdir, REFERENCE, *args)
    assert result.exit_code == 0
    assert _grade(runner, workdir, REFERENCE, *args).exit_code == 0
    assert not (workdir / HISTORY).exists()


def test_a_batch_writes_no_history(runner, workdir) -> None:
    student = workdir / "subs" / "s00"
    student.mkdir(parents=True)
    shutil.copy(REFERENCE, student / "self_attention.py")
    result = runner.invoke(cli, ["batch", str(workdir / "subs"), "--out", str(workdir / "out"),
                                 "--problems", "self_attention", "--jobs", "1"])
    assert result.exit_code == 0 and "1 students, 1 results" in result.stdout, result.output
    assert list(workdir.rglob(HISTORY)) == []


def test_ci_false_still_records(runner, workdir, monkeypatch) -> None:
    monkeypatch.setenv("CI", "false")
    assert _grade(runner, workdir, REFERENCE).exit_code == 0
    assert len(_lines(workdir)) == 1


def test_a_run_under_gradescopes_root_writes_nothing(workdir, monkeypatch) -> None:
    monkeypatch.setattr(history, "GRADESCOPE_ROOT", workdir)
    assert history.skip_reason("table", workdir / "submission") == "Gradescope"
    assert history.skip_reason("table", Path("/")) == "Gradescope"  # the current folder is under it
    monkeypatch.setattr(history, "GRADESCOPE_ROOT", workdir / "autograder")
    assert history.skip_reason("table", workdir) is None


def test_a_file_that_could_not_be_graded_is_not_a_grading(runner, workdir) -> None:
    (workdir / "self_attention.py").write_text("def softmax(x:\n", encoding="utf-8")
    result = runner.invoke(cli, ["self_attention"])
    assert result.exit_code == 1 and "Fix line 1" in result.output
    assert not (workdir / HISTORY).exists()


def test_a_history_that_cannot_be_written_is_a_warning_not_a_failure(runner, workdir) -> None:
    (workdir / HISTORY).mkdir()
    result = _grade(runner, workdir, REFERENCE)
    assert result.exit_code == 0 and "All checks pass" in result.stdout
    assert result.stderr.startswith(f"grade: warning: {HISTORY}: cannot record this grading (")
    assert "--no-history" in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_corrupt_lines_are_skipped_and_counted_and_a_cut_line_is_not_joined(runner, workdir) -> None:
    good = history.Entry("2025-01-01T00:00:00Z", "self_attention", "self_attention.py", 7.0, 10.0,
                         {"values": "pass"}, ("missing_scale",)).line()
    (workdir / HISTORY).write_text(
        "not json\n" + json.dumps({"v": 1, "problem": "self_attention"}) + "\n"  # missing fields
        + json.dumps({"v": 99, "problem": "x"}) + "\n" + good + "\n[1, 2]\n"
        + good.replace('"checks":{', '"checks":{"x": 1, ') + "\n"  # a status that is no string
        + good[:40],  # cut short by a crash: no newline
        encoding="utf-8",
    )
    assert _grade(runner, workdir, REFERENCE).exit_code == 0
    kept = history.History.load(workdir)
    assert kept.unreadable == 6 and [e.score for e in kept.entries] == [7.0, 10.0]
    rows = json.loads(runner.invoke(cli, ["list", "--format", "json"]).stdout)
    row = next(r for r in rows if r["name"] == "self_attention")
    assert (row["last_score"], row["best_score"]) == (10.0, 10.0)
    shown = runner.invoke(cli, ["progress"])
    assert shown.exit_code == 0
    assert shown.stderr.strip() == f"grade: warning: {HISTORY}: skipped 6 unreadable line(s)"


def test_the_oldest_half_goes_when_the_file_grows_past_its_limit(workdir, monkeypatch) -> None:
    result = ProblemResult("p", [CheckResult("c", "c", Status.PASS, 1, 1)], 0, "0", submission="p.py")
    one = len(history.Entry.of(result).line()) + 1
    monkeypatch.setattr(history, "MAX_BYTES", one * 10)
    for _ in range(11):
        history.record([result], workdir)
    assert len(_lines(workdir)) == 6  # the 11th line passed the limit: the newer half (6 of 11) stayed


def test_list_shows_last_and_best(runner, workdir, monkeypatch) -> None:
    before = runner.invoke(cli, ["list"]).stdout
    assert "Best" not in before  # no history: no score columns
    _grade(runner, workdir, REFERENCE)
    _grade(runner, workdir, MISSING_SCALE)
    rows = json.loads(runner.invoke(cli, ["list", "--format", "json"]).stdout)
    scores = {r["name"]: (r["last_score"], r["best_score"]) for r in rows}
    assert scores["self_attention"] == (4.0, 10.0) and scores["masks"] == (None, None)
    for columns, titled in (("150", True), ("70", False)):
        monkeypatch.setenv("COLUMNS", columns)
        table = runner.invoke(cli, ["list"]).stdout
        row = next(line for line in table.splitlines() if "self_attention" in line)
        assert [cell.strip() for cell in row.split("│")][-3:-1] == ["4", "10"], row
        assert "Last" in table and "Best" in table and ("Scaled dot-product" in table) is titled
    assert "上次" in runner.invoke(cli, ["list", "--lang", "zh"]).stdout


def test_progress_lists_the_problems_in_course_order(runner, workdir) -> None:
    """grade progress follows grade list (the specs' order:/group:), not the alphabet."""
    entries = [history.Entry("2025-01-01T00:00:00Z", name, f"{name}.py", 1.0, 10.0, {}, ()).line()
               for name in ("masks", "additive_attention", "self_attention")]
    (workdir / HISTORY).write_text("\n".join(entries) + "\n", encoding="utf-8")
    data = json.loads(runner.invoke(cli, ["progress", "--format", "json"]).stdout)
    assert [d["problem"] for d in data] == ["self_attention", "masks", "additive_attention"]


def test_progress_names_the_frequent_mistakes_and_the_checks_never_passed(runner, workdir, monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    empty = runner.invoke(cli, ["progress"])
    assert empty.exit_code == 0 and "no gradings recorded yet" in empty.stdout
    assert json.loads(runner.invoke(cli, ["progress", "--format", "json"]).stdout) == []
    _grade(runner, workdir, MISSING_SCALE)
    _grade(runner, workdir, MISSING_SCALE)
    _grade(runner, workdir, CORPUS / "self_attention" / "nan_on_fully_masked.py")
    data = json.loads(runner.invoke(cli, ["progress", "--format", "json"]).stdout)
    assert [d["problem"] for d in data] == ["self_attention"]
    done = data[0]
    assert done["gradings"] == 3 and done["best_score"] == 9.0 and done["max_score"] == 10.0
    assert [(m["id"], m["gradings"]) for m in done["mistakes"]] == [("missing_scale", 2), ("nan_on_fully_masked", 1)]
    assert done["mistakes"][0]["title"] == "scores are not divided by sqrt(d_k)"
    assert [c["id"] for c in done["never_passed"]] == ["fully_masked_rows"]
    table = runner.invoke(cli, ["progress"]).stdout
    assert "scores are not divided by sqrt(d_k) (×2)" in table and "fully-masked rows give zeros" in table
    assert "9/10" in table
    chinese = runner.invoke(cli, ["progress", "--lang", "zh"]).stdout
    assert "常见错因" in chinese and "分数没有除以 sqrt(d_k)（2 次）" in chinese
    zh_json = json.loads(runner.invoke(cli, ["progress", "--format", "json", "--lang", "zh"]).stdout)
    assert zh_json[0]["mistakes"][0]["id"] == "missing_scale" and zh_json[0]["mistakes"][0]["title"] == "分数没有除以 sqrt(d_k)"
