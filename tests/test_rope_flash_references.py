"""The ground truth of rotary_embedding and flash_attention, checked against independent formulations.

The corpus shows that each named mistake is diagnosed in one submission; these tests show why the
references deserve to be the truth: the RoPE reference equals Hugging Face's rotate_half formula
and Meta's complex-number formula and has the properties the checks test, the FlashAttention
reference equals plain attention for every block size and stays far below the memory limit, and
every mistake hypothesis is far from the truth on the inputs the checks build.
"""

from __future__ import annotations

import math
import types

import numpy as np
import pytest
import torch

from grader import engine
from grader.bank import ProblemBank

BANK = ProblemBank()


def _load(name: str) -> tuple[types.ModuleType, types.ModuleType]:
    problem = BANK.get(name)
    return engine.load_reference(problem), engine.load_module(problem.checks_file, f"grader_bank.{name}.checks")


ROPE, ROPE_CHECKS = _load("rotary_embedding")
FLASH, FLASH_CHECKS = _load("flash_attention")


# --------------------------------------------------------------------------- RoPE


def hf_rotary(x: torch.Tensor, positions: torch.Tensor, base: float) -> torch.Tensor:
    """transformers' LlamaRotaryEmbedding + apply_rotary_pos_emb (rotate-half), in float64."""
    d = x.shape[-1]
    inv_freq = 1.0 / (base ** (torch.arange(0, d, 2, dtype=torch.int64).double() / d))
    freqs = positions.double()[:, None] @ inv_freq[None, :]
    emb = torch.cat((freqs, freqs), dim=-1)
    x1, x2 = x[..., : d // 2], x[..., d // 2 :]
    return x * emb.cos() + torch.cat((-x2, x1), dim=-1) * emb.sin()


def meta_rotary(x: torch.Tensor, positions: torch.Tensor, base: float) -> torch.Tensor:
    """Meta's llama precompute_freqs_cis + apply_rotary_emb (interleaved pairs as complex numbers)."""
    d = x.shape[-1]
    freqs = 1.0 / (base ** (torch.arange(0, d, 2)[: d // 2].double() / d))
    freqs_cis = torch.polar(torch.ones(len(positions), d // 2, dtype=torch.float64), torch.outer(positions.double(), freqs))
    x_complex = torch.view_as_complex(x.reshape(*x.shape[:-1], -1, 2))
    return torch.view_as_real(x_complex * freqs_cis).flatten(-2)


@pytest.mark.parametrize("d", [8, 16, 64])
@pytest.mark.parametrize("base", [10000.0, 500.0, 5.0e5])
def test_rope_reference_equals_the_published_formulas(d: int, base: float) -> None:
    gen = torch.Generator().manual_seed(d)
    x = torch.randn(2, 3, 7, d, generator=gen, dtype=torch.float64)
    positions = torch.tensor([0, 1, 5, 37, 38, 1000, 4095])
    torch.testing.assert_close(ROPE.apply_rotary(x, positions, base), hf_rotary(x, positions, base), rtol=1e-12, atol=1e-12)
    torch.testing.assert_close(
        ROPE.apply_rotary(x, positions, base, interleaved=True), meta_rotary(x, positions, base), rtol=1e-12, atol=1e-12
    )


def test_rope_reference_properties() -> None:
    gen = torch.Generator().manual_seed(0)
    q, k = torch.randn(16, generator=gen, dtype=torch.float64), torch.randn(16, generator=gen, dtype=torch.float64)
    for interleaved in (False, True):
        x = torch.randn(4, 16, generator=gen, dtype=torch.float64)
        assert torch.equal(ROPE.apply_rotary(x, torch.zeros(4, dtype=torch.int64), interleaved=interleaved), x)
        out = ROPE.apply_rotary(x, torch.tensor([3, 70, 900, 12]), interleaved=interleaved)
        first, second = ROPE_CHECKS.pairs(16, interleaved)
        torch.testing.assert_close(out[:, first].hypot(out[:, second]), x[:, first].hypot(x[:, second]))
        m = torch.tensor([7, 107, 1007])
        rq = ROPE.apply_rotary(q.expand(3, 16), m, interleaved=interleaved)
        rk = ROPE.apply_rotary(k.expand(3, 16), m - 4, interleaved=interleaved)
        scores = (rq * rk).sum(-1)
        assert float(scores.max() - scores.min()) < 1e-10


def test_rope_half_precision_is_the_float32_result_rounded_once() -> None:
    x = torch.randn(2, 16, 32, generator=torch.Generator().manual_seed(1))
    positions = torch.arange(3000, 3016)
    for dtype in (torch.float16, torch.bfloat16):
        half = ROPE.apply_rotary(x.to(dtype), positions)
        assert half.dtype == dtype
        assert torch.equal(half, ROPE.apply_rotary(x.to(dtype).float(), positions).to(dtype))


def _rope_cases(check: str, seed: int) -> list[tuple[tuple, dict]]:
    """The (args, kwargs) a check sends, recorded from a fake context."""
    sent: list[tuple[tuple, dict]] = []

    class Recorder:
        rng = np.random.default_rng(seed)
        reference = ROPE

        def calls(self, calls, echo=False):
            sent.extend((c[1], c[2]) for c in calls)
            raise StopIteration  # nothing to judge

        def msg(self, *args, **kwargs):
            return ""

    try:
        ROPE_CHECKS.checks.tests[check](Recorder())
    except (StopIteration, RuntimeError):
        pass
    return sent


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_every_rope_mistake_is_far_from_the_truth_where_it_is_named(seed: int) -> None:
    """On every value check's inputs, each hypothesis that applies differs from the reference by far
    more than the tolerance: a correct answer can never be taken for a mistake, nor one mistake
    for another where both apply (they are distinct among themselves too)."""
    for check in ("rotate_half", "interleaved", "offsets", "broadcasting", "custom_base"):
        for args, kwargs in _rope_cases(check, seed):
            truth = ROPE.apply_rotary(*args, **kwargs)
            outputs = {"truth": truth}
            for mistake, hypothesis in ROPE_CHECKS.checks.hypotheses["apply_rotary"]:
                try:
                    outputs[f"{mistake}/{hypothesis.__name__}"] = hypothesis(ROPE, *args, **kwargs)
                except ValueError:
                    continue
            names = list(outputs)
            for i, a in enumerate(names):
                for b in names[i + 1:]:
                    gap = float((outputs[a].double() - outputs[b].double()).abs().max())
                    assert gap > 0.1, (check, kwargs, a, b, gap)


# --------------------------------------------------------------------------- FlashAttention


@pytest.mark.parametrize(
    ("n_q", "n_k", "block_size"), [(1, 1, 64), (5, 9, 1), (64, 64, 64), (65, 63, 16), (100, 37, 7), (30, 30, 1000)]
)
@pytest.mark.parametrize("causal", [False, True])
def test_flash_reference_equals_plain_attention(n_q: int, n_k: int, block_size: int, causal: bool) -> None:
    if causal and n_q != n_k:
        n_k = n_q
    rng = np.random.default_rng(n_q * 1000 + n_k)
    q, k, v = rng.standard_normal((n_q, 8)), rng.standard_normal((n_k, 8)), rng.standard_normal((n_k, 8))
    s = q @ k.T / math.sqrt(8)
    if causal:
        s = np.where(np.tri(n_q, n_k, dtype=bool), s, -np.inf)
    p = np.exp(s - s.max(axis=1, keepdims=True))
    expected = p / p.sum(axis=1, keepdims=True) @ v
    np.testing.assert_allclose(FLASH.flash_attention(q, k, v, block_size, causal), expected, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(FLASH_CHECKS.plain_attention(q, k, v, causal), expected, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(FLASH_CHECKS.online(q, k, v, block_size, causal), expected, rtol=1e-12, atol=1e-14)


def test_flash_reference_peak_memory_is_far_below_the_limit() -> None:
    probes = engine.load_module(BANK.get("flash_attention").folder / "probes.py", "grader_bank.flash_attention.probes")
    peak = probes.peak_memory(FLASH, 0, FLASH_CHECKS.MEMORY_N, FLASH_CHECKS.MEMORY_D, FLASH_CHECKS.MEMORY_BLOCK, True)
    assert 0 < peak < FLASH_CHECKS.MEMORY_LIMIT / 2


@pytest.mark.parametrize("seed", range(5))
def test_rescaling_mistakes_are_always_far_off_on_growing_maximum(seed: int) -> None:
    """The growing_maximum inputs make both rescaling mistakes fail whatever the seed, by a wide margin."""
    rng = np.random.default_rng(seed)
    q, k, v = rng.standard_normal((100, 16)), rng.standard_normal((192, 16)), rng.standard_normal((192, 16))
    q[:, -1] = 4.0
    k[:, -1] = np.repeat([0.0, 4.0, 8.0], 64)
    truth = FLASH_CHECKS.plain_attention(q, k, v)
    for switch in ("rescale_acc", "rescale_sum"):
        wrong = FLASH_CHECKS.online(q, k, v, 64, **{switch: False})
        assert np.abs(wrong - truth).max() > 0.1, switch  # the check allows 1e-9
