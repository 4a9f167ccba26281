"""The one result model: a status enum and per-check records, rendered into every output format.

Renderers (``grader.render``) read these objects and nothing else, so totals agree across the
table, JSON, Gradescope, Classroom, JUnit and Exercism outputs.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any


class Status(str, enum.Enum):
    """What happened to one check."""

    PASS = "pass"
    FAIL = "fail"  # the learner's code ran and gave a wrong answer
    ERROR = "error"  # the learner's code raised, crashed, or could not be loaded
    TIMEOUT = "timeout"  # killed at the check's wall-clock limit
    NOT_ATTEMPTED = "not_attempted"  # the stub is untouched, or the code raised NotImplementedError
    SKIPPED = "skipped"  # not run because a check it needs did not pass


@dataclass(frozen=True)
class Diagnosis:
    """A named mistake recognised from the learner's outputs."""

    id: str
    title: str
    hint: str

    def to_dict(self) -> dict[str, str]:
        return {"id": self.id, "title": self.title, "hint": self.hint}


@dataclass
class CheckResult:
    """The outcome of one check."""

    id: str
    title: str
    status: Status
    score: float
    max_score: float
    visibility: str = "visible"
    message: str = ""
    hint: str | None = None
    diagnosis: Diagnosis | None = None
    duration_ms: int = 0
    output: str = ""  # the learner's captured stdout/stderr during this check (never parsed)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "status": self.status.value,
            "score": self.score,
            "max_score": self.max_score,
            "visibility": self.visibility,
            "message": self.message,
            "hint": self.hint,
            "diagnosis": self.diagnosis.to_dict() if self.diagnosis else None,
            "duration_ms": self.duration_ms,
        }


@dataclass
class ProblemResult:
    """The outcome of grading one submission of one problem."""

    problem: str
    checks: list[CheckResult]
    seed: int
    grader_version: str
    duration_ms: int = 0
    isolation: str = "none"
    error: str | None = None  # set when the submission could not be graded at all (syntax error, ...)
    submission: str = ""  # the graded file, as the user named it
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def score(self) -> float:
        return round(sum(c.score for c in self.checks), 6)

    @property
    def max_score(self) -> float:
        return round(sum(c.max_score for c in self.checks), 6)

    @property
    def status(self) -> str:
        """``pass`` at full marks, ``error`` when nothing could run, else ``fail``."""
        if self.error is not None:
            return "error"
        return "pass" if self.score >= self.max_score else "fail"

    @property
    def not_attempted(self) -> bool:
        return all(c.status is Status.NOT_ATTEMPTED for c in self.checks)

    def to_dict(self) -> dict[str, Any]:
        """The exact ``grade --format json`` schema."""
        data = {
            "problem": self.problem,
            "score": self.score,
            "max_score": self.max_score,
            "status": self.status,
            "seed": self.seed,
            "grader_version": self.grader_version,
            "duration_ms": self.duration_ms,
            "isolation": self.isolation,
            "checks": [c.to_dict() for c in self.checks],
        }
        if self.error is not None:
            data["error"] = self.error
        data.update(self.extra)
        return data


def total(results: list[ProblemResult]) -> tuple[float, float]:
    """Score and maximum over several problems."""
    return (
        round(sum(r.score for r in results), 6),
        round(sum(r.max_score for r in results), 6),
    )
