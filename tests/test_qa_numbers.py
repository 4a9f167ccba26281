"""Every number of the qa bank, recomputed: each numeric and vector answer and each named wrong value.

The bank states answers; this file derives them again, independently of the bank's own arithmetic:
parameter counts by building the torch modules and counting ``numel()``, FLOPs with torch's
``FlopCounterMode``, softmaxes and masks with torch, sizes from ``element_size()``. A named wrong
answer must be what its mistake's arithmetic gives (the audit of issue 14: ``var_qk_scaled``'s 0.125
is the standard deviation of q·k/d_k, two slips, not "the standard deviation instead of the
variance"). A new numeric or vector question needs an entry here: the last test says which is missing.
"""

from __future__ import annotations

import math
from typing import Callable

import pytest
import torch
from torch import nn
from torch.utils.flop_counter import FlopCounterMode

from grader.bank import ProblemBank
from grader.engine import load_reference
from grader.qa.grading import grade
from test_qa_bank import BANK

META = torch.device("meta")
GiB = 2**30
FP16 = torch.empty((), dtype=torch.float16).element_size()  # 2 bytes
FP32 = torch.empty((), dtype=torch.float32).element_size()  # 4 bytes


def numel(*modules: nn.Module) -> int:
    """Parameters of the modules together, a shared Parameter once (what parameters() yields)."""
    return sum({id(p): p.numel() for m in modules for p in m.parameters()}.values())


def flops(fn: Callable[[], object]) -> int:
    with FlopCounterMode(display=False) as counter:
        fn()
    return counter.get_total_flops()


def softmax(scores: list[float]) -> list[float]:
    return torch.softmax(torch.tensor(scores, dtype=torch.float64), -1).tolist()


def kv_bytes_per_token(layers: int, kv_heads: int, head_dim: int, bytes_per: int = FP16, k_and_v: int = 2) -> int:
    """The cache of one token: a key and a value vector per layer and key-value head."""
    cache = torch.empty(k_and_v, layers, kv_heads, head_dim, dtype=torch.float16, device=META)
    return cache.numel() * bytes_per


# ------------------------------------------------------------------------ the models, built


def gpt2_small(tied: bool = True) -> int:
    d, blocks = 768, []
    tokens, positions = nn.Embedding(50257, d, device=META), nn.Embedding(1024, d, device=META)
    for _ in range(12):
        blocks += [nn.LayerNorm(d, device=META), nn.MultiheadAttention(d, 12, device=META), nn.LayerNorm(d, device=META),
                   nn.Linear(d, 4 * d, device=META), nn.Linear(4 * d, d, device=META)]
    output = nn.Linear(d, 50257, bias=False, device=META)
    if tied:
        output.weight = tokens.weight
    return numel(tokens, positions, *blocks, nn.LayerNorm(d, device=META), output)


def swiglu(d: int, hidden: int) -> list[nn.Module]:
    return [nn.Linear(d, hidden, bias=False, device=META) for _ in range(2)] + [nn.Linear(hidden, d, bias=False, device=META)]


def llama_7b(tied: bool = False) -> int:
    d, layers = 4096, []
    tokens = nn.Embedding(32000, d, device=META)
    for _ in range(32):
        layers += [nn.Linear(d, d, bias=False, device=META) for _ in range(4)]  # W_q, W_k, W_v, W_o
        layers += swiglu(d, 11008) + [nn.RMSNorm(d, device=META), nn.RMSNorm(d, device=META)]
    output = nn.Linear(d, 32000, bias=False, device=META)
    if tied:
        output.weight = tokens.weight
    return numel(tokens, *layers, nn.RMSNorm(d, device=META), output)


def llama_hidden(d: int, multiple_of: int = 256) -> int:
    """FeedForward's hidden size in meta-llama/llama model.py."""
    hidden = int(2 * (4 * d) / 3)
    return multiple_of * ((hidden + multiple_of - 1) // multiple_of)


def alibi_slopes(n: int) -> list[float]:
    """get_slopes of the ALiBi paper's code, for a power of two n."""
    start = 2 ** (-(2 ** -(math.log2(n) - 3)))
    return [start * start**i for i in range(n)]


def online_softmax(blocks: list[list[float]], rescale: bool = True) -> list[float]:
    """Running maximum and sum of exponentials over blocks of one row (Milakov & Gimelshein)."""
    m, total = -math.inf, 0.0
    for block in blocks:
        new_m = max(m, *block)
        total = total * (math.exp(m - new_m) if rescale else 1.0) + sum(math.exp(x - new_m) for x in block)
        m = new_m
    return [m, total]


def pe_table(max_len: int, d: int):
    return load_reference(ProblemBank().get("positional_encoding")).sinusoidal_encoding(max_len, d)


def encoder_layer() -> nn.Module:
    return nn.TransformerEncoderLayer(512, 8, 2048, device=META)


def decoder_layer() -> nn.Module:
    return nn.TransformerDecoderLayer(512, 8, 2048, device=META)


def warmup_lr(step: int, d_model: int = 512, warmup: int = 4000) -> float:
    return d_model**-0.5 * min(step**-0.5, step * warmup**-1.5)


Q3, K3, V3 = [1.0, 1.0], [[1.0, 0.0], [0.0, 2.0], [-1.0, 1.0]], [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]


def three_token_weights(scale: float) -> list[float]:
    return softmax([sum(q * k for q, k in zip(Q3, key)) / scale for key in K3])


def three_token_output(scale: float) -> list[float]:
    w = three_token_weights(scale)
    return [sum(wi * v[j] for wi, v in zip(w, V3)) for j in range(2)]


def _mha_part(*names: str) -> int:
    mha = nn.MultiheadAttention(512, 8, device=META)
    return sum(p.numel() for n, p in mha.named_parameters() if n in names)


def _layer_minus(layer: nn.Module, prefixes: tuple[str, ...]) -> int:
    return sum(p.numel() for n, p in layer.named_parameters() if not n.startswith(prefixes))


def _layer_without_linear_biases(layer: nn.Module) -> int:
    return sum(p.numel() for n, p in layer.named_parameters() if not (n.endswith("bias") and "norm" not in n))


# --------------------------------------------------------------------------- the ledger

#: question id -> (the answer, recomputed; {mistake id: [its wrong values, recomputed]}).
LEDGER: dict[str, tuple[Callable[[], object], dict[str, list[Callable[[], object]]]]] = {
    "var_qk": (lambda: 64 * 1.0, {"std_for_variance": [lambda: math.sqrt(64)]}),  # Var(sum of 64 unit products)
    "var_qk_scaled": (lambda: 64 / math.sqrt(64) ** 2, {
        "divide_by_dk": [lambda: 64 / 64**2],
        "std_of_dk_scaled_score": [lambda: math.sqrt(64) / 64],  # std(q·k / d_k): two slips
        "missing_scale": [lambda: 64],
    }),
    "softmax_8_0": (lambda: softmax([8, 0]), {}),
    "softmax_1_0": (lambda: softmax([1, 0]), {}),
    "attention_weights_3tok": (lambda: three_token_weights(math.sqrt(2)), {
        "missing_scale": [lambda: three_token_weights(1.0)],
        "divide_by_dk": [lambda: three_token_weights(2.0)],
    }),
    "attention_output_3tok": (lambda: three_token_output(math.sqrt(2)), {
        "missing_scale": [lambda: three_token_output(1.0)],
        "divide_by_dk": [lambda: three_token_output(2.0)],
    }),
    "causal_allowed_pairs": (lambda: int(torch.tril(torch.ones(5, 5)).sum()), {
        "causal_blocks_self": [lambda: int(torch.tril(torch.ones(5, 5), diagonal=-1).sum())],
    }),
    "d_k_per_head": (lambda: 512 // 8, {"multiplied_heads": [lambda: 512 * 8]}),
    "gqa_kv_cache_per_token": (lambda: kv_bytes_per_token(80, 8, 128), {
        "gqa_counted_query_heads": [lambda: kv_bytes_per_token(80, 64, 128)],
        "kv_forgot_k_or_v": [lambda: kv_bytes_per_token(80, 8, 128, k_and_v=1)],
        "wrong_bytes_per_element": [lambda: kv_bytes_per_token(80, 8, 128, bytes_per=FP32)],
    }),
    "gqa_cache_factor": (lambda: 32 / 8, {"gqa_factor_is_kv_heads": [lambda: 8]}),
    "gqa_kv_projection_params": (lambda: numel(*(nn.Linear(4096, 8 * 128, bias=False, device=META) for _ in "kv")), {
        "gqa_full_kv_projections": [lambda: numel(*(nn.Linear(4096, 4096, bias=False, device=META) for _ in "kv"))],
    }),
    "gqa_cache_gib": (lambda: kv_bytes_per_token(80, 8, 128) * 4096 * 8 / GiB, {
        "gqa_counted_query_heads": [lambda: kv_bytes_per_token(80, 64, 128) * 4096 * 8 / GiB],
        "kv_forgot_k_or_v": [lambda: kv_bytes_per_token(80, 8, 128, k_and_v=1) * 4096 * 8 / GiB],
    }),
    "pe_position_1": (lambda: list(pe_table(2, 8)[1, :2]), {
        "pe_sin_cos_swapped": [lambda: list(pe_table(2, 8)[1, 1::-1])],
    }),
    "pe_norm_squared": (lambda: float(pe_table(7, 16)[5] @ pe_table(7, 16)[5]), {}),
    "pe_dot_offset": (lambda: float(pe_table(9, 16)[2] @ pe_table(9, 16)[5]), {}),
    "sinusoidal_pe_parameters": (lambda: 0, {"pe_counted_as_params": [lambda: numel(nn.Embedding(512, 512, device=META))]}),
    "learned_pe_gpt2": (lambda: numel(nn.Embedding(1024, 768, device=META)), {}),
    "rope_slowest_frequency": (lambda: float((1.0 / 10000 ** (torch.arange(0, 128, 2, dtype=torch.float64) / 128))[-1]), {}),
    "alibi_slopes": (lambda: [alibi_slopes(8)[0], alibi_slopes(8)[-1]], {}),
    "alibi_bias_value": (lambda: -alibi_slopes(8)[0] * (10 - 4), {"alibi_positive_bias": [lambda: alibi_slopes(8)[0] * (10 - 4)]}),
    "mha_params": (lambda: numel(nn.MultiheadAttention(512, 8, device=META)), {
        "forgot_bias": [lambda: numel(nn.MultiheadAttention(512, 8, bias=False, device=META))],
        "forgot_output_projection": [lambda: _mha_part("in_proj_weight", "in_proj_bias")],
        "qkv_only_without_bias": [lambda: _mha_part("in_proj_weight")],
    }),
    "layernorm_params": (lambda: numel(nn.LayerNorm(512, device=META)), {
        "layernorm_gamma_only": [lambda: numel(nn.LayerNorm(512, bias=False, device=META))],
    }),
    "ffn_params": (lambda: numel(nn.Linear(512, 2048, device=META), nn.Linear(2048, 512, device=META)), {
        "forgot_bias": [lambda: numel(nn.Linear(512, 2048, bias=False, device=META), nn.Linear(2048, 512, bias=False, device=META))],
    }),
    "encoder_layer_params": (lambda: numel(encoder_layer()), {
        "forgot_layernorm": [lambda: _layer_minus(encoder_layer(), ("norm",))],
        "forgot_bias": [lambda: _layer_without_linear_biases(encoder_layer())],
        "forgot_ffn": [lambda: _layer_minus(encoder_layer(), ("linear",))],
    }),
    "decoder_layer_params": (lambda: numel(decoder_layer()), {
        "decoder_one_attention": [lambda: _layer_minus(decoder_layer(), ("multihead_attn",))],
        "forgot_layernorm": [lambda: _layer_minus(decoder_layer(), ("norm",))],
    }),
    "transformer_params": (lambda: numel(nn.Transformer(batch_first=True, device=META)), {
        "forgot_final_norm": [lambda: _layer_minus(nn.Transformer(batch_first=True, device=META), ("encoder.norm", "decoder.norm"))],
    }),
    "gpt2_params": (gpt2_small, {
        "tied_counted_twice": [lambda: gpt2_small() + numel(nn.Embedding(50257, 768, device=META))],
        "kaplan_approximation": [lambda: 12 * 12 * 768**2],  # 12·L·d²
    }),
    "rmsnorm_params": (lambda: numel(nn.RMSNorm(4096, device=META)), {
        "rmsnorm_has_bias": [lambda: numel(nn.LayerNorm(4096, device=META))],
    }),
    "swiglu_block_params": (lambda: numel(*swiglu(4096, 11008)), {"swiglu_two_matrices": [lambda: numel(*swiglu(4096, 11008)[1:])]}),
    "llama_ffn_hidden": (lambda: llama_hidden(4096), {"plain_ffn_width": [lambda: 4 * 4096]}),
    "llama7b_params": (llama_7b, {"untied_counted_once": [lambda: llama_7b(tied=True)]}),
    "qk_flops": (lambda: flops(lambda: torch.empty(1024, 768, device=META) @ torch.empty(768, 1024, device=META)), {
        "macs_not_flops": [lambda: 1024 * 1024 * 768],
    }),
    "attention_matmul_flops": (lambda: flops(lambda: (torch.empty(2048, 4096, device=META) @ torch.empty(4096, 2048, device=META))
                                             @ torch.empty(2048, 4096, device=META)), {}),
    "attention_projection_crossover": (lambda: 2 * 4096, {"dropped_constant_factors": [lambda: 4096]}),  # 4n²d = 8nd²
    "score_matrix_memory": (lambda: torch.empty(32, 4096, 4096, dtype=torch.float16, device=META).numel() * FP16 / GiB, {
        "wrong_bytes_per_element": [lambda: 32 * 4096 * 4096 * FP32 / GiB],
    }),
    "kv_cache_per_token": (lambda: kv_bytes_per_token(32, 32, 128), {
        "kv_forgot_k_or_v": [lambda: kv_bytes_per_token(32, 32, 128, k_and_v=1)],
        "wrong_bytes_per_element": [lambda: kv_bytes_per_token(32, 32, 128, bytes_per=FP32)],
    }),
    "kv_cache_context": (lambda: kv_bytes_per_token(32, 32, 128) * 4096 / GiB, {
        "kv_forgot_k_or_v": [lambda: kv_bytes_per_token(32, 32, 128, k_and_v=1) * 4096 / GiB],
    }),
    "kv_cache_gpt2": (lambda: kv_bytes_per_token(12, 12, 64), {"kv_forgot_k_or_v": [lambda: kv_bytes_per_token(12, 12, 64, k_and_v=1)]}),
    "decode_tokens_per_second": (lambda: 2e12 / (7e9 * FP16), {"wrong_bytes_per_element": [lambda: 2e12 / 7e9]}),
    "flash_score_memory": (lambda: 16 * 8192 * 8192 * FP16 / GiB, {"wrong_bytes_per_element": [lambda: 16 * 8192 * 8192 * FP32 / GiB]}),
    "flash_running_stats": (lambda: online_softmax([[1, 2], [4, 0]]), {
        "online_softmax_no_rescale": [lambda: online_softmax([[1, 2], [4, 0]], rescale=False)],
    }),
    "sliding_window_span": (lambda: 32 * 4096, {"window_span_one_layer": [lambda: 4096]}),
    "sliding_window_cache": (lambda: kv_bytes_per_token(32, 8, 128) * 4096 / GiB, {
        "gqa_counted_query_heads": [lambda: kv_bytes_per_token(32, 32, 128) * 4096 / GiB],
    }),
    "next_token_targets": (lambda: len(torch.arange(1024)[1:]), {"next_token_off_by_one": [lambda: 1024]}),
    "decoder_sublayers": (lambda: sum(1 for n, _ in decoder_layer().named_children() if n.startswith("norm")), {}),
    "embedding_scale": (lambda: math.sqrt(512), {}),
    "warmup_learning_rate": (lambda: warmup_lr(4000), {}),
    "training_compute": (lambda: 6 * 124e6 * 300e9, {"forward_only_flops": [lambda: 2 * 124e6 * 300e9]}),
    "additive_attention_params": (lambda: numel(nn.Linear(512, 512, bias=False, device=META), nn.Linear(512, 512, bias=False, device=META),
                                                nn.Linear(512, 1, bias=False, device=META)), {}),
    "fully_masked_large_negative": (lambda: softmax([-1e9] * 4), {"masked_row_all_zero": [lambda: [0.0] * 4]}),
}

#: Facts of a paper, not arithmetic: nothing to recompute.
FACTS = {"bert_masking_split": "Devlin et al. 2019, §3.1: 80% [MASK], 10% random, 10% unchanged"}


def _raw(value: object) -> str | list[str]:
    if isinstance(value, (list, tuple)):
        return [repr(float(v)) for v in value]
    return repr(float(value))


@pytest.mark.parametrize("question_id", sorted(LEDGER))
def test_the_answer_is_what_the_arithmetic_gives(question_id: str) -> None:
    question = BANK.get(question_id)
    computed = LEDGER[question_id][0]()
    assert grade(question, _raw(computed)).passed, (question_id, computed, question.answer)
    if question.type == "numeric" and question.precision == "exact" and not question.tolerance.abs:
        assert computed == question.answer, (question_id, computed)


@pytest.mark.parametrize(
    ("question_id", "mistake"),
    sorted((q, m) for q, (_, mistakes) in LEDGER.items() for m in mistakes),
)
def test_each_named_wrong_answer_is_its_mistake_s_arithmetic(question_id: str, mistake: str) -> None:
    """The values the bank names ``mistake`` are exactly those the mistake's arithmetic gives."""
    question = BANK.get(question_id)
    listed = [w.answer for w in question.mistakes if w.mistake == mistake]
    computed = [fn() for fn in LEDGER[question_id][1][mistake]]
    assert len(listed) == len(computed), (question_id, mistake, listed)
    for value in computed:
        verdict = grade(question, _raw(value))
        assert not verdict.passed and verdict.mistake == mistake, (question_id, mistake, value)


def test_every_number_of_the_bank_is_recomputed() -> None:
    numbers = {q.id for q in BANK.questions if q.type in ("numeric", "vector")}
    assert numbers - set(LEDGER) - set(FACTS) == set(), "add the recomputation to LEDGER"
    for question_id, (_, mistakes) in LEDGER.items():
        named = {w.mistake for w in BANK.get(question_id).mistakes}
        assert named == set(mistakes), (question_id, named ^ set(mistakes))
