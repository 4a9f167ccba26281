"""Hidden tests for additive_attention: each check's code, and the mistakes recognised by name.

The grader draws W_q, W_k and w_v (float64, scaled like nn.Linear's initialisation so that tanh
and the softmax are not saturated) and loads them into the learner's module and the reference,
so outputs and weights can be compared value by value. Sizes differ on every axis (query_size ≠
key_size ≠ num_hiddens ≠ d_v, n_q ≠ n_k) so that a mix-up fails loudly; one case has
query_size == key_size, so that a learner who swapped W_q and W_k still runs and can be told so.

Whether the query-key sum is broadcast, not looped, is judged by counting the torch operations
one forward pass runs (probes.operations) for a small and a larger input: the count of a
broadcast implementation does not depend on n_q and n_k. Counting is deterministic; timing on a
loaded machine is not.
"""

from __future__ import annotations

import math

import numpy as np
import torch

from grader.checks import CheckContext, CheckRegistry
from grader.compare import assert_array, assert_shape, describe
from grader.i18n import Text

#: What probes.py reports when it cannot drive the module (see ctx.probe_or_fail).
checks = CheckRegistry(probe_problems=("not_a_module", "no_parameter_named", "loaded_shape", "detached"))

ADD = "AdditiveAttention"
RTOL, ATOL = 1e-6, 1e-8  # float64 against a float64 reference
D_V = 3


# --------------------------------------------------------------------------- inputs


def config(key_size: int = 6, query_size: int = 4, num_hiddens: int = 8) -> dict:
    return {"key_size": key_size, "query_size": query_size, "num_hiddens": num_hiddens}


def state_shapes(cfg: dict) -> dict[str, tuple[int, int]]:
    """The parameters the module must have: name -> shape (nn.Linear stores (out, in))."""
    h = cfg["num_hiddens"]
    return {"W_k.weight": (h, cfg["key_size"]), "W_q.weight": (h, cfg["query_size"]), "w_v.weight": (1, h)}


def weights(rng: np.random.Generator, cfg: dict) -> dict[str, torch.Tensor]:
    """A float64 state dict, each weight scaled by 1/sqrt(fan_in) like nn.Linear's initialisation."""
    return {
        name: torch.from_numpy(rng.standard_normal(shape) / math.sqrt(shape[1]))
        for name, shape in state_shapes(cfg).items()
    }


def tensor(rng: np.random.Generator, *shape: int) -> torch.Tensor:
    return torch.from_numpy(rng.standard_normal(shape))  # float64


def case(rng: np.random.Generator, cfg: dict, B: int, n_q: int, n_k: int, valid_lens=None, **extra) -> dict:
    """Weights and inputs for one forward pass: queries (B, n_q, query_size), keys (B, n_k, key_size),
    values (B, n_k, d_v)."""
    return {
        "config": cfg, "state": weights(rng, cfg),
        "queries": tensor(rng, B, n_q, cfg["query_size"]), "keys": tensor(rng, B, n_k, cfg["key_size"]),
        "values": tensor(rng, B, n_k, D_V), "valid_lens": valid_lens, **extra,
    }


def lens(ctx: CheckContext, shape: tuple[int, ...], low: int, high: int) -> torch.Tensor:
    """Valid lengths in [low, high], int64."""
    return torch.from_numpy(ctx.rng.integers(low, high + 1, size=shape))


def args_of(c: dict) -> tuple:
    """The arguments a mistake hypothesis receives for a case."""
    return (c["config"], c["state"], c["queries"], c["keys"], c["values"], c["valid_lens"])


# --------------------------------------------------------------------------- the reference


def run_reference(ref, cfg, state, queries, keys, values, valid_lens=None):
    """The reference module carrying ``state``: (output, attention_weights)."""
    module = ref.AdditiveAttention(**cfg).to(queries.dtype)
    module.load_state_dict(state)
    with torch.no_grad():
        output = module(queries, keys, values, valid_lens)
    return output, module.attention_weights


def expected(ctx: CheckContext, c: dict):
    return ctx.memo(run_reference, ctx.reference, *args_of(c))


# --------------------------------------------------------------------------- calling the learner


def run(ctx: CheckContext, cases: list[dict]) -> list[tuple]:
    """Forward every case in one round trip: (output, self.attention_weights) per case."""
    results = ctx.probe_or_fail("forward", cases)
    pairs = []
    for c, found in zip(cases, results):
        output = found["output"]
        assert_array(output, "forward(...)", tensor=True)
        if found["weights"] is None:
            ctx.fail(ctx.msg("no_attention_weights"))
        B, n_q, n_k = c["queries"].shape[0], c["queries"].shape[1], c["keys"].shape[1]
        assert_shape(output, (B, n_q, D_V), ctx.msg("output_shape", B=B, n_q=n_q, d_v=D_V))
        assert_shape(found["weights"], (B, n_q, n_k), ctx.msg("weights_shape", B=B, n_q=n_q, n_k=n_k))
        pairs.append((output, found["weights"]))
    return pairs


def compare(ctx: CheckContext, c: dict, result: tuple, label: Text) -> None:
    """Compare (output, weights) with the reference's on case ``c``; name the mistake of a mismatch."""
    exp_out, exp_w = expected(ctx, c)
    for actual, exp, name in ((result[1], exp_w, "attention_weights"), (result[0], exp_out, "output")):
        ctx.assert_close(
            actual, exp, name=ctx.msg("with_case", name=name, case=label), rtol=RTOL, atol=ATOL,
            entry=ADD, args=args_of(c), result=result,
        )


def check_values(ctx: CheckContext, cases: list[dict], label: Text) -> None:
    for c, result in zip(cases, run(ctx, cases)):
        compare(ctx, c, result, label)


# --------------------------------------------------------------------------- checks


@checks.test("parameters")
def parameters(ctx: CheckContext) -> None:
    for cfg in (config(6, 4, 8), config(5, 5, 3)):
        found = ctx.probe_or_fail("parameters", cfg)
        not_linear = [name for name, ok in found["linear"].items() if not ok]
        if not_linear:
            ctx.fail(ctx.msg("not_linear", name=not_linear[0]))
        got = {name: tuple(shape) for name, shape in found["parameters"]}
        want = state_shapes(cfg)
        extra = sorted(set(got) - set(want))
        if any(name.endswith(".bias") for name in extra):
            ctx.fail(ctx.msg("has_bias", name=next(n for n in extra if n.endswith(".bias"))))
        for name, shape in want.items():
            if name not in got:
                ctx.fail(ctx.msg("missing_parameter", name=name))
            if got[name] != shape:
                ctx.fail(ctx.msg(
                    "parameter_shape", name=name, actual=got[name], expected=shape, key_size=cfg["key_size"],
                    query_size=cfg["query_size"], num_hiddens=cfg["num_hiddens"],
                ))
        if extra:
            ctx.fail(ctx.msg("unexpected_parameter", name=extra[0]))


@checks.test("shapes")
def shapes(ctx: CheckContext) -> None:
    cases = [case(ctx.rng, config(), 2, 3, 5), case(ctx.rng, config(), 2, 4, 6, lens(ctx, (2,), 1, 6))]
    run(ctx, cases)  # run() fails on a missing attention_weights or a wrong shape


@checks.test("values")
def values(ctx: CheckContext) -> None:
    # query_size == key_size first: a learner who swapped W_q and W_k still runs and is told so
    check_values(ctx, [case(ctx.rng, config(5, 5, 7), 2, 3, 5)], ctx.msg("case_same_sizes"))
    check_values(ctx, [case(ctx.rng, config(6, 4, 8), 2, 3, 5)], ctx.msg("case_sizes_differ"))


@checks.test("valid_lens_per_item")
def valid_lens_per_item(ctx: CheckContext) -> None:
    valid = torch.from_numpy(ctx.rng.permutation(np.arange(1, 6))[:3])  # (B,), different per item, < n_k
    check_values(ctx, [case(ctx.rng, config(), 3, 4, 6, valid)], ctx.msg("case_lens_b"))


@checks.test("valid_lens_per_query")
def valid_lens_per_query(ctx: CheckContext) -> None:
    check_values(ctx, [case(ctx.rng, config(), 3, 4, 6, lens(ctx, (3, 4), 1, 6))], ctx.msg("case_lens_bq"))


@checks.test("masked_weights")
def masked_weights(ctx: CheckContext) -> None:
    valid = lens(ctx, (3, 4), 1, 5)  # (B, n_q): every row has a masked key
    c = case(ctx.rng, config(), 3, 4, 6, valid)
    result = run(ctx, [c])[0]
    w = assert_array(result[1], "attention_weights")
    keep = np.arange(6)[None, None, :] < valid.numpy()[..., None]  # (B, n_q, n_k)
    if np.isnan(w).any():
        ctx.fail(ctx.msg("weights_nan"))
    if (w < 0).any():
        ctx.fail(ctx.msg("negative_weights"))
    if np.abs(w[~keep]).max(initial=0) != 0:
        ctx.fail(ctx.msg("past_valid_len"), diagnosis=ctx.diagnose(ADD, result, *args_of(c)))
    sums = w.sum(axis=-1)
    if not np.allclose(sums, 1.0, atol=1e-9):
        worst = f"{float(np.abs(sums - 1).max()):.3g}"
        ctx.fail(ctx.msg("rows_do_not_sum", worst=worst), diagnosis=ctx.diagnose(ADD, result, *args_of(c)))


@checks.test("empty_rows")
def empty_rows(ctx: CheckContext) -> None:
    valid = lens(ctx, (3, 4), 1, 6)
    valid[0, 1] = valid[2, 3] = 0  # two queries see no key
    c = case(ctx.rng, config(), 3, 4, 6, valid)
    result = run(ctx, [c])[0]
    output, w = (assert_array(v, name) for v, name in zip(result, ("output", "attention_weights")))
    rows, outs = np.stack([w[0, 1], w[2, 3]]), np.stack([output[0, 1], output[2, 3]])  # (2, n_k), (2, d_v)
    if np.isnan(rows).any() or np.isnan(outs).any():
        ctx.fail(ctx.msg("empty_row_nan"), diagnosis="nan_on_fully_masked")
    if np.abs(rows).max() != 0:
        if np.allclose(rows, 1 / 6):  # a finite fill such as -1e6 gives every key the same weight
            ctx.fail(ctx.msg("empty_row_uniform"), diagnosis="large_negative_fill")
        ctx.fail(ctx.msg("empty_row_weights"))
    if np.abs(outs).max() != 0:
        ctx.fail(ctx.msg("empty_row_output"))
    compare(ctx, c, result, ctx.msg("case_empty_rows"))


@checks.test("broadcasting")
def broadcasting(ctx: CheckContext) -> None:
    cfg = config()
    small, large = case(ctx.rng, cfg, 2, 2, 3), case(ctx.rng, cfg, 2, 6, 9)
    counts = ctx.probe_or_fail("operations", [small, large])
    if not (isinstance(counts, list) and len(counts) == 2 and all(type(n) is int for n in counts)):
        ctx.fail(ctx.msg("probe_unknown", kind=describe(counts)))
    if counts[1] > counts[0]:
        ctx.fail(ctx.msg("loop", small=counts[0], large=counts[1]), diagnosis="feature_sum_loop")


@checks.test("gradients")
def gradients(ctx: CheckContext) -> None:
    c = case(ctx.rng, config(), 3, 4, 6, lens(ctx, (3,), 2, 6))
    grad_output = tensor(ctx.rng, 3, 4, D_V)  # (B, n_q, d_v)
    found = ctx.probe_or_fail("gradients", c, grad_output)
    reference_grads = ctx.memo(reference_gradients, ctx.reference, *args_of(c), grad_output)
    for name in reference_grads:
        if found["grads"].get(name) is None:
            ctx.fail(ctx.msg("no_gradient", name=name, projection=name.split(".")[0]))
    exp_out, _ = expected(ctx, c)
    ctx.assert_close(found["output"], exp_out, name=ctx.msg("case_gradient_run"), rtol=RTOL, atol=ATOL)
    for name, grad in reference_grads.items():
        ctx.assert_close(found["grads"][name], grad, name=ctx.msg("gradient_of", name=name), rtol=RTOL, atol=ATOL)


def reference_gradients(ref, cfg, state, queries, keys, values, valid_lens, grad_output) -> dict[str, torch.Tensor]:
    """The gradient of ``sum(output * grad_output)`` for each parameter of the reference carrying ``state``."""
    module = ref.AdditiveAttention(**cfg).double()
    module.load_state_dict(state)
    (module(queries, keys, values, valid_lens) * grad_output).sum().backward()
    return {name: param.grad for name, param in module.named_parameters()}


@checks.test("larger_inputs")
def larger_inputs(ctx: CheckContext) -> None:
    cfg = config(10, 6, 16)
    check_values(ctx, [case(ctx.rng, cfg, 4, 7, 9, lens(ctx, (4, 7), 1, 9))], ctx.msg("case_larger"))


@checks.test("dtypes")
def dtypes(ctx: CheckContext) -> None:
    """The same weights and inputs in float32 and float64: each keeps its dtype, and they agree."""
    base = case(ctx.rng, config(), 3, 4, 6, lens(ctx, (3,), 1, 6))
    cases = []
    for dtype in (torch.float32, torch.float64):  # float32 values in both, so only precision differs
        cast = {k: base[k].float().to(dtype) for k in ("queries", "keys", "values")}
        state = {k: v.float().to(dtype) for k, v in base["state"].items()}
        cases.append(dict(base, **cast, state=state, dtype=str(dtype).removeprefix("torch.")))
    results = run(ctx, cases)
    for c, result in zip(cases, results):
        for value, name in zip(result, ("output", "attention_weights")):
            if value.dtype != c["queries"].dtype:
                ctx.fail(ctx.msg("dtype_changed", dtype=c["dtype"], name=name, got=describe(value)))
    (out32, w32), (out64, w64) = results
    for low, high, name in ((w32, w64, "attention_weights"), (out32, out64, "output")):
        ctx.assert_close(low, high, name=ctx.msg("against_float64", name=name), rtol=1e-4, atol=1e-5)


# --------------------------------------------------------------------------- figures
# Public examples (grader/figures.py): drawn beside the reference's when a check naming them fails.


def _figure_weights(side, valid_lens: torch.Tensor):
    c = case(side.rng, config(4, 4, 6), 1, 4, 6, valid_lens)  # query_size == key_size: a swap still runs
    (found,) = side.probe("forward", [c])
    return found["weights"][0]  # (n_q, n_k)


@checks.figure("weights_per_item")
def _weights_per_item(side):
    return _figure_weights(side, torch.tensor([4]))


@checks.figure("weights_per_query")
def _weights_per_query(side):
    return _figure_weights(side, torch.tensor([[2, 4, 0, 6]]))


# --------------------------------------------------------------------------- mistakes
# Each hypothesis is the computation re-run under one mistake, with the same weights and inputs;
# a learner output that matches it is diagnosed with that mistake's id.


def _scores(state, queries, keys, *, tanh=True):
    """w_vᵀ tanh(W_q q + W_k k) for every (query, key): (B, n_q, n_k)."""
    q = queries @ state["W_q.weight"].T  # (B, n_q, h)
    k = keys @ state["W_k.weight"].T  # (B, n_k, h)
    features = q.unsqueeze(2) + k.unsqueeze(1)  # (B, n_q, n_k, h)
    if tanh:
        features = torch.tanh(features)
    return (features @ state["w_v.weight"].T).squeeze(-1)  # (B, n_q, n_k)


def _keep(scores, valid_lens):
    """True for the keys each query may see: (B, 1 or n_q, n_k)."""
    lengths = valid_lens[:, None] if valid_lens.dim() == 1 else valid_lens
    return torch.arange(scores.shape[-1]) < lengths[..., None]


def _attend(weights, values):
    return weights @ values, weights  # ((B, n_q, d_v), (B, n_q, n_k))


@checks.mistake("missing_tanh", ADD)
def _missing_tanh(ref, cfg, state, queries, keys, values, valid_lens=None):
    return _attend(ref.masked_softmax(_scores(state, queries, keys, tanh=False), valid_lens), values)


@checks.mistake("softmax_over_queries", ADD)
def _softmax_over_queries(ref, cfg, state, queries, keys, values, valid_lens=None):
    if valid_lens is not None:
        raise ValueError("the hypothesis is tested without valid_lens")
    return _attend(torch.softmax(_scores(state, queries, keys), dim=1), values)


@checks.mistake("valid_lens_ignored", ADD)
def _valid_lens_ignored(ref, cfg, state, queries, keys, values, valid_lens=None):
    if valid_lens is None:
        raise ValueError("needs valid_lens")
    return run_reference(ref, cfg, state, queries, keys, values, None)


@checks.mistake("mask_after_softmax", ADD)
def _mask_after_softmax(ref, cfg, state, queries, keys, values, valid_lens=None):
    if valid_lens is None:
        raise ValueError("needs valid_lens")
    scores = _scores(state, queries, keys)  # (B, n_q, n_k)
    return _attend(torch.softmax(scores, dim=-1) * _keep(scores, valid_lens), values)  # rows no longer sum to 1


@checks.mistake("swapped_projections", ADD)
def _swapped_projections(ref, cfg, state, queries, keys, values, valid_lens=None):
    if state["W_q.weight"].shape != state["W_k.weight"].shape:
        raise ValueError("W_q and W_k can only be swapped when query_size == key_size")
    swapped = dict(state, **{"W_q.weight": state["W_k.weight"], "W_k.weight": state["W_q.weight"]})
    return run_reference(ref, cfg, swapped, queries, keys, values, valid_lens)


@checks.mistake("large_negative_fill", ADD)
def _large_negative_fill(ref, cfg, state, queries, keys, values, valid_lens=None):
    if valid_lens is None:
        raise ValueError("needs valid_lens")
    scores = _scores(state, queries, keys)  # (B, n_q, n_k)
    return _attend(torch.softmax(scores.masked_fill(~_keep(scores, valid_lens), -1e6), dim=-1), values)


@checks.mistake("nan_on_fully_masked", ADD)
def _nan_on_fully_masked(ref, cfg, state, queries, keys, values, valid_lens=None):
    if valid_lens is None:
        raise ValueError("needs valid_lens")
    scores = _scores(state, queries, keys)  # (B, n_q, n_k)
    return _attend(torch.softmax(scores.masked_fill(~_keep(scores, valid_lens), float("-inf")), dim=-1), values)
