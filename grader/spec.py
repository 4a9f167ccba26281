"""The problem manifest, ``problems/<id>/spec.yaml``: its schema and its loader.

A problem is a folder of data; this module says exactly which keys its manifest may hold. Every
field carries a ``doc`` that ``docs/authoring.md`` repeats. Every text a learner reads is a
:class:`~grader.i18n.Text`, written ``{en: ..., zh: ...}`` (docs/i18n.md).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal


from grader import schema
from grader.errors import SpecError
from grader.i18n import LANGS, Text, placeholders
from grader.yaml_files import read_yaml

#: Names a problem may not take, because they are ``grade`` sub-commands.
RESERVED_NAMES = frozenset(
    {"all", "list", "show", "init", "batch", "merge", "quiz", "validate", "classroom", "progress"}
)
_ID = re.compile(r"^[a-z][a-z0-9_]*$")


def _doc(text: str) -> dict[str, str]:
    return {"doc": text}


#: A learner-facing text. ``str`` is accepted only while the bundled problems are being
#: translated (a plain string becomes ``Text.pending``, which tests/test_i18n.py rejects).
LearnerText = Text | str


def _texts(obj: object, *names: str) -> None:
    """Turn the plain strings of fields ``names`` into pending Text (frozen dataclass)."""
    for name in names:
        value = getattr(obj, name)
        if isinstance(value, str):
            object.__setattr__(obj, name, Text.pending(value))


@dataclass(frozen=True)
class Limits:
    """Resource limits for the learner's code, per check."""

    timeout_s: float = field(default=10.0, metadata=_doc("wall-clock seconds per check"))
    memory_mb: int = field(
        default=1024, metadata=_doc("extra address space the learner may allocate, in MiB")
    )
    output_kb: int = field(default=64, metadata=_doc("captured stdout+stderr kept per check, KiB"))

    def __post_init__(self) -> None:
        if self.timeout_s <= 0 or self.memory_mb <= 0 or self.output_kb <= 0:
            raise ValueError("limits must be positive")


@dataclass(frozen=True)
class CheckSpec:
    """One scored check. Its code is the function registered under the same id in checks.py."""

    id: str = field(metadata=_doc("stable id, used in every output format"))
    title: LearnerText = field(metadata=_doc("one line shown to the learner, {en, zh}"))
    points: float = field(default=1.0, metadata=_doc("points for passing"))
    visibility: Literal["visible", "hidden"] = field(
        default="visible", metadata=_doc("hidden checks are run but their details are not shown")
    )
    hint: LearnerText | None = field(default=None, metadata=_doc("shown when the check does not pass, {en, zh}"))
    kind: Literal["test", "from_scratch"] = field(
        default="test",
        metadata=_doc("test: a function in checks.py; from_scratch: the built-in forbidden-call scan"),
    )
    figure: str | None = field(
        default=None,
        metadata=_doc("id of a figure (under figures:) drawn beside the feedback when this check fails"),
    )

    def __post_init__(self) -> None:
        if not _ID.match(self.id):
            raise ValueError(f"check id {self.id!r} must be lower_snake_case")
        if self.points < 0:
            raise ValueError(f"check {self.id!r}: points must not be negative")
        _texts(self, "title", "hint")


@dataclass(frozen=True)
class MistakeSpec:
    """A named mistake the problem can diagnose from the learner's outputs."""

    id: str = field(metadata=_doc("stable id, e.g. missing_scale"))
    title: LearnerText = field(metadata=_doc("what the learner did, {en, zh}"))
    hint: LearnerText = field(metadata=_doc("how to fix it, {en, zh}"))

    def __post_init__(self) -> None:
        _texts(self, "title", "hint")


@dataclass(frozen=True)
class FigureSpec:
    """A picture of the learner's answer beside the reference's, on a PUBLIC example input.

    Its code is the function registered with ``@checks.figure(id)`` in checks.py; it draws its
    inputs from a generator seeded by the figure's id alone, never by the grading seed, so what
    it shows is the same for everyone and says nothing about the hidden inputs.
    """

    id: str = field(metadata=_doc("stable id, named by a check's figure:"))
    title: LearnerText = field(metadata=_doc("what is drawn, naming the public example, {en, zh}"))
    kind: Literal["weights", "mask", "magnitude"] = field(
        default="weights",
        metadata=_doc("weights: values in [0, 1]; mask: True/False; magnitude: any non-negative values"),
    )
    rows: LearnerText | None = field(default=None, metadata=_doc("what a row is (default: query i), {en, zh}"))
    cols: LearnerText | None = field(default=None, metadata=_doc("what a column is (default: key j), {en, zh}"))
    show: bool = field(default=False, metadata=_doc("grade show draws the reference's picture too"))

    def __post_init__(self) -> None:
        if not _ID.match(self.id):
            raise ValueError(f"figure id {self.id!r} must be lower_snake_case")
        _texts(self, "title", "rows", "cols")


@dataclass(frozen=True)
class GroupSpec:
    """The section of the course a problem belongs to: ``grade list`` shows each under its heading."""

    id: str = field(metadata=_doc("stable id, the same in every problem of the section, e.g. modern"))
    title: LearnerText = field(metadata=_doc("the section's heading, {en, zh}; the same in every problem of it"))

    def __post_init__(self) -> None:
        if not _ID.match(self.id):
            raise ValueError(f"group id {self.id!r} must be lower_snake_case")
        _texts(self, "title")


@dataclass(frozen=True)
class ProblemSpec:
    """The whole manifest."""

    id: str = field(metadata=_doc("the problem's name; also the command: grade <id>"))
    title: LearnerText = field(metadata=_doc("one line, {en, zh}"))
    summary: LearnerText = field(metadata=_doc("the prompt, in Markdown, shown by grade show, {en, zh}"))
    learner_file: str = field(metadata=_doc("file the learner writes, e.g. self_attention.py"))
    entry_points: list[str] = field(metadata=_doc("names the learner file must define"))
    checks: list[CheckSpec] = field(metadata=_doc("scored checks, in display order"))
    runtime: Literal["numpy", "torch", "data"] = field(
        default="numpy",
        metadata=_doc("what the worker pre-imports; data: the learner file is data, no code runs"),
    )
    limits: Limits = field(default_factory=Limits, metadata=_doc("per-check resource limits"))
    seed: int = field(default=1234, metadata=_doc("default seed for hidden inputs"))
    mistakes: list[MistakeSpec] = field(default_factory=list, metadata=_doc("diagnosable mistakes"))
    forbidden: list[str] = field(
        default_factory=list,
        metadata=_doc("dotted names the from_scratch check rejects, e.g. torch.nn.MultiheadAttention"),
    )
    difficulty: Literal["easy", "medium", "hard"] = field(default="medium", metadata=_doc("shown by grade list"))
    tags: list[str] = field(default_factory=list, metadata=_doc("free-form topics"))
    order: int | None = field(
        default=None,
        metadata=_doc("place in the course: grade list sorts by it (problems without one come last, by name)"),
    )
    group: GroupSpec | None = field(
        default=None,
        metadata=_doc("the course section grade list shows it under; sections come in the order of their first problem"),
    )
    figures: list[FigureSpec] = field(
        default_factory=list,
        metadata=_doc("pictures of weights or masks on public example inputs, drawn when a check naming one fails"),
    )
    messages: dict[str, Text] = field(
        default_factory=dict,
        metadata=_doc("what checks.py says, by id: {en, zh} templates with the same {placeholders}; "
                      "raised with ctx.fail(ctx.msg(id, ...))"),
    )

    def __post_init__(self) -> None:
        _texts(self, "title", "summary")
        for message_id, template in self.messages.items():
            if not _ID.match(message_id):
                raise ValueError(f"message id {message_id!r} must be lower_snake_case")
            try:
                names = {lang: sorted(placeholders(getattr(template, lang))) for lang in LANGS}
            except ValueError as err:
                raise ValueError(f"messages.{message_id}: malformed template ({err})") from None
            if len({tuple(n) for n in names.values()}) > 1:
                shown = "; ".join(f"{lang} has {{{', '.join(n)}}}" for lang, n in names.items())
                raise ValueError(f"messages.{message_id}: the languages take different placeholders ({shown})")
        if not _ID.match(self.id):
            raise ValueError(f"id {self.id!r} must be lower_snake_case")
        if self.id in RESERVED_NAMES:
            raise ValueError(f"id {self.id!r} is a grade sub-command; choose another name")
        for kind, items in (("check", self.checks), ("mistake", self.mistakes)):
            ids = [item.id for item in items]
            dupes = sorted({i for i in ids if ids.count(i) > 1})
            if dupes:
                raise ValueError(f"duplicate {kind} id {dupes[0]!r}")
        if not self.checks:
            raise ValueError("a problem needs at least one check")
        figure_ids = [f.id for f in self.figures]
        if len(set(figure_ids)) != len(figure_ids):
            raise ValueError(f"duplicate figure id {next(i for i in figure_ids if figure_ids.count(i) > 1)!r}")
        for check in self.checks:
            if check.figure is not None and check.figure not in figure_ids:
                raise ValueError(f"check {check.id!r}: figure {check.figure!r} is not declared under figures:")
        if any(c.kind == "from_scratch" for c in self.checks) and not self.forbidden:
            raise ValueError("a from_scratch check needs a non-empty forbidden list")

    @property
    def max_score(self) -> float:
        return sum(c.points for c in self.checks)

    def check(self, check_id: str) -> CheckSpec:
        return next(c for c in self.checks if c.id == check_id)

    def mistake(self, mistake_id: str) -> MistakeSpec | None:
        return next((m for m in self.mistakes if m.id == mistake_id), None)

    def figure(self, figure_id: str) -> FigureSpec:
        return next(f for f in self.figures if f.id == figure_id)


def load_spec(path: Path) -> ProblemSpec:
    """Read and validate one ``spec.yaml``; errors name the file and the key."""
    where = str(path)
    data = read_yaml(path)
    spec = schema.load(ProblemSpec, data, where=where)
    if spec.id != path.parent.name:
        raise SpecError(f"{where}: id: {spec.id!r} must match its folder name {path.parent.name!r}")
    return spec
