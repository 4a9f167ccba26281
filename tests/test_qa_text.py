"""The free-text rubric: accepted phrasings score full, wrong or parroted answers score nothing.

Every text question of the bank has here at least two accepted answers and two rejected ones,
one of each in English and in Chinese (``test_every_text_question_has_cases`` enforces it).
"""

from __future__ import annotations


import pytest

from grader.bank import ProblemBank
from grader.qa.bank import load_bank
from grader.qa.grading import grade

BANK = load_bank(ProblemBank().get("qa").folder)

#: question id -> (accepted answers, rejected answers); each list holds English and Chinese.
CASES: dict[str, tuple[list[str], list[str]]] = {
    "explain_sqrt_dk": (
        [
            "q·k has a standard deviation of sqrt(d_k), so big scores would saturate the softmax and kill the gradients",
            "点积的方差等于 d_k，数值太大时 softmax 会饱和，梯度几乎为零",
            "Without it the variance grows with d_k, the softmax becomes one-hot and gradients vanish.",
        ],
        [
            "to make the weights sum to one",
            "为了让注意力权重加起来等于 1",
            "because it is scaled dot-product attention",
        ],
    ),
    "softmax_stability": (
        [
            "exp overflows to inf for large inputs; softmax(x - c) gives the same result for any constant c",
            "防止 exp 溢出；减去同一个常数后 softmax 的结果不变",
        ],
        [
            "to make the outputs sum to one",
            "为了让输出更平滑",
        ],
    ),
    "causal_mask_purpose": (
        [
            "so a position cannot peek at future tokens; all positions are trained in parallel like at inference time",
            "防止看到未来的词元，这样可以并行训练所有位置，并且和推理时自回归生成的条件一致",
        ],
        [
            "to hide padding tokens",
            "为了屏蔽填充的词元",
        ],
    ),
    "why_multi_head": (
        [
            "each head has its own subspace and can attend to different positions at once; one head would average them",
            "每个头有自己的子空间，可以同时关注不同的位置和关系，单头会把它们平均掉",
        ],
        [
            "it is faster on GPUs",
            "因为 GPU 上更快",
        ],
    ),
    "why_positional": (
        [
            "attention is permutation-equivariant and has no recurrence, so position information must be added to the embedding",
            "自注意力对顺序不敏感，又没有 RNN 那样的循环结构，所以要把位置信息加到嵌入上",
        ],
        [
            "to normalise the embeddings",
            "为了归一化词向量",
        ],
    ),
    "quadratic_cost": (
        [
            "every token attends to every other token, so each layer builds an n x n score matrix",
            "每个词元都要和所有词元计算相似度，需要一个 n×n 的注意力矩阵",
        ],
        [
            "because the feed-forward layer is big",
            "因为前馈网络很大",
        ],
    ),
    "kv_cache_purpose": (
        [
            "the past keys and values are stored and reused instead of recomputed, so each step only processes the new token",
            "把之前的键和值缓存起来复用，避免重复计算，每一步只算新词元",
        ],
        [
            "it uses less memory",
            "因为它占用更少的显存",
        ],
    ),
}


def _has_cjk(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


def test_every_text_question_has_cases() -> None:
    """Two accepted and two rejected answers per text question, in each language at least one."""
    text_ids = {q.id for q in BANK.questions if q.type == "text"}
    assert text_ids == set(CASES)
    for accepted, rejected in CASES.values():
        for answers in (accepted, rejected):
            assert len(answers) >= 2
            assert any(_has_cjk(a) for a in answers) and any(not _has_cjk(a) for a in answers)


@pytest.mark.parametrize(
    ("question_id", "answer"), [(qid, a) for qid, (accepted, _) in CASES.items() for a in accepted]
)
def test_accepted_phrasings_score_full(question_id: str, answer: str) -> None:
    verdict = grade(BANK.get(question_id), answer)
    assert verdict.fraction == 1.0, verdict.message()


@pytest.mark.parametrize(
    ("question_id", "answer"), [(qid, a) for qid, (_, rejected) in CASES.items() for a in rejected]
)
def test_rejected_answers_score_nothing(question_id: str, answer: str) -> None:
    verdict = grade(BANK.get(question_id), answer)
    assert verdict.fraction == 0.0, verdict.message()


@pytest.mark.parametrize("question_id", sorted(CASES))
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_repeating_the_question_scores_nothing(question_id: str, lang: str) -> None:
    """The question's own words, returned as the answer, find no concept."""
    question = BANK.get(question_id)
    verdict = grade(question, question.question.get(lang))
    assert verdict.fraction == 0.0, verdict.message()
    assert verdict.found == []


@pytest.mark.parametrize("question_id", sorted(CASES))
def test_model_answers_score_full_in_both_languages(question_id: str) -> None:
    question = BANK.get(question_id)
    for lang in ("en", "zh"):
        verdict = grade(question, question.answer[lang])
        assert verdict.fraction == 1.0, (lang, verdict.message())


def test_partial_answer_lists_found_and_missing_concepts() -> None:
    """Feedback names what the answer said and what it left out, in the learner's language."""
    verdict = grade(BANK.get("explain_sqrt_dk"), "the variance of q·k grows with d_k")
    assert 0 < verdict.fraction < 1
    assert [c.id for c in verdict.found] == ["variance"]
    assert "missing:" in verdict.message("en") and "softmax saturates" in verdict.message("en")
    assert "缺少" in verdict.message("zh") and "梯度消失" in verdict.message("zh")


def test_a_stated_misconception_is_diagnosed_and_capped() -> None:
    """Saying 'divide by d_k' names the mistake and caps the score even with every concept."""
    answer = "we divide by d_k because the variance grows, the softmax saturates and the gradients vanish"
    verdict = grade(BANK.get("explain_sqrt_dk"), answer)
    assert verdict.mistake == "divide_by_dk"
    assert verdict.fraction == 0.5
    zh = grade(BANK.get("explain_sqrt_dk"), "要除以 d_k，否则方差太大")
    assert zh.mistake == "divide_by_dk"


def test_question_words_padded_with_stopwords_score_nothing() -> None:
    question = BANK.get("why_multi_head")
    verdict = grade(question, "the Transformer uses several attention heads instead of one because it does")
    assert verdict.fraction == 0.0
    assert verdict.notes[0][0] == "text_repeats"
