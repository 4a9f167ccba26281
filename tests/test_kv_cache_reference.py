"""The ground truth of kv_cache, checked against independent formulations.

The checks take the reference's full forward as the truth for every way of feeding a sequence;
these tests show why it deserves to be: it equals nn.MultiheadAttention with a causal mask
carrying the same weights, any split into prefill, chunks and single tokens gives it back with a
cache that holds exactly the keys and values, the figure's probe reads the end-aligned mask off
the reference, and kv_cache_bytes gives the published sizes of real models' caches. Each mistake
hypothesis is far from the truth on the inputs the checks build.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch

from grader import engine
from grader.bank import ProblemBank

PROBLEM = ProblemBank().get("kv_cache")
REF = engine.load_reference(PROBLEM)
CHECKS = engine.load_module(PROBLEM.checks_file, "grader_bank.kv_cache.checks")
PROBES = engine.load_probes(PROBLEM)
MiB = 2**20


def _module(state: dict) -> torch.nn.Module:
    module = REF.CachedSelfAttention(**CHECKS.CONFIG).double()
    module.load_state_dict(state)
    return module.eval()


def _inputs(seed: int, T: int = 9) -> tuple[dict, torch.Tensor]:
    rng = np.random.default_rng(seed)
    return CHECKS.weights(rng), CHECKS.tokens(rng, 2, T)


def test_the_full_forward_equals_torch_multihead_attention_with_a_causal_mask() -> None:
    state, x = _inputs(0)
    oracle = torch.nn.MultiheadAttention(CHECKS.D_MODEL, CHECKS.HEADS, batch_first=True, dtype=torch.float64).eval()
    with torch.no_grad():
        oracle.in_proj_weight.copy_(torch.cat([state[f"{p}_proj.weight"] for p in "qkv"]))
        oracle.in_proj_bias.copy_(torch.cat([state[f"{p}_proj.bias"] for p in "qkv"]))
        oracle.out_proj.weight.copy_(state["o_proj.weight"])
        oracle.out_proj.bias.copy_(state["o_proj.bias"])
        blocked = torch.ones(9, 9, dtype=torch.bool).triu(1)  # True = may not attend, torch's convention
        want, _ = oracle(x, x, x, attn_mask=blocked, need_weights=False)
        y, _ = _module(state)(x)
    torch.testing.assert_close(y, want, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("steps", [[9], [1] * 9, [4, 3, 1, 1], [2, 2, 2, 3], [1, 7, 1]])
def test_any_split_gives_the_full_forward_and_a_cache_of_every_position(steps: list[int]) -> None:
    state, x = _inputs(1)
    y_full, k_full, v_full = CHECKS.full_forward(REF, state, x)
    reply = PROBES.forward(REF, [CHECKS.case(state, x, steps)])[0]
    torch.testing.assert_close(torch.cat(reply["outputs"], dim=1), y_full, rtol=1e-12, atol=1e-12)
    end = 0
    for n, (k, v) in zip(steps, reply["caches"]):
        end += n
        assert k.shape == v.shape == (2, CHECKS.HEADS, end, CHECKS.D_HEAD)
        torch.testing.assert_close(k, k_full[:, :, :end], rtol=1e-12, atol=1e-12)
        torch.testing.assert_close(v, v_full[:, :, :end], rtol=1e-12, atol=1e-12)
    assert [r["k_proj"] for r in reply["rows"]] == [2 * n for n in steps]  # only the new tokens are projected


def test_the_figure_probe_reads_the_mask_aligned_to_the_end() -> None:
    state, x = _inputs(2, T=6)
    seen = PROBES.influence(REF, CHECKS.CONFIG, state, x[:1], 3)
    assert torch.equal(seen, torch.ones(3, 6, dtype=torch.bool).tril(diagonal=3))


@pytest.mark.parametrize(
    ("args", "size"),
    [
        ((32, 1, 1, 32, 128, 2), MiB // 2),  # Llama-2-7B, float16: 0.5 MiB per token
        ((32, 1, 4096, 32, 128, 2), 2 * 1024 * MiB),  # a full 4k context: 2 GiB
        ((32, 1, 1, 8, 128, 2), 128 * 1024),  # Llama-3-8B, 8 KV heads (GQA): 128 KiB per token
        ((80, 1, 1, 8, 128, 2), 320 * 1024),  # Llama-2-70B (GQA): 320 KiB per token
    ],
)
def test_kv_cache_bytes_gives_published_sizes(args: tuple, size: int) -> None:
    assert REF.kv_cache_bytes(*args) == size


def test_every_hypothesis_is_far_from_the_truth_on_a_chunked_schedule() -> None:
    """On the chunks check's schedule, each mistake changes an output or a cache, or raises."""
    state, x = _inputs(3)
    c = CHECKS.case(state, x, [4, 3, 1, 1])
    truth = CHECKS.expected(REF, c)
    for mistake_id, hypothesis in CHECKS.checks.hypotheses[CHECKS.DECODE]:
        got = hypothesis(REF, c)
        if "raised" in got:
            assert mistake_id == "concat_wrong_axis", got
            continue
        far = [
            float((a - b).abs().max()) if a.shape == b.shape else np.inf
            for a, b in zip([*got["outputs"], *(t for kv in got["caches"] for t in kv)],
                            [*truth["outputs"], *(t for kv in truth["caches"] for t in kv)])
        ]
        assert max(far) > 1e-2, mistake_id
