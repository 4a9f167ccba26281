"""The ground truth and the diagnosis machinery of positional_encoding and param_count.

The corpus shows each named mistake is diagnosed in one submission; these tests show why: the
torch-built truth agrees with torch's own modules and the published counts, every mistaken build
changes some count and is recognised from its counts alone, and the frequency fit names the
frequency mistakes on tables of any size.
"""

from __future__ import annotations

import types

import numpy as np
import pytest
import torch
from torch import nn

from grader import engine
from grader.bank import ProblemBank

BANK = ProblemBank()


def _checks(name: str) -> types.ModuleType:
    problem = BANK.get(name)
    return engine.load_module(problem.checks_file, f"grader_bank.{name}.checks")


def _reference(name: str) -> types.ModuleType:
    return engine.load_reference(BANK.get(name))


PC = _checks("param_count")
PE = _checks("positional_encoding")


def _pe_context(reference: types.ModuleType):
    """A check context for positional_encoding's helpers: its registry, reference and messages; no learner."""
    from grader.checks import CheckContext

    return CheckContext(check_id="frequencies", seed=0, reference=reference, registry=PE.checks,
                        transport=lambda request, entry: None, messages=BANK.get("positional_encoding").spec.messages)


def _numel(module: nn.Module) -> int:
    return sum(p.numel() for p in module.parameters())


# --------------------------------------------------------------------------- param_count truth


def test_built_layers_match_torch_transformer_layers() -> None:
    meta = torch.device("meta")
    encoder = nn.TransformerEncoderLayer(512, 8, 2048, device=meta)
    decoder = nn.TransformerDecoderLayer(512, 8, 2048, device=meta)
    assert PC.component("count_encoder_layer", ((512, 2048), {})) == _numel(encoder) == 3_152_384
    assert PC.component("count_decoder_layer", ((512, 2048), {})) == _numel(decoder) == 4_204_032
    assert PC.component("count_mha", ((512,), {})) == _numel(nn.MultiheadAttention(512, 8, device=meta)) == 1_050_624
    assert PC.component("count_mha", ((512,), {"bias": False})) == 1_048_576


@pytest.mark.filterwarnings("ignore:enable_nested_tensor is True")  # torch's note about its fast path
def test_bias_false_means_what_torch_layers_mean() -> None:
    """bias=False drops every bias, LayerNorm's beta included, as torch's own layers do (issue 14:
    a learner who checks with nn.TransformerEncoderLayer(bias=False) must get the grader's count)."""
    meta = torch.device("meta")
    reference = _reference("param_count")
    encoder = nn.TransformerEncoderLayer(76, 4, 20, bias=False, device=meta)
    decoder = nn.TransformerDecoderLayer(88, 8, 252, bias=False, device=meta)
    assert _numel(encoder) == 26_296  # not 26,448, which keeps two LayerNorm betas
    assert PC.component("count_encoder_layer", ((76, 20), {"bias": False})) == _numel(encoder)
    assert reference.count_encoder_layer(76, 20, bias=False) == _numel(encoder)
    assert PC.component("count_decoder_layer", ((88, 252), {"bias": False})) == _numel(decoder)
    assert reference.count_decoder_layer(88, 252, bias=False) == _numel(decoder)
    assert PC.component("count_layernorm", ((64,), {"bias": False})) == _numel(nn.LayerNorm(64, bias=False)) == 64
    config = dict(PC.NAMED["nn.Transformer() (no embeddings: vocab 0)"], bias=False)
    whole = nn.Transformer(bias=False, batch_first=True, device=meta)
    assert PC.count(config)["total"] == reference.count_transformer(config)["total"] == _numel(whole)


@pytest.mark.parametrize(
    ("label", "total"),
    [
        ("nn.Transformer() (no embeddings: vocab 0)", 44_140_544),
        ("base Transformer (V=37,000, 3-way tying)", 63_082_496),
        ("big Transformer (V=37,000, 3-way tying)", 214_245_376),
        ("GPT-2 small", 124_439_808),
        ("BERT-base shape (no segment embeddings, embedding LayerNorm or pooler)", 108_919_098),
    ],
)
def test_named_models_have_the_published_totals(label: str, total: int) -> None:
    assert PC.count(PC.NAMED[label])["total"] == total


def test_nn_transformer_itself_has_the_same_count() -> None:
    built = PC.count(PC.NAMED["nn.Transformer() (no embeddings: vocab 0)"])
    assert _numel(nn.Transformer(batch_first=True, device=torch.device("meta"))) == built["total"]
    assert built["final_norms"] == 2 * 1024  # nn.Transformer adds a final LayerNorm to each stack


class _Ctx:
    """The two attributes of a CheckContext that the judging helpers read, plus a seeded rng."""

    def __init__(self, seed: int):
        self.registry = PC.checks
        self.reference = _reference("param_count")
        self.rng = np.random.default_rng(seed)


def _grid(seed: int) -> list[dict]:
    ctx = _Ctx(seed)
    return [
        PC.random_config(ctx, arch, i)
        for arch in ("encoder-decoder", "encoder-only", "decoder-only")
        for i in range(6)
    ]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_reference_formulas_agree_with_the_built_models(seed: int) -> None:
    reference = _reference("param_count")
    for config in _grid(seed):
        assert reference.count_transformer(dict(config)) == PC.count(config), PC.describe(config)


@pytest.mark.parametrize("mistake", sorted(PC.MISTAKES))
def test_every_mistaken_build_is_recognised_from_its_counts(mistake: str) -> None:
    """On the grid a check uses, the mistaken model's counts differ and diagnose as that mistake."""
    ctx = _Ctx(7)
    configs = _grid(7) + list(PC.NAMED.values())
    build = PC.MISTAKES[mistake][0]
    misses = []
    for config in configs:
        truth, wrong = PC.count(config), PC.count(config, build)
        misses += [PC.Miss((config,), {}, k, wrong[k], truth[k]) for k in PC.KEYS if wrong[k] != truth[k]]
    assert misses, f"{mistake} changes no count on the grid"
    assert PC.best_mistake(ctx, "count_transformer", misses) == mistake


def test_tied_weights_count_once_and_twice_only_when_asked() -> None:
    gpt2 = PC.NAMED["GPT-2 small"]
    once, twice = PC.count(gpt2), PC.count(gpt2, PC.Build(count_shared_twice=True))
    assert twice["output"] - once["output"] == 50257 * 768


# --------------------------------------------------------------------------- positional_encoding fit


@pytest.mark.parametrize(("d_model", "base"), [(8, 10000.0), (16, 10000.0), (12, 100.0), (64, 500.0), (11, 10000.0)])
def test_frequency_fit_names_the_frequency_mistakes(d_model: int, base: float) -> None:
    ref = _reference("positional_encoding")
    ctx = _pe_context(ref)
    table = ref.sinusoidal_encoding(4, d_model, base)
    assert PE.frequency_mistake(ctx, table, base)[0] is None
    assert PE.frequency_mistake(ctx, ref.sinusoidal_encoding(4, d_model, base**2), base)[0] == "exponent_2i_bug"
    assert PE.frequency_mistake(ctx, ref.sinusoidal_encoding(4, d_model, base**0.5), base)[0] == "missing_factor_2"
    assert PE.frequency_mistake(ctx, ref.sinusoidal_encoding(4, d_model, base * 3.7), base)[0] == "wrong_base"
    swapped = PE._swapped(4, d_model, base)
    assert PE.frequency_mistake(ctx, swapped, base)[0] == "sin_cos_swapped"


@pytest.mark.parametrize("base", [*PE.CUSTOM_BASES, 2000.0])
def test_an_ignored_base_is_told_apart_from_the_2i_bug(base: float) -> None:
    """A table built with the default base when another was asked for is ``ignored_base``; the 2i
    bug at the same base is ``exponent_2i_bug``. At base 100 (100² = 10000) the two tables are the
    same, which is why no check asks for base 100."""
    ref = _reference("positional_encoding")
    ignored = ref.sinusoidal_encoding(6, 12, 10000.0)  # what a learner who ignores base returns
    doubled = ref.sinusoidal_encoding(6, 12, base**2)
    ctx = _pe_context(ref)
    assert PE.frequency_mistake(ctx, ignored, base)[0] == PE.table_mistake(ctx, ignored, base) == "ignored_base"
    assert PE.frequency_mistake(ctx, doubled, base)[0] == PE.table_mistake(ctx, doubled, base) == "exponent_2i_bug"
    assert np.allclose(ref.sinusoidal_encoding(6, 12, 100.0**2), ignored) and 100.0 not in PE.CUSTOM_BASES


def test_fitted_frequencies_ignore_the_position_origin() -> None:
    """Starting positions at 1 leaves the frequencies right: only the row-0 check catches it."""
    ref = _reference("positional_encoding")
    shifted = ref.sinusoidal_encoding(5, 12)[1:]
    expected = 10000.0 ** (-np.arange(0, 12, 2) / 12)
    assert np.allclose(PE.fitted_frequencies(shifted), expected)


def test_reference_table_matches_the_published_vectors() -> None:
    """content.md 3.4: PE(2, 8) row 1, PE(3, 5) row 2, and PE(p) . PE(p+3) = 5.543101 for d = 16."""
    ref = _reference("positional_encoding")
    row = [0.841471, 0.5403023, 0.0998334, 0.9950042, 0.0099998, 0.99995, 0.001, 0.9999995]
    assert np.allclose(ref.sinusoidal_encoding(2, 8)[1], row, atol=1e-7)
    table = ref.sinusoidal_encoding(20, 16)
    assert table[4] @ table[7] == pytest.approx(5.543101, abs=1e-6)
    odd_row = [0.9092974, -0.4161468, 0.0502166, 0.9987384, 0.0012619]  # PE(3, 5) row 2
    assert np.allclose(ref.sinusoidal_encoding(3, 5)[2], odd_row, atol=1e-7)
