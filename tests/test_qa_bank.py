"""The qa question bank is complete, consistent, bilingual, and its generated files are in sync."""

from __future__ import annotations

import re

import pytest
import yaml

from grader.bank import ProblemBank, bundled_root
from grader.qa import build
from grader.qa.bank import load_bank
from grader.qa.grading import grade, tokens

PROBLEM = ProblemBank().get("qa")
BANK = load_bank(PROBLEM.folder)
ISSUE_TOPICS = {"scaling", "softmax", "masks", "multi_head", "positional", "parameters", "complexity", "memory", "training"}


def test_bank_size_topics_and_types() -> None:
    """At least 40 questions over the nine interview topics, using every answer type."""
    assert len(BANK.questions) >= 40
    assert set(BANK.topics) == ISSUE_TOPICS
    assert {q.topic for q in BANK.questions} == ISSUE_TOPICS
    assert {q.type for q in BANK.questions} == {"choice", "multi", "numeric", "vector", "text"}


@pytest.mark.parametrize("question", BANK.questions, ids=lambda q: q.id)
def test_every_question_is_complete_in_both_languages(question) -> None:
    """Id, topic, points, question, explanation (en + zh, the zh really Chinese) and a source."""
    assert question.points > 0 and question.source.strip() and question.title.strip()
    for text in (question.question, question.explanation, *question.options.values()):
        assert text.en.strip() and text.zh.strip()
        assert not re.search(r"[\u4e00-\u9fff]", text.en), text.en
    for text in (question.question, question.explanation):
        assert re.search(r"[\u4e00-\u9fff]", text.zh), text.zh


@pytest.mark.parametrize("question", BANK.questions, ids=lambda q: q.id)
def test_reference_answer_scores_full(question) -> None:
    """The bank's answer (the model answer for text) is graded right."""
    raw = question.answer["en"] if question.type == "text" else build.reference_answer(question)
    assert grade(question, raw).fraction == 1.0


@pytest.mark.parametrize(
    ("question", "wrong"),
    [(q, w) for q in BANK.questions if q.type != "text" for w in q.mistakes],
    ids=lambda x: getattr(x, "id", None) or getattr(x, "mistake", ""),
)
def test_every_listed_wrong_answer_is_diagnosed(question, wrong) -> None:
    """Each classic wrong value scores below full and carries its mistake's name."""
    raw = [str(x) for x in wrong.answer] if isinstance(wrong.answer, list) else str(wrong.answer)
    verdict = grade(question, raw)
    assert verdict.fraction < 1.0
    assert verdict.mistake == wrong.mistake


@pytest.mark.parametrize("question", [q for q in BANK.questions if q.type == "text"], ids=lambda q: q.id)
def test_no_concept_is_found_in_the_question_itself(question) -> None:
    """Rubric patterns never match the question's own text (else parroting it would score)."""
    for lang in ("en", "zh"):
        asked = question.question.get(lang).lower()
        for concept in question.concepts:
            for pattern in concept.en + concept.zh:
                match = re.search(pattern, asked, re.IGNORECASE)
                assert match is None or not (tokens(match.group()) - tokens(asked)), (concept.id, pattern)


def test_generated_files_are_in_sync_with_the_bank() -> None:
    """spec.yaml's checks, the qa.yaml stub and reference/qa.yaml match `python -m grader.qa.build`."""
    assert build.stale_files(bundled_root()) == []


def test_spec_has_one_check_per_question_and_the_bank_mistakes() -> None:
    spec = PROBLEM.spec
    assert spec.runtime == "data" and spec.learner_file == "qa.yaml"
    assert [c.id for c in spec.checks] == BANK.ids()
    assert {c.id: c.points for c in spec.checks} == {q.id: q.points for q in BANK.questions}
    assert {c.id: c.hint for c in spec.checks} == {q.id: q.explanation.en for q in BANK.questions}
    assert [m.id for m in spec.mistakes] == list(BANK.mistakes)


def test_reference_answers_are_the_banks() -> None:
    """reference/qa.yaml answers every question, in bank order, with the bank's answers."""
    answers = yaml.safe_load(PROBLEM.reference_file.read_text(encoding="utf-8"))
    assert PROBLEM.reference_file.name == "qa.yaml"
    assert list(answers) == BANK.ids()
    assert answers["mha_params"] == 1050624
    assert answers["softmax_role"] == ["A", "B", "C"]


def test_stub_lists_every_question_with_an_empty_answer() -> None:
    stub = PROBLEM.stub_file.read_text(encoding="utf-8")
    keys = re.findall(r"^([a-z0-9_]+):\s*$", stub, re.MULTILINE)
    assert keys == BANK.ids()
    assert "为什么要把注意力分数除以 sqrt(d_k)？" in stub  # the Chinese question, as a comment


def test_a_broken_bank_is_a_spec_error_naming_the_file(tmp_path) -> None:
    """An answer of the wrong form is caught at load time, with the file and the question."""
    import shutil

    from grader.errors import SpecError

    folder = tmp_path / "qa"
    shutil.copytree(PROBLEM.folder, folder)
    path = folder / "questions" / "scaling.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("answer: B\n", "answer: Z\n", 1), encoding="utf-8")
    with pytest.raises(SpecError, match=r"scaling\.yaml: \[2\] why_sqrt_dk: answer 'Z' is not one of the options"):
        load_bank(folder)
