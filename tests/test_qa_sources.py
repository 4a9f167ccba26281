"""Every interview question cites a source a learner can look up (not the team's private notes)."""

from __future__ import annotations

import pytest

from grader.bank import ProblemBank
from grader.qa.bank import load_bank

BANK = load_bank(ProblemBank().get("qa").folder)


@pytest.mark.parametrize("question", BANK.questions, ids=lambda q: q.id)
def test_source_is_public(question) -> None:
    assert question.source.strip()
    assert "shared/" not in question.source and "content.md" not in question.source, question.source
