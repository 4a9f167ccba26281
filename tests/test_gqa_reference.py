"""The ground truth of grouped_query_attention, checked against independent formulations.

The corpus shows that each named mistake is diagnosed in one submission; these tests show why the
reference deserves to be the truth: it equals torch's own ``scaled_dot_product_attention(...,
enable_gqa=True)``, it is multi-head attention whose K/V weights are copied across each group
(the reference of multi_head_attention, bias-free), every mistake hypothesis is far from it on the
inputs the checks build, and the figure draws the grouping h // group.
"""

from __future__ import annotations

import types

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from grader import engine
from grader.bank import ProblemBank

BANK = ProblemBank()
PROBLEM = BANK.get("grouped_query_attention")
GQA = engine.load_reference(PROBLEM)
CHECKS = engine.load_module(PROBLEM.checks_file, "grader_bank.grouped_query_attention.checks")
PROBES = engine.load_probes(PROBLEM)
MHA = engine.load_reference(BANK.get("multi_head_attention"))

TORCH_VERSION = tuple(int(part) for part in torch.__version__.split("+")[0].split(".")[:2])
CONFIGS = [(16, 4, 2), (24, 6, 3), (24, 6, 2), (16, 4, 1), (16, 4, 4), (64, 8, 2)]


def _case(cfg: tuple[int, int, int], causal: bool, seed: int = 0) -> dict:
    ctx = types.SimpleNamespace(rng=np.random.default_rng(seed))  # what case() reads of a CheckContext
    return CHECKS.case(ctx, CHECKS.config(*cfg), 2, 7, causal=causal)


def _truth(c: dict) -> torch.Tensor:
    return CHECKS.run_reference(GQA, *CHECKS.args_of(c))


@pytest.mark.skipif(TORCH_VERSION < (2, 5), reason="enable_gqa needs torch >= 2.5 (constraints.txt pins a newer one)")
@pytest.mark.parametrize("cfg", CONFIGS)
@pytest.mark.parametrize("causal", [False, True])
def test_the_reference_is_torch_sdpa_with_enable_gqa(cfg, causal) -> None:
    c = _case(cfg, causal)
    d, h, kv = cfg
    state, x = c["state"], c["x"]
    B, T, _ = x.shape

    def heads(w: torch.Tensor, n: int) -> torch.Tensor:
        return (x @ w.T).view(B, T, n, d // h).transpose(1, 2)  # (B, n, T, d_head)

    q, k, v = heads(state["q_proj.weight"], h), heads(state["k_proj.weight"], kv), heads(state["v_proj.weight"], kv)
    out = F.scaled_dot_product_attention(q, k, v, is_causal=causal, enable_gqa=True)  # (B, h, T, d_head)
    expected = out.transpose(1, 2).reshape(B, T, d) @ state["o_proj.weight"].T
    torch.testing.assert_close(_truth(c), expected, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("cfg", CONFIGS)
def test_gqa_is_multi_head_attention_with_each_kv_head_copied_across_its_group(cfg) -> None:
    """K/V head g's weight rows, repeated for the group's query heads, give MHA the same output."""
    c = _case(cfg, causal=True)
    d, h, kv = cfg
    state, d_head = c["state"], d // h

    def widened(w: torch.Tensor) -> torch.Tensor:  # (kv * d_head, d) -> (h * d_head, d), head g -> group g
        return w.view(kv, d_head, d).repeat_interleave(h // kv, dim=0).reshape(d, d)

    mha = MHA.MultiHeadAttention(d, h, bias=False).double().eval()
    mha.load_state_dict({"W_q.weight": state["q_proj.weight"], "W_k.weight": widened(state["k_proj.weight"]),
                         "W_v.weight": widened(state["v_proj.weight"]), "W_o.weight": state["o_proj.weight"]})
    T = c["x"].shape[1]
    with torch.no_grad():
        expected, _ = mha(c["x"], c["x"], c["x"], torch.ones(T, T, dtype=torch.bool).tril())
    torch.testing.assert_close(_truth(c), expected, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("seed", range(5))
def test_every_mistake_is_far_from_the_truth_where_it_applies(seed: int) -> None:
    """On the value checks' kinds of input, each hypothesis that applies differs from the reference,
    and from every other hypothesis, by far more than the tolerance."""
    applied = set()
    for cfg in CONFIGS:
        for causal in (False, True):
            c = _case(cfg, causal, seed)
            outputs = {"truth": _truth(c)}
            for mistake, hypothesis in CHECKS.checks.hypotheses["GroupedQueryAttention"]:
                try:
                    outputs[mistake] = hypothesis(GQA, *CHECKS.args_of(c))
                except ValueError:  # not this kind of case (no groups, or not causal)
                    continue
                applied.add(mistake)
            names = list(outputs)
            for i, a in enumerate(names):
                for b in names[i + 1:]:
                    gap = float((outputs[a] - outputs[b]).abs().max())
                    assert gap > 1e-2, (cfg, causal, a, b, gap)
    assert applied == CHECKS.checks.mistake_ids()


def test_the_figure_draws_query_head_h_reading_kv_head_h_over_group() -> None:
    side = types.SimpleNamespace(probe=lambda name, *args: getattr(PROBES, name)(GQA, *args))
    drawn = CHECKS._head_groups(side)  # (num_heads, num_kv_heads) = (8, 4)
    expected = torch.zeros(8, 4, dtype=torch.float64)
    expected[torch.arange(8), torch.arange(8) // 2] = 1.0
    torch.testing.assert_close(drawn, expected, rtol=0, atol=0)


@pytest.mark.parametrize(("args", "words"), [
    ((10, 4, 2), "divisible"), ((16, 4, 3), "multiple"), ((16, 4, 8), "multiple"), ((16, 4, 0), "at least 1"),
])
def test_the_reference_refuses_invalid_head_counts_saying_why(args, words) -> None:
    with pytest.raises(ValueError, match=words):
        GQA.GroupedQueryAttention(*args)
