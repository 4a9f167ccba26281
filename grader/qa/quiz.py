"""``grade quiz``: practise the qa questions one at a time, remembering progress between runs.

:class:`Progress` is the small JSON file that remembers, per question, how often it was asked and
how the last answer scored; questions missed or skipped last time come back first, then new
ones, then the ones answered right longest ago. A question that builds on another (``follows``
in the bank: "with the same q and k ...") is always asked right after it. :class:`QuizSession` picks the questions and grades answers with
the same :func:`grader.qa.grading.grade` as ``grade qa``; after a text answer the learner may mark it
for review (kept in the progress file). :func:`run` drives a session through a
:class:`QuizUI` (the terminal one is :class:`grader.qa.present.RichQuizUI`), so tests can script it.
"""

from __future__ import annotations

import json
import os
import random
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Protocol

from grader.errors import GraderError
from grader.qa import answers
from grader.qa.bank import Question, QuestionBank
from grader.qa.grading import Verdict, grade

#: Default progress file, in the folder where ``grade quiz`` runs (next to qa.yaml).
PROGRESS_FILE = ".grade-quiz.json"
DEFAULT_COUNT = 10
#: Typed instead of an answer, these end the session (so does end of input, Ctrl-D).
QUIT_WORDS = (":q", ":quit", ":exit")


class QuizError(GraderError):
    """A bad option (unknown topic, count < 1) or an unreadable progress file."""


# ----------------------------------------------------------------------------- progress


@dataclass
class Record:
    """What the progress file remembers about one question."""

    asked: int = 0
    right: int = 0
    last: float = 0.0  # score fraction of the last answer (a skip counts as 0: it comes back first)
    turn: int = 0  # the session turn of the last answer (a counter, not a clock)
    skipped: int = 0


@dataclass
class Progress:
    """Per-question records, read from and written to ``path``."""

    path: Path
    records: dict[str, Record] = field(default_factory=dict)
    turn: int = 0
    #: text answers the learner marked for review: {question, answer, fraction, confidence, turn}
    marked: list[dict[str, object]] = field(default_factory=list)

    @classmethod
    def load(cls, path: Path) -> Progress:
        if not path.exists():
            return cls(path)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            records = {qid: Record(**rec) for qid, rec in data["questions"].items()}
            marked = [dict(m) for m in data.get("marked_for_review", [])]
            return cls(path, records, int(data["turn"]), marked)
        except (OSError, ValueError, KeyError, TypeError) as err:
            raise QuizError(
                f"{path}: cannot read the quiz progress ({type(err).__name__}); delete the file to start afresh"
            ) from None

    def save(self) -> None:
        """Write atomically, so an interrupted quiz never leaves half a file."""
        data = {"version": 1, "turn": self.turn, "questions": {k: asdict(v) for k, v in sorted(self.records.items())},
                "marked_for_review": self.marked}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".grade-quiz-", dir=self.path.parent)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(data, out, indent=1)
        os.replace(tmp, self.path)

    def record(self, question_id: str, fraction: float) -> None:
        self.turn += 1
        rec = self.records.setdefault(question_id, Record())
        rec.asked += 1
        rec.right += fraction >= 1.0
        rec.last, rec.turn = round(fraction, 6), self.turn

    def skip(self, question_id: str) -> None:
        """An empty answer: not scored, but queued for review like a missed one."""
        self.turn += 1
        rec = self.records.setdefault(question_id, Record())
        rec.asked += 1
        rec.skipped += 1
        rec.last, rec.turn = 0.0, self.turn

    def missed(self, ids: list[str]) -> list[str]:
        """Of ``ids``, those whose last answer was not fully right."""
        return [i for i in ids if i in self.records and self.records[i].last < 1.0]

    def order(self, questions: list[Question], rng: random.Random) -> list[Question]:
        """Missed last time (lowest score, then oldest) first, then new ones (shuffled), then the rest."""
        missed = [q for q in questions if q.id in self.missed([q.id])]
        missed.sort(key=lambda q: (self.records[q.id].last, self.records[q.id].turn))
        new = [q for q in questions if q.id not in self.records]
        rng.shuffle(new)
        known = [q for q in questions if q.id in self.records and q not in missed]
        known.sort(key=lambda q: self.records[q.id].turn)
        return missed + new + known


# ----------------------------------------------------------------------------- session


@dataclass
class TopicScore:
    topic: str
    asked: int
    score: float
    max_score: float


class QuizSession:
    """The questions of one quiz run, and the answers given so far."""

    def __init__(
        self,
        bank: QuestionBank,
        progress: Progress,
        *,
        topic: str | None = None,
        count: int = DEFAULT_COUNT,
        seed: int | None = None,
    ):
        if topic is not None and topic not in bank.topics:
            raise QuizError(f'unknown topic "{topic}"; topics: {", ".join(bank.topics)}')
        if count < 1:
            raise QuizError(f"--count must be at least 1, got {count}")
        pool = [q for q in bank.questions if topic is None or q.topic == topic]
        self.bank, self.progress = bank, progress
        self.questions = _in_sequence(progress.order(pool, random.Random(seed)), pool, count)
        self.results: dict[str, Verdict] = {}
        self.marked = 0  # answers marked for review in this run

    def answer(self, question: Question, raw: str) -> Verdict:
        """Grade ``raw``; a readable answer is recorded and saved, an unreadable one is not."""
        verdict = grade(question, raw)
        if not verdict.unreadable:
            self.results[question.id] = verdict
            self.progress.record(question.id, verdict.fraction)
            self.progress.save()
        return verdict

    def mark_for_review(self, question: Question, raw: str, verdict: Verdict) -> None:
        """Keep a text answer the learner disputes, with its verdict, in the progress file."""
        self.progress.marked.append({
            "question": question.id, "answer": raw, "fraction": round(verdict.fraction, 6),
            "confidence": verdict.confidence, "turn": self.progress.turn,
        })
        self.marked += 1
        self.progress.save()

    def skip(self, question: Question) -> None:
        """The learner left ``question`` empty: it is asked first next time."""
        self.progress.skip(question.id)
        self.progress.save()

    def by_topic(self) -> list[TopicScore]:
        """Score per topic over the questions answered, in the bank's topic order."""
        rows = []
        for topic in self.bank.topics:
            answered = [q for q in self.questions if q.topic == topic and q.id in self.results]
            if answered:
                score = sum(q.points * self.results[q.id].fraction for q in answered)
                rows.append(TopicScore(topic, len(answered), round(score, 6), sum(q.points for q in answered)))
        return rows

    def to_review(self) -> int:
        """How many questions of the bank the next run will ask first."""
        return len(self.progress.missed(self.bank.ids()))


def _in_sequence(ordered: list[Question], pool: list[Question], count: int) -> list[Question]:
    """``count`` questions in the order of ``ordered``, except that a sequence (a question and those
    that follow it) is asked together, in the bank's order, where its earliest member falls.

    A question is never asked before the one it follows: where a whole sequence does not fit in
    the questions left, only its beginning is asked.
    """
    in_pool = {q.id: q for q in pool}

    def head(q: Question) -> Question:
        while q.follows is not None and q.follows in in_pool:
            q = in_pool[q.follows]
        return q

    chains: dict[str, list[Question]] = {}
    for q in pool:  # bank order: a question comes after the one it follows
        chains.setdefault(head(q).id, []).append(q)
    picked: list[Question] = []
    placed: set[str] = set()
    for q in ordered:
        if len(picked) >= count:
            break
        first = head(q)
        if first.id not in placed:
            placed.add(first.id)
            picked += chains[first.id][: count - len(picked)]
    return picked


# ----------------------------------------------------------------------------- driving it


class QuizUI(Protocol):
    """What :func:`run` needs from a front end."""

    def start(self, session: QuizSession) -> None: ...
    def show_question(self, question: Question, number: int, total: int) -> None: ...
    def ask(self, question: Question) -> str | None: ...  # None: the learner quits
    def show_unreadable(self, verdict: Verdict) -> None: ...
    def show_verdict(self, question: Question, verdict: Verdict) -> None: ...
    def ask_mark(self, question: Question, verdict: Verdict) -> bool | None: ...  # None: the learner quits
    def show_skipped(self, question: Question) -> None: ...
    def finish(self, session: QuizSession) -> None: ...


def run(session: QuizSession, ui: QuizUI) -> QuizSession:
    """Ask each question until the learner answers, skips (empty answer) or quits."""
    ui.start(session)
    for number, question in enumerate(session.questions, 1):
        ui.show_question(question, number, len(session.questions))
        while True:
            raw = ui.ask(question)
            if raw is None or raw.strip().lower() in QUIT_WORDS:
                ui.finish(session)
                return session
            if answers.is_blank(raw):
                session.skip(question)
                ui.show_skipped(question)
                break
            verdict = session.answer(question, raw)
            if verdict.unreadable:
                ui.show_unreadable(verdict)
                continue
            ui.show_verdict(question, verdict)
            if question.type == "text":  # a judged answer: the learner may dispute it
                mark = ui.ask_mark(question, verdict)
                if mark is None:
                    ui.finish(session)
                    return session
                if mark:
                    session.mark_for_review(question, raw, verdict)
            break
    ui.finish(session)
    return session
