"""Hidden tests for grouped_query_attention: each check's code, and the mistakes recognised by name.

The grader draws bias-free float64 weights (scaled like nn.Linear's initialisation) for q_proj,
k_proj, v_proj and o_proj, loads them into the learner's module and into the reference, and
compares the outputs for GQA (several query heads per K/V head, groups of 2 and of 3), MQA
(one K/V head) and MHA (as many K/V heads as query heads), with and without ``causal``. The
learner's module is driven by probes.py, inside the learner's process.

Most mistakes are recognised as usual, from the outputs: the reference re-run under the mistake
with the same weights. Two are visible before any output: K/V projections of the wrong size
cannot even take the grader's weights, and their shape names the mistake (full size: plain
multi-head attention; one head's size: multi-query attention whatever num_kv_heads says).
"""

from __future__ import annotations

import math

import torch

from grader.checks import CheckContext, CheckRegistry, LearnerRaised
from grader.compare import assert_array, assert_shape
from grader.i18n import Text

#: What probes.py reports when it cannot drive the module, said as is (loaded_shape: see probe()).
checks = CheckRegistry(probe_problems=("not_a_module", "no_parameter_named"))

GQA = "GroupedQueryAttention"
PROJECTIONS = ("q_proj", "k_proj", "v_proj", "o_proj")
RTOL, ATOL = 1e-6, 1e-8  # float64 against a float64 reference


# --------------------------------------------------------------------------- inputs


def config(d_model: int, num_heads: int, num_kv_heads: int) -> dict:
    return {"d_model": d_model, "num_heads": num_heads, "num_kv_heads": num_kv_heads}


#: One configuration of each kind, for the structural checks.
GQA_CFG, MQA_CFG, MHA_CFG = config(16, 4, 2), config(16, 4, 1), config(16, 4, 4)


def state_shapes(cfg: dict) -> dict[str, tuple[int, int]]:
    """The module's parameters, name -> shape: only the four bias-free projections."""
    d, kv_width = cfg["d_model"], cfg["num_kv_heads"] * (cfg["d_model"] // cfg["num_heads"])
    return {"q_proj.weight": (d, d), "k_proj.weight": (kv_width, d), "v_proj.weight": (kv_width, d),
            "o_proj.weight": (d, d)}


def weights(ctx: CheckContext, cfg: dict) -> dict[str, torch.Tensor]:
    """A float64 state dict drawn from ctx.rng, scaled like nn.Linear's initialisation."""
    return {
        name: torch.from_numpy(ctx.rng.standard_normal(shape) / math.sqrt(shape[1]))
        for name, shape in state_shapes(cfg).items()
    }


def case(ctx: CheckContext, cfg: dict, B: int, T: int, causal: bool = False) -> dict:
    x = torch.from_numpy(ctx.rng.standard_normal((B, T, cfg["d_model"])))  # (B, T, d_model), float64
    return {"config": cfg, "state": weights(ctx, cfg), "x": x, "causal": causal}


def args_of(c: dict) -> tuple:
    """The arguments a mistake hypothesis receives for a case."""
    return (c["config"], c["state"], c["x"], c["causal"])


# --------------------------------------------------------------------------- the reference


def run_reference(ref, cfg, state, x, causal, *, cls=None) -> torch.Tensor:
    """The reference module (or a subclass ``cls``) carrying ``state``: its output (B, T, d_model)."""
    module = (cls or ref.GroupedQueryAttention)(cfg["d_model"], cfg["num_heads"], cfg["num_kv_heads"]).to(x.dtype)
    module.load_state_dict(state)
    with torch.no_grad():
        return module(x, causal=causal)


# --------------------------------------------------------------------------- calling the learner


def shape_mistake(cfg: dict, name: str, shape) -> str | None:
    """The named mistake a K/V projection of the wrong shape shows, if any."""
    d, h, kv = cfg["d_model"], cfg["num_heads"], cfg["num_kv_heads"]
    if name not in ("k_proj.weight", "v_proj.weight"):
        return None
    if kv < h and tuple(shape) == (d, d):
        return "full_size_kv"  # every query head has its own K/V head: multi-head attention
    if kv > 1 and tuple(shape) == (d // h, d):
        return "one_kv_head"  # one K/V head whatever num_kv_heads says: multi-query attention
    return None


def probe(ctx: CheckContext, name: str, configs: list[dict], *args):
    """Run helper ``name`` of probes.py on modules built with ``configs``; a structural problem it
    reports becomes this check's failure, named from the shapes where they show a mistake."""
    result = ctx.probe(name, *args)
    problem = ctx.probe_problem(result)
    if problem is None:
        return result
    if result["problem"] == "loaded_shape":
        fail_loaded_shape(ctx, result.get("params"), configs)
    ctx.fail(problem)


def fail_loaded_shape(ctx: CheckContext, params, configs: list[dict]) -> None:
    """Fail with the shape of a parameter that did not take the grader's weights, in the module the
    learner would build, naming the mistake the shape shows; return if ``params`` (from the
    learner's process) do not say it with a config we sent."""
    p = params if isinstance(params, dict) else {}
    cfg = next((c for c in configs if c == p.get("config")), None)  # one we sent, never the learner's data
    if cfg is None:
        return
    try:
        name = str(p["name"])[:100]
        actual, expected = tuple(int(n) for n in p["actual"]), tuple(int(n) for n in p["expected"])
    except (KeyError, TypeError, ValueError):
        return
    ctx.fail(ctx.msg("loaded_shape", name=name, actual=actual, expected=expected, module=module(ctx, cfg)),
             diagnosis=shape_mistake(cfg, name, actual))


def module(ctx: CheckContext, cfg: dict) -> Text:
    """GroupedQueryAttention(d_model, num_heads, num_kv_heads), as the learner would build it."""
    return ctx.msg("module", d_model=cfg["d_model"], num_heads=cfg["num_heads"], num_kv_heads=cfg["num_kv_heads"])


def label(ctx: CheckContext, c: dict) -> Text:
    return ctx.msg("output_of", module=module(ctx, c["config"]), causal=c["causal"])


def check_values(ctx: CheckContext, cases: list[dict]) -> None:
    """Forward every case in one round trip and compare each output with the reference's."""
    for c, output in zip(cases, probe(ctx, "forward", [c["config"] for c in cases], cases)):
        where = label(ctx, c)
        assert_array(output, where, tensor=True)
        assert_shape(output, tuple(c["x"].shape), where)
        expected = ctx.memo(run_reference, ctx.reference, *args_of(c))
        ctx.assert_close(output, expected, name=where, rtol=RTOL, atol=ATOL, entry=GQA, args=args_of(c))


def parameter_shapes(ctx: CheckContext, cfg: dict) -> dict[str, tuple[int, ...]]:
    """The learner's parameters, name -> shape, once each projection is known to be a bias-free nn.Linear."""
    found = probe(ctx, "parameters", [cfg], cfg)
    for name in PROJECTIONS:
        is_linear, has_bias = found["linear"][name]
        if not is_linear:
            ctx.fail(ctx.msg("not_linear", name=name))
        if has_bias:
            ctx.fail(ctx.msg("has_bias", name=name))
    return {name: tuple(shape) for name, shape in found["parameters"]}


# --------------------------------------------------------------------------- checks


@checks.test("kv_projections")
def kv_projections(ctx: CheckContext) -> None:
    for cfg in (GQA_CFG, MQA_CFG, MHA_CFG):
        got = parameter_shapes(ctx, cfg)
        for name, shape in state_shapes(cfg).items():
            if name not in got:
                ctx.fail(ctx.msg("missing_parameter", name=name))
            if got[name] != shape:
                ctx.fail(ctx.msg("parameter_shape", name=name, actual=got[name], expected=shape, module=module(ctx, cfg)),
                         diagnosis=shape_mistake(cfg, name, got[name]))


@checks.test("parameter_count")
def parameter_count(ctx: CheckContext) -> None:
    for cfg in (GQA_CFG, MQA_CFG, MHA_CFG, config(24, 6, 3)):
        got = parameter_shapes(ctx, cfg)
        want = state_shapes(cfg)
        count, expected = sum(math.prod(s) for s in got.values()), sum(math.prod(s) for s in want.values())
        if count != expected:
            diagnosis = next((shape_mistake(cfg, n, got[n]) for n in ("k_proj.weight", "v_proj.weight") if n in got), None)
            ctx.fail(ctx.msg("parameter_count", count=count, expected=expected, module=module(ctx, cfg)), diagnosis=diagnosis)
        extra = sorted(set(got) - set(want))
        if extra:
            ctx.fail(ctx.msg("unexpected_parameter", name=extra[0]))


#: Head counts a module must refuse: (d_model, num_heads, num_kv_heads).
INVALID = ((10, 4, 2), (16, 4, 3), (16, 4, 8), (16, 4, 0))


def why_invalid(ctx: CheckContext, d_model: int, num_heads: int, num_kv_heads: int) -> Text:
    if num_kv_heads < 1:
        return ctx.msg("why_zero")
    if d_model % num_heads:
        return ctx.msg("why_d_model")
    return ctx.msg("why_groups")


@checks.test("value_error")
def value_error(ctx: CheckContext) -> None:
    for args in INVALID:
        call = f"{GQA}{args}"
        try:
            ctx.call(GQA, *args)
        except LearnerRaised as err:
            if not err.is_a("ValueError"):
                raise  # the check errs with what was raised instead (ZeroDivisionError, say)
            if not err.detail.strip():
                ctx.fail(ctx.msg("value_error_silent", call=call))
            continue
        ctx.fail(ctx.msg("no_value_error", call=call, why=why_invalid(ctx, *args)))


@checks.test("gqa")
def gqa(ctx: CheckContext) -> None:
    check_values(ctx, [case(ctx, cfg, 2, 5) for cfg in (GQA_CFG, config(24, 6, 2), config(24, 6, 3))])


@checks.test("mqa")
def mqa(ctx: CheckContext) -> None:
    check_values(ctx, [case(ctx, cfg, 2, 5) for cfg in (MQA_CFG, config(24, 6, 1))])


@checks.test("mha")
def mha(ctx: CheckContext) -> None:
    check_values(ctx, [case(ctx, cfg, 2, 5) for cfg in (MHA_CFG, config(24, 6, 6))])


@checks.test("causal")
def causal(ctx: CheckContext) -> None:
    check_values(ctx, [case(ctx, cfg, 2, 6, causal=True) for cfg in (GQA_CFG, MQA_CFG, MHA_CFG)])


@checks.test("larger_inputs")
def larger_inputs(ctx: CheckContext) -> None:
    check_values(ctx, [case(ctx, config(64, 8, 2), 2, 9, causal=True), case(ctx, config(48, 6, 3), 3, 7)])


# --------------------------------------------------------------------------- figures
# A public example (grader/figures.py), the same for everyone: which K/V head each query head reads.


@checks.figure("head_groups")
def _head_groups(side):
    """num_heads = 8, num_kv_heads = 4, one token: K/V head g's value is the unit vector e_g of its
    d_head = 4 features, the queries and keys are 0 (one token: its weight is 1 anyway) and o_proj is
    the identity, so query head h's slice of the output is the value of the K/V head it reads."""
    cfg = config(32, 8, 4)
    state = {name: torch.zeros(shape, dtype=torch.float64) for name, shape in state_shapes(cfg).items()}
    for g in range(4):
        state["v_proj.weight"][4 * g + g, 0] = 1.0  # K/V head g: feature g of its slice is x[0]
    state["o_proj.weight"] = torch.eye(32, dtype=torch.float64)
    x = torch.zeros(1, 1, 32, dtype=torch.float64)
    x[0, 0, 0] = 1.0
    (output,) = side.probe("forward", [{"config": cfg, "state": state, "x": x, "causal": False}])
    return output[0, 0].reshape(8, 4)  # (query head h, K/V head g): 1 where h reads g


# --------------------------------------------------------------------------- mistakes
# Each hypothesis is the reference re-run under one mistake, with the same weights and inputs;
# a learner output that matches it is diagnosed with that mistake's id.


def _scaled_queries(state: dict, factor: float) -> dict:
    return dict(state, **{"q_proj.weight": state["q_proj.weight"] * factor})


@checks.mistake("repeat_not_interleave", GQA)
def _repeat_not_interleave(ref, cfg, state, x, causal):
    if cfg["num_kv_heads"] in (1, cfg["num_heads"]):
        raise ValueError("the same as the right grouping: one group, or groups of one")

    class Mistake(ref.GroupedQueryAttention):
        def repeat_kv(self, kv):
            return kv.repeat(1, self.group, 1, 1)  # (B, h, T, d_head): query head h reads K/V head h % num_kv_heads

    return run_reference(ref, cfg, state, x, causal, cls=Mistake)


@checks.mistake("scale_by_d_model", GQA)
def _scale_by_d_model(ref, cfg, state, x, causal):
    # dividing by sqrt(d_model) = dividing by sqrt(d_head) * sqrt(num_heads)
    return run_reference(ref, cfg, _scaled_queries(state, 1 / math.sqrt(cfg["num_heads"])), x, causal)


@checks.mistake("missing_scale", GQA)
def _missing_scale(ref, cfg, state, x, causal):
    d_head = cfg["d_model"] // cfg["num_heads"]
    return run_reference(ref, cfg, _scaled_queries(state, math.sqrt(d_head)), x, causal)


@checks.mistake("causal_ignored", GQA)
def _causal_ignored(ref, cfg, state, x, causal):
    if not causal:
        raise ValueError("a causal case only")
    return run_reference(ref, cfg, state, x, False)


@checks.mistake("split_without_transpose", GQA)
def _split_without_transpose(ref, cfg, state, x, causal):
    class Mistake(ref.GroupedQueryAttention):
        def split_heads(self, t, heads):
            B, T, _ = t.shape
            return t.reshape(B, heads, T, self.d_head)  # (B, heads, T, d_head) read straight: tokens and features mixed

    return run_reference(ref, cfg, state, x, causal, cls=Mistake)
