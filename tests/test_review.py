"""The review path: unsure text verdicts listed for the instructor, overrides applied on --resume, quiz marks.

Gradescope and nbgrader keep a manual grade next to the autograde; so does ``grade batch
--overrides`` (results.jsonl records the instructor's points, comment and the grader's original).
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from grader.bank import ProblemBank
from grader.batch import review
from grader.cli import cli
from grader.qa.bank import load_bank
from grader.qa.quiz import Progress, QuizSession

BANK = load_bank(ProblemBank().get("qa").folder)

UNSURE = "The gradients do not vanish."  # a negated claim: the grader cannot tell
MIXED = "=we divide by d_k because the variance grows, the softmax saturates and the gradients vanish"
SURE = "heads see different subspaces and positions at once, while one head would average them"


@pytest.fixture(name="klass")
def _klass(tmp_path: Path) -> Path:
    root = tmp_path / "class"
    for student, answers in {
        "alice": {"explain_sqrt_dk": UNSURE, "why_multi_head": SURE},
        "bob": {"explain_sqrt_dk": MIXED},
    }.items():
        (root / student).mkdir(parents=True)
        (root / student / "qa.yaml").write_text(
            "".join(f"{k}: {json.dumps(v)}\n" for k, v in answers.items()), encoding="utf-8"
        )
    return root


def _batch(runner, klass: Path, out: Path, *extra: str):
    return runner.invoke(cli, ["batch", str(klass), "--problems", "qa", "--out", str(out), "-j", "1", *extra])


def _rows(path: Path) -> list[dict[str, str]]:
    return list(csv.DictReader(path.read_text(encoding="utf-8-sig").splitlines()))


def _check(out: Path, student: str, question: str) -> dict:
    for line in (out / "results.jsonl").read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        if record["student"] == student:
            return next(c for c in record["checks"] if c["id"] == question)
    raise AssertionError(student)


def test_unsure_text_verdicts_are_listed_for_review(runner, klass: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = _batch(runner, klass, out)
    assert result.exit_code == 0, result.output
    rows = _rows(out / "review.csv")
    assert [(r["student"], r["question"]) for r in rows] == [("alice", "explain_sqrt_dk"), ("bob", "explain_sqrt_dk")]
    alice, bob = rows
    assert alice["points"] == "" and alice["grader_points"] == "0" and alice["max_points"] == "2"
    assert alice["answer"] == UNSURE and "negated" in alice["why"] and float(alice["confidence"]) < 0.7
    assert bob["answer"] == "'" + MIXED  # a spreadsheet never runs a student's answer as a formula
    assert _check(out, "alice", "why_multi_head")["review"]["confidence"] == 1.0  # sure: recorded, not listed
    report = (out / "report.html").read_text(encoding="utf-8")
    assert "Answers to review: 2" in report and "The gradients do not vanish." in report


def test_overrides_apply_on_resume_are_recorded_and_kept(runner, klass: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert _batch(runner, klass, out).exit_code == 0
    graded = _rows(out / "review.csv")
    graded[0].update(points="1", comment="the danger, stated negated: half")
    filled = tmp_path / "filled.csv"
    with open(filled, "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=review.REVIEW_COLUMNS)
        writer.writeheader()
        writer.writerows(graded)
    result = _batch(runner, klass, out, "--resume", "--overrides", str(filled))
    assert result.exit_code == 0, result.output
    check = _check(out, "alice", "explain_sqrt_dk")
    assert check["score"] == 1.0 and check["status"] == "fail"
    assert check["override"] == {"points": 1.0, "comment": "the danger, stated negated: half",
                                 "original_score": 0.0, "original_status": "fail"}
    grades = {r["student"]: r for r in _rows(out / "grades.csv")}
    assert float(grades["alice"]["qa"]) == pytest.approx(3.0)  # 2 (why_multi_head) + 1 (the override)
    assert [r["student"] for r in _rows(out / "review.csv")] == ["bob"]  # reviewed: no longer listed
    again = _batch(runner, klass, out, "--resume")  # no --overrides: the kept copy applies
    assert again.exit_code == 0 and _check(out, "alice", "explain_sqrt_dk")["score"] == 1.0
    full = tmp_path / "full.csv"
    full.write_text("question,student,points,comment\nexplain_sqrt_dk,alice,2,fine after all\n", encoding="utf-8")
    assert _batch(runner, klass, out, "--resume", "--overrides", str(full)).exit_code == 0
    check = _check(out, "alice", "explain_sqrt_dk")  # a new override starts from the grader's own score
    assert check["status"] == "pass" and check["override"]["original_score"] == 0.0


@pytest.mark.parametrize(
    ("content", "says"),
    [
        ("student,points\nalice,1\n", "the header must name the columns question, student, points"),
        ("question,student,points\nexplain_sqrt_dk,carol,1\n", "line 2: no student 'carol' in this batch"),
        ("question,student,points\nexplain_sqrt_dk,alice,7\n", "line 2: alice/explain_sqrt_dk: points must be between 0 and 2"),
        ("question,student,points\nexplain_sqrt_dk,alice,lots\n", "line 2: points 'lots' is not a number"),
        ("question,student,points\nno_such_question,alice,1\n", "line 2: alice/no_such_question was not graded"),
    ],
)
def test_a_bad_overrides_file_is_refused_with_its_line_and_nothing_changes(
    runner, klass: Path, tmp_path: Path, content: str, says: str
) -> None:
    out = tmp_path / "out"
    assert _batch(runner, klass, out).exit_code == 0
    before = {name: (out / name).read_bytes() for name in ("grades.csv", "results.jsonl", "review.csv")}
    bad = tmp_path / "bad.csv"
    bad.write_text(content, encoding="utf-8")
    result = _batch(runner, klass, out, "--resume", "--overrides", str(bad))
    assert result.exit_code == 2 and says in result.output and "Traceback" not in result.output
    assert {name: (out / name).read_bytes() for name in before} == before
    assert not (out / review.FILE_NAME).exists() and not list(out.glob("*.tmp"))


def test_the_quiz_shows_the_full_answer_and_keeps_a_marked_answer(runner, tmp_path: Path) -> None:
    progress = tmp_path / "progress.json"
    asked = QuizSession(BANK, Progress.load(progress), topic="flash_attention", count=3, seed=3).questions
    inputs: list[str] = []
    for question in asked:
        inputs += [UNSURE, "r"] if question.type == "text" else ["A"]
    result = runner.invoke(cli, ["quiz", "--progress", str(progress), "--seed", "3", "--topic", "flash_attention",
                                 "--count", "3"], input="".join(a + "\n" for a in inputs), env={"COLUMNS": "250"})
    assert result.exit_code == 0, result.output
    texts = [q for q in asked if q.type == "text"]
    assert texts and result.output.count("A full answer:") >= len(texts)
    assert "Marked for review." in result.output and f"{len(texts)} answer(s) marked for review" in result.output
    marked = json.loads(progress.read_text(encoding="utf-8"))["marked_for_review"]
    assert [m["question"] for m in marked] == [q.id for q in texts]
    assert all(m["answer"] == UNSURE and m["fraction"] == 0.0 for m in marked)
    assert Progress.load(progress).marked == marked  # read back on the next run
