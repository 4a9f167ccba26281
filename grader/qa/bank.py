"""The question bank of the ``qa`` problem: its schema, its loader and its consistency rules.

The bank is data in the problem's folder::

    problems/qa/topics.yaml              topic id -> {en, zh} label, in display order
    problems/qa/mistakes.yaml            classic wrong answers, diagnosed by name (id, title, hint)
    problems/qa/lexicon.yaml             term -> the ways learners say it; a text pattern writes ``@term``
    problems/qa/questions/<topic>.yaml   a list of questions; the file name is their topic

Every question has an id, points, the question, an explanation and a hint in English and
Chinese, a source, and an answer whose form depends on its ``type`` (see :class:`Question`). The
hint is what ``grade qa`` tells a wrong answer (what to compute, which idea is missing) and never
holds the answer; the explanation is shown by ``grade quiz`` once the learner has answered, and by
``grade qa --instructor``. A number declares ``precision: exact`` (its tolerance only covers the
rounding it asks for) or ``estimate`` (a relative tolerance the question states: "within 10%").
Loading fails with a :class:`~grader.errors.SpecError` naming the file and the key.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal


from grader import schema
from grader.errors import SpecError
from grader.i18n import LANGS, Text  # noqa: F401  (Text: re-exported for the bank's users)
from grader.yaml_files import read_yaml

QuestionType = Literal["choice", "multi", "numeric", "vector", "text"]
_ID = re.compile(r"^[a-z][a-z0-9_]*$")
_LETTER = re.compile(r"^[A-H]$")


def _doc(text: str) -> dict[str, str]:
    return {"doc": text}


@dataclass(frozen=True)
class Tolerance:
    """An answer x is right when |x - answer| <= abs + rel * |answer| (element-wise for vectors)."""

    abs: float = field(default=0.0, metadata=_doc("absolute tolerance"))
    rel: float = field(default=0.0, metadata=_doc("relative tolerance"))


@dataclass(frozen=True)
class Phrasings:
    """Regular expressions in English and in Chinese."""

    en: list[str] = field(default_factory=list, metadata=_doc("English"))
    zh: list[str] = field(default_factory=list, metadata=_doc("Chinese"))


@dataclass(frozen=True)
class Concept:
    """One idea a free-text answer should contain, with phrasings that count as saying it."""

    id: str = field(metadata=_doc("stable id, e.g. variance"))
    label: Text = field(metadata=_doc("how feedback names the concept"))
    en: list[str] = field(metadata=_doc("regular expressions (case-insensitive) for English phrasings"))
    zh: list[str] = field(metadata=_doc("regular expressions for Chinese phrasings"))
    points: float = field(default=1.0, metadata=_doc("weight of the concept within the question"))
    danger: bool = field(
        default=False,
        metadata=_doc(
            "the idea is a danger the fix prevents (the softmax saturates): 'so that it does not saturate' states it too"
        ),
    )
    against: Phrasings = field(
        default_factory=lambda: Phrasings(),
        metadata=_doc("phrasings that assert the opposite of the idea (an inverted claim): it then counts against the answer"),
    )
    about: str | None = field(
        default=None,
        metadata=_doc(
            "the question's subject the idea is a claim about (a key of `subjects`): said of another subject "
            "('prefill is memory-bound'), it is an inverted claim"
        ),
    )


@dataclass(frozen=True)
class WrongAnswer:
    """A classic wrong answer: a value (choice, multi, numeric, vector) or phrasings (text)."""

    mistake: str = field(metadata=_doc("id of a mistake in mistakes.yaml"))
    answer: Any = field(default=None, metadata=_doc("the wrong value, in the same form as the answer"))
    en: list[str] = field(default_factory=list, metadata=_doc("text questions: English phrasings"))
    zh: list[str] = field(default_factory=list, metadata=_doc("text questions: Chinese phrasings"))


@dataclass(frozen=True)
class Question:
    """One interview question and how its answer is graded."""

    id: str = field(metadata=_doc("stable id; also the key in qa.yaml and the check id"))
    title: Text = field(metadata=_doc("one short line for the results table, {en, zh}"))
    type: QuestionType = field(metadata=_doc("choice | multi | numeric | vector | text"))
    question: Text = field(metadata=_doc("the question"))
    answer: Any = field(
        metadata=_doc("choice: a letter; multi: letters; numeric: a number; vector: numbers; text: a model answer {en, zh}")
    )
    explanation: Text = field(
        metadata=_doc("the answer worked out: grade quiz shows it once answered, grade qa only with --instructor")
    )
    hint: Text = field(
        metadata=_doc("what grade qa says to a wrong answer: what to compute, which idea to use; never the answer")
    )
    source: str = field(metadata=_doc("where the fact comes from: a paper's section or a documentation URL"))
    points: float = field(default=1.0, metadata=_doc("points for a full answer"))
    options: dict[str, Text] = field(default_factory=dict, metadata=_doc("choice and multi: letter -> option"))
    partial: Literal["right_minus_wrong", "all_or_nothing"] = field(
        default="right_minus_wrong",
        metadata=_doc("multi: (right picks - wrong picks) / right letters, or all or nothing"),
    )
    precision: Literal["exact", "estimate"] | None = field(
        default=None,
        metadata=_doc(
            "numeric and vector: exact (the tolerance only covers the rounding the question asks for) or "
            "estimate (a relative tolerance, stated in the question: 'within 5%', '误差 5% 以内')"
        ),
    )
    tolerance: Tolerance = field(default_factory=Tolerance, metadata=_doc("numeric and vector"))
    unit: str | None = field(default=None, metadata=_doc("numeric: the unit asked for, e.g. GiB (may be typed after the number)"))
    concepts: list[Concept] = field(default_factory=list, metadata=_doc("text: the rubric"))
    mistakes: list[WrongAnswer] = field(default_factory=list, metadata=_doc("classic wrong answers, diagnosed by name"))
    subjects: dict[str, Phrasings] = field(
        default_factory=dict,
        metadata=_doc("text: the things the question contrasts (bert, gpt), each with phrasings naming it; see `about`"),
    )
    topic: str = field(default="", metadata=_doc("set by the loader from the file name"))
    synonyms: list[str] = field(
        default_factory=list,
        metadata=_doc("set by the loader: the lexicon's spellings of the terms the question names (text; for echoes)"),
    )
    domain: tuple[str, ...] = field(
        default=(),
        metadata=_doc("set by the loader: the bank's own texts (its questions, model answers, idea labels, lexicon), "
                      "whose words tell on-topic words a rubric did not recognise from filler (text)"),
    )
    follows: str | None = field(
        default=None,
        metadata=_doc('the id of the question this one builds on ("with the same q and k"): the quiz asks it right after'),
    )


@dataclass(frozen=True)
class Mistake:
    """A named misconception; ``grade qa`` shows its title and hint when an answer matches it."""

    id: str = field(metadata=_doc("stable id, e.g. divide_by_dk"))
    title: Text = field(metadata=_doc("what the learner did"))
    hint: Text = field(metadata=_doc("how to think about it instead"))


@dataclass(frozen=True)
class QuestionBank:
    """All questions, in topic order then file order."""

    folder: Path
    topics: dict[str, Text]
    mistakes: dict[str, Mistake]
    questions: list[Question]

    by_id: dict[str, Question] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "by_id", {q.id: q for q in self.questions})

    def get(self, question_id: str) -> Question:
        return self.by_id[question_id]

    def ids(self) -> list[str]:
        return [q.id for q in self.questions]

    def __contains__(self, question_id: str) -> bool:
        return question_id in self.by_id


def load_bank(folder: Path) -> QuestionBank:
    """Load and validate the bank in ``folder`` (``problems/qa``), once per content version."""
    files = [folder / "topics.yaml", folder / "mistakes.yaml", folder / LEXICON, *sorted((folder / "questions").glob("*.yaml"))]
    stamp = tuple((str(p), p.stat().st_mtime_ns) for p in files if p.exists())
    return _load(folder, stamp)


@lru_cache(maxsize=4)
def _load(folder: Path, stamp: tuple) -> QuestionBank:
    topics = schema.load(dict[str, Text], _read(folder / "topics.yaml"), where=str(folder / "topics.yaml"))
    mistakes_where = str(folder / "mistakes.yaml")
    mistakes = schema.load(list[Mistake], _read(folder / "mistakes.yaml"), where=mistakes_where)
    lexicon = _load_lexicon(folder / LEXICON)
    questions: list[Question] = []
    for topic in topics:
        path = folder / "questions" / f"{topic}.yaml"
        if not path.is_file():
            raise SpecError(f"{folder / 'topics.yaml'}: topic {topic!r} has no file {path}")
        for index, question in enumerate(schema.load(list[Question], _read(path), where=str(path))):
            question = _expand_terms(question, lexicon, f"{path}: [{index}] {question.id}")
            _validate(question, f"{path}: [{index}] {question.id}")
            questions.append(_with_topic(question, topic))
    for path in sorted((folder / "questions").glob("*.yaml")):
        if path.stem not in topics:
            raise SpecError(f"{path}: topic {path.stem!r} is not listed in topics.yaml")
    domain = _domain(questions, lexicon)
    questions = [replace(q, domain=domain) if q.type == "text" else q for q in questions]
    bank = QuestionBank(folder, topics, {m.id: m for m in mistakes}, questions)
    _validate_bank(bank, mistakes_where)
    return bank


def _domain(questions: list[Question], lexicon: dict[str, str]) -> tuple[str, ...]:
    """The texts in which the bank itself talks about attention, in both languages: its questions, model
    answers, explanations, hints and idea labels, and the lexicon's spellings (regex syntax dropped)."""
    texts: list[str] = []
    for q in questions:
        for text in (q.title, q.question, q.explanation, q.hint, *(c.label for c in q.concepts)):
            texts += [text.en, text.zh]
        if isinstance(q.answer, dict):
            texts += [str(v) for v in q.answer.values()]
    texts += [re.sub(r"\\[a-zA-Z]|[\\\[\]()?*+|{}^$:]", " ", spellings) for spellings in lexicon.values()]
    return tuple(texts)


def _read(path: Path) -> Any:
    return read_yaml(path)


#: The bank's lexicon: one file of terms, each with the ways learners write it (both languages).
LEXICON = "lexicon.yaml"
_TERM = re.compile(r"@([a-z][a-z0-9_]*)")


def _load_lexicon(path: Path) -> dict[str, str]:
    """term -> one regular expression group of all its spellings; {} when the bank has no lexicon."""
    if not path.is_file():
        return {}
    terms = schema.load(dict[str, list[str]], _read(path), where=str(path))
    lexicon: dict[str, str] = {}
    for term, spellings in terms.items():
        if not _ID.match(term) or not spellings:
            raise SpecError(f"{path}: term {term!r} needs a lower_snake_case name and at least one spelling")
        for spelling in spellings:
            if _TERM.search(spelling):
                raise SpecError(f"{path}: term {term!r}: a spelling may not use another term ({spelling!r})")
            try:
                re.compile(spelling)
            except re.error as err:
                raise SpecError(f"{path}: term {term!r}: invalid regular expression {spelling!r} ({err})") from None
        lexicon[term] = "(?:" + "|".join(spellings) + ")"
    return lexicon


# A bounded gap ``[^.;]{0,40}`` matches as little as it can: a claim is its shortest span, not one
# that runs on into the next clause.
_LAZY_GAP = re.compile(r"(?<!\\)(\{\d*,\d+\})(?!\?)")
# A gap that stops at an English full stop stops at a Chinese one too ("…15% token。GPT…").
_FULL_STOP = re.compile(r"\[\^((?:[^\]。\\]|\\.)*\.(?:[^\]。\\]|\\.)*)\]")
# A short gap (ten characters at most) stays in its clause: "没有卷积，所以要把位置……" does not say "没有……位置".
_SHORT_GAP = re.compile(r"\[\^([^\],]*)\]\{0,(10|[1-9])\}")


def _expand_terms(q: Question, lexicon: dict[str, str], where: str) -> Question:
    """Ready a text question's patterns for matching: every ``@term`` becomes the term's spellings
    from the lexicon, and every bounded gap matches lazily."""
    if q.type != "text":
        return q

    def expand(patterns: list[str]) -> list[str]:
        def one(match: re.Match[str]) -> str:
            if match.group(1) not in lexicon:
                raise SpecError(f"{where}: pattern {match.group(0)!r} names no term of {LEXICON}")
            return lexicon[match.group(1)]

        return [_LAZY_GAP.sub(r"\1?", _SHORT_GAP.sub(r"[^\1,]{0,\2}", _FULL_STOP.sub(r"[^\1。]", _TERM.sub(one, pattern))))
                for pattern in patterns]

    def phrasings(p: Phrasings) -> Phrasings:
        return Phrasings(expand(p.en), expand(p.zh))

    concepts = [
        replace(c, en=expand(c.en), zh=expand(c.zh), against=phrasings(c.against)) for c in q.concepts
    ]
    mistakes = [replace(w, en=expand(w.en), zh=expand(w.zh)) for w in q.mistakes]
    subjects = {name: phrasings(p) for name, p in q.subjects.items()}
    # An answer that only renames the question's own terms ("缩小 KV 缓存" for "减小 KV 缓存") says nothing new.
    asked = f"{q.question.en} {q.question.zh}".lower()
    synonyms = [spellings for spellings in lexicon.values() if re.search(spellings, asked)]
    return replace(q, concepts=concepts, mistakes=mistakes, subjects=subjects, synonyms=synonyms)


def _with_topic(question: Question, topic: str) -> Question:
    return replace(question, topic=topic)


def _validate(q: Question, where: str) -> None:
    """Rules the schema cannot express: the answer's form matches the type."""

    def fail(message: str) -> None:
        raise SpecError(f"{where}: {message}")

    if not _ID.match(q.id):
        fail("id must be lower_snake_case")
    if q.points <= 0:
        fail("points must be positive")
    has_options = q.type in ("choice", "multi")
    if has_options != bool(q.options):
        fail("options are required for choice and multi questions, and only for them")
    for letter in q.options:
        if not _LETTER.match(letter):
            fail(f"option {letter!r} must be one capital letter A-H")
    if q.type == "choice" and q.answer not in q.options:
        fail(f"answer {q.answer!r} is not one of the options {sorted(q.options)}")
    if q.type == "multi" and (not isinstance(q.answer, list) or not q.answer or not set(q.answer) <= set(q.options)):
        fail("answer must be a non-empty list of option letters")
    _validate_precision(q, fail)
    if q.type == "numeric" and (isinstance(q.answer, bool) or not isinstance(q.answer, (int, float))):
        fail("answer must be a number")
    if q.type == "vector" and (
        not isinstance(q.answer, list) or not q.answer or not all(isinstance(x, (int, float)) for x in q.answer)
    ):
        fail("answer must be a non-empty list of numbers")
    if q.type == "text":
        if not isinstance(q.answer, dict) or set(q.answer) != set(LANGS):
            fail("answer of a text question is a model answer {en: ..., zh: ...}")
        if not q.concepts:
            fail("a text question needs concepts (its rubric)")
        for concept in q.concepts:
            if not concept.en or not concept.zh:
                fail(f"concept {concept.id!r} needs English and Chinese phrasings")
            for pattern in concept.en + concept.zh + concept.against.en + concept.against.zh:
                _compile(pattern, fail)
            if concept.about is not None and concept.about not in q.subjects:
                fail(f"concept {concept.id!r}: about {concept.about!r} is not one of the question's subjects")
        if len(q.subjects) == 1:
            fail("subjects: name at least two things the question contrasts, or none")
        for name, named in q.subjects.items():
            if not _ID.match(name) or not named.en or not named.zh:
                fail(f"subject {name!r} needs a lower_snake_case name and English and Chinese phrasings")
            for pattern in named.en + named.zh:
                _compile(pattern, fail)
    elif q.concepts or q.subjects:
        fail("concepts and subjects are only for text questions")
    for wrong in q.mistakes:
        if q.type == "text":
            if wrong.answer is not None or not (wrong.en or wrong.zh):
                fail(f"mistake {wrong.mistake!r}: a text question's mistakes are phrasings (en, zh)")
            for pattern in wrong.en + wrong.zh:
                _compile(pattern, fail)
        elif wrong.answer is None or wrong.en or wrong.zh:
            fail(f"mistake {wrong.mistake!r}: give the wrong answer as `answer`")


def estimate_range(q: Question) -> str:
    """``5%``: the relative range an estimate question accepts, as the question states it."""
    return f"{q.tolerance.rel * 100:g}%"


def _validate_precision(q: Question, fail: Any) -> None:
    """Numbers declare exact or estimate; an estimate states the range it accepts in both languages."""
    if q.type not in ("numeric", "vector"):
        if q.precision is not None:
            fail("precision is only for numeric and vector questions")
        return
    if q.precision is None:
        fail("precision: say whether the answer is exact or an estimate")
    if q.precision == "exact" and q.tolerance.rel:
        fail("an exact answer takes no relative tolerance (only an absolute one for the rounding it asks for)")
    if q.precision == "estimate":
        if not 0 < q.tolerance.rel < 1 or q.tolerance.abs:
            fail("an estimate needs a relative tolerance between 0 and 1 (tolerance: {rel: 0.05}) and no absolute one")
        stated = estimate_range(q)
        if f"within {stated}" not in q.question.en or stated not in q.question.zh:
            fail(f"an estimate states its range in the question: 'within {stated}' (en) and '{stated}' (zh)")


def _compile(pattern: str, fail: Any) -> None:
    try:
        compiled_pattern(pattern)
    except re.error as err:
        fail(f"pattern {pattern!r} is not a valid regular expression ({err})")


@lru_cache(maxsize=None)
def compiled_pattern(pattern: str) -> re.Pattern[str]:
    """A rubric pattern, compiled once per process (validating the bank and grading share it).

    Answers are matched in lower case (:func:`grader.qa.normal_form.canonical`), so no flag is needed.
    """
    return re.compile(pattern)


def _validate_bank(bank: QuestionBank, mistakes_where: str) -> None:
    seen: set[str] = set()
    for q in bank.questions:
        if q.id in seen:
            raise SpecError(f"{bank.folder / 'questions' / (q.topic + '.yaml')}: duplicate question id {q.id!r}")
        seen.add(q.id)
        for wrong in q.mistakes:
            if wrong.mistake not in bank.mistakes:
                raise SpecError(
                    f"{bank.folder / 'questions' / (q.topic + '.yaml')}: {q.id}: mistake {wrong.mistake!r} "
                    f"is not declared in {mistakes_where}"
                )
    earlier: dict[str, Question] = {}
    ids = {q.id: q for q in bank.questions}
    for q in bank.questions:
        where = bank.folder / "questions" / (q.topic + ".yaml")
        if q.follows is not None and q.follows not in earlier:
            raise SpecError(f"{where}: {q.id}: follows {q.follows!r}, which is not a question before it in the bank")
        earlier[q.id] = q
        if q.follows is not None and ids[q.follows].topic != q.topic:
            raise SpecError(f"{where}: {q.id}: follows {q.follows!r}, a question of another topic")
    used = {w.mistake for q in bank.questions for w in q.mistakes}
    unused = sorted(set(bank.mistakes) - used)
    if unused:
        raise SpecError(f"{mistakes_where}: mistake {unused[0]!r} is not used by any question")
