"""Manual grading of what the grader is unsure of: review.csv out, an instructor's overrides in.

Judged answers (the qa problem's free text) carry a confidence (:class:`~grader.results.Review`).
After a batch, those below :data:`~grader.results.REVIEW_BELOW` are listed in ``review.csv`` (and
in report.html), one row per answer, with the learner's answer and why the grader is unsure.

An instructor grades them by filling ``points`` (and ``comment``) and passing the file back with
``grade batch DIR --resume --overrides FILE`` (review.csv itself works: its extra columns are
ignored). An overrides file is a CSV with a header naming at least ``question``, ``student`` and
``points``; ``comment`` and ``problem`` (needed only when two problems have a check of that id)
are optional; rows with an empty ``points`` are skipped. The file is copied into the batch's
folder as ``overrides.csv`` and applied every time the outputs are written, so a later
``--resume`` keeps it. Each overridden check records the instructor's points and comment and the
grader's original score in results.jsonl (``"override": {...}``), the way Gradescope and nbgrader
keep a manual grade next to the autograde.
"""

from __future__ import annotations

import csv
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from grader.batch.gradebook import _text
from grader.errors import GraderError
from grader.results import REVIEW_BELOW, Override, ProblemResult, Status

FILE_NAME = "overrides.csv"
REVIEW_FILE = "review.csv"
REVIEW_COLUMNS = ["question", "student", "points", "comment", "problem", "max_points", "grader_points",
                  "confidence", "why", "answer"]


class OverridesError(GraderError):
    """An overrides file that cannot be applied: the message names the file, the line and the fix."""


@dataclass(frozen=True)
class OverrideRow:
    """One instructor's grade: ``points`` for ``question`` of ``student`` (in ``problem``, if named)."""

    line: int
    question: str
    student: str
    points: float
    comment: str
    problem: str


def load_overrides(path: Path) -> list[OverrideRow]:
    """Read an overrides CSV; raise :class:`OverridesError` naming the file and line for anything wrong."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except OSError as err:
        raise OverridesError(f"{path}: cannot read the overrides file ({err.strerror})") from None
    reader = csv.DictReader(text.splitlines())
    missing = {"question", "student", "points"} - set(reader.fieldnames or [])
    if missing:
        raise OverridesError(
            f"{path}: the header must name the columns question, student, points (and optionally comment, "
            f"problem); missing: {', '.join(sorted(missing))}"
        )
    rows: list[OverrideRow] = []
    seen: dict[tuple[str, str, str], int] = {}
    for line, row in enumerate(reader, start=2):
        raw_points = (row.get("points") or "").strip()
        if not raw_points:
            continue  # not graded by the instructor (yet)
        question, student = (row.get("question") or "").strip(), (row.get("student") or "").strip()
        if not question or not student:
            raise OverridesError(f"{path}, line {line}: question and student must not be empty")
        try:
            points = float(raw_points)
        except ValueError:
            raise OverridesError(f"{path}, line {line}: points {raw_points!r} is not a number") from None
        problem = (row.get("problem") or "").strip()
        key = (student, problem, question)
        if key in seen:
            raise OverridesError(f"{path}, line {line}: {student}/{question} is overridden twice (first on line {seen[key]})")
        seen[key] = line
        rows.append(OverrideRow(line, question, student, points, (row.get("comment") or "").strip(), problem))
    return rows


def read(out: Path, given: Path | None) -> tuple[Path | None, dict[str, list[OverrideRow]]]:
    """The overrides to apply, by student: ``given`` (``--overrides``), else the batch folder's copy."""
    path = given if given is not None else out / FILE_NAME
    if given is None and not path.exists():
        return None, {}
    by_student: dict[str, list[OverrideRow]] = {}
    for row in load_overrides(path):
        by_student.setdefault(row.student, []).append(row)
    return path, by_student


def keep(given: Path, out: Path) -> None:
    """Keep a copy of ``given`` in the batch folder, where every later run finds it (after it applied cleanly)."""
    if given.resolve() != (out / FILE_NAME).resolve():
        shutil.copyfile(given, out / FILE_NAME)


def apply(rows: list[OverrideRow], results: dict[str, ProblemResult], where: Path) -> None:
    """Replace the grader's points by the instructor's for each row (``results``: one student's, by problem)."""
    for row in rows:
        names = [row.problem] if row.problem else [n for n, r in results.items() if any(c.id == row.question for c in r.checks)]
        if len(names) != 1 or names[0] not in results:
            what = "is in several problems; add a problem column" if len(names) > 1 else "was not graded for this student"
            raise OverridesError(f"{where}, line {row.line}: {row.student}/{row.question} {what}")
        check = next((c for c in results[names[0]].checks if c.id == row.question), None)
        if check is None:
            raise OverridesError(f"{where}, line {row.line}: {names[0]} has no question {row.question!r}")
        if not 0 <= row.points <= check.max_score:
            raise OverridesError(
                f"{where}, line {row.line}: {row.student}/{row.question}: points must be between 0 and {check.max_score:g}"
            )
        original = check.override or Override(0, "", check.score, check.status.value)
        check.override = Override(row.points, row.comment, original.original_score, original.original_status)
        check.score = row.points
        check.status = Status.PASS if row.points >= check.max_score else Status.FAIL


@dataclass(frozen=True)
class ReviewItem:
    """An answer the grader is unsure of, for the instructor's review."""

    student: str
    problem: str
    question: str
    points: float
    max_points: float
    confidence: float
    why: str
    answer: str


def to_review(student: str, results: dict[str, ProblemResult]) -> list[ReviewItem]:
    """This student's judged answers below the review threshold, not yet overridden."""
    return [
        ReviewItem(student, name, c.id, c.score, c.max_score, c.review.confidence, c.review.why.get(), c.review.answer)
        for name, result in results.items()
        for c in result.checks
        if c.review is not None and c.review.confidence < REVIEW_BELOW and c.override is None
    ]


class ReviewFile:
    """Writes review.csv row by row (an empty file with its header when nothing needs review)."""

    def __init__(self, out: Path):
        self.out = out
        self._file: TextIO = open(out / f"{REVIEW_FILE}.tmp", "w", newline="", encoding="utf-8-sig")  # noqa: SIM115
        self.csv = csv.writer(self._file)
        self.csv.writerow(REVIEW_COLUMNS)
        self.count = 0

    def add(self, items: list[ReviewItem]) -> None:
        for i in items:
            # points is left empty for the instructor; grader_points holds the grader's verdict
            self.csv.writerow([i.question, _text(i.student), "", "", i.problem, f"{i.max_points:g}", f"{i.points:g}",
                               f"{i.confidence:g}", _text(i.why), _text(i.answer)])
            self.count += 1

    def close(self) -> None:
        self._file.close()
        (self.out / f"{REVIEW_FILE}.tmp").replace(self.out / REVIEW_FILE)

