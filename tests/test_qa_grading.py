"""`grade qa` through the real engine: answers in qa.yaml, malformed files, partial credit, hints."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.cli import cli
from grader.results import Status


@pytest.fixture(name="grade_qa")
def _grade_qa(grade_file, tmp_path):
    """grade_qa(text) -> ProblemResult for a qa.yaml holding ``text``."""

    def grade_qa(text: str):
        path = tmp_path / "qa.yaml"
        path.write_text(text, encoding="utf-8")
        return grade_file("qa", path)

    return grade_qa


def _by_id(result):
    return {c.id: c for c in result.checks}


def test_empty_file_is_not_attempted(grade_qa) -> None:
    result = grade_qa("")
    assert result.score == 0 and result.not_attempted and result.error is None


def test_answers_are_graded_and_the_rest_not_attempted(grade_qa) -> None:
    """Right answers pass; a classic wrong one fails with its mistake; blanks stay not_attempted."""
    result = grade_qa("mha_params: 1,050,624\nvar_qk: 8\nwhy_sqrt_dk: b\nd_k_per_head:\n")
    checks = _by_id(result)
    assert checks["mha_params"].status is Status.PASS
    assert checks["why_sqrt_dk"].status is Status.PASS
    assert checks["var_qk"].status is Status.FAIL
    assert checks["var_qk"].diagnosis.id == "std_for_variance"
    assert checks["var_qk"].message.en == "8 is too low"
    assert checks["d_k_per_head"].status is Status.NOT_ATTEMPTED
    assert result.score == 2 and result.error is None


def test_wrong_answer_gets_a_hint_and_only_the_instructor_the_explanation(grade_qa) -> None:
    """The hint says what to think about; the answer and its explanation go to ``reveal``, which
    graded output drops and --instructor shows."""
    from grader.render import render

    result = grade_qa("why_sqrt_dk: C\n")
    check = _by_id(result)["why_sqrt_dk"]
    assert check.status is Status.FAIL and check.diagnosis is None
    assert check.hint.en.startswith("Think about how large the scores get as d_k grows")
    assert check.reveal.en.startswith("Answer: B. To keep the variance of the scores near 1")
    assert "Without the scale, scores grow like sqrt(d_k)" in check.reveal.en
    assert check.reveal.zh.startswith("答案：B. 为了让分数的方差保持在 1 附近")
    assert "Without the scale" not in render([result], "json", verbose=True)
    assert "Without the scale" in render([result], "json", instructor=True)


def test_multi_gives_partial_credit(grade_qa) -> None:
    """(right picks - wrong picks) / right letters: 2 right + 1 wrong of 3 scores 1/3."""
    checks = _by_id(grade_qa("softmax_role: [A, B, D]\nencoder_decoder_masks: A B\n"))
    assert checks["softmax_role"].score == pytest.approx(1 / 3, abs=1e-6)
    assert checks["encoder_decoder_masks"].score == pytest.approx(2 / 3, abs=1e-6)
    assert checks["softmax_role"].message.en == "2 of 3 right options chosen, 1 wrong one(s) chosen"


def test_text_answer_partial_credit_and_feedback(grade_qa) -> None:
    check = _by_id(grade_qa('explain_sqrt_dk: "the variance of q·k grows with d_k"\n'))["explain_sqrt_dk"]
    assert check.status is Status.FAIL and 0 < check.score < check.max_score
    assert check.message.en.startswith("found: the variance")


def test_yaml_words_are_read_as_typed(grade_qa) -> None:
    """`no`, `1e-3` and `1:30` are answers as written, not YAML booleans, strings or sexagesimals."""
    checks = _by_id(grade_qa("why_sqrt_dk: no\nvar_qk: 1:30\nvar_qk_scaled: 1e0\n"))
    assert checks["why_sqrt_dk"].message.en.startswith("could not read 'no' as option letters")
    assert checks["var_qk"].message.en.startswith("could not read '1:30' as a number")
    assert checks["var_qk_scaled"].status is Status.PASS


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("var_qk: 8\nexplain_sqrt_dk: why: because\n", "qa.yaml, line 2: not valid YAML: mapping values are not allowed here"),
        ("- 64\n- 8\n", "qa.yaml, line 1: expected lines of the form `question_id: answer`"),
        ("var_qk:\n  value: 64\n", "qa.yaml, line 2: var_qk: the answer is a mapping"),
        ("var_qk: [64\n", "qa.yaml, line 2: not valid YAML"),
    ],
)
def test_malformed_file_is_one_error_naming_the_line(grade_qa, text: str, error: str) -> None:
    result = grade_qa(text)
    assert result.status == "error" and result.error.en.startswith(error), result.error
    assert {c.status for c in result.checks} == {Status.ERROR} and result.score == 0


def test_a_typo_in_one_id_costs_only_that_question_and_names_the_line(grade_qa) -> None:
    """A misspelled id leaves its question not attempted, with the line; the rest is graded (issue 21)."""
    result = grade_qa("var_qk: 64\nwhy_sqrtdk: B\nmha_params: 1,050,624\n")
    checks = _by_id(result)
    assert result.error is None and result.status == "fail"
    assert checks["var_qk"].status is Status.PASS and checks["mha_params"].status is Status.PASS
    assert checks["why_sqrt_dk"].status is Status.NOT_ATTEMPTED
    assert checks["why_sqrt_dk"].message.en.startswith('qa.yaml, line 2: "why_sqrtdk" is not a question id')
    assert "why_sqrt_dk" in checks["why_sqrt_dk"].message.zh and "第 2 行" in checks["why_sqrt_dk"].message.zh


def test_a_stray_key_is_named_on_the_unanswered_question_above_it(grade_qa) -> None:
    result = grade_qa("var_qk: 64\nwhy_sqrt_dk:\nmy answer: B\nmha_params: 1,050,624\n")
    checks = _by_id(result)
    assert checks["why_sqrt_dk"].status is Status.NOT_ATTEMPTED
    assert 'line 3: "my answer" is not a question id' in checks["why_sqrt_dk"].message.en
    assert checks["var_qk"].status is Status.PASS and checks["mha_params"].status is Status.PASS


@pytest.mark.parametrize(
    ("text", "status"),
    [
        ("var_qk: 64\n\nvar_qk: 64\n", Status.PASS),  # the same answer twice
        ("var_qk:\nmha_params: 1,050,624\nvar_qk: 64\n", Status.PASS),  # a blank line, then the answer
        ("softmax_1_0: [0.73, 0.27]\nsoftmax_1_0:\n", Status.PASS),  # the header's example, copied
        ("var_qk: 8\n\nvar_qk: 64\n", Status.ERROR),  # two different answers: that question only
    ],
)
def test_an_id_written_twice_costs_at_most_that_question(grade_qa, text: str, status: Status) -> None:
    checks = _by_id(grade_qa(text + "why_sqrt_dk: B\n"))
    question = text.split(":")[0]
    assert checks[question].status is status
    assert checks["why_sqrt_dk"].status is Status.PASS
    if status is Status.ERROR:
        assert checks[question].message.en == "qa.yaml, lines 1 and 3: two different answers to var_qk; keep one"


@pytest.mark.parametrize(
    ("answer", "passed"),
    [("[0.73, 0.27]", True), ("[0.7311, 0.2689]", True), ("[0.731, 0.269]", True), ("[0.74, 0.26]", False),
     ("[0.7, 0.3]", False), ("[1, 0]", False), ("[0.735, 0.265]", False)],
)
def test_a_correctly_rounded_answer_is_not_wrong(grade_qa, answer: str, passed: bool) -> None:
    """[0.73, 0.27] (the format example in qa.yaml) is softmax([1, 0]) rounded to 2 decimals: right,
    if less precise than asked; a wrongly rounded or one-digit answer still fails (issue 21)."""
    check = _by_id(grade_qa(f"softmax_1_0: {answer}\n"))["softmax_1_0"]
    assert (check.status is Status.PASS) is passed, check.message.en


def test_a_rounded_count_is_still_wrong(grade_qa) -> None:
    """Whole-number answers (parameter counts) are exact: rounding does not apply."""
    assert _by_id(grade_qa("mha_params: 1050000.0\n"))["mha_params"].status is Status.FAIL


def test_cli_grades_qa_yaml_and_reports_a_malformed_file(runner, tmp_path: Path, monkeypatch) -> None:
    """`grade init qa` then `grade qa`; a broken file prints the line and exits 1."""
    monkeypatch.chdir(tmp_path)
    assert runner.invoke(cli, ["init", "qa"]).exit_code == 0
    stub = Path("qa.yaml").read_text(encoding="utf-8")
    Path("qa.yaml").write_text(stub.replace("\nvar_qk:\n", "\nvar_qk: 64\n"), encoding="utf-8")
    result = runner.invoke(cli, ["qa", "--format", "json"])
    assert result.exit_code == 1
    assert '"score": 1.0' in result.output
    Path("qa.yaml").write_text("var_qk: 64\n  oops: [\n", encoding="utf-8")
    result = runner.invoke(cli, ["qa"])
    assert result.exit_code == 1
    assert "qa.yaml, line 2: not valid YAML" in result.output
