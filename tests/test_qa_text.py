"""The free-text rubric: accepted phrasings score full, wrong or parroted answers score nothing.

Every text question of the bank has here at least two accepted answers and two rejected ones,
one of each in English and in Chinese (``test_every_text_question_has_cases`` enforces it).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.bank import ProblemBank
from grader.errors import SpecError
from grader.qa.bank import load_bank
from grader.qa.grading import grade
from grader.qa.labelled import SPLITS, UNREAD, LabelledAnswer, agreement, grade_set, load_set
from grader.qa.text import INCOMPLETE_CAP, canonical, judge

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
    "gqa_kv_sharing": (
        [
            "groups of query heads share a single key/value head, so the cache is h/g times smaller; quality drops a little, GQA is close to MHA",
            "多个查询头共享一组键值头，KV 缓存按组数缩小，代价是效果略有下降",
        ],
        [
            "it uses fewer layers",
            "因为它用了更少的层",
        ],
    ),
    "rope_relative": (
        [
            "q and k are rotated by an angle proportional to their position, and in the dot product the rotations cancel except for the angle difference (n-m)θ",
            "查询和键按位置旋转不同角度，点积时绝对角度抵消，只剩角度之差",
        ],
        [
            "because the values are normalised",
            "因为值向量做了归一化",
        ],
    ),
    "alibi_bias": (
        [
            "it subtracts from each score a penalty proportional to the distance |i-j|, and since that works for any length nothing is tied to the training length",
            "给分数加上与距离成正比的线性惩罚，只取决于距离，所以任意长度都能用",
        ],
        [
            "it learns a bigger embedding table",
            "它学习了更大的嵌入表",
        ],
    ),
    "flash_online_softmax": (
        [
            "it keeps a running max and running sum per row and rescales the previous partial output when the max changes",
            "维护当前最大值和指数和，最大值变化时重新缩放之前的结果",
        ],
        [
            "it approximates the softmax with a Taylor series",
            "用泰勒展开近似 softmax",
        ],
    ),
    "flash_what_it_saves": (
        [
            "fewer HBM reads and writes: tiles stay in SRAM, the n x n attention matrix is never materialized, and the result is exact",
            "减少显存读写，在片上 SRAM 分块计算，不存储 n×n 的注意力矩阵，结果是精确的",
        ],
        [
            "it uses int8 weights",
            "它把权重量化成 int8",
        ],
    ),
    "sliding_window_reach": (
        [
            "the cost becomes O(n·W) and the cache is a rolling buffer; stacking layers grows the receptive field to about L·W",
            "计算量是 O(n·W)，缓存大小固定；多层堆叠后感受野扩大到 L·W",
        ],
        [
            "it uses a larger vocabulary",
            "它用了更大的词表",
        ],
    ),
    "linear_attention_trick": (
        [
            "replace softmax with a kernel feature map and use associativity to compute K^T V first; it is only an approximation of softmax attention",
            "用核函数代替 softmax，利用结合律先算 KᵀV，代价是它只是 softmax 注意力的近似",
        ],
        [
            "it prunes half of the heads",
            "它剪掉一半的头",
        ],
    ),
    "encoder_vs_decoder": (
        [
            "BERT is bidirectional and trained with masked language modelling; GPT uses a causal mask and predicts the next token",
            "BERT 双向注意力，训练时预测被遮住的词；GPT 用因果掩码，预测下一个词元",
        ],
        [
            "BERT is bigger than GPT",
            "BERT 比 GPT 参数多",
        ],
    ),
    "kv_cache_why_not_queries": (
        [
            "only the new token's query is needed at each step; past queries are never used again, but every future query needs the past keys and values",
            "每步只需要新词元的查询，过去的查询不再需要，而之后每个查询都需要过去的键和值",
        ],
        [
            "queries are too large to store",
            "查询太大存不下",
        ],
    ),
    "decode_memory_bound": (
        [
            "prefill processes all prompt tokens in parallel (matrix-matrix), but each decode step reads all the weights and the KV cache for one token, a matrix-vector product",
            "预填充一次并行处理所有提示词元，是矩阵乘矩阵；解码每一步都要读出全部权重和 KV 缓存，是矩阵乘向量",
        ],
        [
            "because decoding uses a bigger vocabulary",
            "因为解码时词表更大",
        ],
    ),
    "rmsnorm_vs_layernorm": (
        [
            "RMSNorm skips the mean subtraction and divides by the root mean square, so it is cheaper with no bias, and it trains about as well",
            "RMSNorm 不减均值，只除以均方根，计算更快，没有偏置，效果和 LayerNorm 差不多",
        ],
        [
            "RMSNorm normalises over the batch",
            "RMSNorm 在批维度上归一化",
        ],
    ),
    "pre_ln_warmup": (
        [
            "with Pre-LN the residual path is a clean identity so gradients flow directly, and training is stable without warm-up",
            "Pre-LN 的残差通路保持恒等，梯度直接回传，不需要预热也能稳定训练",
        ],
        [
            "it uses fewer parameters",
            "它的参数更少",
        ],
    ),
    "swiglu_hidden_size": (
        [
            "SwiGLU has three matrices instead of two, so 8d/3 keeps the parameter count the same as a 4d FFN",
            "SwiGLU 有三个权重矩阵，取 8d/3 让参数量与 4d 的前馈层相同",
        ],
        [
            "because 8/3 is close to e",
            "因为 8/3 接近 e",
        ],
    ),
    "mask_fill_value": (
        [
            "exp(0)=1 so a zero score still gets weight while exp(-inf)=0; a fully masked row with -inf gives NaN, with -1e9 it gives uniform weights",
            "exp(0)=1 仍有权重，exp(-inf)=0；全屏蔽的行用 -inf 得到 NaN，用 -1e9 得到均匀分布",
        ],
        [
            "to make the model faster",
            "为了让模型更快",
        ],
    ),
    "additive_vs_dot": (
        [
            "additive attention uses a feed-forward net with tanh; dot products are one matrix multiplication so faster, and scaling fixes the large d_k problem",
            "加性注意力用一个带 tanh 的前馈网络打分；点积只是一次矩阵乘法，更快，缩放解决了 d_k 大时的问题",
        ],
        [
            "dot-product attention has more parameters",
            "点积注意力参数更多",
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
    """Saying 'divide by d_k' names the mistake and keeps the score below half even with every concept."""
    answer = "we divide by d_k because the variance grows, the softmax saturates and the gradients vanish"
    verdict = grade(BANK.get("explain_sqrt_dk"), answer)
    assert verdict.mistake == "divide_by_dk"
    assert 0 < verdict.fraction < 0.5
    assert verdict.needs_review  # right and wrong claims mixed: an instructor should look
    zh = grade(BANK.get("explain_sqrt_dk"), "要除以 d_k，否则方差太大")
    assert zh.mistake == "divide_by_dk"


def test_question_words_padded_with_stopwords_score_nothing() -> None:
    question = BANK.get("why_multi_head")
    verdict = grade(question, "the Transformer uses several attention heads instead of one because it does")
    assert verdict.fraction == 0.0
    assert verdict.notes[0][0] == "text_repeats"


# ------------------------------------------------------------------------------- labelled sets

LABELLED = Path(__file__).resolve().parent / "qa_text"


@pytest.mark.parametrize("split", SPLITS)
def test_labelled_sets_load(split: str) -> None:
    """Every file of a labelled set names a text question and has only known keys and values."""
    answers = load_set(LABELLED / split, BANK)
    if split in ("tuning", "dev"):
        assert answers, f"the {split} set is empty"
    for answer in answers:
        assert BANK.get(answer.question).type == "text"


def test_a_bad_labelled_file_is_named(tmp_path: Path) -> None:
    (tmp_path / "x.yaml").write_text(
        "question: explain_sqrt_dk\nanswers:\n  - {text: ok, lang: en, label: right, style: terse}\n", encoding="utf-8"
    )
    with pytest.raises(SpecError, match=r"x\.yaml: answers\[0\]\.label: 'right' is not one of full, partial, zero"):
        load_set(tmp_path, BANK)


# ------------------------------------------------------------------------------- agreement with labels

#: Agreement the grader keeps on each labelled set (tests/qa_text/README.md); see benchmarks/bench_qa_text.py.
#: tuning, dev and dev_b have all been studied (dev_b was the second blind set, reported at 80.8% and 10
#: wrong answers at half before it was studied): their floors sit just below what the grader reaches
#: (100%, 98.7%, 99.0%), and they measure regressions, not generalisation (docs/qa_text.md).
#: heldout_c was the third blind set: read once with the grader frozen (7e21451), it measured 84.6%
#: and 12 wrong answers at half; then studied like dev_b (98.3%, none at half), so its floor too sits
#: just below what the grader reaches and measures regressions only.
#: heldout_d, the fourth blind set (two authors, 352 answers), was read once with the grader frozen
#: (a7e9f4d): 87.8% and 5 wrong answers at half; then studied (99.4%, none at half): a regression floor.
#: heldout_e, the fifth blind set (two more authors, 352 answers), was read once with the grader frozen
#: (39a162b): 84.9% and 10 wrong answers at half; it is now studied (99.1%, none at half: keyword
#: lists of Chinese phrases, reversed and named misconceptions, paraphrases), so its floor is a regression floor.
#: heldout_f, the sixth blind set (two more authors, 352 answers), was read once with the grader frozen
#: (bed3cc5): 93.5% and no wrong answer at half; studied since (100%), a regression floor.
#: heldout_g to heldout_l (two new authors each, new personas, 352 answers each) were each read once with the
#: grader frozen after the previous set's study: 82.4%, 87.5%, 86.6%, 87.8%, 89.5%, 88.9% (12, 6, 4, 5, 8, 5
#: wrong answers at half); each was then studied (97-99%, none at half): regression floors.
#: heldout_m and heldout_n were each read once with the grader frozen (81af8d0, 6aaf6f3): 90.9% and 87.5%
#: (7 wrong answers at half each); then studied (96.6%, 93.8%, none at half): regression floors.
#: heldout_o was read once with the grader frozen (be3337a): 85.8% and 13 wrong answers at half; then
#: studied (97.4%, none at half): a regression floor.
#: heldout_p, the sixteenth blind set, was read once with the grader frozen (f36978f): 84.4% and 1 wrong
#: answer at half; then studied (98.3%, none at half): a regression floor.
#: heldout_q, the seventeenth blind set, was read once with the grader frozen (4a34b81, with full points on
#: trust): 92.9% and 3 wrong answers at half (keyword lists decorated with emoji and hashtags), the latest
#: blind figure then; studied (99.7%, none at half): a regression floor.
#: heldout_r, the eighteenth, was read once with the grader frozen after heldout_q's study (de3e5ac): 90.6%
#: and 5 wrong answers at half; then studied (94.3%). The one wrong answer left at half is an echo by its
#: label that also says how ("by sharing the keys and values").
#: heldout_s, the nineteenth, was read once with the grader frozen after heldout_r's study (f7e5bca): 93.2%
#: and 5 wrong answers at half; then studied (96.0%). The one left at half is an echo by its label that also
#: gives a reason ("预填充一次处理整个提示词").
#: heldout_t, the twentieth, was read once with the grader frozen after heldout_s's study (104afa4): 92.0%
#: and 2 wrong answers at half; then studied (95.2%, none at half).
#: heldout_u, the 21st, was read once with the grader frozen after heldout_t's study (3d11569): 93.2% and 2
#: wrong answers at half; then studied (94.6%). The one left at half is a list under subject headings
#: ("BERT：双向、MLM…GPT：因果、自回归") its author labels keywords.
#: heldout_v, the 22nd, was read once with the grader frozen after heldout_u's study (f921127): 94.6% and 1
#: wrong answer at half; then studied (97.2%, none at half).
#: heldout_w, the 23rd, was read once with the grader frozen after heldout_v's study (24e86a6): 91.8% and no
#: wrong answer at half; then studied (93.5%): most of what is left are correct answers told wholly by
#: analogy (a pilot's, a carpenter's), graded 0 and sent to review.
#: heldout_x, the 24th, was read once with the grader frozen after heldout_w's study (43a4576): 95.7% and 2
#: wrong answers at half; then studied (98.0%, none at half).
#: heldout_y, the 25th, was read once with the grader frozen after heldout_x's study (47421af): 91.5% and 4
#: wrong answers at half; then studied (93.2%, none at half); what is left are answers told wholly by a
#: sailor's or a teacher's analogy, graded 0 and sent to review.
#: heldout_z, the 26th, was read once with the grader frozen after heldout_y's study (a3878dd): 95.7% and 2
#: wrong answers at half; then studied (98.9%). The one left at half is heldout_s's disputed echo again, in
#: other words ("预填充一次处理整个提示词").
#: heldout_aa, the 27th, was read once with the grader frozen after heldout_z's study (4b8d41a): 94.6% and 1
#: wrong answer at half; then studied (98.9%, none at half).
#: heldout_ab, the 28th, was read once with the grader frozen after heldout_aa's study (5eff88f): 95.2% and 5
#: wrong answers at half; then studied (98.9%, none at half).
#: heldout_ac, the 29th, was read once with the grader frozen after heldout_ab's study (e6a8a30): 94.6% and 4
#: wrong answers at half; then studied (98.6%, none at half).
#: heldout_ad, the 30th, was read once with the grader frozen after heldout_ac's study (be1474e): 87.8% and 7
#: wrong answers at half (Shanghainese and numbered Weibo threads the grader had never met); then studied
#: (96.0%, none at half): what is left is a plumber's analogies.
#: heldout_ae, the 31st, was read once with the grader frozen after heldout_ad's study (1de10cd): 92.0% and 3
#: wrong answers at half; then studied (97.4%, none at half).
#: heldout_af, the 32nd, was read once with the grader frozen after heldout_ae's study (950441e): 94.0% and no
#: wrong answer at half; then studied (98.9%, none at half): what
#: is left is a lifeguard's and a basketball coach's analogies.
#: heldout_ag, the 33rd, was read once with the grader frozen after heldout_af's study (0752e85): 94.0% and 1
#: wrong answer at half; then studied (99.1%, none at half).
#: heldout_ah, the 34th, was read once with the grader frozen after heldout_ag's study (ec1300e): 88.9% and 3
#: wrong answers at half (Hinglish and a storyteller's Chinese the grader had never met); then studied
#: (99.1%, none at half).
#: heldout_ai, the 35th, was read once with the grader frozen after heldout_ah's study (fd921b2): 95.5% but 3
#: wrong answers at half; then studied (99.1%, none at half).
#: heldout_aj, the 36th, was read once with the grader frozen after heldout_ai's study (c48f32d): 95.5% but 3
#: wrong answers at half; then studied (97.2%, none at half): what is left is a bus driver's analogies.
#: heldout_ak, the 37th, was read once with the grader frozen after heldout_aj's study (43c2d26): 93.2% and 3
#: wrong answers at half; then studied (96.3%, none at half).
#: heldout_al, the 38th, was read once with the grader frozen after heldout_ak's study (8c034fd): 90.6% and 6
#: wrong answers at half (four of them full points on trust); then studied (93.5%, none at half): what is left
#: is a tour guide's and a grandmother's analogies.
#: heldout_am, the 39th, was read once with the grader frozen after heldout_al's study (475a1b8): 93.8% and 3
#: wrong answers at half; then studied (98.3%, none at half).
#: heldout_an, the 40th, was read once with the grader frozen after heldout_am's study (7c61de2): 95.2% and 1
#: wrong answer at half (RoPE "adds a relative position embedding vector to the values"), the latest blind
#: figure before heldout_ao; then studied (96.0%, none at half).
#: heldout_ao, the 41st, was read once with the grader frozen after heldout_an's study (80fa71a): 93.5% and 5
#: wrong answers at half (a swapped Pre-LN/Post-LN claim on trust, two keyword lists closed by a livestream
#: seller's "家人们上链接", a spaced list, a lawyer's echo); then
#: studied (99.4%, none at half): Taglish, a contract's boilerplate, claims given as their own reason.
#: heldout_ap, the 42nd, was read once with the grader frozen after heldout_ao's study (7317ee8): 92.3% and 4
#: wrong answers at half (a keyword list led by a paper's title, "for numerical stability" alone, "attention
#: looks at every token", a 2/3 that is no budget); then studied
#: (98.3%, none at half): Nigerian Pidgin, no trust for an answer that says it does not know the rest.
#: heldout_aq, the 43rd, was read once with the grader frozen after heldout_ap's study (25dbf25): 92.0% and 2
#: wrong answers at half (RoPE's angles "added" in Patois, RoPE's Chinese name read as its rotation); then
#: studied (99.4%, none at half): Jamaican Patois, pinyin beside
#: characters, a comic duo's dialogue.
#: heldout_ar, the 44th, was read once with the grader frozen after heldout_aq's study (9db199c): 90.9% and 1
#: wrong answer at half (Post-LN's gradients "too small"); then
#: studied (94.3%, none at half): what is left is a gardener's and a pilot's analogies.
#: heldout_as, the 45th, was read once with the grader frozen after heldout_ar's study (261f4a4): 92.0% and 3
#: wrong answers at half (a frozen maximum "never rescaled", RoPE as a sinusoid added to the embeddings and
#: as T5's learned bias); then studied (96.3%, none at half).
#: heldout_at, the 46th, was read once with the grader frozen after heldout_as's study (4849152): 94.6% and no
#: wrong answer at half; then studied (98.9%, none at half): ideas read only inside a misconception's words,
#: what would happen without the cache or the mask, a query that reads "them", a thing that does what its
#: name says.
#: heldout_au, the 47th, was read once with the grader frozen after heldout_at's study (38064cd): 96.0% and 2
#: wrong answers at half (a newsreader's keyword list, RoPE as a sinusoid added to the embeddings in Chinese),
#: then studied (99.7%, none at half).
#: heldout_av, the 48th, was read once with the grader frozen after heldout_au's study (6e6fc01): 95.2% and 3
#: wrong answers at half (a keyword list closed by "宝宝哭了先这样", RoPE's angle "fixed, independent of the
#: position", 8d/3 from the activation's gain); then studied (99.4%, none at half).
#: heldout_aw, the 49th, was read once with the grader frozen after heldout_av's study (7abb616): 94.6% and 2
#: wrong answers at half (a keyword list closed by "that kind lor", linear attention's output "the same as
#: normal attention"); then studied (99.1%, none at half).
#: heldout_ax, the 50th, was read once with the grader frozen after heldout_aw's study (f886fb9): 93.8% and 2
#: wrong answers at half (heads "all attend to the same positions in the same subspace", a forecaster's list
#: ending "局部有 padding"); then studied (99.1%, none at half).
#: heldout_ay, the 51st, was read once with the grader frozen after heldout_ax's study (9bed63f): 94.3% and 1
#: wrong answer at half (RoPE "rotated by t' same fixed angle", in Yorkshire English), then the blind figure
#: (docs/qa_text.md); then studied (98.3%, none at half).
#: heldout_az, the 52nd, was read once with the grader frozen after heldout_ay's study (2e62984): 93.5% and 1
#: wrong answer at half (ALiBi's bias "grows with the distance, so far tokens score higher", in a reviewer's
#: words); then studied (99.4%, none at half).
#: heldout_ba, the 53rd, was read once with the grader frozen after heldout_az's study (b95b7f6): 95.7% and no
#: wrong answer at half, the first set to meet both targets; heldout_bb, the 54th, was read once with the same
#: grader: 95.2% and 2 wrong answers at half (a keyword list closed by "老重要个东西", RoPE "adds a learned
#: relative-position embedding to the values"); then both studied (99.4% and 98.9%, none at half).
#: heldout_bc and heldout_bd, the 55th and 56th, were read once with one grader frozen after that study
#: (1cef212): 96.6% and 95.2%, no wrong answer at half on either; heldout_be and heldout_bf, the 57th and
#: 58th, with the same grader: 97.2% and 94.3%, 1 wrong answer at half on each. The four were then studied
#: together (98.3%, 98.6%, 99.1%, 96.9%, none at half).
#: heldout_bg to heldout_bj, the 59th to 62nd, were read once each with the grader 618cbc9 (95.5%, 96.6%, 98.3%,
#: 96.3%; 0, 2, 1 and 2 wrong answers at half), then studied (99.7%, 99.4%, 99.4%, 98.9%; none at half).
#: adversarial_a and adversarial_b hold 1,760 answers by ten authors asked for the hardest wrong answers (one
#: right idea beside one wrong claim, labelled zero): they measure only the wrong answers at half. Their
#: agreement is low by design: the grader gives such an answer a quarter of the points (the label partial),
#: where these authors wrote zero. adversarial_b was read once before study: 255 of its 660 wrong answers at
#: half; after study 74, 40 of them given full points on trust. heldout_bk to heldout_bn, the 63rd to 66th, are
#: the second pre-declared verification: read once with the grader frozen at 764f2d9 (96.3%, 94.9%, 95.2%, 97.2%;
#: 1, 3, 2 and 1 wrong answers at half), then studied (98.6%, 98.3%, 98.3%, 99.4%; none at half), and
#: adversarial_b's wrong answers at half studied again (73 -> 13: four new named mistakes). adversarial_c,
#: four more adversarial authors, was read once before study: 183 of its 528 wrong answers at half; 129 after
#: a short study (115 of the 183 were full points on trust, which that study left alone).
#: adversarial_d, four red-team authors asked for dressed keyword lists, echoes and wrong reasons, was read
#: before the fifth verification's study (101 of 528 wrong answers at half) and studied with it (52).
#: heldout_bo to heldout_br, the 67th to 70th, are the third pre-declared verification: read once with the grader
#: frozen at cd6bcab (96.3%, 93.2%, 95.7%, 97.7%; 0, 2, 1 and 1 wrong answers at half), then studied (97.7%,
#: 96.0%, 98.3%, 99.4%; none at half).
#: heldout_bs to heldout_bv, the 71st to 74th, are the fourth pre-declared verification: read once with the grader
#: frozen at 71513e3 (90.1%, 97.4%, 96.6%, 96.6%; 3, 2, 2 and 1 wrong answers at half), then studied (95.5%,
#: 99.4%, 98.0%, 98.6%; none at half).
#: heldout_bw to heldout_bz, the 75th to 78th, are the fifth pre-declared verification: read once with the grader
#: frozen at 0507f53 (94.9%, 98.0%, 90.1%, 94.0%; 2, 2, 2 and 1 wrong answers at half), then studied (96.6%,
#: 98.6%, 92.9%, 95.2%; none at half).
#: heldout_ca to heldout_cd, the 79th to 82nd, are the sixth pre-declared verification: read once with the grader
#: frozen at f8f866d (92.9%, 94.9%, 91.2%, 94.3%; 1, 0, 2 and 0 wrong answers at half), then studied (95.5%,
#: 97.4%, 94.0%, 97.2%; none at half).
#: heldout_ce to heldout_ch, the 83rd to 86th, are the seventh pre-declared verification: read once with the grader
#: frozen at 242af29 (96.3%, 95.7%, 94.6%, 94.9%; 2, 0, 1 and 2 wrong answers at half), then studied (98.6%, 97.7%,
#: 96.9%, 98.9%; none at half): regression floors.
#: heldout_ci to heldout_cl, the 87th to 90th, are the eighth: read once with the same verdicts, nothing studied in
#: between (97.2%, 96.6%, 90.1%, 94.6%; 1, 0, 2 and 1 wrong answers at half). Held out, not studied: their floors
#: are their first readings.
#: heldout_cm to heldout_cp, the 91st to 94th, are the ninth: read once with the grader frozen at 55e25a4 (95.5%,
#: 94.6%, 96.6%, 92.6%; 0, 0, 1 and 2 wrong answers at half), then studied (98.0%, 97.2%, 97.7%, 96.9%; none at
#: half): regression floors.
#: heldout_cq to heldout_ct, the 95th to 98th, are the tenth: read once with the grader frozen at c5359fb (95.5%,
#: 95.2%, 96.3%, 97.4%; 3, 1, 0 and 1 wrong answers at half), then studied (96.0%, 95.7%, 96.9%, 98.0%; none at
#: half): regression floors.
#: heldout_cu to heldout_cx, the 99th to 102nd, are the eleventh: read once with the grader frozen at c4a3fdd (94.0%,
#: 96.3%, 94.0%, 95.7%; 1, 0, 1 and 2 wrong answers at half). Held out, not studied: their floors are their first
#: readings.
#: heldout_cy to heldout_db, the 103rd to 106th, are the twelfth: read once with the grader of e5a0d4c (the verdicts of
#: c4a3fdd, nothing studied in between: 92.6%, 95.5%, 96.9%, 92.6%; 2, 5, 1 and 0 wrong answers at half). Held out
#: for one more round, then studied before the fourteenth (96.9%, 98.0%, 98.6%, 97.2%; none at half): regression floors.
#: heldout_dc to heldout_df, the 107th to 110th, are the thirteenth: read once with the grader frozen at d1ce1ce (the
#: twelfth's verdicts but for the cap on incomplete answers: 95.7%, 96.0%, 95.2%, 96.0%; none at half). Held out, not
#: studied: their floors are their first readings.
#: heldout_dg to heldout_dj, the 111th to 114th, are the fourteenth: read once with the grader frozen at fe63467 (the
#: thirteenth's and the study of heldout_cy to heldout_db: 95.7%, 93.2%, 96.0%, 93.5%; none at half), then studied
#: before the fifteenth (97.2%, 97.7%, 97.7%, 96.6%; none at half): regression floors.
#: heldout_dk to heldout_dn, the 115th to 118th, are the fifteenth: read once with the grader frozen at 3859456 (the
#: fourteenth's and the study of heldout_dg to heldout_dj: 95.2%, 95.7%, 94.6%, 94.3%; none at half). Held out, not
#: studied: their floors are their first readings.
#: adversarial_g, four more red-team authors (r27 to r30), was read once before study: 71 of its 528 wrong answers
#: at half; 8 after, 3 with the cap on incomplete answers.
AGREEMENT = {"tuning": 0.99, "adversarial_a": 0.32, "adversarial_b": 0.34, "adversarial_c": 0.34, "adversarial_d": 0.64, "adversarial_e": 0.67, "adversarial_f": 0.65, "adversarial_g": 0.67, "dev": 0.97, "dev_b": 0.97, "heldout_c": 0.97, "heldout_d": 0.98, "heldout_e": 0.98,
             "heldout_f": 0.98, "heldout_g": 0.97, "heldout_h": 0.97, "heldout_i": 0.96, "heldout_j": 0.98,
             "heldout_k": 0.97, "heldout_l": 0.95, "heldout_m": 0.96, "heldout_n": 0.95,
             "heldout_o": 0.97, "heldout_p": 0.98, "heldout_q": 0.99, "heldout_r": 0.94,
             "heldout_s": 0.95, "heldout_t": 0.95,
             "heldout_u": 0.94, "heldout_v": 0.97,
             "heldout_w": 0.93, "heldout_x": 0.97,
             "heldout_y": 0.93, "heldout_z": 0.98, "heldout_aa": 0.98,
             "heldout_ab": 0.98, "heldout_ac": 0.98,
             "heldout_ad": 0.95, "heldout_ae": 0.97,
             "heldout_af": 0.98, "heldout_ag": 0.98, "heldout_ah": 0.98, "heldout_ai": 0.98,
             "heldout_aj": 0.97, "heldout_ak": 0.96, "heldout_al": 0.93,
             "heldout_am": 0.98, "heldout_an": 0.96, "heldout_ao": 0.99, "heldout_ap": 0.98, "heldout_aq": 0.99, "heldout_ar": 0.94, "heldout_as": 0.96,
             "heldout_at": 0.98, "heldout_au": 0.99, "heldout_av": 0.99,
             "heldout_aw": 0.99, "heldout_ax": 0.99, "heldout_ay": 0.98,
             "heldout_az": 0.99, "heldout_ba": 0.99, "heldout_bb": 0.98,
             "heldout_bc": 0.98, "heldout_bd": 0.98, "heldout_be": 0.99, "heldout_bf": 0.96,
             "heldout_bg": 0.99, "heldout_bh": 0.99, "heldout_bi": 0.99, "heldout_bj": 0.98,
             "heldout_bk": 0.98, "heldout_bl": 0.98, "heldout_bm": 0.98, "heldout_bn": 0.99,
             "heldout_bo": 0.97, "heldout_bp": 0.96, "heldout_bq": 0.98, "heldout_br": 0.99,
             "heldout_bs": 0.95, "heldout_bt": 0.99, "heldout_bu": 0.98, "heldout_bv": 0.98,
             "heldout_bw": 0.96, "heldout_bx": 0.98, "heldout_by": 0.92, "heldout_bz": 0.95,
             "heldout_ca": 0.95, "heldout_cb": 0.97, "heldout_cc": 0.94, "heldout_cd": 0.97,
             "heldout_ce": 0.98, "heldout_cf": 0.97, "heldout_cg": 0.96, "heldout_ch": 0.98,
             "heldout_ci": 0.97, "heldout_cj": 0.96, "heldout_ck": 0.90, "heldout_cl": 0.94,
             "heldout_cm": 0.97, "heldout_cn": 0.97, "heldout_co": 0.97, "heldout_cp": 0.96,
             "heldout_cq": 0.96, "heldout_cr": 0.95, "heldout_cs": 0.96, "heldout_ct": 0.98,
             "heldout_cu": 0.94, "heldout_cv": 0.96, "heldout_cw": 0.94, "heldout_cx": 0.95,
             "heldout_cy": 0.96, "heldout_cz": 0.98, "heldout_da": 0.98, "heldout_db": 0.97,
             "heldout_dc": 0.95, "heldout_dd": 0.96, "heldout_de": 0.95, "heldout_df": 0.96,
             "heldout_dg": 0.97, "heldout_dh": 0.97, "heldout_di": 0.97, "heldout_dj": 0.96,
             "heldout_dk": 0.95, "heldout_dl": 0.95, "heldout_dm": 0.94, "heldout_dn": 0.94}
#: Wrong answers (misconception, inversion, keyword list, echo) allowed half the points or more: none on a set of
#: learners' answers (since an incomplete answer is held below half, INCOMPLETE_CAP, also none of the 16 on the
#: never-studied sets nor the four disputed labels of heldout_r, heldout_s, heldout_u and heldout_z); on the
#: adversarial sets, what is left after study (mostly full points on trust, docs/qa_text.md).
WRONG_AT_HALF = {"tuning": 0, "adversarial_a": 0, "adversarial_b": 10, "adversarial_c": 113, "adversarial_d": 14, "adversarial_e": 5, "adversarial_f": 9, "adversarial_g": 3, "dev": 0, "dev_b": 0, "heldout_c": 0, "heldout_d": 0, "heldout_e": 0, "heldout_f": 0,
                 "heldout_g": 0, "heldout_h": 0, "heldout_i": 0, "heldout_j": 0, "heldout_k": 0, "heldout_l": 0,
                 "heldout_m": 0, "heldout_n": 0, "heldout_o": 0, "heldout_p": 0, "heldout_q": 0,
                 "heldout_r": 0, "heldout_s": 0, "heldout_t": 0,
                 "heldout_u": 0, "heldout_v": 0,
                 "heldout_w": 0, "heldout_x": 0,
                 "heldout_y": 0, "heldout_z": 0, "heldout_aa": 0,
                 "heldout_ab": 0, "heldout_ac": 0,
                 "heldout_ad": 0, "heldout_ae": 0,
                 "heldout_af": 0, "heldout_ag": 0, "heldout_ah": 0, "heldout_ai": 0, "heldout_aj": 0, "heldout_ak": 0,
                 "heldout_al": 0, "heldout_am": 0, "heldout_an": 0, "heldout_ao": 0, "heldout_ap": 0, "heldout_aq": 0, "heldout_ar": 0, "heldout_as": 0,
                 "heldout_at": 0, "heldout_au": 0, "heldout_av": 0,
                 "heldout_aw": 0, "heldout_ax": 0, "heldout_ay": 0,
                 "heldout_az": 0, "heldout_ba": 0, "heldout_bb": 0,
                 "heldout_bc": 0, "heldout_bd": 0, "heldout_be": 0, "heldout_bf": 0,
                 "heldout_bg": 0, "heldout_bh": 0, "heldout_bi": 0, "heldout_bj": 0,
                 "heldout_bk": 0, "heldout_bl": 0, "heldout_bm": 0, "heldout_bn": 0,
                 "heldout_bo": 0, "heldout_bp": 0, "heldout_bq": 0, "heldout_br": 0,
                 "heldout_bs": 0, "heldout_bt": 0, "heldout_bu": 0, "heldout_bv": 0,
                 "heldout_bw": 0, "heldout_bx": 0, "heldout_by": 0, "heldout_bz": 0,
                 "heldout_ca": 0, "heldout_cb": 0, "heldout_cc": 0, "heldout_cd": 0,
                 "heldout_ce": 0, "heldout_cf": 0, "heldout_cg": 0, "heldout_ch": 0,
                 "heldout_ci": 0, "heldout_cj": 0, "heldout_ck": 0, "heldout_cl": 0,
                 "heldout_cm": 0, "heldout_cn": 0, "heldout_co": 0, "heldout_cp": 0,
                 "heldout_cq": 0, "heldout_cr": 0, "heldout_cs": 0, "heldout_ct": 0,
                 "heldout_cu": 0, "heldout_cv": 0, "heldout_cw": 0, "heldout_cx": 0,
                 "heldout_cy": 0, "heldout_cz": 0, "heldout_da": 0, "heldout_db": 0,
                 "heldout_dc": 0, "heldout_dd": 0, "heldout_de": 0, "heldout_df": 0,
                 "heldout_dg": 0, "heldout_dh": 0, "heldout_di": 0, "heldout_dj": 0,
                 "heldout_dk": 0, "heldout_dl": 0, "heldout_dm": 0, "heldout_dn": 0}


@pytest.mark.parametrize("split", SPLITS)
def test_text_grading_agrees_with_the_labels(split: str) -> None:
    if split in UNREAD:
        pytest.skip(f"{split} is unread: graded once by benchmarks/bench_qa_text.py --split {split}, not by the tests")
    answers = load_set(LABELLED / split, BANK)
    if not answers:
        pytest.skip(f"no {split} set yet")
    graded = grade_set(answers, BANK)
    misses = [f"{g.answer.where} {g.answer.label} -> {g.fraction:.2f}: {g.answer.text[:60]}" for g in graded if not g.agrees]
    assert agreement(graded) >= AGREEMENT[split], "\n".join(misses)


@pytest.mark.parametrize("split", SPLITS)
def test_no_wrong_answer_gets_half_the_points(split: str) -> None:
    """A misconception, an inverted claim, a keyword list or an echo scores below half."""
    if split in UNREAD:
        pytest.skip(f"{split} is unread: graded once by benchmarks/bench_qa_text.py --split {split}, not by the tests")
    graded = grade_set(load_set(LABELLED / split, BANK), BANK)
    bad = [f"{g.answer.where} [{g.answer.style}] {g.fraction:.2f}: {g.answer.text[:60]}" for g in graded if g.wrong_given_half]
    assert len(bad) <= WRONG_AT_HALF[split], "\n".join(bad)


def test_the_tuning_set_covers_every_text_question_in_both_languages() -> None:
    answers = load_set(LABELLED / "tuning", BANK)
    for question in (q for q in BANK.questions if q.type == "text"):
        mine = [a for a in answers if a.question == question.id]
        assert len(mine) >= 25, question.id
        assert {a.lang for a in mine} == {"en", "zh"} and {a.label for a in mine} == {"full", "partial", "zero"}, question.id


# ------------------------------------------------------------------------------- claims, not keywords


@pytest.mark.parametrize(
    ("question_id", "answer"),
    [
        ("why_multi_head", "Multiple heads let the model jointly attend to information from different representation "
         "subspaces at different positions; with a single attention head, averaging inhibits this."),
        ("why_positional", "Self-attention is permutation-equivariant: shuffle the inputs and the outputs shuffle the same "
         "way, so the model can't tell word order; with no recurrence, position information is added to the embeddings."),
        ("quadratic_cost", "QK^T 的结果是一个序列长度乘序列长度的矩阵，序列长度翻倍，矩阵元素变成四倍"),
        ("explain_sqrt_dk", "除以 d_k 的平方根是为了让分数的方差回到 1，否则 softmax 饱和，梯度消失。"),
    ],
)
def test_correct_answers_in_other_words_score_full(question_id: str, answer: str) -> None:
    verdict = grade(BANK.get(question_id), answer)
    assert verdict.fraction == 1.0 and verdict.mistake is None, verdict.message()


def test_the_square_root_written_any_way_is_not_the_divide_by_dk_mistake() -> None:
    question = BANK.get("explain_sqrt_dk")
    for form in ("√dk", "sqrt(d_k)", "the square root of d_k", "d_k 的平方根", "根号 dk", "d_k**0.5"):
        verdict = grade(question, f"we divide by {form} so the variance stays 1 and the softmax does not saturate")
        assert verdict.mistake is None, form
    assert grade(question, "we divide by d_k so the variance stays 1").mistake == "divide_by_dk"


def test_a_keyword_list_scores_nothing_and_says_why() -> None:
    for answer in ("variance gradient saturation", "softmax, variance, d_k", "方差 梯度 饱和", "方差、饱和、梯度"):
        verdict = grade(BANK.get("explain_sqrt_dk"), answer)
        assert verdict.fraction == 0.0 and verdict.notes[0][0] == "text_keywords", answer
    assert "一句话" in grade(BANK.get("explain_sqrt_dk"), "方差 梯度 饱和").message("zh")


def test_inverted_claims_score_nothing_and_are_named() -> None:
    """Every claim of the rubric, each turned the wrong way round: the words are there, the ideas are not."""
    question = BANK.get("explain_sqrt_dk")
    verdict = grade(question, "The scale makes the gradients larger and the softmax more saturated, which helps training converge faster.")
    assert verdict.fraction == 0.0
    assert {c.id for c in verdict.missing} >= {"saturation", "gradients"}
    assert "opposite" in verdict.message("en") and "相反" in verdict.message("zh")


def test_a_negated_claim_does_not_count_unless_it_names_the_danger_avoided() -> None:
    question = BANK.get("explain_sqrt_dk")
    plain = grade(question, "The gradients do not vanish.")
    assert plain.fraction == 0.0 and "text_doubt_negated" in plain.doubts and plain.needs_review
    purpose = grade(question, "We scale so that the gradients do not vanish.")
    assert [c.id for c in purpose.found] == ["gradients"]
    causal = BANK.get("causal_mask_purpose")  # not a danger: "so that it cannot see the past" is wrong
    assert grade(causal, "So that tokens cannot attend to earlier tokens.").fraction == 0.0


def test_a_wrong_claim_cancels_a_right_one() -> None:
    """A misconception next to one right idea leaves nothing; next to all of them, less than half."""
    question = BANK.get("kv_cache_purpose")
    alone = grade(question, "It stores the queries of previous tokens.")
    assert alone.fraction == 0.0 and alone.mistake == "kv_cache_stores_queries"
    mixed = grade(question, "It stores the queries, reuses the past keys and values without recomputing them, and only processes the new token.")
    assert 0 < mixed.fraction < 0.5 and mixed.needs_review


def test_the_questions_words_swapped_round_are_a_reversed_claim_not_an_echo() -> None:
    """"Prefill is memory-bound, decoding compute-bound" uses only the question's terms, the wrong way round."""
    question = BANK.get("decode_memory_bound")
    verdict = grade(question, "Prefill is memory-bound because it reads the whole prompt, while decoding is compute-bound.")
    assert verdict.fraction == 0.0
    assert grade(question, "预填充受限于显存带宽，因为要读整个提示词；解码受限于计算。").fraction == 0.0


def test_each_wrong_claim_cancels_one_right_idea() -> None:
    """Two reversed ideas next to two right ones leave nothing, where one reversed idea would leave a little."""
    question = BANK.get("encoder_vs_decoder")
    one = grade(question, "BERT uses a causal mask like GPT. GPT is trained to predict the next token and BERT predicts masked tokens.")
    assert 0 < one.fraction < 0.5
    two = grade(question, "BERT has a causal mask, just as GPT does, and both are trained to predict the next token.")
    assert two.fraction == 0.0 and two.mistake is None
    assert {c.id for c in two.found} == {"gpt_causal", "gpt_next_token"}


def test_an_answer_the_rubric_barely_recognises_is_sent_to_review() -> None:
    verdict = grade(
        BANK.get("explain_sqrt_dk"),
        "Interviewers like this one: think of the logits' spread growing with width, then the exponential amplifies "
        "the largest logit enormously, so backprop sees a flat function.",
    )
    assert verdict.fraction < 1.0 and "text_doubt_unrecognised" in verdict.doubts and verdict.needs_review


_TWO_IDEAS = "The dot product's variance grows with d_k, so the softmax saturates into a nearly one-hot row"


def test_an_answer_that_says_much_more_on_the_subject_gets_the_missing_idea_on_trust() -> None:
    """Every idea but one, no wrong claim, and many more of the bank's words no phrasing read: the missing
    idea is most likely said in other words. Full points, named as given on trust, and sent to review."""
    question = BANK.get("explain_sqrt_dk")
    verdict = grade(question, _TWO_IDEAS + ", and then backprop sees a flat surface: the learning signal reaching the "
                              "query and key projections fades and those weights hardly update during training.")
    assert verdict.fraction == 1.0 and verdict.needs_review and "text_doubt_on_trust" in verdict.doubts
    assert [c.id for c in verdict.missing] == ["gradients"]
    assert "on trust" in verdict.message("en") and "暂给满分" in verdict.message("zh")


def test_the_benchmark_counts_the_answers_given_full_points_on_trust() -> None:
    """bench_qa_text.py reports how many answers got full points on trust and how they were labelled:
    grade_set marks those verdicts, and only those."""
    trusting = _TWO_IDEAS + (", and then backprop sees a flat surface: the learning signal reaching the query and key "
                             "projections fades and those weights hardly update during training.")
    answers = [LabelledAnswer("explain_sqrt_dk", text, "en", label, "paraphrase", "", f"t [{i}]")
               for i, (text, label) in enumerate([(trusting, "full"), (_TWO_IDEAS + ".", "partial")])]
    assert [g.on_trust for g in grade_set(answers, BANK)] == [True, False]


def test_filler_a_wrong_claim_or_a_short_answer_earns_nothing_on_trust() -> None:
    question = BANK.get("explain_sqrt_dk")
    short = grade(question, _TWO_IDEAS + ".")
    filler = grade(question, _TWO_IDEAS + ". My cat likes sunny afternoons and I wrote this answer on a train to Berlin "
                                          "while drinking coffee with friends yesterday evening after a long walk.")
    wrong = grade(question, _TWO_IDEAS + "; the scale makes the gradients larger, and then backprop sees a flat surface: "
                                         "the learning signal reaching the query and key projections fades during training.")
    assert short.fraction == filler.fraction == INCOMPLETE_CAP
    assert "text_doubt_on_trust" not in filler.doubts and filler.needs_review
    assert wrong.fraction < 0.5


@pytest.mark.parametrize(("question", "traditional", "simplified"), [
    ("explain_sqrt_dk", "q·k 是 d_k 個單位方差乘積之和，方差隨 d_k 增大；分數過大時 softmax 飽和，梯度消失。",
     "q·k 是 d_k 个单位方差乘积之和，方差随 d_k 增大；分数过大时 softmax 饱和，梯度消失。"),
    ("kv_cache_purpose", "把之前詞元的 K 和 V 存下來複用，不用每步重新計算，每一步只算新詞元。",
     "把之前词元的 K 和 V 存下来复用，不用每步重新计算，每一步只算新词元。"),
    ("causal_mask_purpose", "有了因果掩碼，每個詞就可以看到後面所有的詞，訓練信息更多。",
     "有了因果掩码，每个词就可以看到后面所有的词，训练信息更多。"),
    ("why_multi_head", "多個頭各自在自己的子空間裏，同時關注不同位置；只有一個頭會把所有東西平均掉。",
     "多个头各自在自己的子空间里，同时关注不同位置；只有一个头会把所有东西平均掉。"),
])
def test_an_answer_in_traditional_characters_is_graded_as_in_simplified(question: str, traditional: str, simplified: str) -> None:
    """繁體 answers (Taiwan, Hong Kong) read through the same simplified rubric: right ideas and wrong claims alike."""
    written, expected = grade(BANK.get(question), traditional), grade(BANK.get(question), simplified)
    assert written.fraction == expected.fraction and [c.id for c in written.found] == [c.id for c in expected.found]
    assert canonical("為什麼 麼 後面") == "为什么 么 后面" and canonical("什么 着 了") == "什么 着 了"


# ------------------------------------------------------------------------------- generalising: lexicon, subjects, beliefs


def test_a_claim_said_of_the_other_subject_is_inverted() -> None:
    """Decode's idea said of prefill (and prefill's of decode) is the question's answer the wrong way round."""
    question = BANK.get("decode_memory_bound")
    right = grade(question, "Prefill is one big matrix-matrix product over all prompt tokens; decoding does matrix-vector "
                            "work, reading all the weights for a single token.")
    assert right.fraction == 1.0, right.message()
    swapped = grade(question, "Decoding is one big matrix-matrix product over many tokens; prefill does matrix-vector "
                              "work, reading all the weights for a single token.")
    assert swapped.fraction == 0.0 and "opposite" in swapped.message("en")
    unlike = grade(question, "Unlike prefill, decoding reads all the weights for one token each step: matrix-vector work.")
    assert [c.id for c in unlike.found] == ["decode_reads_everything"]


def test_a_belief_reported_to_be_rejected_is_not_asserted() -> None:
    question = BANK.get("encoder_vs_decoder")
    verdict = grade(question, "A common mix-up is to think BERT has a causal mask. It doesn't: BERT attends bidirectionally and "
                              "predicts masked tokens, while GPT uses a causal mask and predicts the next token.")
    assert verdict.fraction == 1.0, verdict.message()
    zh = grade(BANK.get("why_positional"), "不是因为注意力看不到远处的词，恰恰相反，它分不出先后顺序；它没有循环也没有卷积，"
                                           "所以要把位置编码加到词嵌入上。")
    assert zh.fraction == 1.0 and zh.mistake is None, zh.message("zh")


def test_a_mistake_the_answer_rejects_is_not_held_against_it() -> None:
    verdict = grade(BANK.get("explain_sqrt_dk"), "是除以 √d_k，不是除以 d_k：除以 d_k 会把分数压得太小。方差随 d_k 增长，"
                                                 "softmax 饱和，梯度消失。")
    assert verdict.mistake is None and verdict.fraction == 1.0, verdict.message("zh")


def test_a_right_idea_beside_a_misconception_keeps_a_little_credit() -> None:
    """One right idea in its own sentence next to a misconception: partial, below half; inside it: nothing."""
    question = BANK.get("rope_relative")
    apart = grade(question, "RoPE rotates q and k by an angle proportional to their positions. The score is relative because "
                            "the values are rotated too.")
    assert 0 < apart.fraction < 0.5 and apart.mistake == "rope_rotates_values"
    inside = grade(BANK.get("gqa_kv_sharing"), "They reduce the number of query heads, so fewer queries are cached.")
    assert inside.fraction == 0.0


def test_lexicon_terms_expand_in_every_pattern_and_a_missing_term_is_named(tmp_path: Path) -> None:
    import shutil

    folder = tmp_path / "qa"
    shutil.copytree(BANK.folder, folder)
    assert "@" not in " ".join(p for q in BANK.questions for c in q.concepts for p in c.en + c.zh)
    path = folder / "questions" / "memory.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("@kv", "@no_such_term", 1), encoding="utf-8")
    with pytest.raises(SpecError, match=r"memory\.yaml: \[\d+\] \w+: pattern '@no_such_term' names no term of lexicon\.yaml"):
        load_bank(folder)


def test_a_list_of_known_topic_terms_is_a_keyword_list() -> None:
    for answer in ("KV 缓存、自回归、键、值、复用、显存", "causal mask, lower triangular, future tokens, autoregressive"):
        question = BANK.get("kv_cache_purpose" if "KV" in answer else "causal_mask_purpose")
        verdict = grade(question, answer)
        assert verdict.fraction == 0.0 and verdict.notes[0][0] == "text_keywords", answer
    terse = grade(BANK.get("encoder_vs_decoder"), "BERT：双向，没有因果掩码，MLM；GPT：因果掩码，预测下一个词")
    assert terse.fraction == 1.0, terse.message("zh")


def test_renaming_the_questions_terms_is_an_echo_unless_it_follows_from_a_claim() -> None:
    """Lexicon synonyms of the question's own words ("缩小" for "减小", "caches the keys and values" for
    "KV cache") say nothing new; said as the consequence of a claim ("…, so the cache shrinks") they count."""
    echo = grade(BANK.get("kv_cache_purpose"), "A KV cache speeds up generation because it caches the keys and values.")
    assert echo.fraction == 0.0, echo.message()
    gqa = BANK.get("gqa_kv_sharing")
    renamed = grade(gqa, "MQA 和 GQA 可以缩小 KV 缓存。")
    assert renamed.fraction == 0.0, renamed.message("zh")
    consequence = grade(gqa, "多个查询头共享一个 KV 头，所以 KV 缓存就缩小了。")
    assert [c.id for c in consequence.found] == ["shared_kv", "cache_shrinks"], consequence.message("zh")


def test_another_form_of_the_questions_words_is_an_echo() -> None:
    """"encode the positions" only respells "positional encodings": -ing, -ed, -e, -al do not make a new word."""
    question = BANK.get("why_positional")
    echo = grade(question, "A Transformer needs positional encodings to encode the positions of the tokens.")
    assert echo.fraction == 0.0, echo.message()
    claim = grade(question, "Attention is blind to order, so we add a position vector to each token's embedding.")
    assert claim.fraction > 0, claim.message()


def test_an_arrow_ends_the_clause_a_negation_governs() -> None:
    """In "no recurrence → must add PE", the "no" belongs to the first step of the chain, not to the second."""
    verdict = grade(BANK.get("why_positional"), "attention = permutation-equivariant, no recurrence/conv → must add PE to embeddings")
    assert verdict.fraction == 1.0, verdict.message()


def test_written_cantonese_reads_as_mandarin() -> None:
    """唔/嘅/咗/冇/系 are Cantonese for 不/的/了/没有/是: the same ideas score the same; 系统 and 关系 stay words."""
    question = BANK.get("kv_cache_why_not_queries")
    cantonese = "旧嘅 q 用完就冇人再用，唔使存；但系之前嘅 K、V 之后每个新 query 都要用，所以存 K、V。"
    mandarin = "旧的 q 用完就没有人再用，不用存；但是之前的 K、V 之后每个新 query 都要用，所以存 K、V。"
    assert grade(question, cantonese).fraction == grade(question, mandarin).fraction == 1.0
    assert canonical("系统和关系系数") == "系统和关系系数"
    assert canonical("佢哋唔系") == "它们不是"
    # Words that are also Mandarin change only in a Cantonese answer.
    assert canonical("变成个矩阵，在坐标系里旋转") == "变成个矩阵,在坐标系里旋转"
    assert canonical("成个矩阵仲要保存落嚟，喺坐标系度") == "整个矩阵还要保存下来,在坐标系度"


def test_a_negation_typed_without_its_apostrophe_still_negates() -> None:
    """"dont", "doesnt" read as "don't", "doesn't": the claim keeps its polarity."""
    question = BANK.get("rmsnorm_vs_layernorm")
    typed = grade(question, "rmsnorm doesnt subtract the mean, it divides by the root mean square; cheaper, about the same quality.")
    assert typed.fraction == 1.0, typed.message()
    assert canonical("you dont recompute them, it cant") == "you don't recompute them, it can't"


def test_contrary_to_a_model_is_a_comparison_not_a_reported_belief() -> None:
    """"Contrary to RNNs it has no recurrence" asserts; "contrary to popular belief, X" rejects X."""
    question = BANK.get("why_positional")
    compared = grade(question, "Self-attention is permutation-equivariant. Contrary to RNN or CNN it has no recurrence nor "
                               "convolution, so we must add the position of each token to its embedding.")
    assert compared.fraction == 1.0, compared.message()


def test_a_spaced_list_with_one_formula_is_a_keyword_list() -> None:
    verdict = grade(BANK.get("sliding_window_reach"), "sliding window W O(nW) layers receptive field")
    assert verdict.fraction == 0.0 and verdict.notes[0][0] == "text_keywords"


def test_a_negation_reaches_across_or() -> None:
    """"not a low-rank or sparse approximation" denies both; without the "not" the answer claims one."""
    question = BANK.get("flash_what_it_saves")
    for answer in ("FlashAttention is exact, not a low-rank or sparse approximation: it tiles Q, K, V into SRAM "
                   "and never writes the n×n score matrix to HBM.",
                   "FlashAttention 是精确的，不是低秩或稀疏的近似：分块放进 SRAM 算，n×n 的分数矩阵从不写回 HBM。"):
        assert grade(question, answer).fraction == 1.0, answer
    claimed = grade(question, "FlashAttention is a low-rank or sparse approximation: it tiles Q, K, V into SRAM "
                              "and never writes the n×n score matrix to HBM.")
    assert claimed.fraction < 0.5


def test_abstract_nouns_and_different_are_topic_words_in_a_keyword_list() -> None:
    """不变性 (an abstract noun in -性) and 不同 ("different") hold 不 but relate nothing."""
    for question, answer in (("softmax_stability", "溢出、最大值、平移不变性"), ("why_multi_head", "子空间、不同位置、平均")):
        verdict = grade(BANK.get(question), answer)
        assert verdict.fraction == 0.0 and verdict.notes[0][0] == "text_keywords", answer
    claim = grade(BANK.get("softmax_stability"), "exp 大数会溢出，减去最大值结果不变。")
    assert claim.fraction == 1.0, claim.message("zh")


def test_a_belief_some_hold_is_reported_not_asserted() -> None:
    """"Some think it changes the probabilities, but it doesn't" rejects the belief it reports."""
    verdict = grade(BANK.get("softmax_stability"), "Some think it changes the probabilities, but it doesn't: "
                    "softmax(x − c) = softmax(x). It is needed because exp of a large score overflows to inf.")
    assert verdict.fraction == 1.0, verdict.message()


def test_a_colon_after_a_rejected_belief_turns_to_the_truth() -> None:
    """"It's not that X: Y" rejects X and asserts Y."""
    verdict = grade(BANK.get("rope_relative"), "It's not that RoPE stores relative positions: q and k are rotated by angles "
                    "proportional to their absolute positions, and in the dot product the rotations combine into one by the difference, (n−m)θ.")
    assert verdict.fraction == 1.0, verdict.message()


def test_an_adverb_beside_the_questions_words_is_still_an_echo() -> None:
    """"cleverly" adds nothing to "shrink the KV cache"; "simultaneously" named by a phrasing still counts."""
    echo = grade(BANK.get("gqa_kv_sharing"), "MQA and GQA cleverly shrink the KV cache, and in exchange they give up something.")
    assert echo.fraction == 0.0, echo.message()
    claim = grade(BANK.get("why_multi_head"), "Each head has its own subspace, so heads attend to different positions, simultaneously.")
    assert "several_relations" in [c.id for c in claim.found], claim.message()


def test_separated_single_words_and_definitions_are_a_keyword_list() -> None:
    for question, answer in (("kv_cache_purpose", "keys, values, cache, decoding, reuse"),
                             ("why_multi_head", "子空间、concat、W_O、h=8、d_k=64"),
                             ("causal_mask_purpose", "lower triangular, autoregressive, teacher forcing, upper triangle = -inf")):
        verdict = grade(BANK.get(question), answer)
        assert verdict.fraction == 0.0 and verdict.notes[0][0] == "text_keywords", answer
    sentence = grade(BANK.get("explain_sqrt_dk"), "to avoid vanishing gradients")
    assert sentence.fraction > 0, sentence.message()


def test_chinese_topic_phrases_set_apart_by_spaces_or_commas_are_a_keyword_list() -> None:
    for question, answer in (("softmax_stability", "减最大值 上溢 exp 数值稳定 平移不变 softmax"),
                             ("decode_memory_bound", "访存、算术强度、矩阵乘向量、带宽、kv 缓存"),
                             ("flash_what_it_saves", "sram hbm 分块 重计算 精确 online softmax"),
                             # 平移不变 names a property in a list separated by commas too.
                             ("softmax_stability", "溢出，最大值，exp，平移不变")):
        verdict = grade(BANK.get(question), answer)
        assert verdict.fraction == 0.0 and verdict.notes[0][0] == "text_keywords", answer
    # Two phrases separated by a comma, one a claim (防: "to prevent" relates): a terse answer, not a list.
    claim = grade(BANK.get("softmax_stability"), "防溢出（inf/NaN）；平移不变，结果相同")
    assert claim.fraction == 1.0, claim.message()


def test_from_x_down_to_y_relates_the_words_set_apart_by_spaces() -> None:
    """"计算量从 O(n²) 降到 O(nW)" says one thing became another: a claim, not a list of formulas."""
    claim = grade(BANK.get("sliding_window_reach"), "计算量从 O(n²) 降到 O(nW)。")
    assert [c.id for c in claim.found] == ["linear_cost"], claim.message("zh")
    listed = grade(BANK.get("sliding_window_reach"), "复杂度 O(n²) 窗口 层数")
    assert listed.fraction == 0.0 and listed.notes[0][0] == "text_keywords"


def test_a_short_gap_does_not_run_into_the_next_clause() -> None:
    """"没有卷积，所以要把位置……" does not say "没有……位置": a short rubric gap stays in its clause."""
    verdict = grade(BANK.get("why_positional"), "因为 Transformer 没有 RNN 的循环结构，也没有卷积，所以要把位置编码加到词向量上。")
    assert [c.id for c in verdict.found] == ["no_recurrence", "inject_position"], verdict.message("zh")


def test_numbers_and_special_values_in_words_have_one_spelling() -> None:
    assert canonical("写成负十亿") == "写成-1e9" and canonical("minus 1e9") == "-1e9"
    assert canonical("e 的 0 次方是一") == "exp(0)是一" and canonical("e to the zero is one") == "exp(0) is one"
    assert canonical("结果是非数, zero over zero") == "结果是nan, 0/0"
    assert canonical("it turns into not-a-number") == "it turns into nan"
    assert canonical("it divides zero by zero") == "it 0/0"
    assert canonical("nothing over nothing, infinitely negative") == "0/0, -inf"
    assert canonical("divide by the root of the head width") == "divide by sqrt(d_k)"
    verdict = grade(BANK.get("mask_fill_value"), "分数写成零，取完指数是一，照样能分走权重；写成负无穷时整行是 0/0，得到非数；"
                                                 "写成负十亿时大家分数一样，归一化后就是平均分配。")
    assert verdict.fraction == 1.0, verdict.message("zh")


def test_latex_markup_is_read_as_the_formula_it_writes() -> None:
    assert canonical(r"$\frac{0}{0} = \mathrm{NaN}$") == "0/0 = nan"
    assert canonical(r"$\mathcal{O}(nW)$ or $L \cdot W$") == "o(nw) or l · w"
    assert canonical(r"$e^{m - m_{new}}\,\ell$ and $\max(m, \max s)$") == "e^{m - m_new} l and max(m, max s)"


def test_more_ways_of_reporting_a_belief_to_reject_it() -> None:
    verdict = grade(BANK.get("quadratic_cost"), "有人说平方增长是因为参数量随长度增长，这不对。每个查询都要和全部 n 个键做点积，"
                                                "得到 n×n 的分数矩阵，既要算也要存。")
    assert verdict.mistake is None and verdict.fraction == 1.0, verdict.message("zh")


def test_a_dash_ends_a_belief_set_aside_and_an_adverb_may_sit_in_its_frame() -> None:
    """"It's not that X — Y": Y is asserted; "people sometimes say X" reports X without asserting it."""
    queries = grade(BANK.get("kv_cache_why_not_queries"),
                    "It's not that queries are too big — a past query is never used again once its token's output is "
                    "computed, while every later query needs the past keys and values.")
    assert queries.mistake is None and queries.fraction == 1.0, queries.message("en")
    rms = grade(BANK.get("rmsnorm_vs_layernorm"),
                "People sometimes say RMSNorm gives better quality than LayerNorm; it's about the same. It skips the mean, "
                "divides by the root mean square, and is cheaper.")
    assert rms.mistake is None and rms.fraction == 1.0, rms.message("en")


def test_a_belief_set_aside_with_er_shi_is_not_asserted_and_what_follows_is() -> None:
    """"不是因为 X，而是 Y": X is rejected, Y is asserted."""
    verdict = grade(BANK.get("kv_cache_why_not_queries"),
                    "不是因为查询会变，而是过去的查询只在自己那一步用一次，之后再也用不到；而之后每个查询都要用过去的键和值。")
    assert verdict.mistake is None and verdict.fraction == 1.0, verdict.message("zh")


def test_the_reversed_claim_said_of_the_other_subject_is_true() -> None:
    """"Standard attention writes the n × n matrix to HBM" is right; said of FlashAttention it is the reversed claim."""
    question = BANK.get("flash_what_it_saves")
    right = grade(question, "Standard attention writes the full attention matrix to HBM and reads it back; FlashAttention "
                            "never does: it tiles in SRAM, so memory is linear, and the output is exact.")
    assert right.fraction == 1.0, right.message("en")
    wrong = grade(question, "FlashAttention writes the full attention matrix to HBM, but it tiles in SRAM; the output is exact.")
    assert wrong.fraction < 0.5


def test_naming_the_question_s_method_as_a_means_is_still_an_echo() -> None:
    """"通过……的方式来减小 KV 缓存", "by means of the … approach": a means named in the question's words adds no claim."""
    question = BANK.get("gqa_kv_sharing")
    for answer in ("MQA 和 GQA 通过多查询和分组查询的方式来减小 KV 缓存，代价就是要付出一定的代价。",
                   "MQA 和 GQA 通过多查询和分组查询来减小 KV 缓存，代价是付出了一些代价。",  # 来 alone links means and purpose
                   "MQA and GQA shrink the KV cache by means of the multi-query and grouped-query approaches."):
        verdict = grade(question, answer)
        assert verdict.fraction == 0.0, verdict.message()
    claim = grade(question, "MQA and GQA shrink the KV cache by sharing one key-value head among several query heads.")
    assert claim.fraction > 0, claim.message()
    claim = grade(question, "让几个查询头共用一个键值头来减小 KV 缓存。")
    assert claim.fraction > 0, claim.message()


def test_a_subject_named_as_the_operation_a_step_performs_is_not_what_the_claim_is_about() -> None:
    answer = "Bahdanau 那种是把查询和键各自线性变换后相加，过一个双曲正切，再和一个可学习向量做内积，相当于给每一对单独跑一个小网络。"
    verdict = judge(BANK.get("additive_vs_dot"), answer)
    assert not verdict.inverted and "additive_network" in [c.id for c in verdict.found], answer


def test_an_english_gap_stops_at_a_chinese_full_stop() -> None:
    """"…15% token。GPT：因果 mask" does not say that the 15% hidden tokens belong to GPT."""
    verdict = grade(BANK.get("encoder_vs_decoder"),
                    "BERT：双向attn，只mask padding；MLM，预测被mask的15% token。GPT：因果mask（下三角）；预测下一个token（CLM）")
    assert verdict.fraction == 1.0, verdict.message("zh")
    # "bias" in one sentence and "i−j" in the next is not "a bias that grows with i−j".
    apart = judge(BANK.get("alibi_bias"), "ALiBi 加一个 bias。每个 head 的斜率固定，只看 i−j 的距离。")
    assert "distance_penalty" not in [c.id for c in apart.found]


def test_two_subjects_joined_by_and_both_are_named() -> None:
    """"BERT 和 GPT 都用因果掩码" says it of both ("和 GPT 相比" would set GPT aside)."""
    verdict = judge(BANK.get("encoder_vs_decoder"), "BERT 和 GPT 都用因果掩码，区别只是 BERT 训练时随机 mask 掉 15% 的词让模型去预测。")
    assert [c.id for c in verdict.inverted] == ["bert_bidirectional"]
    assert {"gpt_causal", "bert_mlm"} <= {c.id for c in verdict.found}


def test_definitions_that_claim_something_and_citations_in_a_list() -> None:
    """"BERT = no causal mask" relates two things, "h=8" does not; "Xiong et al. 2020" is one more topic word."""
    terse = grade(BANK.get("encoder_vs_decoder"), "BERT = no causal mask, sees both sides, MLM; GPT = causal mask, next-token prediction")
    assert terse.fraction == 1.0, terse.message()
    for question, answer in (("encoder_vs_decoder", "BERT = encoder, GPT = decoder, MLM, causal"),
                             ("pre_ln_warmup", "residual, identity, warm-up, gradient norm, Xiong et al. 2020")):
        verdict = grade(BANK.get(question), answer)
        assert verdict.fraction == 0.0 and verdict.notes[0][0] == "text_keywords", answer


def test_latex_in_notes_reads_as_the_same_formula() -> None:
    """"$\\frac{1}{\\sqrt{d_k}}$", "\\mathrm{Var}(q\\cdot k) = d_k", "R((n-m)\\theta)": one spelling for LaTeX too."""
    assert canonical(r"$\frac{1}{\sqrt{d_k}}$") == "1/sqrt(d_k)"
    assert canonical(r"$\mathrm{Var}(q\cdot k) = d_k$, $\mathcal{O}(n^2)$") == "var(q· k) = d_k , o(n^2)"
    assert canonical(r"$q_m^\top k_n = q^\top R((n-m)\theta)\,k$") == "q_m^t k_n = q^t r((n-m)θ) k"
    verdict = grade(BANK.get("explain_sqrt_dk"), "## Why $\\frac{1}{\\sqrt{d_k}}$\n- $\\mathrm{Var}(q\\cdot k) = d_k$\n"
                                                 "- large $d_k$ → $\\mathrm{softmax}$ saturates, almost one-hot\n- → gradients ≈ 0")
    assert verdict.fraction == 1.0, verdict.message()


def test_a_markdown_table_is_read_row_by_row_with_its_column_as_the_subject() -> None:
    table = ("| | BERT | GPT |\n|---|---|---|\n| 掩码 | 双向，只屏蔽 padding | 因果掩码，只看自己和之前 |\n"
             "| 目标 | MLM：预测被遮住的 ~15% 词元 | 预测下一个词元 |")
    assert grade(BANK.get("encoder_vs_decoder"), table).fraction == 1.0
    swapped = "| | BERT | GPT |\n|---|---|---|\n| mask | causal | bidirectional |\n| objective | next token | masked tokens |"
    assert grade(BANK.get("encoder_vs_decoder"), swapped).fraction < 0.5
    # A one-column table, a row left blank beside its first cell, a header with no row: their words stay.
    assert canonical("| cause |\n|---|\n| the variance grows with d_k |") == "cause the variance grows with d_k."
    assert canonical("| reason | effect |\n|---|---|\n| gradients vanish | |") == "reason gradients vanish."
    assert canonical("| softmax saturates | gradients vanish |\n|---|---|") == "softmax saturates gradients vanish"
    # A formula's bars inside a cell (|i−j|) are not column separators.
    assert canonical("| method | effect |\n|---|---|\n| score − m·|i−j| | far keys lose |") == \
        "effect score - m·|i-j|: far keys lose."


@pytest.mark.parametrize("answer", [
    "Keep a running max and a running sum per row; how the earlier results get rescaled when the max changes, I don't remember.",
    "每行维护当前最大值和指数和；具体 rescale 的细节还没看懂。",
    "每行维护当前最大值和指数和；最大值变了以后具体怎么 rescale 我忘了。",
])
def test_what_the_answer_says_it_has_forgotten_or_not_understood_is_named_not_claimed(answer: str) -> None:
    verdict = grade(BANK.get("flash_online_softmax"), answer)
    assert [c.id for c in verdict.found] == ["running_stats"], verdict.message("en")


def test_a_claim_beside_a_forgotten_detail_still_counts() -> None:
    verdict = grade(BANK.get("flash_online_softmax"),
                    "Keep a running max and a running sum per row, and when the max changes rescale the earlier sum and "
                    "output by exp(old - new); the proof I don't remember, but it is exact.")
    assert verdict.fraction == 1.0, verdict.message("en")


def test_the_agent_of_a_passive_is_found_several_words_back() -> None:
    """"required by every subsequent query": the queries read the keys and values, they are not what is kept."""
    verdict = grade(BANK.get("kv_cache_why_not_queries"),
                    "A query is consulted solely at the step in which its own token is produced and never revisited. "
                    "Keys and values, on the other hand, are required by every subsequent query.")
    assert verdict.fraction == 1.0, verdict.message("en")


def test_the_agent_of_a_relative_clause_is_not_the_subject() -> None:
    """"entries that every later query has to consult": the entries (keys and values) are what is kept."""
    verdict = grade(BANK.get("kv_cache_why_not_queries"),
                    "A query is a one-off: it is used to work out its own token's output and never again. Keys and "
                    "values are standing entries that every later query has to consult.")
    assert verdict.fraction == 1.0, verdict.message("en")


def test_sichuanese_words_read_as_mandarin() -> None:
    """莫得 (没有), 一哈 (一下), 后头 (后面): a negation written in dialect still negates."""
    assert canonical("BERT 莫得 causal mask，只遮一哈 padding；k、v 后头还要用") == \
        "bert 没有 causal mask,只遮一下 padding;k、v 后面还要用"
    verdict = grade(BANK.get("flash_what_it_saves"),
                    "省的是 HBM 的读写，块都放在 SRAM 里算，n×n 的矩阵从来不写出去，显存线性涨。结果跟标准 attention 一模一样，莫得近似。")
    assert verdict.fraction == 1.0, verdict.message("zh")


@pytest.mark.parametrize("answer", ["核函数、RNN、结合律、线性、softmax、φ，就这些嘛。",
                                    "online softmax, tiling, SRAM, running max, blocks of keys"])
def test_a_list_is_still_a_list_after_that_s_it_or_with_of_inside_an_item(answer: str) -> None:
    question = BANK.get("linear_attention_trick" if "核函数" in answer else "flash_online_softmax")
    assert grade(question, answer).fraction == 0.0


@pytest.mark.parametrize("answer", ["RMSNorm、LayerNorm、LLaMA、均方根、归一化、γ、β——面试高频词汇，收藏！",
                                    "RMSNorm, LayerNorm, RMS, mean, bias, LLaMA: must-know, save this"])
def test_a_list_is_still_a_list_under_a_save_this_remark(answer: str) -> None:
    assert grade(BANK.get("rmsnorm_vs_layernorm"), answer).fraction == 0.0


def test_the_written_passive_wei_suo_names_its_agent_not_its_subject() -> None:
    """"k_t 与 v_t 须为其后每一查询所读取": the keys and values are read; the queries read them."""
    verdict = grade(BANK.get("kv_cache_why_not_queries"),
                    "q_t 于第 t 步之后不再使用；反之，k_t 与 v_t 须为其后每一查询所读取，故应予缓存。")
    assert verdict.fraction == 1.0, verdict.message("zh")


def test_every_named_mistake_of_a_text_question_is_diagnosed_on_a_tuning_answer() -> None:
    """Each (question, named mistake) pair costs points, with that diagnosis, on at least one answer of tuning/."""
    named = {(q.id, w.mistake) for q in BANK.questions if q.type == "text" for w in q.mistakes}
    diagnosed = set()
    for answer in load_set(LABELLED / "tuning", BANK):
        verdict = grade(BANK.get(answer.question), answer.text)
        if verdict.mistake and verdict.fraction < 0.5:
            diagnosed.add((answer.question, verdict.mistake))
    assert sorted(named - diagnosed) == []


def test_words_shouted_one_at_a_time_are_a_list_and_exclaimed_claims_are_not() -> None:
    assert grade(BANK.get("encoder_vs_decoder"), "双向！掩码！下一个词！BERT！GPT！Transformer 之力！").fraction == 0.0
    verdict = grade(BANK.get("explain_sqrt_dk"), "d_k 一大，q·k 的方差就暴涨！softmax 饱和成 one-hot！梯度消失！所以除以 sqrt(d_k)！")
    assert verdict.fraction == 1.0, verdict.message("zh")


def test_written_wu_reads_as_mandarin() -> None:
    """勿 (不), 个 (的), 搭 (和), 辰光 (时候), 老 (很): a negation in Shanghainese still negates."""
    assert canonical("Post-LN 初始化辰光梯度老大，Pre-LN 勿要 warm-up；输出是精确个，勿是近似个。") == \
        "post-ln 初始化时候梯度很大,pre-ln 不要 warm-up;输出是精确的,不是近似的。"
    assert canonical("每个头一个子空间，这个矩阵") == "每个头一个子空间,这个矩阵"  # no Wu here: 个 stays


@pytest.mark.parametrize("question, answer", [
    ("why_multi_head", "1/ 多头注意力 子空间\n2/ 并行 拼接 W_O\n#Attention is all you need#"),
    ("linear_attention_trick", "1/ 线性注意力 核函数\n2/ 结合律 RNN\n3/ 复杂度 softmax #Transformers are RNNs#"),
])
def test_a_numbered_thread_of_terms_is_a_keyword_list(question: str, answer: str) -> None:
    assert grade(BANK.get(question), answer).fraction == 0.0


def test_a_numbered_thread_of_claims_is_graded_line_by_line() -> None:
    verdict = grade(BANK.get("decode_memory_bound"),
                    "1/ 解码每步只生成一个 token，却要把全部权重和 KV 缓存读一遍\n2/ 算术强度很低，所以受带宽限制\n"
                    "3/ 预填充一次处理整个 prompt，是矩阵乘矩阵，算力吃满 #LLM#")
    assert verdict.fraction == 1.0, verdict.message("zh")


def test_a_right_idea_drawn_from_a_wrong_claim_earns_nothing() -> None:
    """"RMSNorm 减去均值但不除以标准差; 所以更省算力": "cheaper" follows from the reversed claim."""
    assert grade(BANK.get("rmsnorm_vs_layernorm"), "1/ RMSNorm 减去均值但不除以标准差\n2/ 所以更省算力").fraction == 0.0


def test_a_slash_inside_a_term_does_not_split_a_list() -> None:
    """"SwiGLU 8d/3 门控 三个矩阵 参数量 yyds" is one list of terms, not two items split at "8d/3"."""
    assert grade(BANK.get("swiglu_hidden_size"), "SwiGLU 8d/3 门控 三个矩阵 参数量 yyds").fraction == 0.0


def test_northern_and_spoken_colloquial_mandarin_read_as_mandarin() -> None:
    """俺 / 自个儿 / 一块儿 in an answer with a northern mark; 光 before a verb and 除个 anywhere."""
    assert canonical("俺觉着查询只在自个儿那一步用，所有位置一块儿训") == "我觉着查询只在自己那一步用,所有位置一起训"
    assert canonical("光除个均方根，光算新来的") == "只除以均方根,只算新来的"
    assert canonical("阳光算法，一块钱") == "阳光算法,一块钱"  # no mark, no rewrite; 阳光 stays


def test_spanish_words_of_a_code_switched_english_answer_read_as_english() -> None:
    assert canonical("each token se compara con todos los otros tokens") == "each token is compared with all the other tokens"
    assert canonical("MQA pierde algo de calidad") == "mqa loses some quality"
    # Without a word no English sentence has, nothing is rewritten ("la", "con" and "como" stay).
    assert canonical("la la land, pros and con, como lake") == "la la land, pros and con, como lake"


def test_a_consequence_drawn_from_the_question_s_own_words_is_still_an_echo() -> None:
    """"shrink the KV cache so that the cache is smaller" says nothing the question did not."""
    question = BANK.get("gqa_kv_sharing")
    assert grade(question, "MQA and GQA shrink the KV cache so that the cache is smaller, and they give up something for it.").fraction == 0.0
    assert grade(question, "Query heads share one K/V head, so the cache is smaller.").fraction > 0.0


def test_save_as_in_spare_does_not_make_storing_words_the_question_s() -> None:
    """The question asks what the window "saves": an answer's "缓存只存 W 个" is about the cache, not an echo."""
    verdict = grade(BANK.get("sliding_window_reach"), "省了计算，O(nW)；缓存只存 W 个；层一摞，能看 L·W 远。")
    assert verdict.fraction == 1.0, verdict.message("zh")


def test_taiwan_terms_read_as_mainland_terms() -> None:
    assert canonical("KV 快取縮小，一次 forward 就平行算出；推論時的品質") == "kv 缓存缩小,一次 forward 就并行算出;推理时的质量"
    assert canonical("两条平行线") == "两条平行线"  # parallel lines stay parallel


def test_hinglish_reads_as_english_word_order_and_negation_included() -> None:
    assert canonical("Lekin yeh exact softmax attention nahi hai.") == "but this is not exact softmax attention."
    assert canonical("har token ko har doosre token se compare karna padta hai") == "every token every other token with must compare"
    assert canonical("Query sirf apne step pe kaam aata hai, uske baad uski koi zaroorat nahi.") == (
        "query only is used at its own step, after that it is not needed.")
    # Without a Hindi word, nothing is rewritten ("har", "se", "ko" stay).
    assert canonical("har se ko") == "har se ko"


def test_a_hinglish_answer_is_graded_on_its_claims() -> None:
    question = BANK.get("kv_cache_why_not_queries")
    full = ("Query sirf apne step pe kaam aata hai, uske baad uski koi zaroorat nahi. "
            "Lekin K aur V ko har aane wala query padhta hai, isliye unhe cache karte hain.")
    assert grade(question, full).fraction == 1.0
    assert grade(BANK.get("linear_attention_trick"),
                 "Softmax ki jagah φ(q)·φ(k) kernel lagate hain, pehle φ(K)^T V nikaalo jo d x d hai, toh cost n mein "
                 "linear. Lekin yeh exact softmax attention nahi hai, alag aur thoda weaker attention hai.").fraction == 1.0


def test_what_an_answer_leaves_for_later_is_not_claimed() -> None:
    """"至于解码为何受限于带宽，且听下回分解": the storyteller names the point and does not make it."""
    verdict = grade(BANK.get("decode_memory_bound"),
                    "话说预填充时整段提示词一起算，矩阵乘矩阵，算术强度高，受限于算力。至于解码为何受限于带宽，且听下回分解。")
    assert verdict.fraction == INCOMPLETE_CAP, verdict.message("zh")


def test_a_storyteller_s_address_and_a_light_verb_add_nothing_to_an_echo() -> None:
    assert grade(BANK.get("gqa_kv_sharing"), "话说 MQA 和 GQA 能减小 KV 缓存，列位看官，当然也要付出些代价。").fraction == 0.0
    assert grade(BANK.get("kv_cache_purpose"), "Caching the K and V makes generation faster.").fraction == 0.0


@pytest.mark.parametrize("answer", ["核心要点：滑动窗口、W、KV cache、感受野、线性、层数。", "第一讲 知识点：滑动窗口、W、感受野、层数。"])
def test_a_list_is_still_a_list_under_a_course_heading(answer: str) -> None:
    assert grade(BANK.get("sliding_window_reach"), answer).fraction == 0.0


def test_a_heading_does_not_make_claims_a_list() -> None:
    """"减少 HBM access" relates two things: under "要点：" it is still a claim."""
    assert 0 < grade(BANK.get("flash_what_it_saves"), "要点：IO-aware，减少 HBM access；输出 exact。").fraction < 1


def test_an_idea_said_of_no_subject_in_particular_is_not_turned_against_the_other() -> None:
    """"训练目标是 MLM" names no model; a later "GPT 只看左边，一个填空一个续写" does not make MLM GPT's."""
    verdict = grade(BANK.get("encoder_vs_decoder"),
                    "BERT = encoder-only，双向注意力，只有 padding mask；训练目标是 MLM，随机遮 15% 再预测回来。"
                    "GPT = decoder-only，下三角 mask，目标是预测下一个 token。记住：BERT 看两边，GPT 只看左边，一个填空一个续写。")
    assert verdict.fraction == 1.0, verdict.message("zh")


@pytest.mark.parametrize("answer", ["各位同学请注意：本题关键词——带宽、算术强度、GEMV、GEMM、HBM、预填充。特此通知。",
                                    "同学们请注意，本节要点：带宽、算术强度、GEMV、预填充。"])
def test_a_list_is_still_a_list_inside_a_notice(answer: str) -> None:
    assert grade(BANK.get("decode_memory_bound"), answer).fraction == 0.0


@pytest.mark.parametrize("answer", ["亲～滑动窗口、W、KV 缓存、感受野、层数、线性，这些就是关键哦～",
                                    "滑动窗口：W、KV 缓存、感受野、层数、线性。"])
def test_a_list_is_still_a_list_with_tone_tildes_or_under_the_question_s_own_heading(answer: str) -> None:
    assert grade(BANK.get("sliding_window_reach"), answer).fraction == 0.0


def test_a_heading_that_says_something_is_a_claim() -> None:
    """"ALiBi 就是：分数 − 斜率 × 距离" defines ALiBi; it is not a heading over a list."""
    assert grade(BANK.get("alibi_bias"), "ALiBi 就是：分数 − 斜率 × 距离。").fraction > 0.0


def test_spoken_english_them_and_double_negative() -> None:
    assert canonical("look at 'em again; there ain't no RNN; it ain't ordered") == (
        "look at them again; there is no rnn; it isn't ordered")


def test_written_cantonese_and_with_only() -> None:
    """同 between two terms is 和; 淨系 is 只是; 唔同 stays 不同."""
    assert canonical("结果淨系同佢哋之间嘅角度差有关") == "结果只是和它们之间的角度差有关"
    assert canonical("query 同 key 嘅相对位置，睇唔同位置，同一时间") == "query 和 key 的相对位置,看不同位置,同一时间"


def test_scots_and_tianjin_words_read_as_english_and_mandarin() -> None:
    assert canonical("BERT has nae causal mask; attention on its ain disnae ken the order o the words") == (
        "bert has no causal mask; attention on its own doesn't know the order of the words")
    assert canonical("我琢磨着是介么回事儿嘛") == "我琢磨着是这么回事嘛"
    assert canonical("the hale thing, nae bother") == "the whole thing, no bother"
    assert canonical("a wee model, aye") == "a wee model, aye"  # without a Scots mark, nothing is rewritten


def test_a_report_s_problem_field_states_what_goes_wrong_without_the_thing_asked_about() -> None:
    """"问题：每步都把前面的 K/V 重新算一遍" describes the problem the cache removes; it is not a claim against it."""
    verdict = grade(BANK.get("kv_cache_purpose"), "问题：生成越往后越慢，每步都把前面所有 token 的 K/V 重新算一遍。"
                                                 "方案：开 KV cache，历史 K/V 存下来复用；结果：每步只算新 token。")
    assert verdict.fraction == 1.0, verdict.message("zh")


def test_taglish_reads_as_english_affixes_and_negation_included() -> None:
    assert canonical("RMSNorm: hindi na nagbabawas ng mean, divide lang sa root mean square") == (
        "rmsnorm: no longer subtracts mean, divide only by root mean square")
    assert canonical("Attention walang pakialam sa order; naka-save na yung K at V, i-compute lang ang bagong token") == (
        "attention ignores order; saved the k and v, compute only the new token")
    # Without a Tagalog word, nothing is rewritten ("sa", "ang" and "at" stay).
    assert canonical("sa ang k at v") == "sa ang k at v"


def test_a_taglish_answer_is_graded_on_its_claims() -> None:
    verdict = grade(BANK.get("kv_cache_why_not_queries"),
                    "Kasi yung query ng token t, ginagamit lang sa step t mismo, hindi na magbabago. Pero yung k_t at v_t, "
                    "babasahin pa ulit ng lahat ng susunod na queries. So sayang lang i-cache ang old queries, diba.")
    assert verdict.fraction == 1.0, verdict.message("en")


@pytest.mark.parametrize(("question", "answer"), [
    ("gqa_kv_sharing", "家人们，MQA 和 GQA 就是通过减小 KV 缓存来减小 KV 缓存的，代价就是付出了一些代价！"),
    ("gqa_kv_sharing", "GQA reduces the KV cache size by reducing the KV cache size."),
    # ... or a thing that does what its name says
    ("why_positional", "主诉：Transformer 需要位置编码。现病史：因为 Transformer 需要知道位置。诊断：位置编码提供位置。"),
    ("why_positional", "Transformers need positional encoding, because positional encoding gives the position."),
    ("kv_cache_purpose", "KV cache is a cache for K and V lah, so autoregressive generation become faster."),
])
def test_a_claim_given_as_its_own_reason_says_nothing(question: str, answer: str) -> None:
    assert grade(BANK.get(question), answer).fraction == 0.0


def test_a_contract_s_boilerplate_and_a_reporting_verb_add_nothing_to_an_echo_or_a_list() -> None:
    assert grade(BANK.get("decode_memory_bound"),
                 "The Party states that decoding is usually limited by memory bandwidth while prefill is limited by compute.").fraction == 0.0
    assert grade(BANK.get("why_positional"),
                 "Whereas the Party attends to tokens, order, position, sinusoid, embedding, permutation.").fraction == 0.0


@pytest.mark.parametrize("answer", ["滑动窗口、W、KV cache、感受野、线性、层数，家人们上链接！", "BERT 双向 掩码 MLM，GPT 因果 自回归 下一个"])
def test_a_list_is_still_a_list_after_a_seller_s_call_or_in_groups_of_spaced_terms(answer: str) -> None:
    question = "encoder_vs_decoder" if answer.startswith("BERT") else "sliding_window_reach"
    assert grade(BANK.get(question), answer).fraction == 0.0


def test_nigerian_pidgin_reads_as_english_copula_and_negation_included() -> None:
    assert canonical("e no get any mask wey dey block the future, only padding na im e dey hide") == (
        "it has no any mask that block the future, only padding is it hide")
    assert canonical("Na memory movement e dey save, no be maths; e no ever keep the full n×n") == (
        "is memory movement it save, not maths; it never keep the full n×n")
    # Without a Pidgin word, nothing is rewritten ("na", "e" and "go" stay).
    assert canonical("na e go") == "na e go"


def test_a_pidgin_answer_is_graded_on_its_claims() -> None:
    verdict = grade(BANK.get("encoder_vs_decoder"),
                    "BERT dey look everywhere at once, left side and right side, e no get any mask wey dey block the future. "
                    "For training dem go cover some words and BERT go guess wetin dey under the cover. GPT get triangle "
                    "mask, each word fit only look the words wey don pass before am, and e dey train to guess the word wey go come next.")
    assert verdict.fraction == 1.0, verdict.message("en")


def test_a_paper_s_title_in_a_list_is_one_topic_word() -> None:
    assert grade(BANK.get("linear_attention_trick"),
                 "Transformers are RNNs, kernel, phi, linear, associativity, softmax.").fraction == 0.0


def test_an_answer_that_says_it_does_not_know_the_rest_is_not_taken_on_trust() -> None:
    """The unrecognised words of "……这笔账我还没对明白" do not stand for the ideas it admits it lacks."""
    verdict = grade(BANK.get("additive_vs_dot"),
                    "加性注意力像手工逐笔对账，每一对都过一个小网络 vᵀ tanh(W_q q + W_k k)；点积像 Excel 一个矩阵公式全拉完，"
                    "快、省地方。至于论文里为什么还要除以 √d_k，这笔账我还没对明白。")
    assert 0 < verdict.fraction < 1, verdict.message("zh")


@pytest.mark.parametrize(("question", "answer"), [
    ("softmax_stability", "It's for numerical stability, I think."),
    ("quadratic_cost", "Because attention has to look at every token, so cost is big."),
    ("swiglu_hidden_size", "Because Swish outputs are about 2/3 the size of ReLU outputs, so the width is scaled by 2/3 to keep the variance."),
])
def test_a_goal_or_a_number_alone_states_no_idea(question: str, answer: str) -> None:
    """"For numerical stability" names no overflow; attention looking at every token is no pairing of tokens;
    a 2/3 that is not the parameter budget is not the budget."""
    assert grade(BANK.get(question), answer).fraction == 0.0


def test_n_by_n_comparisons_are_all_pairs_not_a_stored_matrix() -> None:
    verdict = grade(BANK.get("quadratic_cost"), "Because every token has to look at every other token, that's n × n comparisons.")
    assert verdict.fraction == INCOMPLETE_CAP, verdict.message("en")


def test_jamaican_patois_reads_as_english_and_pinyin_gives_way_to_its_characters() -> None:
    assert canonical("Dem swap di softmax fi a kernel, but it nuh di same as softmax an it train fi guess") == (
        "they swap the softmax for a kernel, but it not the same as softmax and it train for guess")
    assert canonical("huǎn cún（缓存）就变成四分之一，不是 jìn sì（近似）") == "缓存就变成四分之一,不是 近似"
    # Without a Patois word, nothing is rewritten ("an" stays an article).
    assert canonical("an attention map, dem") == "an attention map, dem"


def test_a_comic_duo_s_keyword_list_is_still_a_list() -> None:
    assert grade(BANK.get("linear_attention_trick"),
                 "甲：核函数！乙：嗯。甲：结合律！乙：嗯。甲：RNN！线性！乙：您倒是说说怎么回事啊？").fraction == 0.0


def test_the_name_of_rope_states_no_rotation_and_weight_matrices_are_no_score_matrix() -> None:
    """"旋转位置编码" is RoPE's name, not a claim that q and k are rotated by position; an MLP's "d x 4d weight
    matrices" are not the n × n attention weights."""
    assert grade(BANK.get("rope_relative"), "旋转位置编码之中，注意力分数唯取决于查询与键之相对位置，此乃 RoPE 之妙。").fraction == 0.0
    assert grade(BANK.get("quadratic_cost"),
                 "The feed-forward block grows as d² in the model width, since its weight matrices are d x 4d.").fraction == 0.0


def test_a_fill_value_of_minus_infinity_is_no_overflow() -> None:
    """"掩码要填 −inf" answers another question; its "inf" is not exp overflowing to inf."""
    assert grade(BANK.get("softmax_stability"), "掩码要填 −inf 而不是 0，因为 exp(0)=1 会分到权重。").fraction == 0.0


@pytest.mark.parametrize(("question", "answer"), [
    ("pre_ln_warmup", "Post-LN 梯度太小，所以需要预热把学习率先调大；Pre-LN 梯度大，训练更快。"),
    ("why_positional", "因为 Transformer 有 RNN 结构，但 RNN 记不住太长的位置，所以要加位置编码帮它记忆。"),
])
def test_a_reversed_premise_cancels_the_idea_it_seems_to_state(question: str, answer: str) -> None:
    assert grade(BANK.get(question), answer).fraction == 0.0


def test_three_of_something_instead_of_two_is_not_negated_by_its_instead() -> None:
    verdict = grade(BANK.get("swiglu_hidden_size"),
                    "Same amount of soil but now three planters instead of two, so each gets two thirds of the size. Same soil in total.")
    assert verdict.fraction == 1.0, verdict.message("en")


@pytest.mark.parametrize("answer", ["Because RoPE adds a sinusoid to the embeddings and the sines cancel out inside the softmax.",
                                    "Because RoPE adds a learned relative-position bias to the score, like T5."])
def test_rope_beliefs_from_other_position_schemes_are_named(answer: str) -> None:
    assert grade(BANK.get("rope_relative"), answer).fraction == 0.0


def test_what_an_approximation_gives_up_is_not_claimed_exact() -> None:
    """"What it gives up is exact softmax attention" says it is not exact."""
    verdict = grade(BANK.get("linear_attention_trick"),
                    "It replaces the softmax with a kernel feature map, phi(q)·phi(k). By associativity phi(K)^T V is "
                    "computed first, a d x d summary, so the cost is linear in n. What it gives up is exact softmax "
                    "attention: the weights are no longer a softmax, less sharp.")
    assert verdict.fraction == 1.0, verdict.message("en")


def test_ideas_read_only_inside_a_misconception_are_not_stated() -> None:
    """"ALiBi learns a bias for every distance" names a distance bias, but as the misconception (a learned
    per-distance table): an answer whose every idea lies inside such words states no right idea."""
    verdict = grade(BANK.get("alibi_bias"), "ALiBi learns a bias for every distance up to the training length, and for "
                                            "longer sequences it interpolates between them.")
    assert verdict.fraction == 0.0 and verdict.mistake == "alibi_is_t5_bias" and not verdict.found


@pytest.mark.parametrize(("question", "answer"), [
    # "不遮住的话 ……" and "那不就是抄答案嘛" (a rhetorical question, no negation) state the danger the mask prevents
    ("causal_mask_purpose", "训练时所有位置一起并行算，不遮住的话第 i 个位置就看到第 i+1 个词，那不就是抄答案嘛。"
                            "遮起来以后跟生成的时候一样，生成时后面的词本来就还没有。"),
    # "不存的话 ……", "没有缓存时，……": what would happen without the cache
    ("kv_cache_purpose", "之前的 K 和 V 算过一次就存起来接着用。不存的话每生成一个词都要把前面所有词的 K、V 重算一遍。"
                         "存了以后每一步只算新来的那个词。"),
    ("kv_cache_purpose", "没有缓存时，每生成一个词都要把前面所有的词重新算一遍；有了缓存，旧的 K、V 存着直接复用，每步只算新词元。"),
])
def test_what_would_happen_without_it_is_the_danger_it_prevents(question: str, answer: str) -> None:
    verdict = grade(BANK.get(question), answer)
    assert verdict.fraction == 1.0, verdict.message("zh")


def test_a_query_that_reads_them_leaves_the_claim_about_keys_and_values() -> None:
    """"Every new query still has to scan them": the query is the agent, the keys and values (them) are what
    the claim is about, so it is not the idea said of the wrong subject."""
    verdict = grade(BANK.get("kv_cache_why_not_queries"),
                    "Keys and values are the records in the crate: every new query still has to scan them. "
                    "So cache K and V, and throw away q after its step.")
    assert verdict.fraction == 1.0, verdict.message("en")


def test_two_thirds_of_4d_restates_the_question_and_is_no_budget() -> None:
    """"Take 2/3 of 4d" is what the question asks about; only the reason (same parameters) is the idea."""
    verdict = grade(BANK.get("swiglu_hidden_size"), "Because SwiGLU has an extra gate matrix, so three matrices and not "
                                                    "two. Then you take 2/3 of 4d, I think for a nice size.")
    assert verdict.fraction == INCOMPLETE_CAP and [c.id for c in verdict.missing] == ["same_budget"]


@pytest.mark.parametrize(("question", "answer"), [
    ("encoder_vs_decoder", "广大观众朋友们，本台关键词：双向、单向、掩码、MLM、自回归、下一句预测、Transformer。"),  # a newsreader
    ("encoder_vs_decoder", "双向，因果掩码，MLM，下一词元，局部有 padding。"),  # a weather forecaster's idiom
    ("flash_online_softmax", "online softmax, tiling, SRAM, block, max... that kind lor."),
    ("encoder_vs_decoder", "双向 单向 MLM 下三角 next token 预训练……宝宝哭了先这样"),  # called away mid-list
    # a likeness that only announces the list, and an article before each item
    ("linear_attention_trick", "Kind of like a colour formula: the kernel, the associativity, the d×d, the RNN, the quality. "
                               "That's the recipe hun."),
])
def test_a_list_is_still_a_list_whatever_frames_it(question: str, answer: str) -> None:
    verdict = grade(BANK.get(question), answer)
    assert verdict.fraction == 0.0 and verdict.notes == [("text_keywords", {})]


def test_a_guess_asked_as_a_question_is_not_a_claim() -> None:
    """"Maybe −1e9 also NaNs?" asks; it does not assert the opposite of an idea."""
    question = BANK.get("mask_fill_value")
    asked = judge(question, "With −inf a fully masked row gives NaN, because it is 0/0. The rest is fuzzy, maybe −1e9 also NaNs?")
    claimed = judge(question, "With −inf a fully masked row gives NaN, because it is 0/0. And −1e9 also gives NaN.")
    assert asked.fraction == pytest.approx(1 / 3) and not asked.inverted
    assert [c.id for c in claimed.inverted] == ["large_gives_uniform"]


def test_trinidadian_english_and_negative_concord_are_read_as_english() -> None:
    """"doh" is "don't", "de" is "the", and "not no approximation" is one negation, not two."""
    assert canonical("shiftin all de inputs by de same constant doh change softmax") == \
        "shiftin all the inputs by the same constant don't change softmax"
    verdict = grade(BANK.get("flash_what_it_saves"),
                    "It saves trips to the slow HBM: Q, K, V go in tiles through the fast on-chip SRAM and the n×n "
                    "score matrix is never written out, so memory grows linearly. The answer is exact, not no approximation.")
    assert verdict.fraction == 1.0, verdict.message("en")


def test_shaanxi_speech_and_bare_contractions_are_read_as_standard_words() -> None:
    """"嫑" is "不要" (so "嫑因果掩码" says there is none), "额觉得" is "我觉得", and "doesnt" is "doesn't"."""
    assert canonical("额觉得 BERT 嫑因果掩码，没麻达") == "我觉得 bert 不要因果掩码,没问题"
    assert canonical("it doesnt know the future, u cant peek") == "it doesn't know the future, u can't peek"
    verdict = grade(BANK.get("encoder_vs_decoder"), "BERT：双向，嫑因果掩码（就遮个padding），任务是把遮住的词猜出来（MLM）。"
                                                    "GPT：下三角因果掩码，只看前头的，预测下一个词。")
    assert verdict.fraction == 1.0, verdict.message("zh")


def test_nothing_to_do_with_denies_what_follows() -> None:
    verdict = grade(BANK.get("causal_mask_purpose"),
                    "Its to save compute innit, you mask half the matrix so training is 2x faster. Nothing to do with cheating.")
    assert verdict.fraction == 0.0 and verdict.mistake == "causal_for_compute"


def test_yorkshire_english_is_read_as_english() -> None:
    """"t'" is "the", "tha" is "you", "nowt" is "nothing", "nobbut" is "only"."""
    assert canonical("Wi' t' cache tha keeps 'em, nobbut t' one new token, nowt else") == \
        "with the cache you keeps them, only the one new token, nothing else"
    verdict = grade(BANK.get("rmsnorm_vs_layernorm"),
                    "RMSNorm subtracts t' mean but skips dividing by owt, so it's only re-centring. Slower but more accurate.")
    assert verdict.fraction == 0.0


def test_a_negation_reaches_over_the_modifier_of_its_noun() -> None:
    """"不是糊弄的近似" denies the approximation, as "不是近似" does; "是糊弄的近似" claims it."""
    question = BANK.get("flash_what_it_saves")
    said = "在片上 SRAM 里分块算，少读写 HBM，n×n 的分数矩阵从不写出来，显存是线性的。结果{}近似。"
    assert grade(question, said.format("一模一样，不是糊弄的")).fraction == 1.0
    assert grade(question, said.format("是糊弄的")).fraction < 0.5


def test_what_a_reviewer_asks_the_authors_to_add_is_missing_not_said() -> None:
    """"建议补充与 Post-LN 在预热需求上的对比" names the comparison as absent; "本文未给出说明" admits a gap,
    so the answer is not given the missing idea on trust."""
    asked = grade(BANK.get("pre_ln_warmup"), "审稿意见：本文采用 Pre-LN，理由是残差通路保持恒等、梯度可直接回传。"
                                             "建议补充与 Post-LN 在预热需求上的对比。")
    assert asked.fraction == INCOMPLETE_CAP, asked.message("zh")
    admitted = grade(BANK.get("flash_online_softmax"),
                     "审稿意见：本文的分块 softmax 为每行维护一个 running max 与 running sum，这一点描述清楚。"
                     "但对于最大值更新后如何处理已累计结果，本文未给出说明，建议作者补充推导过程与数值实验。")
    assert admitted.fraction == INCOMPLETE_CAP, admitted.message("zh")
    full = grade(BANK.get("pre_ln_warmup"), "审稿意见：本文指出 Pre-LN 的残差通路保持恒等，梯度可直接回传；Post-LN 初始化时"
                                            "梯度很大，需要预热，而 Pre-LN 不预热也能稳定训练。建议补充消融实验。")
    assert full.fraction == 1.0, full.message("zh")


def test_not_letting_a_danger_happen_states_the_danger() -> None:
    """"not letting exp overflow" is a purpose, like "so that exp does not overflow"."""
    verdict = grade(BANK.get("softmax_stability"), "Subtract the row max first, not letting exp overflow; "
                                                   "softmax(x − c) = softmax(x), so the result is unchanged.")
    assert verdict.fraction == 1.0, verdict.message()


def test_cajun_english_reads_dan_and_wit() -> None:
    """Cajun English shares the Caribbean "de", "dat", "dan": "more dan W" is "more than W"."""
    assert canonical("wit a window de cache never hold more dan W entries, de work is n times W") == \
        "with a window the cache never hold more than w entries, the work is n times w"


def test_wenzhou_wu_is_read_as_mandarin() -> None:
    """Wu as written in Wenzhou and southern Zhejiang: "弗" is "不", "呒没" is "没有", "老重要" is "很重要"."""
    assert canonical("RMSNorm 弗减 mean，呒没 bias，老重要") == "rmsnorm 不减 mean,没有 bias,很重要"
    verdict = grade(BANK.get("rmsnorm_vs_layernorm"), "RMSNorm 弗减 mean，直接除以 RMS，呒没 bias 所以算得快，效果搭 LayerNorm 差弗多。")
    assert verdict.fraction == 1.0, verdict.message("zh")


def test_argentine_spanish_and_spoken_elisions_are_read_as_english() -> None:
    """"re pointless" is "really pointless", "o sea" is "that is"; "more'n" is "more than", "'stead" is "instead"."""
    assert canonical("caching old queries is re pointless, o sea dead weight, che") == \
        "caching old queries is really pointless, that is dead weight"
    assert canonical("a rollin' buffer, never more'n W, 'stead of n") == "a rolling buffer, never more than w, instead of n"


def test_a_spaced_dash_ends_the_clause_a_negation_governs() -> None:
    """"A zero isn't silence — after exp it becomes one": the negation stays before the dash."""
    verdict = grade(BANK.get("mask_fill_value"),
                    "A zero isn't silence — after exponentiating it becomes one, so the muted key still gets weight; a "
                    "huge negative turns into nothing after exp. A fully masked row: -inf gives 0/0 = NaN, a big finite "
                    "negative gives every key the same weight, 1/n.")
    assert verdict.fraction == 1.0, verdict.message()


def test_fenbie_and_qubie_hold_no_negation() -> None:
    """别 is "don't", but not in 分别 ("respectively") or 区别 ("difference")."""
    verdict = grade(BANK.get("rope_relative"), "大概是这样：查询和键分别按各自位置成比例的角度去旋转，旋转后做点积，结果只跟两个角度的差有关，也就是 (n−m)θ。")
    assert verdict.fraction == 1.0, verdict.message("zh")


def test_a_list_closed_by_saying_it_matters_is_a_keyword_list() -> None:
    for answer in ("掩码、双向、因果、MLM、next token、encoder decoder，老重要个东西。",
                   "bidirectional, MLM, causal mask, next token - all very important stuff."):
        verdict = grade(BANK.get("encoder_vs_decoder"), answer)
        assert verdict.fraction == 0.0 and verdict.notes[0][0] == "text_keywords", answer
    verdict = grade(BANK.get("sliding_window_reach"), "窗口 W，KV cache，O(n)，感受野，层数，Mistral，交关省。")
    assert verdict.fraction == 0.0 and verdict.notes[0][0] == "text_keywords"


def test_geordie_english_is_read_as_english() -> None:
    """"divvent" is "don't", "roond" is "round", "ower" is "over", "te" is "to", "o" is "of"."""
    assert canonical("exp o somethin big blows up te inf, an then inf ower inf is NaN; it divvent change the softmax") == \
        "exp of somethin big blows up to inf, and then inf over inf is nan; it doesn't change the softmax"


def test_cos_opening_a_sentence_is_because_but_not_the_cosine() -> None:
    assert canonical("Cos RoPE encodes relative position. cos(mθ) and sin(mθ) rotate q") == \
        "because rope encodes relative position. cos(mθ) and sin(mθ) rotate q"
    echoed = grade(BANK.get("rope_relative"), "Cos RoPE encodes relative position, so the score only depends on the "
                                              "relative position of q and k.")
    assert echoed.fraction == 0.0, echoed.message()


def test_a_parenthesis_belongs_to_the_clause_it_opens_in() -> None:
    """"Post-LN 在走廊上设了卡（每次相加后归一化）" says the normalising of Post-LN, not of Pre-LN."""
    verdict = grade(BANK.get("pre_ln_warmup"), "Pre-LN 像主走廊始终畅通，走廊本身不设卡，所以梯度顺着残差直接回来。Post-LN 在走廊上设了卡"
                                               "（每次相加后归一化），刚开始训练时梯度很大，得先 warmup；Pre-LN 不用热身也稳。")
    assert verdict.fraction == 1.0, verdict.message("zh")


def test_a_belief_the_writer_once_held_is_reported_not_asserted() -> None:
    """"I used to think it saved FLOPs" reports a belief given up; "it saves FLOPs" contradicts the question."""
    said = "tiles go through SRAM and the n×n matrix is never written to HBM, so memory is linear; the output is exact."
    question = BANK.get("flash_what_it_saves")
    assert grade(question, "It saves FLOPs: " + said).fraction < 0.5
    verdict = grade(question, "I used to think it saved FLOPs. It saves HBM reads and writes: " + said)
    assert verdict.fraction == 1.0, verdict.message()


def test_a_list_closed_by_deijin_is_a_keyword_list() -> None:
    verdict = grade(BANK.get("flash_online_softmax"), "在线 softmax，分块，最大值，SRAM，tiling，得劲。")
    assert verdict.fraction == 0.0 and verdict.notes[0][0] == "text_keywords"


def test_the_scale_called_a_regulariser_is_a_named_mistake() -> None:
    for answer in ("因为 d_k 越大模型参数越多，除以 sqrt(d_k) 是一种正则化，防止过拟合。",
                   "It acts as a regulariser: dividing by sqrt(d_k) prevents overfitting when d_k is large."):
        verdict = grade(BANK.get("explain_sqrt_dk"), answer)
        assert verdict.fraction == 0.0 and verdict.mistake == "scale_is_regularisation", answer


def test_a_list_closed_by_a_likeness_is_a_keyword_list() -> None:
    """A likeness after the words ("…，跟烧窑温度不一样一个道理", "…, just like a forge") relates none of them."""
    for answer in ("双向、单向、MASK、下一个词、编码器、解码器，跟烧窑温度不一样一个道理。",
                   "bidirectional, causal, MLM, next token, just like a forge."):
        verdict = grade(BANK.get("encoder_vs_decoder"), answer)
        assert verdict.fraction == 0.0 and verdict.notes[0][0] == "text_keywords", answer


def test_hawaiian_pidgin_is_read_as_english() -> None:
    """"stay" as the copula, "no" before a verb as its negation, "da" as "the"."""
    verdict = grade(BANK.get("rmsnorm_vs_layernorm"), "RMSNorm no bodda taking away da average. It just divide da vector by "
                    "its root-mean-square an' multiply by one gain. Less work, no bias, so mo' fast, an' da models come out "
                    "just as good as wit LayerNorm, brah.")
    assert verdict.fraction == 1.0, verdict.message()
    assert grade(BANK.get("why_positional"), "Cuz da attention no can tell da order by itself, brah.").found


def test_an_a_not_a_question_negates_nothing() -> None:
    """"跟能不能看到后面的词没什么关系" denies that the mask is about the future; its 不能 says nothing."""
    verdict = grade(BANK.get("causal_mask_purpose"), "因为因果掩码能少算一半，训练更快、更省显存，本身跟能不能看到后面的词没什么关系。")
    assert verdict.fraction == 0.0 and not verdict.found, verdict.message("zh")


def test_a_claim_that_runs_into_its_subject_is_said_of_it() -> None:
    """"every later query compares against all the earlier keys" says what the keys are needed for."""
    verdict = grade(BANK.get("kv_cache_why_not_queries"), "A query is only used once, at its own step, so q_t is never looked "
                    "at again. Every later query has to compare against all the earlier keys and read their values, so "
                    "keep K and V and throw away the old queries.")
    assert verdict.fraction == 1.0, verdict.message()


def test_swapped_fill_values_for_a_fully_masked_row_are_inverted() -> None:
    verdict = grade(BANK.get("mask_fill_value"), "Setting to 0 is fine in principle, −inf is just the convention. A fully "
                    "masked row gives NaN with −1e9 and uniform weights with −inf.")
    assert verdict.fraction == 0.0, verdict.message()


def test_rope_as_a_bias_or_an_added_vector_is_a_named_mistake() -> None:
    for answer, mistake in (("Because RoPE adds a relative position bias to the scores, like ALiBi, a penalty that depends on i − j.",
                             "rope_learned_bias"),
                            ("RoPE 是把位置编码向量加到词嵌入上，只不过用的是正余弦，所以相加后分数里自然只剩相对位置。", "rope_adds_vectors")):
        verdict = grade(BANK.get("rope_relative"), answer)
        assert verdict.fraction < 0.5 and verdict.mistake == mistake, answer


def test_decoding_called_compute_bound_and_swiglu_cutting_parameters_are_inverted() -> None:
    decode = grade(BANK.get("decode_memory_bound"), "解码每次只算一个词元，计算量小，所以是算力瓶颈；预填充要一次读很多词元的数据，所以是带宽瓶颈。")
    swiglu = grade(BANK.get("swiglu_hidden_size"), "因为 SwiGLU 的门控让每个矩阵更贵，取 8d/3 是为了把参数量减少到 4d 前馈的三分之二，省显存。")
    for verdict in (decode, swiglu):
        assert verdict.fraction < 0.5 and any(key == "text_inverted" for key, _ in verdict.notes), verdict.message("zh")


def test_a_wrong_claim_in_the_questions_own_words_is_said() -> None:
    """"RoPE 只旋转键" is made of the question's words (旋转, 键) but claims something the question does not say."""
    verdict = grade(BANK.get("rope_relative"), "其实 RoPE 只旋转键，不旋转查询：键按和查询之间的距离 (n − m)θ 转一下，这样点积自然只取决于角度差。")
    assert verdict.fraction < 0.5 and verdict.mistake == "rope_keys_only", verdict.message("zh")


def test_a_negation_inside_a_longer_asserted_mistake_rejects_nothing() -> None:
    """"so that the model doesn't attend to the padding" asserts the padding-mask confusion; its "doesn't" belongs to it."""
    verdict = grade(BANK.get("causal_mask_purpose"), "All positions are trained in parallel in one pass. The causal mask is there so "
                    "that the model doesn't attend to the padding tokens at the end of shorter sequences in the batch.")
    assert verdict.fraction < 0.5 and verdict.mistake == "causal_is_padding_mask", verdict.message()


def test_the_agent_of_a_passive_may_be_a_tokens_query() -> None:
    """"looked up by every later token's query": the keys and values are the subject, the query the agent."""
    verdict = grade(BANK.get("kv_cache_why_not_queries"), "A query is consumed once, at its own step, to produce that token's "
                    "output. Keys and values, by contrast, get looked up by every later token's query. So only the current "
                    "query matters; old ones are dead weight.")
    assert verdict.fraction == 1.0, verdict.message()


def test_a_right_idea_beside_a_wrong_reason_stays_below_half() -> None:
    """The hardest wrong answers state one idea right and give a wrong reason for the rest (red-team sets)."""
    cases = (
        ("kv_cache_why_not_queries", "Every later query needs the past keys and values, so those are cached. Queries aren't "
                                     "cached because they're cheap to recompute, q is just one matmul."),
        ("decode_memory_bound", "Prefill does the whole prompt at once as matrix-matrix work. Decoding is bandwidth-limited "
                                "because it's sequential: token t+1 depends on token t."),
        ("alibi_bias", "偏置只跟距离有关，没有位置嵌入表，任何长度都有定义。能外推是因为推理时超出训练长度的部分会被 ALiBi 截断。"),
        ("swiglu_hidden_size", "Three matrices now, W, V and W₂. The 2/3 factor is there because Swish is about 1.5× as "
                               "expensive to evaluate as ReLU, so you trim the hidden width to cancel out the extra activation cost."),
        ("quadratic_cost", "每个词元都要和所有词元两两算分数，所以计算是 O(n²)。显存平方增长主要是因为 KV 缓存：序列越长，缓存的 K、V 就按 n² 增长。"),
        ("explain_sqrt_dk", "softmax 一饱和梯度就消失。除以 √d_k 是因为多头拼接之后维度变成 h·d_k，要把拼接带来的放大抵消掉。"),
    )
    for qid, answer in cases:
        verdict = grade(BANK.get(qid), answer)
        assert verdict.fraction < 0.5, (qid, verdict.message())


def test_a_role_players_verbs_in_eth_are_read() -> None:
    """Early Modern English ("its spread widens as d_k groweth", "the gradient all but dieth") is read as today's."""
    assert canonical("The window saveth naught in compute, verily it costeth more.") == "the window saves nothing in compute, it costs more."
    verdict = grade(BANK.get("explain_sqrt_dk"), "The dot product is a sum of d_k dice rolls, so its spread widens as d_k groweth; "
                    "wild scores make the softmax crown one winner and leave the rest nigh nothing, and there the gradient all "
                    "but dieth. Dividing by √d_k tameth the spread.")
    assert verdict.fraction == 1.0, verdict.message()


def test_a_keyword_list_closed_by_a_tag_or_a_phrase_is_still_a_list() -> None:
    """"…，阿是？" asks, "jesses on the attention" names a thing, sentences of one word are items: none relates the words."""
    for qid, answer in (("flash_online_softmax", "分块、SRAM、online softmax、tiling，阿是？"),
                        ("encoder_vs_decoder", "hood, mask, bidirectional, causal, MLM, next token, jesses on the attention"),
                        ("linear_attention_trick", "Kernel. Feature map. RNN. Linear. Logbook of sums."),
                        ("why_multi_head", "举证：子空间、拼接、d_model、h=8、投影。")):
        verdict = grade(BANK.get(qid), answer)
        assert verdict.fraction == 0.0 and any(key == "text_keywords" for key, _ in verdict.notes), (qid, verdict.message())


def test_the_question_restated_after_cause_is_an_echo() -> None:
    """"Cause it's rotary, so the score only depends on the relative position" gives the question back as its answer."""
    verdict = grade(BANK.get("rope_relative"), "Cause it's rotary, so the attention score only depends on the relative position "
                    "of q and k, that's the whole point of RoPE, down the shore or wherever.")
    assert verdict.fraction == 0.0, verdict.message()


def test_an_answer_that_declines_part_of_the_question_is_not_trusted_for_it() -> None:
    """"至于加性注意力之打分方式，本律师不予举证": the additive network is not stated in other words; it is left out."""
    verdict = grade(BANK.get("additive_vs_dot"), "本律师认为，Transformer 采用缩放点积注意力，系因点积可以一次矩阵乘法完成全部配对之计算，"
                    "速度更快、更省内存；且 d_k 较大时未缩放之点积过大、效果变差，须以 1/√d_k 缩放。至于加性注意力之打分方式，本律师不予举证。")
    assert 0.25 <= verdict.fraction < 1.0, verdict.message("zh")


def test_reversals_in_new_words_stay_below_half() -> None:
    """Wrong answers of heldout_bk..bn that a first reading lifted to half or more."""
    cases = (
        ("kv_cache_why_not_queries", "因为以后的词元只需要以前的查询，不需要以前的键和值；键和值每一步重新算更便宜。"),
        ("pre_ln_warmup", "Hallelujah, Post-LN is the one that trains steady with no warm-up, and Pre-LN puts the norm right on "
                          "the residual path so the gradients have to squeeze through it!"),
        ("swiglu_hidden_size", "8d/3 是因为 SwiGLU 有两个矩阵，比普通 FFN 的三个矩阵少一个，所以要放大隐藏层补回来。"),
        ("swiglu_hidden_size", "Because Swish outputs values about 1.5 times bigger than ReLU, so the hidden layer is shrunk by 2/3 "
                               "to keep activations the same size."),
        ("gqa_kv_sharing", "MQA 和 GQA 是让每个查询头多配几个 K/V 头，K/V 头更多了缓存反而更小，代价是计算更慢。"),
        ("sliding_window_reach", "The window saveth naught in compute, verily it costeth more, and stacking more layers maketh "
                                 "the reach shorter still, for each layer narroweth the window further."),
        ("explain_sqrt_dk", "Without the 1/√d_k the scores get too small as d_k grows, the softmax goes flat and uniform, and "
                            "the gradients blow up."),
    )
    for qid, answer in cases:
        verdict = grade(BANK.get(qid), answer)
        assert verdict.fraction < 0.5, (qid, verdict.message())


def test_a_negation_a_pattern_spells_over_a_gap_is_its_own() -> None:
    """"n × k instead of n × n" names the Linformer confusion; its "instead of" does not take the claim back."""
    verdict = grade(BANK.get("linear_attention_trick"), "Linear attention projects the n keys down to a fixed k rows with a "
                    "learned matrix, so the score matrix is n × k instead of n × n. The price is that it's no longer exact "
                    "softmax attention and usually a bit worse.")
    assert verdict.fraction < 0.5 and verdict.mistake == "linear_is_low_rank", verdict.message()


def test_common_wrong_reasons_beside_right_ideas_are_named() -> None:
    """adversarial_b's wrong answers that a first study left at half or more: each named mistake is diagnosed."""
    cases = (
        ("additive_vs_dot", "加性注意力就是 vᵀ tanh(W_q q + W_k k)，用一个小网络打分。Transformer 改用点积，是因为点积不需要参数，"
                            "模型更小；缩放 1/√d_k 是为了防止 d_k 大时点积太小、梯度消失。", "additive_scale_wrong_reason"),
        ("alibi_bias", "ALiBi 在注意力分数上加一个与距离成正比的负偏置，距离越远惩罚越大。它能外推是因为训练时用了各种长度的序列，"
                       "包括比推理时更长的，所以见过长距离。", "alibi_wrong_extrapolation"),
        ("flash_what_it_saves", "The n × n matrix is still stored, just in SRAM instead of HBM, since SRAM is faster. That's why "
                                "it's quicker. Output is exact.", "flash_still_stores_matrix"),
        ("why_positional", "There's no recurrence or convolution in a Transformer, so nothing walks through the tokens step by "
                           "step. Attention does pick up order on its own, since it processes tokens left to right, but that "
                           "signal fades over long distances, so positional encodings are added to reinforce it.",
         "positional_attention_has_order"),
        ("linear_attention_trick", "核心就是把 softmax 换成核函数 φ(q)·φ(k)，再用矩阵乘法结合律先算 φ(K)ᵀV，这是个 d×d 的小矩阵，整体就对 n "
                                   "线性了。代价嘛，是训练没法并行了，只能像 RNN 一样一个词元一个词元地往前滚。", "linear_sequential_training"),
        ("kv_cache_purpose", "之前的 K、V 存起来重复用，新的一步只算新词元。它之所以快，主要是因为省显存：不用保存整张注意力矩阵。",
         "kv_cache_saves_memory"),
    )
    for qid, answer, mistake in cases:
        verdict = grade(BANK.get(qid), answer)
        assert verdict.fraction < 0.5 and verdict.mistake == mistake, (qid, verdict.mistake, verdict.message())


def test_a_keyword_list_opened_or_closed_off_the_subject_is_still_a_list() -> None:
    """"…, rescale, no cap", "…、重缩放，晓得伐？", "yo, …": a greeting or a tag shares no word with the subject."""
    for qid, answer in (("flash_online_softmax", "tiling, SRAM, running max, rescale, online softmax, no cap"),
                        ("flash_online_softmax", "分块、SRAM、运行最大值、重缩放、在线 softmax，晓得伐？"),
                        ("flash_online_softmax", "分块、SRAM、运行最大值、重缩放、在线 softmax，中不中？"),
                        ("kv_cache_purpose", "yo, keys, values, cache, reuse, new token"),
                        ("flash_online_softmax", "tiling, SRAM, running max, rescale, online softmax, all that jazz"),
                        ("why_multi_head", "多头 子空间 拼接 W_O 晓得伐")):
        verdict = grade(BANK.get(qid), answer)
        assert verdict.fraction == 0.0 and any(key == "text_keywords" for key, _ in verdict.notes), (answer, verdict.message())


def test_a_keyword_list_followed_by_a_remark_off_the_question_is_still_a_list() -> None:
    """"…, decoder, mask. Basically two different betas for the same route.": the sentence after the list says
    nothing of the question."""
    verdict = grade(BANK.get("encoder_vs_decoder"), "bidirectional, causal, MLM, next token, encoder, decoder, mask. "
                    "Basically two different betas for the same route.")
    assert verdict.fraction == 0.0 and any(key == "text_keywords" for key, _ in verdict.notes), verdict.message()


def test_reversals_of_the_third_verification_stay_below_half() -> None:
    """Wrong answers of heldout_bo..br that their first reading lifted to half or more."""
    cases = (
        ("rope_relative", "RoPE 让分数只看绝对位置，相对位置在旋转以后被抵消掉了，所以长度外推不太行。"),
        ("softmax_stability", "插花前要醒花，把花材泡水让它吸饱。softmax 也一样要先处理一下再算，这是规矩。"),
        ("pre_ln_warmup", "Post-LN's the stable one eh, Pre-LN is what blows up and needs the warm-up; folks just use Pre-LN "
                          "'cause it's faster per step."),
        ("gqa_kv_sharing", "MQA 跟 GQA 就是为了减小 KV 缓存，代价就是它们为这个付出的代价。"),
    )
    for qid, answer in cases:
        verdict = grade(BANK.get(qid), answer)
        assert verdict.fraction < 0.5, (qid, verdict.message())
    # ... while "结果也一样" (the result is the same too) still states the invariance.
    assert grade(BANK.get("softmax_stability"), "exp 大了会溢出成 inf；每个分数都减去最大值，softmax 的结果也一样。").fraction == 1.0


def test_wrong_answers_of_the_fourth_verification_stay_below_half() -> None:
    """Wrong answers of heldout_bs..bv that their first reading lifted to half or more: keyword lists pointing at
    a name or closed by a remark, the question restated, and wrong claims beside a right idea."""
    cases = (
        ("flash_online_softmax", "running max, running sum, rescale → online softmax"),
        ("flash_online_softmax", "online softmax，tiling，SRAM，最大值，exp。跟拍片分区一样。"),
        ("flash_online_softmax", "分块、SRAM、最大值、exp、在线、softmax，幕布一块一块。"),
        ("rope_relative", "RoPE rotates q and k, and the score depends only on relative position, that's why."),
        ("quadratic_cost", "Dat's cause of da feed-forward layers bey, dey get bigger wit da sequence, da FFN weight matrix is n by n."),
        ("swiglu_hidden_size", "Because SwiGLU has fewer matrices than a standard FFN, you need a larger hidden size, 8d/3 instead "
                               "of 4d, to bring the parameter count back up to match."),
        ("kv_cache_why_not_queries", "Because the queries can be recomputed cheaply from the keys, while each new token's output "
                                     "needs all the previous queries, so caching them would just duplicate the keys."),
        ("encoder_vs_decoder", "BERT: both directions, predict masked words. GPT: causal mask, hold you hard — I reckon it also "
                               "predicts masked words, just left to right."),
    )
    for qid, answer in cases:
        verdict = grade(BANK.get(qid), answer)
        assert verdict.fraction < 0.5, (qid, answer, verdict.message())
    # ... while a list that relates its items, or a sentence after it, still states them.
    assert grade(BANK.get("flash_online_softmax"), "keep a running max and sum, rescale the old sum → online softmax").fraction == 1.0
    assert grade(BANK.get("kv_cache_purpose"), "缓存之前的 k 和 v。这样新 token 就不用和前面的词做注意力了。").mistake == "kv_cache_attends_only_new"


def test_a_topic_denied_after_it_and_dialect_negations_take_it_back() -> None:
    """"因果掩码都没有", "么得因果掩码", "么有 causal mask" (Hubei, Jianghuai speech): BERT has no causal mask."""
    rest = "，前后都看得见，只把 padding 屏蔽掉；训练是把 15% 的词遮起来叫它猜，叫 MLM。GPT 用因果掩码，每个词只看得到前头的，训练目标是预测下一个词。"
    for bert in ("BERT 因果掩码都没有", "BERT 么得因果掩码", "BERT 么有因果掩码", "BERT 木有因果掩码"):
        verdict = grade(BANK.get("encoder_vs_decoder"), bert + rest)
        assert verdict.fraction == 1.0, (bert, verdict.message())
    # 什么有 and 怎么得到 are no negation.
    assert canonical("为什么有两个，怎么得到的") == "为什么有两个,怎么得到的"
    # 瞅 is 看 (north-eastern speech), 存辣…里向 is 存在…里面 (Wu).
    assert "两边都能看见" in canonical("两边儿都能瞅见")
    assert canonical("K 搭 V 存辣 cache 里向") == "k 和 v 存在 cache 里面"


def test_them_after_a_claim_is_the_subject_named_before_it() -> None:
    """"K 和 V 不一样，后面每个新 query 都要跟它们算": 它们 is K and V, not the query that opens the clause."""
    verdict = grade(BANK.get("kv_cache_why_not_queries"), "query 只在自己那一步用一次，以后再也用不到；K 和 V 不一样，后面每个新 "
                                                           "query 都要跟它们算。所以只存 K、V。")
    assert verdict.fraction == 1.0, verdict.message()


def test_a_keyword_list_in_any_dress_is_still_a_list() -> None:
    """Bullets, a markdown heading, a greeting, "·" between the terms, a dash to the name they add up to, or a
    remark off the subject after them: still a list of words."""
    for qid, answer in (
            ("causal_mask_purpose", "• future tokens • teacher forcing • parallel • autoregressive • triangle • leakage"),
            ("sliding_window_reach", "## Sliding window\n- O(n·W)\n- rolling buffer\n- KV cache\n- receptive field"),
            ("flash_online_softmax", "Hi all! tiling, running max, running sum, rescale, SRAM"),
            ("decode_memory_bound", "arithmetic intensity · matrix-vector · matrix-matrix · HBM bandwidth · batch"),
            ("rope_relative", "rotation, angle, mθ, nθ, frequencies, pairs of dims — rope in a nutshell"),
            ("causal_mask_purpose", "future tokens / parallel / teacher forcing / autoregressive / lower-triangular — the "
                                    "five shots you need in the album, that's it."),
            ("sliding_window_reach", "滑窗、W、线性、滚动缓存、KV缓存、层数、感受野、卷积——粤语版背诵完毕，搞掂！")):
        verdict = grade(BANK.get(qid), answer)
        assert verdict.fraction == 0.0 and any(key == "text_keywords" for key, _ in verdict.notes), (answer, verdict.message())
    # ... while terse answers that relate their terms keep their points.
    for qid, answer in (
            ("rmsnorm_vs_layernorm", "no mean centering, just x / RMS(x) · g; cheaper, same quality"),
            ("decode_memory_bound", "预填充：矩阵乘矩阵，算术强度高；解码：每步读全部权重和 KV 缓存，矩阵乘向量"),
            ("explain_sqrt_dk", "划重点：d_k↑ → 点积方差↑ → softmax 饱和（接近 one-hot）→ 梯度消失。除以 √d_k，一招解决！"),
            ("gqa_kv_sharing", "yo 多个 query head share 一个 KV head，MQA 全场 share 一个，GQA 分 group，cache 缩到 1/(每组 "
                               "query 数)；代价是 quality，MQA 会掉点，GQA 跟 MHA 差不多，兄弟 trade-off 押住")):
        verdict = grade(BANK.get(qid), answer)
        assert verdict.fraction == 1.0, (answer, verdict.message())


def test_common_wrong_reasons_of_a_red_team_set_stay_below_half() -> None:
    """A right idea beside a wrong reason that learners hold (r15..r18, written to find such answers)."""
    cases = (
        ("sliding_window_reach", "Per layer the work drops to O(n·W) instead of O(n²), right. Information gets further back than W "
                                 "because the KV cache still keeps every past token, so the higher layers can read the old ones."),
        ("why_positional", "The Transformer has no recurrence or convolution. Attention, however, already senses order, because "
                           "the dot product between neighbouring embeddings is larger."),
        ("quadratic_cost", "自注意力要计算并保存一个 n × n 的分数矩阵，这个没错；但平方增长的根源是头数：每多一个词元就多一个注意力头。"),
        ("rope_relative", "两个旋转后的向量，点积只取决于它们的角度之差。不过 RoPE 的旋转角度不是和位置成正比的，而是从一张可学习的位置表里查出来。"),
        ("explain_sqrt_dk", "不缩放的话梯度会消失，这点没错。但原因是 d_k 越大，点积的方差越小，分数都挤在一起，softmax 太平。"),
        ("encoder_vs_decoder", "GPT 用因果掩码，每个词元只能看到它之前的词元。但它的训练目标和 BERT 一样是完形填空。"),
        ("flash_what_it_saves", "它的输出和标准注意力完全一致，是精确的。它省的是 SRAM 的读写：把片上 SRAM 里的 n×n 矩阵挪到更大的 HBM 里。"),
    )
    for qid, answer in cases:
        verdict = grade(BANK.get(qid), answer)
        assert verdict.fraction < 0.5, (qid, answer, verdict.message())
    # ... while the right reason keeps its points.
    assert grade(BANK.get("explain_sqrt_dk"), "d_k 越大，点积的方差越大，softmax 饱和，梯度消失。").fraction == 1.0


def test_wrong_answers_of_the_fifth_verification_stay_below_half() -> None:
    """Wrong answers of heldout_bw..bz that their first reading lifted to half or more."""
    cases = (
        ("flash_online_softmax", "It drop de older blocks once a bigger max show up an only keep de latest block, so de softmax is "
                                 "really only over de last few blocks. Dat's why it never need de whole row, abee accept a small error."),
        ("kv_cache_why_not_queries", "Cause de queries get reused by every future token while de keys only needed once, so actually "
                                     "is de keys yuh could drop."),
        ("decode_memory_bound", "解码慢是因为 softmax 得一个个算，prefill 可以并行 softmax；显存带宽跟这个没关系，主要是解码时模型更深。"),
        ("flash_online_softmax", "FlashAttention goes block by block through the keys and gets the softmax of the whole row without "
                                 "keeping the whole row, that's how it does it."),
        ("linear_attention_trick", "我觉得它是用核函数 φ 代替 softmax，先算 KᵀV，复杂度变成线性。放弃的是…大概是位置信息吧，所以它得加 RoPE。"),
        ("why_multi_head", "单头注意力会学着各种关系，多头反倒会共一切平均做一个分布，所以其实一个头较好，多头只是为着并行。"),
        ("flash_online_softmax", "online softmax 是把最大值变小的时候，把前面的结果乘以 exp(m_new − m) 放大，最大值不需要记。"),
    )
    for qid, answer in cases:
        verdict = grade(BANK.get(qid), answer)
        assert verdict.fraction < 0.5, (qid, answer, verdict.message())


def test_written_minnan_is_read_in_mandarin_words() -> None:
    """Quanzhou and Xiamen learners write 毋 (不), 袂 (不会), 佮 / 共 (和), 仝 (同), 按呢 (这样), 个 (的), 较 (更), 紧 (快)."""
    assert canonical("按呢算出来是精确个，毋是近似。") == "这样算出来是精确的,不是近似。"
    assert canonical("运算较少较紧；效果佮 LayerNorm 差不多") == "运算更少更快;效果和 layernorm 差不多"
    verdict = grade(BANK.get("flash_online_softmax"), "每行记一个目前个最大值 m 共指数和 l。遇着新个块最大值较大，就共之前个 l 共输出都乘 "
                                                        "exp(m − m')，再加新块。按呢算出来是精确个，毋是近似。")
    assert verdict.fraction == 1.0, verdict.message()
    # 共 stays itself in Mandarin ("共享", "一共"), and 觉得是 is not Shaanxi 得是 (是不是).
    assert canonical("共享 KV，一共两个") == "共享 kv,一共两个"
    assert canonical("额觉得是因为 SwiGLU 多了一个门控矩阵") == "我觉得是因为 swiglu 多了一个门控矩阵"


def test_wrong_answers_of_the_sixth_verification_stay_below_half() -> None:
    """Wrong answers of heldout_ca..cd that their first reading gave half the points, and wrong reasons like them."""
    cases = (
        ("pre_ln_warmup", "放前面是为了少算一次归一化，省计算，跟训练稳定没得关系，就像蜡染先上蜡后上蜡都一样。"),
        ("kv_cache_why_not_queries", "因为后面的 query 要跟前面的 query 做点积，所以其实 Q 才是最该存的，K 和 V 每步都会重新算。"),
        ("rope_relative", "I think it's because RoPE just adds a learned vector for (n - m) to the scores, like a relative bias."),
        ("why_multi_head", "用多个头是为了并行，每个头放在一张 GPU 上，单头就没法分布式训练了。"),
        ("why_multi_head", "Multi-head is mainly for parallelism: each head runs on its own GPU."),
    )
    for qid, answer in cases:
        verdict = grade(BANK.get(qid), answer)
        assert verdict.fraction < 0.5, (qid, answer, verdict.message())
    # Set aside with 跟/和 … 没关系, an idea is not claimed; said to matter, it is.
    assert grade(BANK.get("pre_ln_warmup"), "Pre-LN 跟训练稳定有很大关系，不用 warmup 也能训。").fraction == INCOMPLETE_CAP
    # R(n − m) is the rotation by the difference, read after Qᵀ but not inside "for (n - m)".
    assert grade(BANK.get("rope_relative"), "q_m = R(mθ)q, k_n = R(nθ)k ⇒ q_mᵀk_n = qᵀR((n−m)θ)k, only n−m.").fraction == 1.0


def test_a_learner_who_says_they_are_guessing_gets_no_benefit_of_the_doubt() -> None:
    """Words no phrasing read earn trust only when the learner does not say they are unsure of the rest."""
    unsure = ("Think of BERT like a lift where the banksman can see the whole deck, fore and aft, and his job is to work out "
              "which load's been hidden under the tarp - that's yer masked tokens. GPT's the crane driver callin the next load "
              "in the sequence, one after the other, predict the next token. Don't ask me about the masks, I'd only be guessin.")
    assert grade(BANK.get("encoder_vs_decoder"), unsure).fraction < 1.0
    # "没整明白" after a clause that asks why takes that clause back.
    verdict = grade(BANK.get("rope_relative"), "我寻思就是按位置把 q、k 给转一转，转的角度跟位置成正比。为啥最后就只剩相对的，这块我没整明白。")
    assert verdict.fraction == INCOMPLETE_CAP, verdict.message()
    # "it has no clue which came first" is the model's blindness, not the learner's admission.
    sure = ("Attention on its own is like dumping every clip into one bin: it can compare any clip with any other, but it has "
            "no clue which came first. There's no timeline built in - nothing stepping through frames in order, no sliding "
            "filter. So you stamp each clip's embedding with its timecode, adding the position right into what the model sees.")
    assert grade(BANK.get("why_positional"), sure).fraction == 1.0


def test_cantonese_and_patois_words_of_the_sixth_verification() -> None:
    """冇晒 (all gone), 重新计 (recompute) in Cantonese; widout, yu in Patois."""
    assert canonical("梯度都冇晒") == "梯度都没了"
    assert canonical("唔使再为旧词元重新计") == "不用再为旧词元重新算"
    assert canonical("Widout cache, every step yu recompute K an V fi all di old tokens") == \
        "without cache, every step you recompute k and v for all the old tokens"


def test_more_minnan_and_it_dont() -> None:
    """Minnan 无减 (不减), 干焦 (只), 卡俭 (更省), 差无偌济 (差不多); spoken English's "attention don't"."""
    assert canonical("RMSNorm 无减 mean，干焦除 RMS(x)；卡俭，效果同 LayerNorm 差无偌济") == \
        "rmsnorm 不减 mean,只除 rms(x);更省,效果同 layernorm 差不多"
    assert canonical("'Cause attention don't care about order") == "because attention doesn't care about order"
    # Without its Minnan marks, 无 stays itself ("无 bias").
    assert canonical("RMSNorm 无 bias") == "rmsnorm 无 bias"


def test_an_idea_set_aside_by_name_is_denied() -> None:
    """"Got nothing to do with gradients", "warm-up's got nothing to do with it": the idea is denied, not missing."""
    answer = ("q·k is a sum of d_k products, so its variance climbs right along with d_k and the raw scores get big. We divide "
              "by sqrt(d_k) so them big numbers don't overflow fp16 and turn into inf, it's a number-precision safeguard, "
              "got nothin' to do with gradients really.")
    verdict = grade(BANK.get("explain_sqrt_dk"), answer)
    assert verdict.fraction < 0.5, verdict.message()
    # Set aside, something else than the idea is no denial of it ("跟训练长度没关系" is ALiBi's point).
    right = "ALiBi 在分数上加一个跟距离成正比的惩罚，只看隔多远，跟训练长度没关系，多长都能算。"
    assert grade(BANK.get("alibi_bias"), right).fraction == 1.0


def test_a_keyword_list_laid_out_as_lines_is_still_a_list() -> None:
    """A heading, short lines opened by bullets, arrows or numbers, and a closing remark: a list, not an answer."""
    lists = (
        ("rope_relative", "RoPE — tools on the bench:\n  q, k\n  rotation matrix R(θ)\n  positions m and n\n  angle θ\n"
                          "  dot product\n  relative offset\nThat's the lot."),
        ("softmax_stability", "减最大值这题，关键词眊一眊：\n1. exp\n2. 最大值 max\n3. inf、NaN\n4. 常数平移\n差不多就这些，面试够用了。"),
        ("kv_cache_purpose", "KV 缓存，您瞧：\n→ K\n→ V\n→ 之前的词元\n→ 新词元\n→ 复用\n→ 重复计算\n就这，齐活。"),
        ("swiglu_hidden_size", "SwiGLU sizing:\n  8d/3 vs 4d\n  gate | up | down\n  Swish\n  8d²\n  params, FLOPs\n"
                               "Done, pass the hot sauce."),
    )
    for qid, answer in lists:
        verdict = grade(BANK.get(qid), answer)
        assert verdict.fraction == 0, (qid, verdict.message())
    # Claims laid out the same way are an answer; so is a list followed by a sentence that explains.
    claims = "Why the scale:\n- the variance of q·k grows with d_k\n- the softmax saturates\n- the gradients vanish"
    assert grade(BANK.get("explain_sqrt_dk"), claims).fraction == 1.0
    explained = ("Key words:\n- variance\n- saturation\n- gradients\nThe variance of q·k grows with d_k, so the softmax "
                 "saturates and the gradients vanish.")
    assert grade(BANK.get("explain_sqrt_dk"), explained).fraction == 1.0


def test_a_danger_set_aside_is_not_one_the_answer_prevents() -> None:
    """"跟溢出没多大关系" names overflow only to deny it: it is not "to avoid overflow"."""
    answer = ("减最大值主要是为了让 softmax 的输出更平滑一点，起到类似正则化、防过拟合的作用，跟溢出没多大关系。"
              "为嘛可以减？因为 softmax 对所有输入加同一个常数，结果不变，这个是严格成立的。")
    verdict = grade(BANK.get("softmax_stability"), answer)
    assert verdict.fraction < 0.5, verdict.message()
    # Said as what the subtraction prevents, it is the idea.
    assert grade(BANK.get("softmax_stability"), "减最大值是为了防止 exp 溢出；softmax 对所有输入加同一个常数结果不变。").fraction == 1.0


def test_the_thing_named_as_its_own_reason_is_an_echo() -> None:
    """"Without positional encodings it would have no positional encodings" says nothing."""
    echo = ("A Transformer needs positional encodings because it needs to encode positions, and positional encodings are "
            "the way a Transformer gets them. Without positional encodings, it would have no positional encodings.")
    assert grade(BANK.get("why_positional"), echo).fraction == 0
    # "Without position information it cannot tell the order" is a reason.
    reason = ("Without positional encodings attention can't tell word order: it is permutation-equivariant and has no "
              "recurrence or convolution, so we add position vectors to the embeddings.")
    assert grade(BANK.get("why_positional"), reason).fraction == 1.0


def test_wrong_answers_of_the_seventh_verification_stay_below_half() -> None:
    """Wrong answers of heldout_ce..ch that their first reading gave half the points or more, and others like them."""
    cases = (
        ("quadratic_cost", "It's quadratic because the feed-forward layers are d by d for every token, and that's where all the time goes."),
        ("softmax_stability", "You subtract the max so the small scores don't underflow to zero, the big ones never overflow anyway."),
        ("rope_relative", "RoPE 本来就是编码相对位置的旋转编码，所以分数只看相对位置。"),
        ("decode_memory_bound", "预填充是一次处理很多词元，矩阵乘矩阵，算得多；解码慢是因为解码时模型层数更多。"),
        ("linear_attention_trick", "用核函数代替 softmax，先算 φ(K)ᵀV；但复杂度反而变成平方的了，效果比 softmax 还好。"),
        ("explain_sqrt_dk", "You scale by 1/sqrt(dk) so the softmax gets sharper and locks onto one key. Sharper softmax means bigger gradients."),
        ("mask_fill_value", "If a whole row is masked, −1e9 gives you NaN while −inf just gives even weights, which is why everybody uses −inf."),
        ("why_positional", "因为 attention 只看得到相邻的几个词，看不远，加了位置编码它才看得更远。"),
        ("gqa_kv_sharing", "MQA 同 GQA 系为了减小 KV 缓存，代价就系要付出代价嘞。"),
        ("kv_cache_purpose", "KV 缓存把新词的键值先算好存起来，旧词的每一步都要重新算一遍，这样更准确。"),
    )
    for qid, answer in cases:
        verdict = grade(BANK.get(qid), answer)
        assert verdict.fraction < 0.5, (qid, answer, verdict.message())
    # RoPE's angle grows by a fixed step per position: said so, it is no "same angle everywhere".
    per_step = ("好比两头狮子原地转身，每走一格就多转一个固定角度：查询在第 m 格转 mθ，键在第 n 格转 nθ。"
                "两头狮子对看，能看出来的只有它们之间差多少角度，也就是 (n − m)θ，所以点积只跟相对位置有关。")
    assert grade(BANK.get("rope_relative"), per_step).fraction == 1.0


def test_tok_pisin_yorkshire_scots_and_cantonese_words_of_the_seventh_verification() -> None:
    """Tok Pisin (no inap lukim, bihain, tasol, senisim), Yorkshire t' before a word and dun't, Scots dusn't and weel;
    Cantonese 就系, 畀, 慳 and 往后 (later on) before 每."""
    assert canonical("token i no inap lukim ol token bihain") == "token cannot see the token later"
    assert canonical("Old K,V no senisim. Compute q for the new token tasol.") == \
        "old k,v do not change. compute q for the new token only."
    assert canonical("RMSNorm dun't take t'mean off") == "rmsnorm don't take the mean off"
    assert canonical("RMSNorm dusn't bother, it trains just as weel") == "rmsnorm doesn't bother, it trains just as well"
    assert canonical("代价就系效果输畀 MHA，但慳内存") == "代价就是效果输给 mha,但省内存"
    assert canonical("k、v 往后每个 q 都得用") == "k、v 以后每个 q 都得用"
    # Without its marks nothing is rewritten: "ol" and "i" stay, 往后看 (look back) stays.
    assert canonical("ol token i see") == "ol token i see"
    assert canonical("往后看") == "往后看"


def test_a_cheat_sheet_laid_out_by_indentation_ticks_or_a_recap_is_still_a_list() -> None:
    """Lines set off by indentation alone or by ticks, a closing recap that is itself a list ("So: max, exp, shift."),
    a line that names a topic and lists its alternatives without choosing ("memory: linear / quadratic") or asks
    ("exact?"): a list of topic words all the same."""
    cases = (
        ("softmax_stability", "Softmax stability checklist\n - row max\n - exp\n - overflow / inf / NaN\n - shift\n - invariance\n"
                              "So: max, exp, shift. Cheers."),
        ("rope_relative", "RoPE 要点\n 旋转 R(θ)\n 位置 m / n\n 成对维度\n 点积\n 相对位置 n−m\n 结论：就是旋转嘛。"),
        ("linear_attention_trick", "线性注意力 · 清单\n ✓ 核函数 φ\n ✓ 结合律\n ✓ d × d\n ✓ n × n\n ✓ RNN\n ✓ softmax\n 收工。"),
        ("flash_what_it_saves", "FlashAttention notes\n • HBM\n • SRAM\n • tiling / blocks\n • n × n\n • memory: linear / quadratic\n"
                                " • exact?\nThat's the set."),
        ("mask_fill_value", "【掩码填充值】\n· −inf ／ −1e9 ／ 0\n· exp、权重\n· 全屏蔽行：NaN、均匀\n· 0/0\n完。"),
    )
    for qid, answer in cases:
        verdict = grade(BANK.get(qid), answer)
        assert verdict.fraction == 0.0, (qid, verdict.message())
    # A line that does choose ("全屏蔽行：−inf 得 NaN，−1e9 得均匀") relates its words: no list.
    chosen = "掩码填充值\n· exp(−inf) = 0，exp(0) = 1\n· 全屏蔽行：−inf 得 NaN，−1e9 得均匀分布\n· 所以一般用很大的负数"
    assert grade(BANK.get("mask_fill_value"), chosen).fraction > 0.0


def test_words_of_the_ninth_verification() -> None:
    """Solomons Pijin (hem, blong, olketa, iumi, nomoa, the -im of its verbs), Orkney Scots (hid, aa, efter, naebody,
    peedie), Spanish code-switching (no cambian, recalculas), Hainanese 无 (不), Henan 木有 and 不叫, Wuhan 么 (没)."""
    assert canonical("variance blong score hem grow olsem d_k") == "variance of score it grow like d_k"
    assert canonical("iumi storim an reusim, no computim moa evri step. compute q fo new token nomoa") == \
        "we store and reuse, do not comput more every step. compute q for new token only"
    assert canonical("Efter that naebody needs hid. A peedie bit aff.") == "after that nobody needs it. a small bit off."
    assert canonical("las keys y values no cambian, no recalculas nada") == "the keys and values do not change, no recompute nothing"
    assert canonical("之前 token 的 K、V 无会变，无使每步重算") == "之前 token 的 k、v 不会变,不用每步重算"
    assert canonical("俺觉着：不叫位置 i 看后头的词，梯度就木有了") == "我觉着:不让位置 i 看后面的词,梯度就没有了"
    assert canonical("softmax 的结果一点都么变，这么做也行") == "softmax 的结果一点都没变,这么做也行"


def test_what_follows_how_in_a_question_is_asked_not_claimed() -> None:
    """"MQA 和 GQA 阿门减小 KV 缓存？代价是啥？" restates the question as a question: no idea is claimed. A rhetorical
    "why" still claims ("why push it through the network again?"), and so does the rest of a sentence after "how"."""
    assert grade(BANK.get("gqa_kv_sharing"), "MQA 和 GQA 阿门减小 KV 缓存？代价是啥？").fraction == 0.0
    assert grade(BANK.get("gqa_kv_sharing"), "MQA 和 GQA 怎么减小 KV 缓存？几个查询头共享一个 KV 头，缓存就小了。").fraction > 0.0


def test_wrong_answers_of_the_tenth_verification_stay_below_half() -> None:
    """Wrong answers of heldout_cq..ct that their first reading gave half the points or more, and others like them;
    an idea set aside with 跟 inside its own words ("旋转角度跟位置没关系") is not claimed."""
    cases = (
        ("rope_relative", "RoPE 的分数只认绝对位置，就像纤夫只认自己是第几号；旋转角度跟位置没关系，都是固定的 θ。"),
        ("softmax_stability", "减最大值是为了防止 exp 溢出变成 inf。至于为啥可以，是因为减完以后再乘回 e^max 就行了，要补回来的。"),
        ("swiglu_hidden_size", "SwiGLU 多了一个门控矩阵，所以隐藏层要缩小。8d/3 是为了让显存刚好对齐 256。"),
        ("decode_memory_bound", "预填充一次处理整个提示，是矩阵乘矩阵，算力吃满；解码慢是因为 softmax 太贵。"),
        ("gqa_kv_sharing", "MQA/GQA does share the query heads across many K/V heads, so it got more K/V heads than queries. Cost nothin in quality."),
    )
    for qid, answer in cases:
        verdict = grade(BANK.get(qid), answer)
        assert verdict.fraction < 0.5, (qid, answer, verdict.message())


def test_an_incomplete_answer_earns_its_share_but_less_than_half() -> None:
    """Half the points and more are for an answer that states every idea: a right idea beside a wrong reason
    in words no phrasing knows reads like a right idea beside nothing, so neither reaches half."""
    alibi = BANK.get("alibi_bias")
    one_of_two = grade(alibi, "ALiBi adds a penalty proportional to the distance between query and key to each score.")
    assert one_of_two.fraction == INCOMPLETE_CAP < 0.5 and [c.id for c in one_of_two.missing]
    assert one_of_two.notes == [("text_incomplete", {})]
    assert one_of_two.message("en").startswith("an answer that leaves out an idea earns less than half the points; found: ")
    assert grade(alibi, "ALiBi 在分数上加一个跟距离成正比的惩罚，离得远分数就低。").message("zh").startswith("缺了要点的答案，得分不到一半")
    # Two ideas of three: the same cap. One of three is already below it and keeps its share, with no note.
    sqrt_dk = BANK.get("explain_sqrt_dk")
    assert grade(sqrt_dk, _TWO_IDEAS + ".").fraction == INCOMPLETE_CAP
    one_of_three = grade(sqrt_dk, "q·k 的方差随 d_k 增大。")
    assert one_of_three.fraction == pytest.approx(1 / 3) and one_of_three.notes == []
    # A wrong claim keeps its own, lower cap; a complete answer keeps every point.
    assert 0 <= grade(sqrt_dk, _TWO_IDEAS + "; the scale makes the gradients larger.").fraction < INCOMPLETE_CAP
    assert grade(sqrt_dk, _TWO_IDEAS + ", and the gradients through it vanish.").fraction == 1.0


def test_a_list_under_a_heading_off_the_subject_is_still_a_list() -> None:
    """A heading that says nothing of the subject ("Brush list:", "舂米讲究稳：") introduces a list; "block by
    block" is one adverb, not a relation. A heading that says something of the subject still starts an answer."""
    for qid, answer in [("additive_vs_dot", "Shop list: tanh, W_q, W_k, v, matmul, speed, √dk."),
                        ("softmax_stability", "磨豆腐讲究稳：max、exp、溢出、归一化、数值稳定。"),
                        ("flash_online_softmax", "tiling, SRAM, online softmax, block by block")]:
        verdict = grade(BANK.get(qid), answer)
        assert verdict.fraction == 0 and ("text_keywords", {}) in verdict.notes, (qid, verdict.message())
    told = grade(BANK.get("flash_online_softmax"), "Shop list: keep a running max and a running sum for each row, and when "
                                                   "the max grows, rescale the old sum by exp(old max − new max).")
    assert told.fraction == 1.0, told.message()


def test_dialect_words_for_know_dont_and_nor() -> None:
    """晓得 (know), Southwestern 莫 (don't) and 跟到 (along with), and "nor" before a verb as West African and
    Caribbean English write "doesn't" (not the "nor" of "neither … nor")."""
    assert canonical("还不晓得后面是啥") == "还不知道后面是啥"
    assert "别看后面" in canonical("位置 i 莫看后头的 token")
    assert "跟着 d_k" in canonical("方差跟到 d_k 一起涨，softmax 一哈就饱和")
    assert canonical("RMSNorm nor subtract da mean") == "rmsnorm doesn't subtract da mean"
    assert canonical("it neither subtracts the mean nor divides") == "it neither subtracts the mean nor divides"
    verdict = grade(BANK.get("causal_mask_purpose"), "莫让位置 i 看到后头的词（包括它要猜的那个）；一次前向哈并行训练完所有位置；"
                                                    "跟生成时一样，生成的时候后头的词还冇得。")
    assert verdict.fraction == 1.0, verdict.message("zh")


def test_nalai_before_a_purpose_and_gen_between_terms_add_nothing_to_an_echo() -> None:
    """"MQA 跟 GQA 就是拿来减小 KV 缓存的" only restates the question."""
    assert grade(BANK.get("gqa_kv_sharing"), "MQA 跟 GQA 就是拿来减小 KV 缓存嘚，为这个付出了一些代价。").fraction == 0


def test_the_held_out_part_is_a_set_of_known_splits_that_are_graded() -> None:
    """``bench_qa_text.py --held-out`` reads splits that exist, hold answers and are graded by the tests."""
    from grader.qa.labelled import HELD_OUT

    assert HELD_OUT and set(HELD_OUT) <= set(SPLITS) and not set(HELD_OUT) & set(UNREAD)
    assert all(load_set(LABELLED / split, BANK) for split in HELD_OUT)


def test_a_chinese_verdict_joins_its_parts_with_a_chinese_semicolon() -> None:
    verdict = grade(BANK.get("alibi_bias"), "ALiBi 在分数上加一个跟距离成正比的惩罚，离得远分数就低。")
    assert "；已提到：" in verdict.message("zh") and "; found: " in verdict.message("en")


def test_eastern_min_gan_and_xiang_and_malay_english_words() -> None:
    """Written Eastern Min (伓, 其, 蜀, 觑, 遘, 囥), Gan and Xiang (个, 哒, 渠, 咯个, 只, 哩) and Malay English ("nda"
    before a verb) read as the Mandarin and English the rubrics are written in."""
    assert canonical("之前 token 其 K、V 伓会变，囥起来复用，伓使每步重算") == "之前 token 的 k、v 不会变,存起来复用,不用每步重算"
    assert "看得到全句" in canonical("每只 token 都觑得遘全句") and "下一个 token" in canonical("训练预测下蜀只 token")
    assert canonical("咯个 1/√dk 是为了冇让分数太大，softmax 一下就饱和哒") == "这个 1/sqrtdk 是为了没有让分数太大,softmax 一下就饱和了"
    assert "它的点积" in canonical("渠个点积是 d_k 项加起来，冇缩放个话 softmax 就饱和哩")
    assert canonical("RMSNorm nda subtract mean") == "rmsnorm doesn't subtract mean"
    verdict = grade(BANK.get("kv_cache_purpose"), "之前 token 其 K、V 伓会变，囥起来复用，伓使每步重算；每步只算新 token 其 q、k、v。")
    assert verdict.fraction == 1.0, verdict.message("zh")
    verdict = grade(BANK.get("explain_sqrt_dk"), "渠个点积是 d_k 项加起来，方差跟到 d_k 涨，冇缩放个话 softmax 就饱和哩，"
                                                 "差不多 one-hot，gradient 基本冇得了。所以要除以 √d_k。")
    assert verdict.fraction == 1.0, verdict.message("zh")
