"""`grade quiz` end to end with scripted input, and the progress that orders the next run."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from grader.bank import ProblemBank
from grader.cli import cli
from grader.qa.bank import load_bank
from grader.qa.build import reference_answer
from grader.qa.quiz import Progress, QuizSession

BANK = load_bank(ProblemBank().get("qa").folder)


def _planned(progress_file: Path, topic: str | None, count: int, seed: int) -> list:
    """The questions a run with these options will ask, in order (the same code the CLI uses)."""
    return QuizSession(BANK, Progress.load(progress_file), topic=topic, count=count, seed=seed).questions


def _right(question) -> str:
    return question.answer["en"] if question.type == "text" else reference_answer(question).strip('"')


def _wrong(question) -> str:
    """A readable answer that is not right."""
    if question.type in ("choice", "multi"):
        return next(letter for letter in question.options if letter not in question.answer)
    if question.type == "numeric":
        return str(question.answer + 1)
    if question.type == "vector":
        return ", ".join("9" for _ in question.answer)
    return "no idea"


def _quiz(runner, progress: Path, answers: list[str], *options: str):
    args = ["quiz", "--progress", str(progress), "--seed", "3", *options]
    env = {"COLUMNS": "250"}  # one line per sentence, so the assertions can find them
    return runner.invoke(cli, args, input="".join(a + "\n" for a in answers), env=env)


def test_quiz_flow_right_wrong_skip_then_summary(runner, tmp_path: Path) -> None:
    """Each answer is graded at once with the explanation; the run ends with a score by topic."""
    progress = tmp_path / "progress.json"
    asked = _planned(progress, "parameters", 3, seed=3)
    wrong = {"mha_params": "1048576", "layernorm_params": "512", "ffn_params": "2097152",
             "encoder_layer_params": "1052672", "decoder_layer_params": "3153408",
             "transformer_params": "44138496", "gpt2_params": "84934656", "weight_tying_count": "B",
             "rmsnorm_params": "8192", "swiglu_block_params": "90177536", "llama_ffn_hidden": "16384",
             "llama7b_params": "6607343616", "swiglu_hidden_size": "because GPUs like powers of two"}
    result = _quiz(runner, progress, [_right(asked[0]), wrong[asked[1].id], ""], "--topic", "parameters", "--count", "3")
    assert result.exit_code == 0, result.output
    out = result.output
    assert out.index(asked[0].question.en[:40]) < out.index("✓ Right 1/1") < out.index(asked[1].question.en[:40])
    assert "✗ Not right 0/1" in out and "Mistake:" in out
    mistake = next(w.mistake for w in asked[1].mistakes if str(w.answer) == wrong[asked[1].id])
    assert BANK.mistakes[mistake].title.en in out
    assert "Skipped: it comes back first next time." in out
    assert out.count("Why:") == 3  # the explanation after every question, skipped included
    assert "Parameter counts" in out and "1/2" in out  # two answered, one right
    assert "2 question(s) to review next time" in out  # the wrong one and the skipped one
    saved = json.loads(progress.read_text(encoding="utf-8"))["questions"]
    assert set(saved) == {asked[0].id, asked[1].id, asked[2].id}
    assert saved[asked[0].id]["last"] == 1.0 and saved[asked[1].id]["last"] == 0.0
    assert saved[asked[2].id]["skipped"] == 1 and saved[asked[2].id]["last"] == 0.0


def test_missed_questions_come_back_first(runner, tmp_path: Path) -> None:
    """A question missed in one run is the first question of the next."""
    progress = tmp_path / "progress.json"
    first = _planned(progress, "masks", 2, seed=3)
    result = _quiz(runner, progress, [_right(first[0]), _wrong(first[1])],
                   "--topic", "masks", "--count", "2")
    assert result.exit_code == 0, result.output
    again = _planned(progress, "masks", 2, seed=3)
    assert again[0].id == first[1].id
    result = _quiz(runner, progress, [":q"], "--topic", "masks", "--count", "2")
    assert "1 missed last time come first" in result.output
    assert result.output.index(first[1].question.en[:40]) < result.output.index("Your answer")


def test_unreadable_answer_is_asked_again(runner, tmp_path: Path) -> None:
    progress = tmp_path / "progress.json"
    (question,) = _planned(progress, "scaling", 1, seed=3)
    bad = "Z" if question.type in ("choice", "multi") else "sixty-four"
    result = _quiz(runner, progress, [bad, _right(question)], "--topic", "scaling", "--count", "1")
    assert "try again, or press Enter to skip" in result.output
    assert "✓ Right" in result.output
    assert json.loads(progress.read_text(encoding="utf-8"))["questions"][question.id]["asked"] == 1


def test_quitting_and_end_of_input_keep_what_was_answered(runner, tmp_path: Path) -> None:
    progress = tmp_path / "progress.json"
    asked = _planned(progress, None, 5, seed=3)
    result = _quiz(runner, progress, [_right(asked[0]), ":q"], "--count", "5")
    assert result.exit_code == 0 and "2/5" in result.output and "3/5" not in result.output
    result = _quiz(runner, tmp_path / "other.json", [], "--count", "5")  # no input at all
    assert result.exit_code == 0 and "No questions answered." in result.output
    assert len(json.loads(progress.read_text(encoding="utf-8"))["questions"]) == 1


def test_quiz_in_chinese(runner, tmp_path: Path) -> None:
    progress = tmp_path / "progress.json"
    (question,) = _planned(progress, "softmax", 1, seed=3)
    result = _quiz(runner, progress, [_right(question)], "--topic", "softmax", "--count", "1", "--lang", "zh")
    assert result.exit_code == 0, result.output
    assert question.question.zh[:20] in result.output
    assert "✓ 正确" in result.output and "解析" in result.output and "合计" in result.output


@pytest.mark.parametrize(
    ("options", "message"),
    [(["--topic", "attention"], 'Error: unknown topic "attention"; topics: scaling, softmax'),
     (["--count", "0"], "Error: --count must be at least 1, got 0")],
)
def test_bad_options_are_one_line_errors(runner, tmp_path: Path, options: list[str], message: str) -> None:
    result = _quiz(runner, tmp_path / "p.json", [], *options)
    assert result.exit_code == 2 and result.output.startswith(message)


def test_corrupt_progress_file_is_a_one_line_error(runner, tmp_path: Path) -> None:
    progress = tmp_path / "progress.json"
    progress.write_text("{not json", encoding="utf-8")
    result = _quiz(runner, progress, [])
    assert result.exit_code == 2
    assert "cannot read the quiz progress" in result.output and "delete the file" in result.output


def test_progress_order_missed_then_new_then_oldest_right(tmp_path: Path) -> None:
    """Missed (lowest score first), then never asked, then right answers, least recent first."""
    questions = BANK.questions[:6]
    progress = Progress(tmp_path / "p.json")
    progress.record(questions[0].id, 1.0)
    progress.record(questions[1].id, 0.5)
    progress.record(questions[2].id, 0.0)
    progress.record(questions[3].id, 1.0)
    order = [q.id for q in progress.order(questions, random.Random(0))]
    assert order[:2] == [questions[2].id, questions[1].id]
    assert set(order[2:4]) == {questions[4].id, questions[5].id}
    assert order[4:] == [questions[0].id, questions[3].id]


def test_a_skipped_question_comes_back_first(runner, tmp_path: Path) -> None:
    """Skipping (an empty answer) queues the question for review like a wrong answer (issue 21)."""
    progress = tmp_path / "progress.json"
    first = _planned(progress, "masks", 2, seed=3)
    result = _quiz(runner, progress, [_right(first[0]), ""], "--topic", "masks", "--count", "2")
    assert result.exit_code == 0, result.output
    assert _planned(progress, "masks", 2, seed=3)[0].id == first[1].id


@pytest.mark.parametrize("seed", range(12))
def test_a_question_that_builds_on_another_comes_right_after_it(tmp_path: Path, seed: int) -> None:
    """"With the same q and k ..." is never asked before, or apart from, the question it follows."""
    dependent = [q for q in BANK.questions if q.follows is not None]
    assert {q.id for q in dependent} >= {"var_qk_scaled", "kv_cache_context", "attention_output_3tok"}
    for count in (1, 3, len(BANK.questions)):
        asked = [q.id for q in _planned(tmp_path / "none.json", None, count, seed=seed)]
        assert len(asked) == count
        for q in dependent:
            if q.id in asked:
                assert asked.index(q.id) == asked.index(q.follows) + 1, (q.id, asked)


def test_a_missed_dependent_question_brings_its_predecessor_first(tmp_path: Path) -> None:
    progress = Progress(tmp_path / "p.json")
    progress.record("var_qk", 1.0)
    progress.record("var_qk_scaled", 0.0)
    assert [q.id for q in QuizSession(BANK, progress, count=2, seed=1).questions] == ["var_qk", "var_qk_scaled"]


def test_follows_must_name_an_earlier_question(tmp_path: Path) -> None:
    import shutil

    from grader.errors import SpecError

    folder = tmp_path / "qa"
    shutil.copytree(BANK.folder, folder)
    path = folder / "questions" / "scaling.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("follows: var_qk", "follows: why_not_dk"), encoding="utf-8")
    with pytest.raises(SpecError, match="var_qk_scaled: follows 'why_not_dk', which is not a question before it"):
        load_bank(folder)
