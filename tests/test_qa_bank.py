"""The qa question bank is complete, consistent, bilingual, and its generated files are in sync."""

from __future__ import annotations

import re

import pytest
import yaml

from grader.bank import ProblemBank, bundled_root
from grader.qa import build
from grader.qa.bank import load_bank
from grader.qa.grading import grade
from grader.qa.text import judge

PROBLEM = ProblemBank().get("qa")
BANK = load_bank(PROBLEM.folder)
ISSUE_TOPICS = {
    "scaling", "softmax", "masks", "multi_head", "gqa", "positional", "relative_positions", "parameters",
    "complexity", "memory", "flash_attention", "efficient_attention", "architectures", "training",
}


def test_bank_size_topics_and_types() -> None:
    """At least 90 questions over the interview topics of issues 1 and 14, using every answer type."""
    assert len(BANK.questions) >= 90
    assert set(BANK.topics) == ISSUE_TOPICS
    assert {q.topic for q in BANK.questions} == ISSUE_TOPICS
    assert {q.type for q in BANK.questions} == {"choice", "multi", "numeric", "vector", "text"}


@pytest.mark.parametrize("question", BANK.questions, ids=lambda q: q.id)
def test_every_question_is_complete_in_both_languages(question) -> None:
    """Id, topic, points, question, explanation, hint (en + zh, the zh really Chinese) and a source."""
    assert question.points > 0 and question.source.strip() and question.title.en.strip() and question.title.zh.strip()
    for text in (question.question, question.explanation, question.hint, *question.options.values()):
        assert text.en.strip() and text.zh.strip()
        assert not re.search(r"[\u4e00-\u9fff]", text.en), text.en
    for text in (question.question, question.explanation, question.hint):
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
    """The question's own text, in either language, asserts no idea of its rubric (else parroting it would score)."""
    for lang in ("en", "zh"):
        judgement = judge(question, question.question.get(lang))
        assert judgement.found == [] and judgement.fraction == 0.0, (lang, [c.id for c in judgement.found])


@pytest.mark.parametrize("question", BANK.questions, ids=lambda q: q.id)
def test_the_hint_and_the_title_never_give_the_answer(question) -> None:
    """grade qa shows the title, the hint, and the hint of a named mistake to a wrong answer: none
    holds a form of the answer (tests/test_leaks.py checks the rendered outputs of the corpus; this
    checks every question and mistake, and names the one that leaks)."""
    from test_leaks import contains

    mistakes = [BANK.mistakes[w.mistake] for w in question.mistakes]
    for text in (question.hint.en, question.hint.zh, question.title.en, question.title.zh, *(m.hint.get(lang) for m in mistakes for lang in ("en", "zh"))):
        shown = [s for s in build.answer_secrets(question) if contains(text, s)]
        assert not shown, (text, shown)


#: Answers an interviewer accepts for the estimate questions of issue 14, and what they reject.
ESTIMATES = {
    "warmup_learning_rate": (["7e-4", "0.0007", "6.99e-4", "6.9e-4"], ["1e-3", "0.0158", "4.4e-2"]),
    "training_compute": (["2.2e20", "2.23e20", "2.3 × 10^20", "2.1e20"], ["7.44e19", "1.49e20", "2e21"]),
    "qk_flops": (["1.61e9", "1.6e9", "1609564160", "1.5e9"], ["8.05e8", "1.2e9", "3.2e9", "1.61e6"]),
    "sliding_window_span": (["131072", "131,000", "1.31e5"], ["4096", "262144"]),
}


@pytest.mark.parametrize("question_id", sorted(ESTIMATES))
def test_estimates_accept_what_an_interviewer_accepts(question_id: str) -> None:
    question = BANK.get(question_id)
    accepted, rejected = ESTIMATES[question_id]
    assert question.precision == "estimate"
    assert all(grade(question, raw).passed for raw in accepted), accepted
    assert not any(grade(question, raw).passed for raw in rejected), rejected


def test_every_number_declares_exact_or_estimate_and_states_an_estimate_s_range() -> None:
    numbers = [q for q in BANK.questions if q.type in ("numeric", "vector")]
    assert {q.precision for q in numbers} == {"exact", "estimate"}
    for q in numbers:
        if q.precision == "estimate":
            stated = f"{q.tolerance.rel * 100:g}%"
            assert f"within {stated}" in q.question.en and stated in q.question.zh, q.id
        else:
            assert q.tolerance.rel == 0, q.id


def test_the_format_examples_answer_no_question() -> None:
    """The stub's header, the prompt and the parse errors show example values; none answers a question."""
    from grader.qa.answers import Unreadable, parse_number, parse_vector
    from grader.qa.messages import MESSAGES

    stub = PROBLEM.stub_file.read_text(encoding="utf-8").split("# ====")[0]
    texts = [stub, PROBLEM.spec.summary.en, PROBLEM.spec.summary.zh] + [m[lang] for m in MESSAGES.entries.values() for lang in ("en", "zh")]
    examples = {e for text in texts for e in re.findall(r"\[[\d., ]+\]|\d[\d,./^×]*(?:e[-+]?\d+)?", text)}
    for q in BANK.questions:
        if q.type == "numeric":
            for example in examples:
                try:
                    value = parse_number(example)
                except Unreadable:
                    continue
                assert not grade(q, example).passed, (q.id, example, value)
        if q.type == "vector":
            for example in (e for e in examples if e.startswith("[")):
                assert len(parse_vector(example)) != len(q.answer) or not grade(q, example).passed, (q.id, example)
    assert not [q.id for q in BANK.questions if re.search(rf"\b{q.id}\b", stub)], "no question as an example"


def test_generated_files_are_in_sync_with_the_bank() -> None:
    """spec.yaml's checks, the qa.yaml stub and reference/qa.yaml match `python -m grader.qa.build`."""
    assert build.stale_files(bundled_root()) == []


def test_spec_has_one_check_per_question_and_the_bank_mistakes() -> None:
    spec = PROBLEM.spec
    assert spec.runtime == "data" and spec.learner_file == "qa.yaml"
    assert [c.id for c in spec.checks] == BANK.ids()
    assert {c.id: c.points for c in spec.checks} == {q.id: q.points for q in BANK.questions}
    assert {c.id: c.hint.en for c in spec.checks} == {q.id: q.hint.en for q in BANK.questions}
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
