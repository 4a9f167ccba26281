"""Hidden tests for multi_head_attention: each check's code, and the mistakes recognised by name.

The grader draws the weights (float64, scaled like nn.Linear's initialisation so the softmax is
not saturated) and loads them into both the learner's module and the reference, so outputs can
be compared value by value. Sizes are distinct on every axis (B=3, L_q=5, L_k=7, d_model=8) so
that a mix-up of tokens, heads and features fails loudly. The learner's module is driven by the
helpers in probes.py, which run inside the learner's process.
"""

from __future__ import annotations

import math

import numpy as np
import torch

from grader.checks import CheckContext, CheckFailed, CheckRegistry
from grader.compare import assert_array, assert_shape, describe
from grader.i18n import Text

#: What probes.py reports when it cannot drive the module (see ctx.probe_or_fail).
checks = CheckRegistry(probe_problems=("not_a_module", "no_parameter_named", "loaded_shape", "detached"))

MHA = "MultiHeadAttention"
D_MODEL = 8
RTOL, ATOL = 1e-6, 1e-8  # float64 against a float64 reference
PROJECTIONS = ("W_q", "W_k", "W_v", "W_o")


# --------------------------------------------------------------------------- inputs


def config(num_heads: int, *, bias: bool = True, dropout: float = 0.0, d_model: int = D_MODEL) -> dict:
    return {"d_model": d_model, "num_heads": num_heads, "bias": bias, "dropout": dropout}


def state_shapes(cfg: dict) -> dict[str, tuple[int, ...]]:
    """The parameters the module must have: name -> shape."""
    d = cfg["d_model"]
    shapes = {f"{p}.weight": (d, d) for p in PROJECTIONS}
    if cfg["bias"]:
        shapes.update({f"{p}.bias": (d,) for p in PROJECTIONS})
    return shapes


def weights(ctx: CheckContext, cfg: dict) -> dict[str, torch.Tensor]:
    """A float64 state dict for the four projections, drawn from ctx.rng."""
    d = cfg["d_model"]
    scale = {2: 1 / math.sqrt(d), 1: 0.1}  # weights like nn.Linear's init; small biases
    return {
        name: torch.from_numpy(ctx.rng.standard_normal(shape) * scale[len(shape)])
        for name, shape in state_shapes(cfg).items()
    }


def tokens(ctx: CheckContext, B: int, L: int) -> torch.Tensor:
    return torch.from_numpy(ctx.rng.standard_normal((B, L, D_MODEL)))  # (B, L, d_model), float64


def padding(ctx: CheckContext, B: int, L_k: int) -> torch.Tensor:
    """A key-padding mask (B, 1, 1, L_k): item b keeps a different number of keys (at least 2, not all)."""
    lengths = ctx.rng.permutation(np.arange(2, L_k))[:B]
    keep = np.arange(L_k)[None, :] < lengths[:, None]  # (B, L_k)
    return torch.from_numpy(keep)[:, None, None, :]  # (B, 1, 1, L_k)


def causal(L: int) -> torch.Tensor:
    return torch.ones(L, L, dtype=torch.bool).tril()  # (L, L)


def case(cfg: dict, state, query, key=None, value=None, mask=None, **extra) -> dict:
    key = query if key is None else key
    value = key if value is None else value
    return {"config": cfg, "state": state, "query": query, "key": key, "value": value, "mask": mask, **extra}


def args_of(c: dict) -> tuple:
    """The arguments a mistake hypothesis receives for a case."""
    return (c["config"], c["state"], c["query"], c["key"], c["value"], c["mask"])


# --------------------------------------------------------------------------- the reference


def run_reference(ref, cfg, state, query, key, value, mask=None, *, cls=None):
    """The reference module (or a subclass ``cls``) in eval mode with ``state`` loaded: (output, weights)."""
    module = (cls or ref.MultiHeadAttention)(**cfg).to(query.dtype)
    module.load_state_dict(state)
    module.eval()
    with torch.no_grad():
        return module(query, key, value, mask)


def expected(ctx: CheckContext, c: dict):
    """The reference's (output, weights) on case ``c`` (worked out once per distinct case, see ctx.memo)."""
    return ctx.memo(run_reference, ctx.reference, *args_of(c))


# --------------------------------------------------------------------------- calling the learner


def pair(ctx: CheckContext, result, what: str | Text = "forward"):
    """Fail unless the learner returned (output, weights) as two tensors."""
    if not isinstance(result, tuple) or len(result) != 2:
        ctx.fail(ctx.msg("not_a_pair", what=what, got=describe(result)))
    for value, name in zip(result, ("output", "weights")):
        assert_array(value, ctx.msg("part_of", what=what, name=name), tensor=True)
    return result


def run(ctx: CheckContext, cases: list[dict]) -> list:
    """Forward every case in one round trip; each result is checked to be (output, weights)."""
    return [pair(ctx, r) for r in ctx.probe_or_fail("forward", cases)]


def compare(
    ctx: CheckContext, c: dict, result, *, rtol: float = RTOL, atol: float = ATOL, label: Text | None = None
) -> None:
    """Compare (output, weights) with the reference on case ``c``; diagnose a mismatch."""
    exp_out, exp_w = expected(ctx, c)
    h = c["config"]["num_heads"]
    for actual, exp, name in ((result[1], exp_w, "weights"), (result[0], exp_out, "output")):
        where = ctx.msg("with_case", name=name, case=label, h=h) if label else ctx.msg("with_heads", name=name, h=h)
        ctx.assert_close(actual, exp, name=where, rtol=rtol, atol=atol, entry=MHA, args=args_of(c), result=result)


def check_values(ctx: CheckContext, cases: list[dict], label: Text | None = None) -> None:
    for c, result in zip(cases, run(ctx, cases)):
        compare(ctx, c, result, label=label)


# --------------------------------------------------------------------------- checks


@checks.test("parameters")
def parameters(ctx: CheckContext) -> None:
    d = D_MODEL
    for bias in (True, False):
        found = ctx.probe_or_fail("parameters", config(2, bias=bias))
        not_linear = [name for name, ok in found["linear"].items() if not ok]
        if not_linear:
            ctx.fail(ctx.msg("not_linear", name=not_linear[0]))
        got = {name: tuple(shape) for name, shape in found["parameters"]}
        want = state_shapes(config(2, bias=bias))
        for name, shape in want.items():
            if name not in got:
                ctx.fail(ctx.msg("missing_with_bias", bias=bias, name=name))
            if got[name] != shape:
                ctx.fail(ctx.msg("parameter_shape", name=name, actual=got[name], expected=shape, d=d))
        extra = sorted(set(got) - set(want))
        if extra:
            ctx.fail(ctx.msg("unexpected_parameter", bias=bias, name=extra[0]))
        count, expected_count = sum(math.prod(s) for s in got.values()), 4 * d * d + (4 * d if bias else 0)
        if count != expected_count:
            ctx.fail(ctx.msg("parameter_count", bias=bias, count=count, expected=expected_count))


@checks.test("value_error")
def value_error(ctx: CheckContext) -> None:
    if not ctx.raises("ValueError", MHA, 10, 4):
        ctx.fail(ctx.msg("no_value_error"))


@checks.test("shapes")
def shapes(ctx: CheckContext) -> None:
    cases = []
    for h in (1, 2, 4):
        cfg = config(h)
        cases.append(case(cfg, weights(ctx, cfg), tokens(ctx, 3, 5), tokens(ctx, 3, 7)))
    for c, (output, w) in zip(cases, run(ctx, cases)):
        h = c["config"]["num_heads"]
        assert_shape(w, (3, h, 5, 7), f"weights (B=3, h={h}, L_q=5, L_k=7)")
        assert_shape(output, (3, 5, D_MODEL), f"output (B=3, L_q=5, d_model={D_MODEL})")


@checks.test("self_attention")
def self_attention(ctx: CheckContext) -> None:
    cases = []
    for h in (1, 2, 4):
        cfg = config(h)
        cases.append(case(cfg, weights(ctx, cfg), tokens(ctx, 3, 5)))
    check_values(ctx, cases, ctx.msg("case_self"))


@checks.test("cross_attention")
def cross_attention(ctx: CheckContext) -> None:
    cases = []
    for h, bias in ((2, True), (4, False)):
        cfg = config(h, bias=bias)
        cases.append(case(cfg, weights(ctx, cfg), tokens(ctx, 3, 5), tokens(ctx, 3, 7), tokens(ctx, 3, 7)))
    check_values(ctx, cases, ctx.msg("case_cross"))


@checks.test("padding_mask")
def padding_mask(ctx: CheckContext) -> None:
    cases = []
    for h in (2, 4):
        cfg = config(h)
        mask = padding(ctx, 3, 7)  # (B, 1, 1, L_k), a different length per item
        cases.append(case(cfg, weights(ctx, cfg), tokens(ctx, 3, 5), tokens(ctx, 3, 7), tokens(ctx, 3, 7), mask))
    results = run(ctx, cases)
    for c, result in zip(cases, results):
        compare(ctx, c, result, label=ctx.msg("case_padding"))


@checks.test("causal_mask")
def causal_mask(ctx: CheckContext) -> None:
    cases = []
    for h in (1, 2):
        cfg = config(h)
        cases.append(case(cfg, weights(ctx, cfg), tokens(ctx, 3, 6), mask=causal(6)))
    cfg = config(2)
    both = causal(6)[None, None] & padding(ctx, 3, 6)  # (B, 1, L, L): causal and key padding
    cases.append(case(cfg, weights(ctx, cfg), tokens(ctx, 3, 6), mask=both))
    check_values(ctx, cases, ctx.msg("case_causal"))


@checks.test("fully_masked_rows")
def fully_masked_rows(ctx: CheckContext) -> None:
    cfg = config(2)
    mask = torch.from_numpy(ctx.rng.random((3, 1, 5, 7)) < 0.6)  # (B, 1, L_q, L_k)
    mask[..., 0] = True
    mask[0, 0, 1, :] = False  # query 1 of item 0 has no allowed key
    mask[2, 0, 4, :] = False
    c = case(cfg, weights(ctx, cfg), tokens(ctx, 3, 5), tokens(ctx, 3, 7), tokens(ctx, 3, 7), mask)
    output, w = run(ctx, [c])[0]
    assert_shape(w, (3, 2, 5, 7), "weights")
    assert_shape(output, (3, 5, D_MODEL), "output")
    w = assert_array(w, "weights")
    if np.isnan(w).any() or np.isnan(assert_array(output, "output")).any():
        ctx.fail(ctx.msg("empty_row_nan"))
    empty_rows = np.concatenate([w[0, :, 1], w[2, :, 4]])  # (2 * heads, L_k)
    if np.abs(empty_rows).max() > 0:
        if np.allclose(empty_rows, 1 / w.shape[-1]):  # a finite fill such as -1e9 gives every key the same weight
            ctx.fail(ctx.msg("empty_row_uniform"), diagnosis="large_negative_fill")
        ctx.fail(ctx.msg("empty_row_weights"))
    compare(ctx, c, (output, w), label=ctx.msg("case_empty_rows"))


@checks.test("torch_oracle")
def torch_oracle(ctx: CheckContext) -> None:
    """The learner's module with its own initial weights against nn.MultiheadAttention carrying them."""
    cfg = config(2)
    query, memory = tokens(ctx, 3, 5), tokens(ctx, 3, 7)
    pad = padding(ctx, 3, 7)
    cases = [
        case(cfg, None, query, memory, tokens(ctx, 3, 7), pad),
        case(cfg, None, tokens(ctx, 3, 6), mask=causal(6)),
    ]
    found = ctx.probe_or_fail("own_weights", cfg, cases, seed=int(ctx.rng.integers(2**31)))
    state = found["state"]
    for name, shape in state_shapes(cfg).items():
        if name not in state:
            ctx.fail(ctx.msg("no_parameter", name=name))
        assert_shape(state[name], shape, ctx.msg("parameter", name=name))
    labels = (ctx.msg("case_cross_padding"), ctx.msg("case_self_causal"))
    for c, result, label in zip(cases, found["outputs"], labels):
        result = pair(ctx, result)
        c = dict(c, state={k: state[k] for k in state if k.split(".")[0] in PROJECTIONS})
        exp_out, exp_w = ctx.memo(torch_oracle_outputs, *args_of(c))
        for actual, exp, name in ((result[1], exp_w, "weights"), (result[0], exp_out, "output")):
            ctx.assert_close(
                actual, exp, name=ctx.msg("vs_torch", name=name, case=label),
                entry=MHA, args=args_of(c), result=result,
            )


def torch_oracle_outputs(cfg, state, query, key, value, mask):
    """nn.MultiheadAttention carrying ``state``: (output, per-head weights) on one case."""
    oracle = torch_multihead(cfg, state)
    with torch.no_grad():
        return oracle(
            query, key, value, attn_mask=torch_mask({"query": query, "key": key, "mask": mask}, cfg["num_heads"]),
            need_weights=True, average_attn_weights=False,
        )


def torch_mask(c: dict, num_heads: int) -> torch.Tensor:
    """Our mask (True = may attend, broadcastable to (B, 1, L_q, L_k)) as nn.MultiheadAttention's
    attn_mask: True = blocked, (B * h, L_q, L_k) with the batch-major order b * h + head.

    (A 3D attn_mask rather than key_padding_mask: the latter's argument check imports sympy.)
    """
    B, L_q, L_k = c["query"].shape[0], c["query"].shape[1], c["key"].shape[1]
    allowed = torch.broadcast_to(c["mask"], (B, 1, L_q, L_k))[:, 0]  # (B, L_q, L_k)
    return ~allowed.repeat_interleave(num_heads, dim=0)  # (B * h, L_q, L_k)


def torch_multihead(cfg: dict, state: dict) -> torch.nn.MultiheadAttention:
    """nn.MultiheadAttention (batch first, float64) carrying the given W_q, W_k, W_v, W_o."""
    d, h, bias = cfg["d_model"], cfg["num_heads"], cfg["bias"]
    oracle = torch.nn.MultiheadAttention(d, h, bias=bias, batch_first=True, dtype=torch.float64).eval()
    with torch.no_grad():
        oracle.in_proj_weight.copy_(torch.cat([state[f"{p}.weight"] for p in ("W_q", "W_k", "W_v")]))
        oracle.out_proj.weight.copy_(state["W_o.weight"])
        if bias:
            oracle.in_proj_bias.copy_(torch.cat([state[f"{p}.bias"] for p in ("W_q", "W_k", "W_v")]))
            oracle.out_proj.bias.copy_(state["W_o.bias"])
    return oracle


@checks.test("gradients")
def gradients(ctx: CheckContext) -> None:
    cfg = config(2)
    c = case(cfg, weights(ctx, cfg), tokens(ctx, 3, 5), tokens(ctx, 3, 7), tokens(ctx, 3, 7), padding(ctx, 3, 7))
    grad_output = tokens(ctx, 3, 5)  # (B, L_q, d_model)
    found = ctx.probe_or_fail("gradients", c, grad_output)
    reference_grads = ctx.memo(reference_gradients, ctx.reference, *args_of(c), grad_output)
    for name in reference_grads:
        if found["grads"].get(name) is None:
            projection = name.split(".")[0]
            diagnosis = "missing_output_projection" if projection == "W_o" else None
            ctx.fail(ctx.msg("no_gradient", name=name, projection=projection), diagnosis=diagnosis)
    compare(ctx, c, pair(ctx, found["result"]), label=ctx.msg("case_gradient_run"))
    for name, grad in reference_grads.items():
        ctx.assert_close(found["grads"][name], grad, name=ctx.msg("gradient_of", name=name))


def reference_gradients(ref, cfg, state, query, key, value, mask, grad_output) -> dict[str, torch.Tensor]:
    """The gradient of ``sum(output * grad_output)`` for each parameter of the reference carrying ``state``."""
    torch.random.default_generator.manual_seed(0)  # CPU only; see probes._build
    module = ref.MultiHeadAttention(**cfg).double()
    module.load_state_dict(state)
    output, _ = module(query, key, value, mask)
    (output * grad_output).sum().backward()
    return {name: param.grad for name, param in module.named_parameters()}


@checks.test("batch_independence")
def batch_independence(ctx: CheckContext) -> None:
    cfg = config(2)
    state = weights(ctx, cfg)
    query, memory, value = tokens(ctx, 3, 5), tokens(ctx, 3, 7), tokens(ctx, 3, 7)
    mask = padding(ctx, 3, 7)  # a different key length per item
    batched = case(cfg, state, query, memory, value, mask)
    alone = [
        case(cfg, state, query[b : b + 1], memory[b : b + 1], value[b : b + 1], mask[b : b + 1]) for b in range(3)
    ]
    results = run(ctx, [batched, *alone])
    together = results[0]
    assert_shape(together[1], (3, 2, 5, 7), "weights")
    assert_shape(together[0], (3, 5, D_MODEL), "output")
    for b, (out_b, w_b) in enumerate(results[1:]):
        for actual, single, name in ((together[1], w_b, "weights"), (together[0], out_b, "output")):
            try:
                ctx.assert_close(actual[b : b + 1], single, name=ctx.msg("item_vs_alone", name=name, b=b))
            except CheckFailed:
                diagnosis = ctx.diagnose(MHA, together, *args_of(batched))
                ctx.fail(ctx.msg("mask_leaks", b=b, name=name), diagnosis=diagnosis)


@checks.test("permutation_equivariance")
def permutation_equivariance(ctx: CheckContext) -> None:
    cfg = config(2)
    state = weights(ctx, cfg)
    query, memory = tokens(ctx, 2, 5), tokens(ctx, 2, 7)
    q_perm, k_perm = torch.from_numpy(ctx.rng.permutation(5)), torch.from_numpy(ctx.rng.permutation(7))
    cases = [
        case(cfg, state, query, memory),
        case(cfg, state, query[:, q_perm], memory),
        case(cfg, state, query, memory[:, k_perm]),
    ]
    (out, w), (out_q, w_q), (out_k, w_k) = run(ctx, cases)
    for value, name, shape in ((out, "output", (2, 5, D_MODEL)), (w, "weights", (2, 2, 5, 7))):
        assert_shape(value, shape, name)
    ctx.assert_close(out_q, out[:, q_perm], name=ctx.msg("permuted_queries"))
    ctx.assert_close(w_k, w[..., k_perm], name=ctx.msg("permuted_keys_weights"))
    ctx.assert_close(out_k, out, name=ctx.msg("permuted_keys_output"))


@checks.test("dropout")
def dropout(ctx: CheckContext) -> None:
    cfg = config(2, dropout=0.5)
    c = case(cfg, weights(ctx, cfg), tokens(ctx, 3, 5), tokens(ctx, 3, 7))
    train = dict(c, train=True, seed=int(ctx.rng.integers(2**31)))
    twice, in_train = ctx.probe_or_fail("forward", [dict(c, repeat=2), train])
    first, second = (pair(ctx, r, ctx.msg("forward_eval")) for r in twice)
    in_train = pair(ctx, in_train, ctx.msg("forward_train"))
    for result in (first, second, in_train):
        assert_shape(result[0], (3, 5, D_MODEL), "output")
    out_1, out_2 = assert_array(first[0], "output"), assert_array(second[0], "output")
    if not np.array_equal(out_1, out_2):
        ctx.fail(ctx.msg("dropout_in_eval"), diagnosis="dropout_in_eval")
    compare(ctx, c, first, label=ctx.msg("case_eval_dropout"))
    if np.allclose(assert_array(in_train[0], "output"), out_1, rtol=RTOL, atol=ATOL):
        ctx.fail(ctx.msg("dropout_inactive"))


@checks.test("dtypes")
def dtypes(ctx: CheckContext) -> None:
    """The same weights and inputs in float32 and float64: each keeps its dtype, and they agree."""
    cfg = config(2)
    state, query, memory = weights(ctx, cfg), tokens(ctx, 3, 5), tokens(ctx, 3, 7)
    mask = padding(ctx, 3, 7)
    cases = []
    for dtype in (torch.float32, torch.float64):  # float32 values in both, so only precision differs
        cast = {k: v.float().to(dtype) for k, v in state.items()}
        q, m = query.float().to(dtype), memory.float().to(dtype)
        cases.append(case(cfg, cast, q, m, mask=mask, dtype=str(dtype).removeprefix("torch.")))
    results = run(ctx, cases)
    for c, result in zip(cases, results):
        for value, name in zip(result, ("output", "weights")):
            if value.dtype != c["query"].dtype:
                ctx.fail(ctx.msg("dtype_changed", dtype=c["dtype"], name=name, got=describe(value)))
    (out32, w32), (out64, w64) = results
    for low, high, name in ((w32, w64, "weights"), (out32, out64, "output")):
        ctx.assert_close(low, high, name=ctx.msg("against_float64", name=name), rtol=1e-4, atol=1e-5)


@checks.test("meta_device")
def meta_device(ctx: CheckContext) -> None:
    cfg = config(2)

    def meta(*shape, dtype=torch.float32):
        return torch.empty(shape, dtype=dtype, device="meta")

    cases = [
        case(cfg, None, meta(3, 5, D_MODEL), meta(3, 7, D_MODEL)),
        case(cfg, None, meta(3, 5, D_MODEL), meta(3, 7, D_MODEL), mask=meta(3, 1, 1, 7, dtype=torch.bool)),
        case(cfg, None, meta(3, 6, D_MODEL), mask=meta(6, 6, dtype=torch.bool)),
    ]
    for c, result in zip(cases, ctx.probe_or_fail("meta_forward", cfg, cases)):
        output, w = pair(ctx, result, ctx.msg("forward_meta"))
        L_q, L_k = c["query"].shape[1], c["key"].shape[1]
        for value, name, shape in ((output, "output", (3, L_q, D_MODEL)), (w, "weights", (3, 2, L_q, L_k))):
            if value.device.type != "meta":
                ctx.fail(ctx.msg("meta_wrong_device", name=name, device=value.device.type))
            assert_shape(value, shape, ctx.msg("on_meta", name=name))


# --------------------------------------------------------------------------- figures
# A public example (grader/figures.py): drawn beside the reference's when a check naming it fails.


@checks.figure("causal_weights")
def _causal_weights(side):
    cfg = config(2)
    state = {  # weights like nn.Linear's initialisation, from the figure's own generator
        name: torch.from_numpy(side.rng.standard_normal(shape) / (math.sqrt(D_MODEL) if len(shape) == 2 else 10))
        for name, shape in state_shapes(cfg).items()
    }
    x = torch.from_numpy(side.rng.standard_normal((1, 6, D_MODEL)))  # (1, L, d_model)
    (result,) = side.probe("forward", [case(cfg, state, x, mask=causal(6))])
    return result[1][0, 0]  # (L, L): head 0 of the only item


# --------------------------------------------------------------------------- mistakes
# Each hypothesis is the reference re-run under one mistake, with the same weights and inputs;
# a learner output that matches it is diagnosed with that mistake's id.


def _scaled(state: dict, name: str, factor: float) -> dict:
    out = dict(state)
    out[f"{name}.weight"] = state[f"{name}.weight"] * factor
    if f"{name}.bias" in state:
        out[f"{name}.bias"] = state[f"{name}.bias"] * factor
    return out


@checks.mistake("missing_scale", MHA)
def _missing_scale(ref, cfg, state, query, key, value, mask=None):
    d_k = cfg["d_model"] // cfg["num_heads"]
    return run_reference(ref, cfg, _scaled(state, "W_q", math.sqrt(d_k)), query, key, value, mask)


@checks.mistake("scale_by_d_model", MHA)
def _scale_by_d_model(ref, cfg, state, query, key, value, mask=None):
    # dividing by sqrt(d_model) = dividing by sqrt(d_k) * sqrt(h)
    return run_reference(ref, cfg, _scaled(state, "W_q", 1 / math.sqrt(cfg["num_heads"])), query, key, value, mask)


@checks.mistake("split_without_transpose", MHA)
def _split_without_transpose(ref, cfg, state, query, key, value, mask=None):
    class Mistake(ref.MultiHeadAttention):
        def split_heads(self, x):
            B, L, _ = x.shape
            return x.reshape(B, self.num_heads, L, self.d_k)  # tokens and features mixed

    return run_reference(ref, cfg, state, query, key, value, mask, cls=Mistake)


@checks.mistake("merge_without_transpose", MHA)
def _merge_without_transpose(ref, cfg, state, query, key, value, mask=None):
    class Mistake(ref.MultiHeadAttention):
        def merge_heads(self, x):
            B, _, L, _ = x.shape
            return x.reshape(B, L, self.d_model)  # (B, h, L, d_k) read as if it were (B, L, h, d_k)

    return run_reference(ref, cfg, state, query, key, value, mask, cls=Mistake)


@checks.mistake("missing_output_projection", MHA)
def _missing_output_projection(ref, cfg, state, query, key, value, mask=None):
    identity = dict(state)
    identity["W_o.weight"] = torch.eye(cfg["d_model"], dtype=state["W_o.weight"].dtype)
    if "W_o.bias" in state:
        identity["W_o.bias"] = torch.zeros_like(state["W_o.bias"])
    return run_reference(ref, cfg, identity, query, key, value, mask)


@checks.mistake("mask_head_order", MHA)
def _mask_head_order(ref, cfg, state, query, key, value, mask=None):
    """Heads folded into the batch as b * h + head, the mask repeated as head * B + b (repeat, not
    repeat_interleave)."""
    if mask is None:
        raise ValueError("needs a mask")
    B, h = query.shape[0], cfg["num_heads"]
    full = torch.broadcast_to(mask, (B, h, query.shape[1], key.shape[1]))  # (B, h, L_q, L_k)
    n = torch.arange(B * h)  # folded index b * h + head
    wrong = full[n % B, n // B].reshape(full.shape)  # (B, h, L_q, L_k)
    return run_reference(ref, cfg, state, query, key, value, wrong)


@checks.mistake("inverted_mask", MHA)
def _inverted_mask(ref, cfg, state, query, key, value, mask=None):
    if mask is None:
        raise ValueError("needs a mask")
    return run_reference(ref, cfg, state, query, key, value, ~mask)
