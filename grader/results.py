"""The one result model: a status enum and per-check records, rendered into every output format.

Renderers (``grader.render``) read these objects and nothing else, so totals agree across the
table, JSON, Gradescope, Classroom, JUnit and Exercism outputs. Everything a person reads (titles,
messages, hints, errors) is a :class:`~grader.i18n.Text` in every language: a result graded once
renders in either, and ``to_dict(lang)`` writes ids and field names in English, texts in ``lang``
(``lang=None``: every language, for the batch journal).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any

from grader.i18n import Text, as_text


def _text(value: Text | None, lang: str | None) -> Any:
    if value is None:
        return None
    return value.to_json() if lang is None else value.get(lang)


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
    title: Text
    hint: Text

    def __post_init__(self) -> None:  # a plain string reads the same in every language
        object.__setattr__(self, "title", as_text(self.title))
        object.__setattr__(self, "hint", as_text(self.hint))

    def to_dict(self, lang: str | None = "en") -> dict[str, Any]:
        return {"id": self.id, "title": _text(self.title, lang), "hint": _text(self.hint, lang)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Diagnosis:
        return cls(str(data["id"]), Text.from_json(data.get("title", "")), Text.from_json(data.get("hint", "")))


@dataclass(frozen=True)
class Panel:
    """One matrix of a figure: whose it is (yours, expected) and its values, row by row.

    A value is a float, or None where it is not a number (NaN, infinite): JSON has no NaN.
    """

    label: Text
    values: tuple[tuple[float | None, ...], ...]

    def to_dict(self, lang: str | None = "en") -> dict[str, Any]:
        return {"label": _text(self.label, lang), "values": [list(row) for row in self.values]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Panel:
        rows = tuple(tuple(None if v is None else float(v) for v in row) for row in data.get("values", []))
        return cls(Text.from_json(data.get("label", "")), rows)


@dataclass(frozen=True)
class Figure:
    """The learner's weights (or mask) beside the reference's, on a public example input.

    Drawn by the engine when a check that names the figure fails (``grader/figures.py``), never
    on hidden inputs; rendered as a block heatmap in the terminal and as SVG in HTML
    (``grader/render/heatmap.py``). ``kind`` is ``weights`` (values in [0, 1]), ``mask``
    (1 = may attend, 0 = blocked) or ``magnitude`` (non-negative values).
    """

    id: str
    title: Text
    kind: str
    rows: Text
    cols: Text
    panels: tuple[Panel, ...]

    def to_dict(self, lang: str | None = "en") -> dict[str, Any]:
        return {
            "id": self.id, "title": _text(self.title, lang), "kind": self.kind,
            "rows": _text(self.rows, lang), "cols": _text(self.cols, lang),
            "panels": [p.to_dict(lang) for p in self.panels],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Figure:
        return cls(
            str(data["id"]), Text.from_json(data.get("title", "")), str(data.get("kind", "weights")),
            Text.from_json(data.get("rows", "")), Text.from_json(data.get("cols", "")),
            tuple(Panel.from_dict(p) for p in data.get("panels", [])),
        )

    def svg(self, lang: str | None = None) -> str:
        """The figure as one inline ``<svg>`` element (for HTML reports and notebooks)."""
        from grader.render.heatmap import figure_svg

        return figure_svg(self, lang)

    def _repr_html_(self) -> str:  # Jupyter shows a figure as its picture
        return self.svg()


#: Below this confidence a judged answer is listed for an instructor's review.
REVIEW_BELOW = 0.7


@dataclass(frozen=True)
class Review:
    """How sure the grader is of a judged answer (free text), and what an instructor would look at."""

    confidence: float  # 0..1; below grader.qa.text.REVIEW_BELOW the answer is listed for review
    why: Text  # why the grader is unsure ("" when it is sure)
    answer: str  # the learner's answer, as written

    def to_dict(self, lang: str | None = "en") -> dict[str, Any]:
        return {"confidence": self.confidence, "why": _text(self.why, lang), "answer": self.answer}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Review:
        return cls(float(data["confidence"]), Text.from_json(data.get("why") or ""), str(data.get("answer", "")))


@dataclass(frozen=True)
class Override:
    """An instructor's grade that replaced the grader's (``grade batch --overrides``)."""

    points: float
    comment: str
    original_score: float
    original_status: str

    def to_dict(self) -> dict[str, Any]:
        return {"points": self.points, "comment": self.comment, "original_score": self.original_score,
                "original_status": self.original_status}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Override:
        return cls(float(data["points"]), str(data.get("comment", "")), float(data["original_score"]),
                   str(data["original_status"]))


@dataclass
class CheckResult:
    """The outcome of one check."""

    id: str
    title: Text
    status: Status
    score: float
    max_score: float
    visibility: str = "visible"
    message: Text = field(default_factory=lambda: Text("", ""))
    hint: Text | None = None
    diagnosis: Diagnosis | None = None
    duration_ms: int = 0
    output: str = ""  # the learner's captured stdout/stderr during this check (never parsed)
    task: int | None = None  # the one entry point the check exercised, 1-based in the spec's entry_points
    review: Review | None = None  # a judged answer: the grader's confidence
    override: Override | None = None  # an instructor's grade replaced the grader's
    reveal: Text | None = None  # for instructors only: the expected answer, a hidden check's full message
    secrets: tuple[str, ...] = ()  # values learner-facing output must never contain (never rendered)
    figure: Figure | None = None  # yours beside the reference's on a public example (a failed check only)

    def __post_init__(self) -> None:  # a plain string reads the same in every language
        self.title, self.message = as_text(self.title), as_text(self.message)
        self.hint = None if self.hint is None else as_text(self.hint)
        self.reveal = None if self.reveal is None else as_text(self.reveal)

    def to_dict(self, lang: str | None = "en") -> dict[str, Any]:
        return {
            "id": self.id,
            "title": _text(self.title, lang),
            "status": self.status.value,
            "score": self.score,
            "max_score": self.max_score,
            "visibility": self.visibility,
            "message": _text(self.message, lang),
            "hint": _text(self.hint, lang),
            "diagnosis": self.diagnosis.to_dict(lang) if self.diagnosis else None,
            "duration_ms": self.duration_ms,
            "task": self.task,
            **({"review": self.review.to_dict(lang)} if self.review else {}),
            **({"override": self.override.to_dict()} if self.override else {}),
        } | ({"reveal": _text(self.reveal, lang)} if self.reveal else {}) | (
            {"figure": self.figure.to_dict(lang)} if self.figure else {}
        )


@dataclass
class ProblemResult:
    """The outcome of grading one submission of one problem."""

    problem: str
    checks: list[CheckResult]
    seed: int
    grader_version: str
    duration_ms: int = 0
    isolation: str = "none"
    error: Text | None = None  # set when the submission could not be graded at all (syntax error, ...)
    error_line: int | None = None  # the line of the learner's file that ``error`` is about, if known
    submission: str = ""  # the graded file, as the user named it
    notes: list[Text] = field(default_factory=list)  # about the file, not a check: a notebook's lines left out
    extra: dict[str, Any] = field(default_factory=dict)
    #: The grader itself failed (not the learner's code): ``error`` says how; there is no score.
    grader_error: bool = False

    def __post_init__(self) -> None:
        self.error = None if self.error is None else as_text(self.error)

    @property
    def score(self) -> float:
        return round(sum(c.score for c in self.checks), 6)

    @property
    def max_score(self) -> float:
        return round(sum(c.max_score for c in self.checks), 6)

    @property
    def status(self) -> str:
        """``pass`` at full marks, ``error`` when nothing could run (or the grader failed), else ``fail``."""
        if self.error is not None or self.grader_error:
            return "error"
        return "pass" if self.score >= self.max_score else "fail"

    @property
    def not_attempted(self) -> bool:
        return all(c.status is Status.NOT_ATTEMPTED for c in self.checks)

    def to_dict(self, lang: str | None = "en") -> dict[str, Any]:
        """The exact ``grade --format json`` schema, texts in ``lang`` (None: ``{en, zh}`` each);
        a grader error has ``"score": null`` and ``"grader_error": true``."""
        data = {
            "problem": self.problem,
            "score": None if self.grader_error else self.score,
            "max_score": self.max_score,
            "status": self.status,
            "seed": self.seed,
            "grader_version": self.grader_version,
            "duration_ms": self.duration_ms,
            "isolation": self.isolation,
            "checks": [c.to_dict(lang) for c in self.checks],
        }
        if self.error is not None:
            data["error"] = _text(self.error, lang)
            data["error_line"] = self.error_line
        if self.grader_error:
            data["grader_error"] = True
        if self.notes:
            data["notes"] = [_text(n, lang) for n in self.notes]
        data.update(self.extra)
        return data


def total(results: list[ProblemResult]) -> tuple[float, float]:
    """Score and maximum over several problems."""
    return (
        round(sum(r.score for r in results), 6),
        round(sum(r.max_score for r in results), 6),
    )
