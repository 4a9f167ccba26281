"""Hidden tests for param_count: the truth is a torch model, never a hand formula.

For every config the checks *build* the model in this (trusted) process from standard modules
(``nn.MultiheadAttention``, ``nn.Linear``, ``nn.LayerNorm``, ``nn.Embedding``; tying by sharing the
Parameter) on the meta device, and count ``numel()`` over its unique parameters, attributing each
parameter to the first part of the model that holds it (embeddings, encoder, decoder, final_norms,
output). A named mistake is the same model built the mistaken way (a :class:`Build` with one
switch flipped); a wrong count is diagnosed by which mistaken build reproduces it, key by key.

A check's calls go to the learner's process together (``ctx.calls``: one round trip) and are
judged one by one in order, so a check ends where it would have with one call at a time.
"""

import functools
import numbers
import warnings
from dataclasses import dataclass
from typing import Any

import torch
from torch import nn

from grader.checks import CheckContext, CheckRegistry
from grader.i18n import Text, join

checks = CheckRegistry()

KEYS = ("embeddings", "encoder", "decoder", "final_norms", "output", "total")
PARTS = KEYS[:-1]


@dataclass(frozen=True)  # no `from __future__ import annotations` here: this file is not in sys.modules
class Build:
    """How the model is built. The defaults are the truth; a mistake flips a switch (or two)."""

    attention_bias: bool = True  # False: attention Linear layers lose their biases
    ffn_bias: bool = True  # False: feed-forward Linear layers lose their biases
    layer_norms: bool = True  # False: layers have no LayerNorm
    norm_beta: bool = True  # False: every LayerNorm has only gamma
    norm_beta_follows_bias: bool = True  # False: LayerNorms keep beta when bias=False (torch drops it)
    full_heads: bool = True  # False: W_q, W_k, W_v are d x d_k, as for one head
    cross_attention: bool = True  # False: decoder layers of encoder-decoder models lack cross-attention
    cross_norm: bool = True  # with cross_attention False: False also drops the third LayerNorm
    count_shared_twice: bool = False  # count a tied matrix once per module that uses it
    tie_more: bool = False  # one tying step too far: "none" counted as "output", "output" as "all"
    sinusoidal_params: bool = False  # the fixed sinusoidal table counted as parameters
    learned_positions: bool = True  # False: learned position tables left out
    final_norm: bool = True  # False: the final LayerNorms left out


TRUTH = Build()


# --------------------------------------------------------------------------- the model


class Embedding(nn.Embedding):
    """nn.Embedding without its random init: the count does not depend on it, and normal_ on the
    meta device costs seconds the first time (it loads torch's decompositions)."""

    def reset_parameters(self) -> None:
        pass


def layer_norm(d: int, bias: bool, build: Build) -> nn.LayerNorm:
    """nn.LayerNorm(d, bias=bias): with bias=False only gamma, as in nn.TransformerEncoderLayer(bias=False)."""
    return nn.LayerNorm(d, bias=build.norm_beta and (bias or not build.norm_beta_follows_bias))


def attention(d: int, heads: int, bias: bool, build: Build) -> nn.Module:
    bias = bias and build.attention_bias
    if build.full_heads:
        return nn.MultiheadAttention(d, heads, bias=bias, batch_first=True)
    d_k = d // heads
    return nn.ModuleDict(
        {
            "q": nn.Linear(d, d_k, bias=bias),
            "k": nn.Linear(d, d_k, bias=bias),
            "v": nn.Linear(d, d_k, bias=bias),
            "o": nn.Linear(d, d, bias=bias),
        }
    )


def feed_forward(d: int, d_ff: int, bias: bool, build: Build) -> nn.Module:
    bias = bias and build.ffn_bias
    return nn.Sequential(nn.Linear(d, d_ff, bias=bias), nn.ReLU(), nn.Linear(d_ff, d, bias=bias))


def layer(d: int, heads: int, d_ff: int, bias: bool, kind: str, build: Build) -> nn.Module:
    """kind: 'encoder', 'decoder' (self- and cross-attention) or 'decoder_only' (self-attention)."""
    block = nn.Module()
    block.self_attn = attention(d, heads, bias, build)
    norms = 2
    if kind == "decoder":
        if build.cross_attention:
            block.cross_attn = attention(d, heads, bias, build)
        norms = 3 if build.cross_attention or build.cross_norm else 2
    block.ffn = feed_forward(d, d_ff, bias, build)
    if build.layer_norms:
        block.norms = nn.ModuleList(layer_norm(d, bias, build) for _ in range(norms))
    return block


class Positions(nn.Module):
    """A stack's position table: learned (a parameter) or sinusoidal (a buffer)."""

    def __init__(self, config: dict, build: Build):
        super().__init__()
        d, max_len = config["d_model"], config["max_len"]
        if config["positional"] == "learned":
            if build.learned_positions:
                self.table = Embedding(max_len, d)
        elif build.sinusoidal_params:
            self.table = nn.Parameter(torch.empty(max_len, d))
        else:
            self.register_buffer("table", torch.empty(max_len, d))


def model(config: dict, build: Build = TRUTH) -> nn.Module:
    """The model ``config`` describes, with submodules named after the keys of count_transformer."""
    arch, d, heads = config["architecture"], config["d_model"], config["num_heads"]
    d_ff, bias = config["d_ff"], config["bias"]
    has_encoder = arch in ("encoder-decoder", "encoder-only")
    has_decoder = arch in ("encoder-decoder", "decoder-only")
    tie = config["tie_embeddings"]
    if build.tie_more:
        tie = {"none": "output", "output": "all"}.get(tie, tie)
    with torch.device("meta"), warnings.catch_warnings():
        # nn.Transformer()'s config has vocabulary 0: torch warns that initialising nothing does nothing.
        warnings.filterwarnings("ignore", message="Initializing zero-element tensors")
        net = nn.Module()
        net.embeddings = nn.ModuleDict()
        if arch == "encoder-decoder":
            src = Embedding(config["src_vocab_size"], d)
            tgt = src if tie == "all" else Embedding(config["tgt_vocab_size"], d)
            net.embeddings["src_tokens"], net.embeddings["tgt_tokens"] = src, tgt
        else:
            vocab = config["src_vocab_size"] if has_encoder else config["tgt_vocab_size"]
            tgt = net.embeddings["tokens"] = Embedding(vocab, d)
        for stack, present in (("src_positions", has_encoder), ("tgt_positions", has_decoder)):
            if present:
                net.embeddings[stack] = Positions(config, build)
        decoder_kind = "decoder" if arch == "encoder-decoder" else "decoder_only"
        n_encoder = config["num_encoder_layers"] if has_encoder else 0
        n_decoder = config["num_decoder_layers"] if has_decoder else 0
        net.encoder = nn.ModuleList(layer(d, heads, d_ff, bias, "encoder", build) for _ in range(n_encoder))
        net.decoder = nn.ModuleList(layer(d, heads, d_ff, bias, decoder_kind, build) for _ in range(n_decoder))
        stacks = int(has_encoder) + int(has_decoder)
        final = config["final_norm"] and build.final_norm
        net.final_norms = nn.ModuleList(layer_norm(d, bias, build) for _ in range(stacks if final else 0))
        net.output = nn.Linear(d, tgt.num_embeddings, bias=config["output_bias"])
        if tie in ("output", "all"):
            net.output.weight = tgt.weight  # the same Parameter: counted once
    return net


def count(config: dict, build: Build = TRUTH) -> dict[str, int]:
    """numel() per key over the model's unique parameters (or all of them, for count_shared_twice)."""
    return dict(_count(tuple(sorted(config.items())), build))


@functools.lru_cache(maxsize=512)
def _count(config_items: tuple, build: Build) -> tuple:
    config = dict(config_items)
    net = model(config, build)
    parts = dict.fromkeys(PARTS, 0)
    for name, p in net.named_parameters(remove_duplicate=not build.count_shared_twice):
        parts[name.split(".")[0]] += p.numel()
    parts["total"] = sum(parts.values())
    return tuple(parts.items())


def component(entry: str, args: tuple, build: Build = TRUTH) -> int:
    """The count of one building block, by building it (heads do not change any count: use 1)."""
    positional, keywords = args
    try:
        return _component(entry, tuple(positional), tuple(keywords.items()), build)
    except TypeError:  # an unhashable argument: build it without the cache
        return _component.__wrapped__(entry, tuple(positional), tuple(keywords.items()), build)


@functools.lru_cache(maxsize=1024)
def _component(entry: str, positional: tuple, keyword_items: tuple, build: Build) -> int:
    args = (positional, dict(keyword_items))
    with torch.device("meta"):
        if entry == "count_mha":
            d, bias = _fill(args, ("d_model", "bias"), {"bias": True})
            module = attention(d, 1, bias, build)
        elif entry == "count_ffn":
            d, d_ff, bias = _fill(args, ("d_model", "d_ff", "bias"), {"bias": True})
            module = feed_forward(d, d_ff, bias, build)
        elif entry == "count_layernorm":
            d, bias = _fill(args, ("d_model", "bias"), {"bias": True})
            module = layer_norm(d, bias, build)
        elif entry == "count_encoder_layer":
            d, d_ff, bias = _fill(args, ("d_model", "d_ff", "bias"), {"bias": True})
            module = layer(d, 1, d_ff, bias, "encoder", build)
        else:
            names, defaults = ("d_model", "d_ff", "bias", "cross_attention"), {"bias": True, "cross_attention": True}
            d, d_ff, bias, cross = _fill(args, names, defaults)
            module = layer(d, 1, d_ff, bias, "decoder" if cross else "decoder_only", build)
    return sum(p.numel() for p in module.parameters())


def _fill(args: tuple, names: tuple[str, ...], defaults: dict[str, Any]) -> list[Any]:
    positional, keywords = args
    values = dict(zip(names, positional)) | keywords
    return [values.get(n, defaults.get(n)) for n in names]


# --------------------------------------------------------------------------- mistakes

MISTAKES: dict[str, list[Build]] = {
    "missing_attention_bias": [Build(attention_bias=False)],
    "missing_ffn_bias": [Build(ffn_bias=False)],
    "missing_layernorm": [Build(layer_norms=False)],
    "layernorm_gamma_only": [Build(norm_beta=False)],
    "layernorm_beta_without_bias": [Build(norm_beta_follows_bias=False)],
    "single_head_projection": [Build(full_heads=False)],
    "decoder_missing_cross_attention": [Build(cross_attention=False), Build(cross_attention=False, cross_norm=False)],
    "tied_counted_twice": [Build(count_shared_twice=True)],
    "untied_counted_once": [Build(tie_more=True)],
    "sinusoidal_counted_as_params": [Build(sinusoidal_params=True)],
    "learned_positions_missing": [Build(learned_positions=False)],
    "missing_final_norm": [Build(final_norm=False)],
}

COMPONENTS = ("count_mha", "count_ffn", "count_layernorm", "count_encoder_layer", "count_decoder_layer")


def _register() -> None:
    """Each mistake becomes a hypothesis for every entry point (``ref`` is not needed: torch is)."""
    for mistake_id, builds in MISTAKES.items():
        for build in builds:
            checks.mistake(mistake_id, "count_transformer")(lambda ref, config, _b=build: count(config, _b))
            for entry in COMPONENTS:
                checks.mistake(mistake_id, entry)(
                    lambda ref, *args, _e=entry, _b=build, **kwargs: component(_e, (args, kwargs), _b)
                )


_register()


# --------------------------------------------------------------------------- judging


@dataclass(frozen=True)
class Miss:
    """One wrong count: the call, the key of count_transformer's dict (None for the others), the values."""

    args: tuple
    kwargs: dict
    key: str | None
    actual: int
    expected: int


def as_int(ctx: CheckContext, value: Any, what: str) -> int:
    """The learner's count as an int; fail for floats, bools, strings, None."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        shown = f" {value!r}" if isinstance(value, (float, str)) else ""
        ctx.fail(ctx.msg("not_int", what=what, type=type(value).__name__, shown=shown))
    return int(value)


def best_mistake(ctx: CheckContext, entry: str, misses: list[Miss]) -> str | None:
    """The mistake whose build reproduces the most wrong counts of this check (first declared wins ties).

    Looking at every miss of the check at once separates mistakes that coincide on one call: a
    missing pair of LayerNorms and missing attention biases both cost 4·d in an encoder layer with
    bias, but only the first one costs anything when bias=False.
    """
    best, best_hits = None, 0
    for mistake_id, hypothesis in ctx.registry.hypotheses.get(entry, []):
        hits = 0
        for miss in misses:
            value = hypothesis(ctx.reference, *miss.args, **miss.kwargs)
            if (value if miss.key is None else value[miss.key]) == miss.actual:
                hits += 1
        if hits == len(misses):
            return mistake_id  # explains every wrong count: no later mistake can do better
        if hits > best_hits:
            best, best_hits = mistake_id, hits
    return best


#: Counts at least this large are declared secret (smaller ones, like 0 or d_model, say nothing).
SECRET_FROM = 1000


def off_by(ctx: CheckContext, actual: int, expected: int) -> Text:
    """Which way a wrong count is off. Never the expected count, nor the difference: the learner's
    count plus the difference is the expected count (and 0 plus it, for a learner who returns 0)."""
    return ctx.msg("too_many") if actual > expected else ctx.msg("too_few")


def declare_secret(ctx: CheckContext, expected: list[int], returned: list[int]) -> None:
    """The expected counts are answers (several are qa questions): no output may show them. A count
    the learner returned somewhere in the check is no secret to them, so messages may echo it."""
    ctx.secret(*(c for c in set(expected) - set(returned) if abs(c) >= SECRET_FROM))


def _call_text(entry: str, args: tuple, kwargs: dict) -> str:
    shown = [repr(a) for a in args] + [f"{k}={v!r}" for k, v in kwargs.items()]
    return f"{entry}({', '.join(shown)})"


def check_components(ctx: CheckContext, entry: str, calls: list[tuple[tuple, dict]]) -> None:
    """Call ``entry`` on each (args, kwargs); compare each count with the built torch module."""
    misses, expected_counts, returned = [], [], []
    results = ctx.calls([(entry, args, kwargs) for args, kwargs in calls])  # one round trip, judged in order
    for (args, kwargs), result in zip(calls, results):
        call = _call_text(entry, args, kwargs)
        actual = as_int(ctx, result, call)
        expected = component(entry, (args, kwargs))
        expected_counts.append(expected)
        returned.append(actual)
        if actual != expected:
            misses.append(Miss(args, kwargs, None, actual, expected))
    declare_secret(ctx, expected_counts, returned)
    if misses:
        m = misses[0]
        more = ctx.msg("more_calls", n=len(misses) - 1, total=len(calls)) if len(misses) > 1 else ""
        message = ctx.msg(
            "component_wrong", call=_call_text(entry, m.args, m.kwargs), actual=f"{m.actual:,}",
            off=off_by(ctx, m.actual, m.expected), more=more,
        )
        reveal = ctx.msg("reveal_component", expected=f"{m.expected:,}")
        ctx.fail(message, diagnosis=best_mistake(ctx, entry, misses), reveal=reveal)


def describe(config: dict) -> str:
    c = config
    layers = f"layers={c['num_encoder_layers']}+{c['num_decoder_layers']}"
    return (
        f"{c['architecture']} d_model={c['d_model']} heads={c['num_heads']} d_ff={c['d_ff']} {layers} "
        f"vocab={c['src_vocab_size']}/{c['tgt_vocab_size']} max_len={c['max_len']} {c['positional']} "
        f"bias={c['bias']} tie={c['tie_embeddings']} final_norm={c['final_norm']} output_bias={c['output_bias']}"
    )


def transformer_counts(ctx: CheckContext, config: dict) -> dict[str, int]:
    """The learner's count_transformer(config), after checking it is a dict of six ints."""
    return checked_counts(ctx, ctx.call("count_transformer", dict(config)))


def checked_counts(ctx: CheckContext, result: Any) -> dict[str, int]:
    """count_transformer's ``result`` as a dict of six ints; fail for anything else."""
    if not isinstance(result, dict):
        ctx.fail(ctx.msg("not_dict", type=type(result).__name__))
    missing = [k for k in KEYS if k not in result]
    extra = sorted(str(k) for k in result if k not in KEYS)
    if missing or extra:
        ctx.fail(ctx.msg("wrong_keys", keys=list(KEYS), missing=missing, extra=extra))
    return {k: as_int(ctx, result[k], f"count_transformer(...)[{k!r}]") for k in KEYS}


def check_transformers(ctx: CheckContext, configs: dict[str | Text, dict]) -> None:
    """Compare every key for every config with the built model; report each wrong key and which way
    it is off (for the first wrong config), and the mistake that explains them all."""
    misses: list[Miss] = []
    first: tuple[str, list[Miss]] | None = None
    expected_counts: list[int] = []
    returned: list[int] = []
    results = ctx.calls([("count_transformer", (dict(config),)) for config in configs.values()])
    for (label, config), result in zip(configs.items(), results):  # judged in order, as they come
        actual, expected = checked_counts(ctx, result), count(config)
        expected_counts += expected.values()
        returned += actual.values()
        wrong = [Miss((config,), {}, k, actual[k], expected[k]) for k in KEYS if actual[k] != expected[k]]
        misses += wrong
        if wrong and first is None:
            first = (label, wrong)
    declare_secret(ctx, expected_counts, returned)
    if first is None:
        return
    label, wrong = first
    lines = [
        ctx.msg("key_wrong", key=m.key, actual=f"{m.actual:,}", off=off_by(ctx, m.actual, m.expected)) for m in wrong
    ]
    bad_configs = len({id(m.args[0]) for m in misses})
    more = ctx.msg("more_configs", n=bad_configs - 1, total=len(configs)) if bad_configs > 1 else ""
    truth = "; ".join(f"{m.key}: {m.expected:,}" for m in wrong)
    ctx.fail(
        ctx.msg("config_wrong", label=label, lines=join(lines, Text("; ", "；")), more=more),
        diagnosis=best_mistake(ctx, "count_transformer", misses),
        reveal=ctx.msg("reveal_model", truth=truth),
    )


# --------------------------------------------------------------------------- configs


def random_config(ctx: CheckContext, architecture: str, i: int) -> dict:
    """A small random config; the switches cycle with ``i`` so every combination of tie and
    positional mode appears, and bias, final_norm and output_bias each take both values."""
    rng = ctx.rng
    d = int(rng.choice([8, 12, 16, 20, 24]))
    heads = int(rng.choice([h for h in (1, 2, 4) if d % h == 0]))
    vocab = int(rng.integers(20, 100))
    both = architecture == "encoder-decoder"
    tie = ("none", "output", "all")[i % 3]
    return {
        "architecture": architecture,
        "d_model": d,
        "num_heads": heads,
        "d_ff": int(rng.integers(5, 90)),
        "num_encoder_layers": int(rng.integers(1, 4)) if architecture != "decoder-only" else 0,
        "num_decoder_layers": int(rng.integers(1, 4)) if architecture != "encoder-only" else 0,
        "src_vocab_size": vocab,
        "tgt_vocab_size": int(rng.integers(20, 100)) if both and tie != "all" else vocab,
        "max_len": int(rng.integers(101, 140)),
        "positional": ("sinusoidal", "learned")[(i // 3) % 2],
        "bias": i % 3 != 1,
        "tie_embeddings": tie,
        "final_norm": i % 2 == 0,
        "output_bias": i % 4 in (1, 2),
    }


def named_config(architecture: str, d: int, heads: int, d_ff: int, layers: tuple[int, int], vocab: int, max_len: int,
                 positional: str, tie: str, final_norm: bool, output_bias: bool) -> dict:
    return {
        "architecture": architecture, "d_model": d, "num_heads": heads, "d_ff": d_ff,
        "num_encoder_layers": layers[0], "num_decoder_layers": layers[1],
        "src_vocab_size": vocab, "tgt_vocab_size": vocab, "max_len": max_len, "positional": positional,
        "bias": True, "tie_embeddings": tie, "final_norm": final_norm, "output_bias": output_bias,
    }


#: Published models, as this problem's config describes them (their totals are in the tests).
NAMED = {
    "nn.Transformer() (no embeddings: vocab 0)": named_config(
        "encoder-decoder", 512, 8, 2048, (6, 6), 0, 5000, "sinusoidal", "none", True, False
    ),
    "base Transformer (V=37,000, 3-way tying)": named_config(
        "encoder-decoder", 512, 8, 2048, (6, 6), 37000, 5000, "sinusoidal", "all", False, False
    ),
    "big Transformer (V=37,000, 3-way tying)": named_config(
        "encoder-decoder", 1024, 16, 4096, (6, 6), 37000, 5000, "sinusoidal", "all", False, False
    ),
    "GPT-2 small": named_config("decoder-only", 768, 12, 3072, (0, 12), 50257, 1024, "learned", "output", True, False),
    "BERT-base shape (no segment embeddings, embedding LayerNorm or pooler)": named_config(
        "encoder-only", 768, 12, 3072, (12, 0), 30522, 512, "learned", "output", False, True
    ),
}


# --------------------------------------------------------------------------- checks


def _sizes(ctx: CheckContext) -> tuple[int, int]:
    return int(ctx.rng.integers(4, 100)), int(ctx.rng.integers(4, 300))


@checks.test("mha")
def mha(ctx: CheckContext) -> None:
    sizes = (512, 8, int(ctx.rng.integers(9, 200)))
    check_components(ctx, "count_mha", [((d,), kw) for d in sizes for kw in ({}, {"bias": False})])


@checks.test("ffn")
def ffn(ctx: CheckContext) -> None:
    (d1, f1), (d2, f2) = _sizes(ctx), _sizes(ctx)
    calls = [((512, 2048), {})] + [((d, f), kw) for d, f in ((d1, f1), (d2, f2)) for kw in ({}, {"bias": False})]
    check_components(ctx, "count_ffn", calls)


@checks.test("layernorm")
def layernorm(ctx: CheckContext) -> None:
    d = int(ctx.rng.integers(3, 300))
    check_components(ctx, "count_layernorm", [((512,), {}), ((d,), {}), ((d,), {"bias": False})])


@checks.test("encoder_layer")
def encoder_layer(ctx: CheckContext) -> None:
    d, d_ff = _sizes(ctx)
    check_components(ctx, "count_encoder_layer", [((512, 2048), {}), ((d, d_ff), {}), ((d, d_ff), {"bias": False})])


@checks.test("decoder_layer")
def decoder_layer(ctx: CheckContext) -> None:
    d, d_ff = _sizes(ctx)
    options = ({}, {"bias": False}, {"cross_attention": False}, {"bias": False, "cross_attention": False})
    check_components(ctx, "count_decoder_layer", [((512, 2048), {})] + [((d, d_ff), kw) for kw in options])


@checks.test("transformer_keys")
def transformer_keys(ctx: CheckContext) -> None:
    values = transformer_counts(ctx, random_config(ctx, "encoder-decoder", 0))
    parts = sum(values[k] for k in PARTS)
    if values["total"] != parts:
        ctx.fail(ctx.msg("total_not_sum", total=f"{values['total']:,}", parts=f"{parts:,}"))


def _grid(ctx: CheckContext, architecture: str) -> None:
    configs = [random_config(ctx, architecture, i) for i in range(6)]
    ctx.secret(*(describe(c) for c in configs))  # the hidden inputs
    check_transformers(ctx, {describe(c): c for c in configs})


@checks.test("encoder_decoder")
def encoder_decoder(ctx: CheckContext) -> None:
    _grid(ctx, "encoder-decoder")


@checks.test("encoder_only")
def encoder_only(ctx: CheckContext) -> None:
    _grid(ctx, "encoder-only")


@checks.test("decoder_only")
def decoder_only(ctx: CheckContext) -> None:
    _grid(ctx, "decoder-only")


@checks.test("named_models")
def named_models(ctx: CheckContext) -> None:
    labels = {
        "nn.Transformer() (no embeddings: vocab 0)": ctx.msg("model_nn_transformer"),
        "base Transformer (V=37,000, 3-way tying)": ctx.msg("model_base"),
        "big Transformer (V=37,000, 3-way tying)": ctx.msg("model_big"),
        "GPT-2 small": "GPT-2 small",
        "BERT-base shape (no segment embeddings, embedding LayerNorm or pooler)": ctx.msg("model_bert"),
    }
    check_transformers(ctx, {labels[name]: config for name, config in NAMED.items()})
