"""The ground truth of transformer_block and additive_attention, checked against independent formulations.

The corpus shows that each named mistake is diagnosed in one submission; these tests show why the
references deserve to be the truth: the block's reference is ``nn.TransformerEncoderLayer`` (same
state dict, same outputs and gradients, both norm placements, masks inverted), additive attention
equals the formula written pair by pair, and every mistake hypothesis is far from the truth on
the inputs the checks build. The operation count that judges broadcasting is the same for a small
and a larger input on the reference, and grows for a loop.
"""

from __future__ import annotations

import math
import types

import numpy as np
import pytest
import torch
from torch import nn

from conftest import CORPUS
from grader import engine
from grader.bank import ProblemBank

BANK = ProblemBank()


def _load(name: str) -> tuple[types.ModuleType, types.ModuleType, types.ModuleType]:
    problem = BANK.get(name)
    checks = engine.load_module(problem.checks_file, f"grader_bank.{name}.checks")
    return engine.load_reference(problem), checks, engine.load_probes(problem)


BLOCK, BLOCK_CHECKS, BLOCK_PROBES = _load("transformer_block")
ADDITIVE, ADDITIVE_CHECKS, ADDITIVE_PROBES = _load("additive_attention")


# --------------------------------------------------------------------------- transformer_block


@pytest.mark.parametrize("norm_first", [False, True])
def test_the_block_is_nn_transformer_encoder_layer(norm_first: bool) -> None:
    rng = np.random.default_rng(0)
    cfg = BLOCK_CHECKS.config(2, norm_first=norm_first)
    state = BLOCK_CHECKS.weights(rng, cfg)
    ours = BLOCK.TransformerBlock(**cfg).double()
    theirs = BLOCK_CHECKS.torch_layer(cfg, state)
    assert sorted(ours.state_dict()) == sorted(theirs.state_dict()) == sorted(BLOCK_CHECKS.state_shapes(cfg))
    ours.load_state_dict(state)
    ours.eval()
    x = BLOCK_CHECKS.tokens(rng, 3, 6)
    causal = BLOCK_CHECKS.causal(6)
    padding = torch.tensor([[True] * 6, [True] * 4 + [False] * 2, [True] * 5 + [False]])
    for mask, pad in ((None, None), (causal, None), (None, padding), (causal, padding)):
        expected = theirs(x, src_mask=None if mask is None else ~mask,
                          src_key_padding_mask=None if pad is None else ~pad)
        got = ours(x, mask, pad)
        real = slice(None) if pad is None else pad
        torch.testing.assert_close(got[real], expected[real], rtol=1e-12, atol=1e-12)
    grad = torch.from_numpy(rng.standard_normal((3, 6, 8)))
    (ours(x, causal) * grad).sum().backward()
    (theirs(x, src_mask=~causal) * grad).sum().backward()
    for (name, a), (_, b) in zip(ours.named_parameters(), theirs.named_parameters()):
        torch.testing.assert_close(a.grad, b.grad, rtol=1e-10, atol=1e-12, msg=name)


def test_the_causal_block_never_reads_the_future() -> None:
    rng = np.random.default_rng(1)
    cfg = BLOCK_CHECKS.config(2)
    block = BLOCK.TransformerBlock(**cfg).double().eval()
    block.load_state_dict(BLOCK_CHECKS.weights(rng, cfg))
    x = BLOCK_CHECKS.tokens(rng, 1, 6)
    changed = x.clone()
    changed[:, 4:] += 5.0
    mask = BLOCK_CHECKS.causal(6)
    torch.testing.assert_close(block(x, mask)[:, :4], block(changed, mask)[:, :4], rtol=0, atol=1e-12)


@pytest.mark.parametrize("norm_first", [False, True])
def test_every_block_mistake_is_far_from_the_truth(norm_first: bool) -> None:
    rng = np.random.default_rng(2)
    c = BLOCK_CHECKS.case(rng, BLOCK_CHECKS.config(2, norm_first=norm_first), 3, 6, mask=BLOCK_CHECKS.causal(6),
                          padding_mask=BLOCK_CHECKS.padding(rng, 3, 6))
    truth = BLOCK_CHECKS.oracle(*BLOCK_CHECKS.args_of(c))
    tried = 0
    for mistake, hypothesis in BLOCK_CHECKS.checks.hypotheses["TransformerBlock"]:
        try:
            wrong = hypothesis(BLOCK, *BLOCK_CHECKS.args_of(c))
        except ValueError:  # the hypothesis is for the other norm placement
            continue
        tried += 1
        distance = (torch.nan_to_num(wrong, nan=1e3) - truth).abs().max().item()
        assert distance > 1e-2, f"{mistake} is within {distance:.2g} of the truth"
    assert tried == 6 + (1 if norm_first else 0)  # the two placement mix-ups each apply to one placement


def test_the_influence_figure_is_zero_exactly_where_the_mask_blocks() -> None:
    side = types.SimpleNamespace(rng=np.random.default_rng(3), probe=lambda name, *a: getattr(BLOCK_PROBES, name)(BLOCK, *a))
    influence = BLOCK_CHECKS._causal_influence(side).numpy()  # (T, T)
    blocked = ~BLOCK_CHECKS.causal(6).numpy()
    assert (influence[blocked] == 0).all() and (influence[~blocked] > 0).all()


# --------------------------------------------------------------------------- additive_attention


def additive_by_pairs(state, queries, keys, values, valid_lens=None):
    """w_vᵀ tanh(W_q q + W_k k), one (query, key) pair at a time, and a softmax over the valid keys."""
    B, n_q, n_k = queries.shape[0], queries.shape[1], keys.shape[1]
    W_q, W_k, w_v = (state[n].numpy() for n in ("W_q.weight", "W_k.weight", "w_v.weight"))
    w_v = w_v[0]  # (h,)
    weights = np.zeros((B, n_q, n_k))
    for b in range(B):
        for i in range(n_q):
            if valid_lens is None:
                n_valid = n_k
            else:
                n_valid = int(valid_lens[b] if valid_lens.dim() == 1 else valid_lens[b, i])
            scores = [float(w_v @ np.tanh(W_q @ queries[b, i].numpy() + W_k @ keys[b, j].numpy())) for j in range(n_valid)]
            if scores:
                top = max(scores)
                exps = [math.exp(s - top) for s in scores]
                weights[b, i, :n_valid] = [e / sum(exps) for e in exps]
    return weights @ values.numpy(), weights


@pytest.mark.parametrize("lens", ["none", "per_item", "per_query"])
def test_additive_attention_is_the_formula_pair_by_pair(lens: str) -> None:
    rng = np.random.default_rng(4)
    valid = {"none": None, "per_item": torch.tensor([2, 5, 1]), "per_query": torch.tensor(
        [[1, 2, 3, 6], [0, 4, 4, 2], [6, 5, 0, 1]])}[lens]
    c = ADDITIVE_CHECKS.case(rng, ADDITIVE_CHECKS.config(6, 4, 8), 3, 4, 6, valid)
    output, weights = ADDITIVE_CHECKS.run_reference(ADDITIVE, *ADDITIVE_CHECKS.args_of(c))
    expected_output, expected_weights = additive_by_pairs(c["state"], c["queries"], c["keys"], c["values"], valid)
    np.testing.assert_allclose(weights.numpy(), expected_weights, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(output.numpy(), expected_output, rtol=1e-12, atol=1e-14)
    if valid is not None:
        blocked = expected_weights == 0
        assert (weights.numpy()[blocked] == 0).all()  # exactly 0, not merely small


def test_every_additive_mistake_is_far_from_the_truth() -> None:
    rng = np.random.default_rng(5)
    plain = ADDITIVE_CHECKS.case(rng, ADDITIVE_CHECKS.config(5, 5, 7), 2, 3, 5)
    masked = ADDITIVE_CHECKS.case(rng, ADDITIVE_CHECKS.config(5, 5, 7), 3, 4, 6, torch.tensor([[2, 0, 5, 1]] * 3))
    reached = set()
    for mistake, hypothesis in ADDITIVE_CHECKS.checks.hypotheses["AdditiveAttention"]:
        for c in (plain, masked):
            try:
                wrong, _ = hypothesis(ADDITIVE, *ADDITIVE_CHECKS.args_of(c))
            except ValueError:
                continue
            truth, _ = ADDITIVE_CHECKS.run_reference(ADDITIVE, *ADDITIVE_CHECKS.args_of(c))
            distance = (torch.nan_to_num(wrong, nan=1e3) - truth).abs().max().item()
            assert distance > 1e-3, f"{mistake} is within {distance:.2g} of the truth"
            reached.add(mistake)
    assert reached == ADDITIVE_CHECKS.checks.mistake_ids()


def _operations(lib) -> list[int]:
    cfg = ADDITIVE_CHECKS.config()
    rng = np.random.default_rng(6)
    cases = [ADDITIVE_CHECKS.case(rng, cfg, 2, 2, 3), ADDITIVE_CHECKS.case(rng, cfg, 2, 6, 9)]
    return ADDITIVE_PROBES.operations(lib, cases)


def test_the_operation_count_is_flat_for_broadcasting_and_grows_for_a_loop() -> None:
    small, large = _operations(ADDITIVE)
    assert small == large > 0
    loop = engine.load_module(CORPUS / "additive_attention" / "feature_sum_loop.py", "corpus_feature_sum_loop")
    small, large = _operations(loop)
    assert large > small + 6 * 9 - 2 * 3  # at least one more operation per extra pair

