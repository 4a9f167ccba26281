"""Checks for qa: one per question of the bank, each grading that question's answer in qa.yaml.

No learner code runs (``runtime: data``). Every check reads the learner's qa.yaml (parsed once
and cached), grades its answer with :func:`grader.qa.grading.grade`, and reports a wrong answer
with partial credit and, when it is a classic one, the mistake by name.
"""

from __future__ import annotations

from pathlib import Path

from grader.checks import CheckContext, CheckRegistry
from grader.engine import NotAttempted
from grader.qa import answers, grading
from grader.qa.bank import Question, load_bank
from grader.qa.submission import read_answers

BANK = load_bank(Path(__file__).resolve().parent)
IDS = tuple(BANK.ids())

checks = CheckRegistry()


def _check(question: Question):
    def check(ctx: CheckContext) -> None:
        raw = read_answers(ctx.submission_text or "", IDS).get(question.id)
        if answers.is_blank(raw):
            raise NotAttempted("no answer yet")
        verdict = grading.grade(question, raw)
        if not verdict.passed:
            ctx.fail(verdict.message("en"), diagnosis=verdict.mistake, fraction=verdict.fraction)

    check.__name__ = check.__qualname__ = question.id
    return check


for _question in BANK.questions:
    checks.test(_question.id)(_check(_question))
