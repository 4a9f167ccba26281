"""The batch's files for machines: grades.csv, results.jsonl and optional per-student files.

All of them are written in one pass over the students, reading each student's results back from
the journal, so memory does not grow with the class. A per-student writer is a function
``writer(student, results, out_dir)`` taking that student's :class:`ProblemResult` list; register
it in :data:`STUDENT_WRITERS` and ``grade batch --per-student NAME`` uses it.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any, Callable, TextIO

from grader.i18n import Text, current
from grader.messages import t
from grader.results import CheckResult, Diagnosis, Figure, Override, ProblemResult, Review, Status, total

StudentWriter = Callable[[str, list[ProblemResult], Path], None]


def result_from_dict(data: dict[str, Any]) -> ProblemResult:
    """Rebuild a ProblemResult from its ``to_dict()`` form (the journal and results.jsonl schema).

    Texts may be ``{en, zh}`` (the journal: ``to_dict(None)``) or one language's string.
    """
    known = {
        "problem", "score", "max_score", "status", "seed", "grader_version", "duration_ms",
        "isolation", "checks", "error", "error_line", "student", "grader_error", "notes",
    }
    checks = []
    for c in data.get("checks", []):
        diagnosis = c.get("diagnosis")
        checks.append(
            CheckResult(
                id=c["id"],
                title=Text.from_json(c.get("title", c["id"])),
                status=Status(c["status"]),
                score=float(c["score"]),
                max_score=float(c["max_score"]),
                visibility=c.get("visibility", "visible"),
                message=Text.from_json(c.get("message") or ""),
                hint=Text.from_json(c["hint"]) if c.get("hint") else None,
                diagnosis=Diagnosis.from_dict(diagnosis) if diagnosis else None,
                duration_ms=int(c.get("duration_ms", 0)),
                task=c["task"] if type(c.get("task")) is int else None,
                review=Review.from_dict(c["review"]) if c.get("review") else None,
                override=Override.from_dict(c["override"]) if c.get("override") else None,
                reveal=Text.from_json(c["reveal"]) if c.get("reveal") else None,
                figure=Figure.from_dict(c["figure"]) if c.get("figure") else None,
            )
        )
    return ProblemResult(
        problem=data["problem"],
        checks=checks,
        seed=int(data.get("seed", 0)),
        grader_version=str(data.get("grader_version", "")),
        duration_ms=int(data.get("duration_ms", 0)),
        isolation=str(data.get("isolation", "none")),
        error=Text.from_json(data["error"]) if data.get("error") else None,
        error_line=data["error_line"] if type(data.get("error_line")) is int else None,
        extra={k: v for k, v in data.items() if k not in known},
        grader_error=bool(data.get("grader_error", False)),
        notes=[Text.from_json(n) for n in data.get("notes", []) if n],
    )


def write_student_json(student: str, results: list[ProblemResult], out_dir: Path) -> None:
    """``students/<student>.json``: the ``grade all --format json`` schema plus ``student``."""
    score, max_score = total(results)
    data = {"student": student, "problems": [r.to_dict(current()) for r in results], "score": score, "max_score": max_score}
    folder = out_dir / "students"
    folder.mkdir(exist_ok=True)
    (folder / f"{student}.json").write_text(json.dumps(data, indent=2, ensure_ascii=False), encoding="utf-8")


def _platform_writer(fmt: str) -> StudentWriter:
    """``<fmt>/<student>/<file>`` in a platform's format (see grader.render.write_student_files)."""

    def write(student: str, results: list[ProblemResult], out_dir: Path) -> None:
        from grader.render import write_student_files

        write_student_files(results, fmt, out_dir, student)

    return write


#: Per-student file writers by name (``--format NAME``, also ``--per-student NAME``).
STUDENT_WRITERS: dict[str, StudentWriter] = {
    "json": write_student_json,
    **{fmt: _platform_writer(fmt) for fmt in ("gradescope", "classroom", "junit", "exercism")},
}


class Gradebook:
    """Writes grades.csv and results.jsonl row by row."""

    def __init__(self, out_dir: Path, problems: list[tuple[str, float]]):
        self.problems = problems  # (name, max points), in column order
        # utf-8-sig: a byte-order mark, so that Excel on Windows shows students' names in any script
        self._csv_file: TextIO = open(out_dir / "grades.csv.tmp", "w", newline="", encoding="utf-8-sig")  # noqa: SIM115
        self._jsonl: TextIO = open(out_dir / "results.jsonl.tmp", "w", encoding="utf-8")  # noqa: SIM115
        self.out_dir = out_dir
        self.csv = csv.writer(self._csv_file)
        names = [name for name, _ in problems]
        self.csv.writerow(["student", *names, "total", "percent", "status", "notes"])
        self.max_total = round(sum(points for _, points in problems), 6)
        self.csv.writerow(["max_points", *[_num(p) for _, p in problems], _num(self.max_total), "100", "", ""])

    def add(
        self, student: str, results: dict[str, ProblemResult], notes: list[str]
    ) -> tuple[float | None, float | None, str]:
        """Write one student's row and result lines; returns (total, percent, status).

        A grader error (the grader failed, not the learner) is not a score: its cell, the total
        and the percent stay empty, the status is ``error`` and the notes say to ``--resume``.
        """
        cells = []
        failed = False
        for name, _points in self.problems:
            result = results.get(name)
            if result is not None and result.grader_error:
                failed = True
                cells.append("")
            else:
                cells.append(_num(result.score) if result is not None else "0")
            if result is not None:
                self._jsonl.write(json.dumps({"student": student, **result.to_dict(current())}, ensure_ascii=False) + "\n")
                if result.grader_error:
                    notes = [*notes, t("batch.grader_error_note", problem=name, detail=result.error or "")]
                elif result.error and f"{name}: {result.error.get()}" not in notes:
                    notes = [*notes, f"{name}: {result.error.get()}"]
        present = len(results)
        status = "complete" if present == len(self.problems) else "incomplete" if present else "missing"
        if failed:
            self.csv.writerow([_text(student), *cells, "", "", "error", _text("; ".join(notes))])
            return None, None, "error"
        got = round(sum(r.score for r in results.values()), 6)
        percent = round(100.0 * got / self.max_total, 2) if self.max_total else 0.0
        self.csv.writerow([_text(student), *cells, _num(got), _num(percent), status, _text("; ".join(notes))])
        return got, percent, status

    def close(self) -> None:
        """Finish both files and move them into place (readers never see half a file)."""
        for handle, name in ((self._csv_file, "grades.csv"), (self._jsonl, "results.jsonl")):
            handle.close()
            (self.out_dir / f"{name}.tmp").replace(self.out_dir / name)


def _text(value: str) -> str:
    """A text cell that a spreadsheet will not run as a formula (folder names come from students)."""
    return "'" + value if value[:1] in ("=", "+", "-", "@", "\t", "\r") else value


def _num(value: float) -> str:
    return format(round(value, 6), ".10g")
