"""Hidden tests for transformer_block: each check's code, and the mistakes recognised by name.

The grader draws a state dict with the names of ``nn.TransformerEncoderLayer`` (float64; weights
scaled like the layers' initialisation, LayerNorm gains and shifts away from 1 and 0 so that the
two norms differ), loads it into the learner's block and compares the output with
``nn.TransformerEncoderLayer(batch_first=True)`` carrying the same state: the oracle. Masks are
given in this project's convention (True = may attend / real token) and handed to the oracle
inverted, as torch wants them. Padded positions are compared at the real tokens only: what a
block writes at a padding position is never read.

Every forward pass, the learner's (probes.py) and the oracle's, runs with autograd on, so that
``nn.MultiheadAttention`` takes the same route in both. A mistake hypothesis re-runs the
reference (reference/transformer_block.py, written like the oracle) under one mistake.
"""

from __future__ import annotations

import math

import numpy as np
import torch
from torch import nn

from grader.checks import CheckContext, CheckRegistry
from grader.compare import assert_array, assert_shape, describe
from grader.i18n import Text

#: What probes.py reports when it cannot drive the module (see ctx.probe_or_fail).
checks = CheckRegistry(probe_problems=("not_a_module", "no_parameter_named", "loaded_shape", "detached"))

TB = "TransformerBlock"
RTOL, ATOL = 1e-6, 1e-8  # float64 against a float64 oracle
D_MODEL, D_FF = 8, 20


# --------------------------------------------------------------------------- inputs


def config(num_heads: int = 2, *, norm_first: bool = False, dropout: float = 0.0, d_model: int = D_MODEL,
           d_ff: int = D_FF) -> dict:
    return {"d_model": d_model, "num_heads": num_heads, "d_ff": d_ff, "dropout": dropout, "norm_first": norm_first}


def state_shapes(cfg: dict) -> dict[str, tuple[int, ...]]:
    """The parameters of nn.TransformerEncoderLayer(d_model, num_heads, d_ff): name -> shape."""
    d, f = cfg["d_model"], cfg["d_ff"]
    return {
        "self_attn.in_proj_weight": (3 * d, d), "self_attn.in_proj_bias": (3 * d,),
        "self_attn.out_proj.weight": (d, d), "self_attn.out_proj.bias": (d,),
        "linear1.weight": (f, d), "linear1.bias": (f,), "linear2.weight": (d, f), "linear2.bias": (d,),
        "norm1.weight": (d,), "norm1.bias": (d,), "norm2.weight": (d,), "norm2.bias": (d,),
    }


def weights(rng: np.random.Generator, cfg: dict) -> dict[str, torch.Tensor]:
    """A float64 state: matrices ~ N(0, 1/fan_in), small biases, LayerNorm gains near 1."""
    state = {}
    for name, shape in state_shapes(cfg).items():
        noise = rng.standard_normal(shape)
        if name.startswith("norm") and name.endswith("weight"):
            value = 1 + 0.3 * noise
        elif len(shape) == 2:
            value = noise / math.sqrt(shape[1])
        else:
            value = 0.2 * noise
        state[name] = torch.from_numpy(value)
    return state


def tokens(rng: np.random.Generator, B: int, T: int, d: int = D_MODEL) -> torch.Tensor:
    return torch.from_numpy(rng.standard_normal((B, T, d)))  # (B, T, d_model), float64


def causal(T: int) -> torch.Tensor:
    return torch.ones(T, T, dtype=torch.bool).tril()  # (T, T), True = may attend


def padding(rng: np.random.Generator, B: int, T: int) -> torch.Tensor:
    """(B, T), True for real tokens: right padding, a different length per item, the first item unpadded."""
    lengths = [T] + [int(n) for n in rng.permutation(np.arange(2, T))[: B - 1]]
    return torch.arange(T)[None, :] < torch.tensor(lengths)[:, None]


def case(rng: np.random.Generator, cfg: dict, B: int, T: int, mask=None, padding_mask=None, **extra) -> dict:
    return {
        "config": cfg, "state": weights(rng, cfg), "x": tokens(rng, B, T, cfg["d_model"]),
        "mask": mask, "padding_mask": padding_mask, **extra,
    }


def args_of(c: dict) -> tuple:
    """The arguments a mistake hypothesis receives for a case."""
    return (c["config"], c["state"], c["x"], c["mask"], c["padding_mask"])


def shown(output: torch.Tensor, padding_mask: torch.Tensor | None) -> torch.Tensor:
    """The output at the real tokens; padded positions (never read) set to 0 in every output compared."""
    if padding_mask is None or not isinstance(output, torch.Tensor) or output.shape[:2] != padding_mask.shape:
        return output
    return output.masked_fill(~padding_mask[..., None], 0.0)  # (B, T, d_model)


# --------------------------------------------------------------------------- the oracle and the reference


def torch_layer(cfg: dict, state: dict, dtype=torch.float64) -> nn.TransformerEncoderLayer:
    """nn.TransformerEncoderLayer (batch first, ReLU) carrying ``state``, in eval mode."""
    layer = nn.TransformerEncoderLayer(
        cfg["d_model"], cfg["num_heads"], dim_feedforward=cfg["d_ff"], dropout=cfg["dropout"], activation="relu",
        batch_first=True, norm_first=cfg["norm_first"], dtype=dtype,
    )
    layer.load_state_dict(state)
    return layer.eval()


def oracle(cfg, state, x, mask=None, padding_mask=None) -> torch.Tensor:
    """The torch layer's output (real tokens only), masks inverted to torch's True = blocked."""
    layer = torch_layer(cfg, state, x.dtype)
    with torch.enable_grad():  # the same nn.MultiheadAttention route as the learner's probes
        output = layer(
            x, src_mask=None if mask is None else ~mask,
            src_key_padding_mask=None if padding_mask is None else ~padding_mask,
        )
    return shown(output.detach(), padding_mask)


def run_reference(ref, cfg, state, x, mask=None, padding_mask=None, *, cls=None) -> torch.Tensor:
    """The reference block (or a subclass ``cls``) carrying ``state``, in eval mode (real tokens only)."""
    module = (cls or ref.TransformerBlock)(**cfg).to(x.dtype)
    module.load_state_dict(state)
    module.eval()
    with torch.enable_grad():
        output = module(x, mask, padding_mask)
    return shown(output.detach(), padding_mask)


# --------------------------------------------------------------------------- calling the learner


def output_of(ctx: CheckContext, c: dict, result) -> torch.Tensor:
    """The learner's output for case ``c``: a tensor of x's shape, real tokens only."""
    assert_array(result, "forward(...)", tensor=True)
    assert_shape(result, tuple(c["x"].shape), ctx.msg("output_shape", shape=tuple(c["x"].shape)))
    return shown(result, c["padding_mask"])


def run(ctx: CheckContext, cases: list[dict]) -> list[torch.Tensor]:
    return [output_of(ctx, c, r) for c, r in zip(cases, ctx.probe_or_fail("forward", cases))]


def compare(ctx: CheckContext, c: dict, output: torch.Tensor, label: Text) -> None:
    """Compare with nn.TransformerEncoderLayer on case ``c``; name the mistake of a mismatch."""
    expected = ctx.memo(oracle, *args_of(c))
    name = ctx.msg("vs_torch", case=label, placement=placement(ctx, c["config"]))
    ctx.assert_close(output, expected, name=name, rtol=RTOL, atol=ATOL, entry=TB, args=args_of(c))


def placement(ctx: CheckContext, cfg: dict) -> Text:
    return ctx.msg("pre_ln") if cfg["norm_first"] else ctx.msg("post_ln")


def check_values(ctx: CheckContext, cases: list[dict], label: Text) -> None:
    for c, output in zip(cases, run(ctx, cases)):
        compare(ctx, c, output, label)


# --------------------------------------------------------------------------- checks


@checks.test("parameters")
def parameters(ctx: CheckContext) -> None:
    for norm_first in (False, True):
        cfg = config(2, norm_first=norm_first)
        got = {name: tuple(shape) for name, shape in ctx.probe_or_fail("parameters", cfg)["parameters"]}
        want = state_shapes(cfg)
        for name, shape in want.items():
            if name not in got:
                ctx.fail(ctx.msg("missing_parameter", name=name))
            if got[name] != shape:
                ctx.fail(ctx.msg("parameter_shape", name=name, actual=got[name], expected=shape))
        extra = sorted(set(got) - set(want))
        if extra:
            ctx.fail(ctx.msg("unexpected_parameter", name=extra[0]))


@checks.test("post_ln")
def post_ln(ctx: CheckContext) -> None:
    cases = [case(ctx.rng, config(h, norm_first=False), 3, 5) for h in (2, 4)]
    check_values(ctx, cases, ctx.msg("case_plain"))


@checks.test("pre_ln")
def pre_ln(ctx: CheckContext) -> None:
    cases = [case(ctx.rng, config(h, norm_first=True), 3, 5) for h in (2, 4)]
    check_values(ctx, cases, ctx.msg("case_plain"))


@checks.test("causal_mask")
def causal_mask(ctx: CheckContext) -> None:
    cases = [case(ctx.rng, config(2, norm_first=nf), 3, 6, mask=causal(6)) for nf in (False, True)]
    check_values(ctx, cases, ctx.msg("case_causal"))


@checks.test("padding_mask")
def padding_mask(ctx: CheckContext) -> None:
    cases = [case(ctx.rng, config(2, norm_first=nf), 3, 6, padding_mask=padding(ctx.rng, 3, 6)) for nf in (False, True)]
    check_values(ctx, cases, ctx.msg("case_padding"))
    both = case(ctx.rng, config(2), 3, 6, mask=causal(6), padding_mask=padding(ctx.rng, 3, 6))
    check_values(ctx, [both], ctx.msg("case_causal_padding"))


@checks.test("dropout")
def dropout(ctx: CheckContext) -> None:
    c = case(ctx.rng, config(2, dropout=0.5), 3, 5)
    train = dict(c, train=True, seed=int(ctx.rng.integers(2**31)))
    twice, in_train = ctx.probe_or_fail("forward", [dict(c, repeat=2), train])
    first, second = (output_of(ctx, c, r) for r in twice)
    in_train = output_of(ctx, c, in_train)
    if not np.array_equal(assert_array(first, "output"), assert_array(second, "output")):
        ctx.fail(ctx.msg("dropout_in_eval"), diagnosis="dropout_in_eval")
    compare(ctx, c, first, ctx.msg("case_eval_dropout"))
    if np.allclose(assert_array(in_train, "output"), assert_array(first, "output"), rtol=RTOL, atol=ATOL):
        ctx.fail(ctx.msg("dropout_inactive"))


@checks.test("gradients")
def gradients(ctx: CheckContext) -> None:
    for norm_first in (False, True):
        c = case(ctx.rng, config(2, norm_first=norm_first), 3, 5, mask=causal(5))
        grad_output = tokens(ctx.rng, 3, 5)  # (B, T, d_model)
        found = ctx.probe_or_fail("gradients", c, grad_output)
        expected_grads = ctx.memo(oracle_gradients, *args_of(c), grad_output)
        for name in expected_grads:
            if found["grads"].get(name) is None:
                module = name.split(".")[0]
                diagnosis = "shared_layer_norm" if module == "norm2" else None
                ctx.fail(ctx.msg("no_gradient", name=name, module=module), diagnosis=diagnosis)
        compare(ctx, c, output_of(ctx, c, found["output"]), ctx.msg("case_gradient_run"))
        for name, grad in expected_grads.items():
            ctx.assert_close(found["grads"][name], grad, name=ctx.msg("gradient_of", name=name), rtol=RTOL, atol=ATOL)


def oracle_gradients(cfg, state, x, mask, padding_mask, grad_output) -> dict[str, torch.Tensor]:
    """The gradient of ``sum(output * grad_output)`` for each parameter of the torch layer carrying ``state``."""
    layer = torch_layer(cfg, state, x.dtype)
    output = layer(x, src_mask=None if mask is None else ~mask,
                   src_key_padding_mask=None if padding_mask is None else ~padding_mask)
    (output * grad_output).sum().backward()
    return {name: param.grad for name, param in layer.named_parameters()}


@checks.test("single_token")
def single_token(ctx: CheckContext) -> None:
    one = torch.ones(1, 1, dtype=torch.bool)
    cases = [
        case(ctx.rng, config(2, norm_first=False), 3, 1),
        case(ctx.rng, config(2, norm_first=True), 3, 1, mask=one, padding_mask=torch.ones(3, 1, dtype=torch.bool)),
    ]
    check_values(ctx, cases, ctx.msg("case_single"))


@checks.test("larger_inputs")
def larger_inputs(ctx: CheckContext) -> None:
    cases = [
        case(ctx.rng, config(4, norm_first=nf, d_model=16, d_ff=40), 2, 7, mask=causal(7),
             padding_mask=padding(ctx.rng, 2, 7))
        for nf in (False, True)
    ]
    check_values(ctx, cases, ctx.msg("case_larger"))


@checks.test("dtypes")
def dtypes(ctx: CheckContext) -> None:
    """The same state and input in float32 and float64: each keeps its dtype, and they agree."""
    base = case(ctx.rng, config(2), 3, 5, mask=causal(5))
    cases = []
    for dtype in (torch.float32, torch.float64):  # float32 values in both, so only precision differs
        state = {k: v.float().to(dtype) for k, v in base["state"].items()}
        cases.append(dict(base, state=state, x=base["x"].float().to(dtype), dtype=str(dtype).removeprefix("torch.")))
    low, high = run(ctx, cases)
    for c, output in zip(cases, (low, high)):
        if output.dtype != c["x"].dtype:
            ctx.fail(ctx.msg("dtype_changed", dtype=c["dtype"], got=describe(output)))
    ctx.assert_close(low, high, name=ctx.msg("against_float64"), rtol=1e-4, atol=1e-5)


# --------------------------------------------------------------------------- figures
# Public examples (grader/figures.py): drawn beside the reference's when a check naming them fails.


def _influence(side, mask=None, padding_mask=None):
    cfg = config(2)
    c = {"config": cfg, "state": weights(side.rng, cfg), "x": tokens(side.rng, 1, 6), "mask": mask,
         "padding_mask": padding_mask}
    return side.probe("influence", c)  # (T, T)


@checks.figure("causal_influence")
def _causal_influence(side):
    return _influence(side, mask=causal(6))


@checks.figure("padding_influence")
def _padding_influence(side):
    return _influence(side, padding_mask=torch.tensor([[True] * 4 + [False] * 2]))


# --------------------------------------------------------------------------- mistakes
# Each hypothesis is the reference re-run under one mistake, with the same weights and inputs;
# a learner output that matches it is diagnosed with that mistake's id.


@checks.mistake("post_ln_as_pre_ln", TB)
def _post_ln_as_pre_ln(ref, cfg, state, x, mask=None, padding_mask=None):
    if cfg["norm_first"]:
        raise ValueError("a post-LN case only")
    return run_reference(ref, dict(cfg, norm_first=True), state, x, mask, padding_mask)


@checks.mistake("pre_ln_as_post_ln", TB)
def _pre_ln_as_post_ln(ref, cfg, state, x, mask=None, padding_mask=None):
    if not cfg["norm_first"]:
        raise ValueError("a pre-LN case only")
    return run_reference(ref, dict(cfg, norm_first=False), state, x, mask, padding_mask)


@checks.mistake("missing_ffn_residual", TB)
def _missing_ffn_residual(ref, cfg, state, x, mask=None, padding_mask=None):
    class Mistake(ref.TransformerBlock):
        def forward(self, x, mask=None, padding_mask=None):
            attn_mask, key_padding_mask = self.torch_masks(mask, padding_mask)
            if self.norm_first:
                x = x + self._attention(self.norm1(x), attn_mask, key_padding_mask)
                return self._feed_forward(self.norm2(x))  # no "x +"
            x = self.norm1(x + self._attention(x, attn_mask, key_padding_mask))
            return self.norm2(self._feed_forward(x))  # no "x +"

    return run_reference(ref, cfg, state, x, mask, padding_mask, cls=Mistake)


@checks.mistake("residual_from_normed_input", TB)
def _residual_from_normed_input(ref, cfg, state, x, mask=None, padding_mask=None):
    if not cfg["norm_first"]:
        raise ValueError("a pre-LN case only")

    class Mistake(ref.TransformerBlock):
        def forward(self, x, mask=None, padding_mask=None):
            attn_mask, key_padding_mask = self.torch_masks(mask, padding_mask)
            x = self.norm1(x)
            x = x + self._attention(x, attn_mask, key_padding_mask)  # the residual is the normalised x
            x = self.norm2(x)
            return x + self._feed_forward(x)

    return run_reference(ref, cfg, state, x, mask, padding_mask, cls=Mistake)


@checks.mistake("shared_layer_norm", TB)
def _shared_layer_norm(ref, cfg, state, x, mask=None, padding_mask=None):
    shared = dict(state, **{"norm2.weight": state["norm1.weight"], "norm2.bias": state["norm1.bias"]})
    return run_reference(ref, cfg, shared, x, mask, padding_mask)


@checks.mistake("missing_activation", TB)
def _missing_activation(ref, cfg, state, x, mask=None, padding_mask=None):
    class Mistake(ref.TransformerBlock):
        def _feed_forward(self, x):
            return self.dropout2(self.linear2(self.dropout(self.linear1(x))))  # no ReLU

    return run_reference(ref, cfg, state, x, mask, padding_mask, cls=Mistake)


@checks.mistake("mask_ignored", TB)
def _mask_ignored(ref, cfg, state, x, mask=None, padding_mask=None):
    if mask is None and padding_mask is None:
        raise ValueError("needs a mask")
    return shown(run_reference(ref, cfg, state, x), padding_mask)


@checks.mistake("mask_not_inverted", TB)
def _mask_not_inverted(ref, cfg, state, x, mask=None, padding_mask=None):
    if mask is None and padding_mask is None:
        raise ValueError("needs a mask")

    class Mistake(ref.TransformerBlock):
        @staticmethod
        def torch_masks(mask, padding_mask):
            return mask, padding_mask  # True = may attend handed to torch, which reads True = blocked

    return run_reference(ref, cfg, state, x, mask, padding_mask, cls=Mistake)
