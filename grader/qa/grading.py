"""Grade one answer to one question: a score fraction, what was wrong, and a named mistake.

The same :func:`grade` serves ``grade qa`` (through the engine, one check per question) and
``grade quiz`` (one answer at a time), so both agree on every answer.

Free text is graded with the question's concept rubric: a concept counts when one of its
patterns (English or Chinese, whatever the question's language) matches the answer **and the
matched words are not all words of the question itself**, so repeating the question scores 0.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from grader.qa.answers import Raw, Unreadable, parse_letters, parse_number, parse_vector
from grader.qa.bank import Concept, Question
from grader.qa.messages import say

#: Relative slack on top of every numeric tolerance, so 0.1 + 0.2 reads as 0.3.
FLOAT_SLACK = 1e-9
#: The most a text answer scores when it also states a known misconception.
MISCONCEPTION_CAP = 0.5

# Words that carry no meaning on their own: an answer made of these and the question's words
# says nothing new.
_PLURAL = re.compile(r"(?<!s)s$")
_STOPWORDS = frozenset(
    _PLURAL.sub("", w) if len(w) > 3 else w
    for w in "a an the is are be it its this that these those of to in on for by with and or so as at we you "
    "i do does did why what how which because since then than there their them they can will would "
    "not no yes very just also into from".split()
) | frozenset("的了是在和与为就也都而及把被让使它这那个一么吗呢吧啊要会能可以因所什怎如何".replace(" ", ""))
_TOKEN = re.compile(r"[a-z0-9_]+|[\u3400-\u9fff]")
_WORD_CHAR = re.compile(r"[a-z0-9_]")


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
        return "; ".join(parts)


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
    if _close(value, q.answer, q):
        return Verdict(1.0)
    key = "number_high" if value > q.answer else "number_low"
    shown = raw.strip() if isinstance(raw, str) else raw
    return Verdict(0.0, [(key, {"answer": shown})], _mistake(q, lambda wrong: _close(value, wrong, q)))


def _vector(q: Question, raw: Raw) -> Verdict:
    values = parse_vector(raw)
    if len(values) != len(q.answer):
        return Verdict(0.0, [("vector_length", {"expected": len(q.answer), "got": len(values)})])
    off = [i + 1 for i, (v, e) in enumerate(zip(values, q.answer)) if not _close(v, e, q)]
    if not off:
        return Verdict(1.0)
    tol = f"{q.tolerance.abs:g}" if q.tolerance.abs else f"{q.tolerance.rel:g} relative"
    note = ("vector_off", {"entries": ", ".join(map(str, off)), "tol": tol})

    def matches(wrong: object) -> bool:
        return isinstance(wrong, list) and len(wrong) == len(values) and all(_close(v, w, q) for v, w in zip(values, wrong))

    return Verdict(0.0, [note], _mistake(q, matches))


def _text(q: Question, raw: Raw) -> Verdict:
    answer = normalise_text(" ".join(raw) if isinstance(raw, list) else raw)
    asked = tokens(q.question.en + " " + q.question.zh)
    total = sum(c.points for c in q.concepts)
    if not (tokens(answer) - asked - _STOPWORDS):
        return Verdict(0.0, [("text_repeats", {})], missing=list(q.concepts), rubric=True)
    found = [c for c in q.concepts if _says(c.en + c.zh, answer, asked)]
    missing = [c for c in q.concepts if c not in found]
    fraction = sum(c.points for c in found) / total
    notes: list[tuple[str, dict[str, object]]] = []
    mistake = next((w.mistake for w in q.mistakes if _says(w.en + w.zh, answer, asked)), None)
    if mistake is not None:
        fraction = min(fraction, MISCONCEPTION_CAP)
        notes.append(("text_mistake", {}))
    return Verdict(fraction, notes, mistake, found, missing, rubric=True)


_GRADERS = {"choice": _choice, "multi": _multi, "numeric": _numeric, "vector": _vector, "text": _text}


# ------------------------------------------------------------------------------- helpers


def _close(value: float, expected: object, q: Question) -> bool:
    if isinstance(expected, bool) or not isinstance(expected, (int, float)):
        return False
    allowed = q.tolerance.abs + (q.tolerance.rel + FLOAT_SLACK) * abs(expected)
    return abs(value - expected) <= allowed


def _mistake(q: Question, matches) -> str | None:
    return next((w.mistake for w in q.mistakes if matches(w.answer)), None)


def normalise_text(text: str) -> str:
    """NFKC, lower case, single spaces: the form rubric patterns are matched against."""
    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", text).lower()).strip()


def tokens(text: str) -> set[str]:
    """Latin words (plural or third-person -s dropped: heads -> head) and numbers, and single CJK characters."""
    return {_stem(t) for t in _TOKEN.findall(normalise_text(text))}


def _stem(token: str) -> str:
    return _PLURAL.sub("", token) if len(token) > 3 else token


def _says(patterns: list[str], answer: str, asked: set[str]) -> bool:
    """Some pattern matches words of ``answer`` that are not all words of the question."""
    for pattern in patterns:
        for match in re.finditer(pattern, answer, re.IGNORECASE):
            start, end = match.span()
            while start > 0 and _WORD_CHAR.match(answer[start - 1]):  # widen to whole words
                start -= 1
            while end < len(answer) and _WORD_CHAR.match(answer[end]):
                end += 1
            if tokens(answer[start:end]) - asked - _STOPWORDS:
                return True
    return False
