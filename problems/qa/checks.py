"""Checks for qa: one per question of the bank, each grading that question's answer in qa.yaml.

No learner code runs (``runtime: data``). Every check reads the learner's qa.yaml (parsed once
and cached), grades its answer with :func:`grader.qa.grading.grade`, and reports a wrong answer
with partial credit and, when it is a classic one, the mistake by name. The learner reads the
question's hint (what to compute, never the answer); the answer and its explanation go to
``reveal``, which only ``--instructor`` shows, and every form of the answer is declared secret.
"""

from __future__ import annotations

from pathlib import Path

from grader.checks import CheckContext, CheckRegistry
from grader.engine import AnswerError, NotAttempted
from grader.i18n import LANGS, Text
from grader.qa import answers, grading
from grader.qa.bank import Question, load_bank
from grader.qa.build import answer_secrets, format_answer
from grader.qa.messages import say
from grader.qa.submission import read_answer_file

BANK = load_bank(Path(__file__).resolve().parent)
IDS = tuple(BANK.ids())
SECRETS = {q.id: answer_secrets(q) for q in BANK.questions}

checks = CheckRegistry()


def _check(question: Question):
    def check(ctx: CheckContext) -> None:
        ctx.secret(*SECRETS[question.id])
        answer_file = read_answer_file(ctx.submission_text or "", IDS)
        if question.id in answer_file.problems:  # a line of the file did not answer it as written
            is_error, message = answer_file.problems[question.id]
            raise AnswerError(message) if is_error else NotAttempted(message)
        raw = answer_file.answers.get(question.id)
        if answers.is_blank(raw):
            raise NotAttempted()
        verdict = grading.grade(question, raw)
        if verdict.rubric:  # a judged text answer: say how sure the verdict is
            why = Text(verdict.doubt_message("en"), verdict.doubt_message("zh"))
            ctx.review(verdict.confidence, why, " ".join(raw) if isinstance(raw, list) else str(raw))
        if not verdict.passed:
            message = Text(*(verdict.message(lang) for lang in LANGS))
            reveal = Text(*(
                say("reveal_answer", lang, answer=format_answer(question, lang), why=question.explanation.get(lang))
                for lang in LANGS
            ))
            ctx.fail(message, diagnosis=verdict.mistake, fraction=verdict.fraction, reveal=reveal)

    check.__name__ = check.__qualname__ = question.id
    return check


for _question in BANK.questions:
    checks.test(_question.id)(_check(_question))
