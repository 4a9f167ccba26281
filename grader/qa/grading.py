"""Grade one answer to one question: a score fraction, what was wrong, and a named mistake.

The same :func:`grade` serves ``grade qa`` (through the engine, one check per question) and
``grade quiz`` (one answer at a time), so both agree on every answer.

Free text is judged by :mod:`grader.qa.text`: the claims the answer asserts, against the
question's rubric, with a confidence that says when an instructor should look.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from grader.qa.answers import (
    Raw, Unreadable, decimals_given, parse_letters, parse_number, parse_vector, vector_items,
)
from grader.qa.bank import Concept, Question
from grader.qa.messages import say
from grader.qa.text import REVIEW_BELOW, judge

#: Relative slack on top of every numeric tolerance, so 0.1 + 0.2 reads as 0.3.
FLOAT_SLACK = 1e-9


#: How the parts of a verdict's message are joined: Chinese takes its own semicolon.
_SEPARATOR = {"zh": "；"}


@dataclass
class Verdict:
    """The outcome of grading one answer."""

    fraction: float
    notes: list[tuple[str, dict[str, object]]] = field(default_factory=list)
    mistake: str | None = None
    found: list[Concept] = field(default_factory=list)
    missing: list[Concept] = field(default_factory=list)
    rubric: bool = False  # a text answer: found/missing are meaningful
    unreadable: bool = False  # the answer's form was wrong (not a number, no such option, ...)
    confidence: float = 1.0  # text answers: how sure the grader is (below REVIEW_BELOW: review it)
    doubts: list[str] = field(default_factory=list)  # message keys: why it is unsure

    @property
    def needs_review(self) -> bool:
        return self.confidence < REVIEW_BELOW

    @property
    def passed(self) -> bool:
        return self.fraction >= 1.0

    def message(self, lang: str = "en") -> str:
        parts = [say(key, lang, **params) for key, params in self.notes]
        if self.rubric:
            nothing = say("none", lang)
            found = ", ".join(c.label.get(lang) for c in self.found) or nothing
            missing = ", ".join(c.label.get(lang) for c in self.missing) or nothing
            parts.append(say("text_score", lang, found=found, missing=missing))
        return _SEPARATOR.get(lang, "; ").join(parts)

    def doubt_message(self, lang: str = "en") -> str:
        """Why the grader is unsure of this verdict ("" when it is sure)."""
        return _SEPARATOR.get(lang, "; ").join(say(key, lang) for key in self.doubts)


def grade(question: Question, raw: Raw) -> Verdict:
    """Grade the learner's raw answer (not blank) to ``question``."""
    try:
        return _GRADERS[question.type](question, raw)
    except Unreadable as err:
        return Verdict(0.0, [(err.key, dict(err.params))], unreadable=True)


# ------------------------------------------------------------------------------- by type


def _choice(q: Question, raw: Raw) -> Verdict:
    (letter,) = parse_letters(raw, list(q.options), single=True)
    if letter == q.answer:
        return Verdict(1.0)
    return Verdict(0.0, [("wrong_choice", {"answer": letter})], _mistake(q, lambda wrong: wrong == letter))


def _multi(q: Question, raw: Raw) -> Verdict:
    chosen = set(parse_letters(raw, list(q.options), single=False))
    right = set(q.answer)
    if chosen == right:
        return Verdict(1.0)
    hits, misses = len(chosen & right), len(chosen - right)
    fraction = 0.0 if q.partial == "all_or_nothing" else max(0.0, (hits - misses) / len(right))
    note = ("multi_partial", {"right": hits, "total": len(right), "wrong": misses})
    return Verdict(fraction, [note], _mistake(q, lambda wrong: set(wrong) == chosen))


def _numeric(q: Question, raw: Raw) -> Verdict:
    value = parse_number(raw, q.unit)
    if _close(value, q.answer, q) or (isinstance(raw, str) and _rounded(raw, value, q.answer, q.unit)):
        return Verdict(1.0)
    key = "number_high" if value > q.answer else "number_low"
    shown = raw.strip() if isinstance(raw, str) else raw
    return Verdict(0.0, [(key, {"answer": shown})], _mistake(q, lambda wrong: _close(value, wrong, q)))


def _vector(q: Question, raw: Raw) -> Verdict:
    values = parse_vector(raw)
    if len(values) != len(q.answer):
        return Verdict(0.0, [("vector_length", {"expected": len(q.answer), "got": len(values)})])
    typed = vector_items(raw)
    off = [
        i + 1 for i, (v, e, text) in enumerate(zip(values, q.answer, typed)) if not (_close(v, e, q) or _rounded(text, v, e))
    ]
    if not off:
        return Verdict(1.0)
    tol = f"{q.tolerance.abs:g}" if q.tolerance.abs else f"{q.tolerance.rel:g} relative"
    note = ("vector_off", {"entries": ", ".join(map(str, off)), "tol": tol})

    def matches(wrong: object) -> bool:
        return isinstance(wrong, list) and len(wrong) == len(values) and all(_close(v, w, q) for v, w in zip(values, wrong))

    return Verdict(0.0, [note], _mistake(q, matches))


def _text(q: Question, raw: Raw) -> Verdict:
    found = judge(q, " ".join(raw) if isinstance(raw, list) else raw)
    return Verdict(
        found.fraction, found.notes, found.mistake, found.found, found.missing + found.inverted,
        rubric=True, confidence=found.confidence, doubts=found.doubts,
    )


_GRADERS = {"choice": _choice, "multi": _multi, "numeric": _numeric, "vector": _vector, "text": _text}


# ------------------------------------------------------------------------------- helpers


def _close(value: float, expected: object, q: Question) -> bool:
    if isinstance(expected, bool) or not isinstance(expected, (int, float)):
        return False
    allowed = q.tolerance.abs + (q.tolerance.rel + FLOAT_SLACK) * abs(expected)
    return abs(value - expected) <= allowed


def _rounded(typed: str, value: float, expected: object, unit: str | None = None) -> bool:
    """``value`` is ``expected`` correctly rounded to the decimals it was written with (``0.73`` for
    0.7311): right, only less precise than asked. Needs two significant digits, and never applies
    to a whole-number answer (a count is exact)."""
    if isinstance(expected, bool) or not isinstance(expected, (int, float)) or float(expected).is_integer():
        return False
    if unit and typed.strip().lower().endswith(unit.lower()):
        typed = typed.strip()[: -len(unit)]
    decimals = decimals_given(typed)
    return decimals is not None and abs(value - expected) <= 0.5 * 10.0**-decimals * (1 + FLOAT_SLACK) + FLOAT_SLACK


def _mistake(q: Question, matches) -> str | None:
    return next((w.mistake for w in q.mistakes if matches(w.answer)), None)

