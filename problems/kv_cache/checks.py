"""Hidden tests for kv_cache: each check's code, and the mistakes recognised by name.

The grader draws the weights (float64, scaled like nn.Linear's initialisation) and loads them into
the learner's module and the reference. The truth for any way of feeding a sequence (prefill,
chunks, single tokens) is the reference's *full* causal forward over the whole sequence: call c
must give its rows of that output, and return the keys and values of every position so far.

Sizes are distinct on every axis (B = 2, h = 3, d_head = 4, d_model = 12). Past one token, no
schedule feeds as many new tokens as are cached (4 then 3, 5 then 2), so that a cache grown on
the wrong axis fails at torch.cat itself, with torch's own message.

Values are compared in float64 within (1e-5, 1e-6): a learner who computes the softmax in float32
(as many models do) is right, and every named mistake is off by far more.

probes.forward drives the module (in the learner's process; here too, on the reference and on the
reference under each mistake): a mistake is recognised when the learner's outputs and caches,
or the error it raised, or the rows its projections saw, equal those of the reference re-run
under the mistake.
"""

from __future__ import annotations

import math
import numbers
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import torch

from grader.checks import CheckContext, CheckRegistry, LearnerRaised
from grader.compare import as_array, assert_array, describe
from grader.engine import load_module
from grader.i18n import Text

#: What probes.py reports when it cannot drive the module (see ctx.probe_problem).
checks = CheckRegistry(probe_problems=("not_a_module", "no_parameter_named", "loaded_shape", "not_a_pair"))

PROBES = load_module(Path(__file__).with_name("probes.py"), f"{__name__.rpartition('.')[0]}.probes")

DECODE = "decode"  # pseudo entry: a schedule's outputs and caches ({"outputs", "caches"}) or {"raised"}
ROWS = "rows"  # pseudo entry: the rows q_proj, k_proj and v_proj projected in each call
BYTES = "kv_cache_bytes"
D_MODEL, HEADS = 12, 3
D_HEAD = D_MODEL // HEADS
CONFIG = {"d_model": D_MODEL, "num_heads": HEADS}
TOL = (1e-5, 1e-6)  # (rtol, atol): float64 in, and a softmax computed in float32 (as many models do) is right too
HALF_TOL = {"float16": (1e-2, 1e-2), "bfloat16": (5e-2, 5e-2)}  # a few units in the last place of values ~1
PROJECTIONS = ("q_proj", "k_proj", "v_proj", "o_proj")


# --------------------------------------------------------------------------- inputs


def state_shapes() -> dict[str, tuple[int, ...]]:
    shapes = {f"{p}.weight": (D_MODEL, D_MODEL) for p in PROJECTIONS}
    return shapes | {f"{p}.bias": (D_MODEL,) for p in PROJECTIONS}


def weights(rng: np.random.Generator) -> dict[str, torch.Tensor]:
    """A float64 state dict, weights like nn.Linear's initialisation and small biases."""
    scale = {2: 1 / math.sqrt(D_MODEL), 1: 0.1}
    return {name: torch.from_numpy(rng.standard_normal(shape) * scale[len(shape)]) for name, shape in state_shapes().items()}


def tokens(rng: np.random.Generator, B: int, T: int) -> torch.Tensor:
    return torch.from_numpy(rng.standard_normal((B, T, D_MODEL)))  # (B, T, d_model), float64


def case(state: dict, x: torch.Tensor, steps: list[int], **extra) -> dict:
    """One run of probes.forward: feed x (B, sum(steps), d_model) in pieces of ``steps`` tokens."""
    return {"config": CONFIG, "state": state, "x": x, "steps": list(steps), **extra}


def cast(c: dict, dtype: str) -> dict:
    """The same case in another dtype (weights and tokens rounded to it)."""
    to = getattr(torch, dtype)
    return dict(c, dtype=dtype, x=c["x"].to(to), state={k: v.to(to) for k, v in c["state"].items()})


def widened(c: dict) -> dict:
    """A case's half-precision weights and tokens, exactly, in float64: the reference's input."""
    return dict(c, dtype="float64", x=c["x"].double(), state={k: v.double() for k, v in c["state"].items()})


def with_prefix(ctx: CheckContext, c: dict, prefix: torch.Tensor) -> dict:
    """``c`` continuing from the reference's cache of ``prefix`` (B, T_past, d_model): a cache made elsewhere."""
    _, k, v = ctx.memo(full_forward, ctx.reference, c["state"], prefix)
    return dict(c, cache=(k, v), prefix=prefix)


def sent(c: dict) -> dict:
    """What the learner's process gets: the case without the grader's own notes."""
    return {k: v for k, v in c.items() if k != "prefix"}


# --------------------------------------------------------------------------- the reference


def full_forward(ref, state: dict, x: torch.Tensor):
    """The reference's causal forward over the whole sequence at once: (y, k, v)."""
    module = ref.CachedSelfAttention(**CONFIG).to(x.dtype)
    module.load_state_dict(state)
    with torch.no_grad():
        y, (k, v) = module(x)
    return y, k, v


def expected(ref, c: dict) -> dict:
    """What each call of the schedule must return: its rows of the full forward, and the cache so far."""
    prefix = c.get("prefix")
    T_past = 0 if prefix is None else prefix.shape[1]
    x = c["x"] if prefix is None else torch.cat([prefix, c["x"]], dim=1)  # (B, T_past + T, d_model)
    y, k, v = full_forward(ref, c["state"], x)
    outputs, caches, end = [], [], T_past
    for n in c["steps"]:
        outputs.append(y[:, end : end + n])  # (B, T_new, d_model)
        end += n
        caches.append((k[:, :, :end], v[:, :, :end]))  # (B, h, T_past + T_new, d_head) each
    return {"outputs": outputs, "caches": caches}


def replay(cls, c: dict) -> dict:
    """probes.forward with ``cls`` as the module, here: outputs and caches, or the error it raised."""
    try:
        reply = PROBES.forward(SimpleNamespace(CachedSelfAttention=cls), [sent(c)])[0]
    except Exception as err:  # noqa: BLE001 - a mistake that makes torch raise is recognised by its error
        return {"raised": f"{type(err).__name__}: {str(err)[:2000]}"}
    return {"outputs": reply["outputs"], "caches": reply["caches"]}


# --------------------------------------------------------------------------- calling the learner


def feed(ctx: CheckContext, cases: list[dict]) -> list[dict]:
    """Run every case in the learner's process, in one round trip.

    An error the learner's code raised is recognised as a mistake when the reference under that
    mistake raises the same one on one of the cases; otherwise it ends the check as an error.
    """
    try:
        replies = ctx.probe("forward", [sent(c) for c in cases])
    except LearnerRaised as raised:
        if not raised.is_a("NotImplementedError"):
            actual = {"raised": f"{raised.type_name}: {raised.detail}"}
            for c in cases:
                diagnosis = ctx.diagnose(DECODE, actual, c)
                if diagnosis is not None:
                    ctx.fail(ctx.msg("raised", error=raised.sentence()), diagnosis=diagnosis)
        raise
    for c, reply in zip(cases, replies):
        problem = ctx.probe_problem(reply)
        if problem is not None:
            ctx.fail(problem)
        check_structure(ctx, c, reply)
    return replies


def check_structure(ctx: CheckContext, c: dict, reply: dict) -> None:
    """Each call returned a tensor and a cache that is a pair of tensors."""
    for n, (y, cache) in enumerate(zip(reply["outputs"], reply["caches"])):
        if not isinstance(y, torch.Tensor):
            assert_array(y, ctx.msg("output_of", call=call_name(ctx, c, n)), tensor=True)
        if not isinstance(cache, (tuple, list)) or len(cache) != 2:
            ctx.fail(ctx.msg("cache_not_pair", call=call_name(ctx, c, n), got=describe(cache)))
        for value, name in zip(cache, "kv"):
            if not isinstance(value, torch.Tensor):
                assert_array(value, ctx.msg("cache_of", call=call_name(ctx, c, n), name=name), tensor=True)


def call_name(ctx: CheckContext, c: dict, n: int) -> Text:
    """'call 2 (T_past = 4, T_new = 3)' for call n (from 0) of case c."""
    T_past = (0 if c.get("prefix") is None else c["prefix"].shape[1]) + sum(c["steps"][:n])
    return ctx.msg("call", n=n + 1, past=T_past, new=c["steps"][n])


def values(reply: dict) -> dict:
    return {"outputs": reply["outputs"], "caches": reply["caches"]}


def close(actual: torch.Tensor, want: torch.Tensor, tol: tuple[float, float]) -> bool:
    """The quick test before a comparison that explains itself (its messages cost more than the test)."""
    a, e = as_array(actual), as_array(want)
    return a.shape == e.shape and bool(np.allclose(a, e, rtol=tol[0], atol=tol[1]))


def judge(ctx: CheckContext, c: dict, reply: dict, *, outputs: bool = True, caches: bool = False,
          reference_case: dict | None = None, tol: tuple[float, float] = TOL) -> None:
    """Compare the learner's outputs (and caches) call by call with the reference; name a mistake."""
    want = ctx.memo(expected, ctx.reference, reference_case or c)
    for n in range(len(c["steps"])):
        pairs = []
        if outputs:
            pairs.append((reply["outputs"][n], want["outputs"][n], None))
        if caches:
            pairs += [(reply["caches"][n][i], want["caches"][n][i], name) for i, name in enumerate("kv")]
        for actual, exp, name in pairs:
            if close(actual, exp, tol):
                continue
            where = call_name(ctx, c, n)
            label = ctx.msg("output_of", call=where) if name is None else ctx.msg("cache_of", call=where, name=name)
            ctx.assert_close(actual, exp, name=label, rtol=tol[0], atol=tol[1], entry=DECODE,
                             args=(reference_case or c,), result=values(reply), hypothesis_tol=tol)


# --------------------------------------------------------------------------- checks


@checks.test("parameters")
def parameters(ctx: CheckContext) -> None:
    found = ctx.probe_or_fail("parameters", CONFIG)
    not_linear = [name for name, ok in found["linear"].items() if not ok]
    if not_linear:
        ctx.fail(ctx.msg("not_linear", name=not_linear[0]))
    got = {name: tuple(shape) for name, shape in found["parameters"]}
    for name, shape in state_shapes().items():
        if name not in got:
            ctx.fail(ctx.msg("missing_parameter", name=name))
        if got[name] != shape:
            ctx.fail(ctx.msg("parameter_shape", name=name, actual=got[name], expected=shape))
    extra = sorted(set(got) - set(state_shapes()))
    if extra:
        ctx.fail(ctx.msg("unexpected_parameter", name=extra[0]))


@checks.test("prefill")
def prefill(ctx: CheckContext) -> None:
    c = case(weights(ctx.rng), tokens(ctx.rng, 2, 7), [7])
    judge(ctx, c, feed(ctx, [c])[0])


@checks.test("single_steps")
def single_steps(ctx: CheckContext) -> None:
    c = case(weights(ctx.rng), tokens(ctx.rng, 2, 6), [1] * 6)
    judge(ctx, c, feed(ctx, [c])[0])


@checks.test("chunks")
def chunks(ctx: CheckContext) -> None:
    state = weights(ctx.rng)
    cases = [case(state, tokens(ctx.rng, 2, 9), steps) for steps in ([4, 3, 1, 1], [5, 2, 2], [1, 3, 1, 4])]
    for c, reply in zip(cases, feed(ctx, cases)):
        judge(ctx, c, reply)


@checks.test("cache_grows")
def cache_grows(ctx: CheckContext) -> None:
    c = case(weights(ctx.rng), tokens(ctx.rng, 2, 8), [4, 3, 1])
    reply = feed(ctx, [c])[0]
    end = 0
    for n, (cache, step) in enumerate(zip(reply["caches"], c["steps"])):
        end += step
        for value, name in zip(cache, "kv"):
            if tuple(value.shape) != (2, HEADS, end, D_HEAD):
                diagnosis = ctx.diagnose(DECODE, values(reply), c, tolerance=TOL)
                ctx.fail(ctx.msg("cache_shape", call=call_name(ctx, c, n), name=name, actual=tuple(value.shape),
                                 expected=(2, HEADS, end, D_HEAD)), diagnosis=diagnosis)
    judge(ctx, c, reply, outputs=False, caches=True)


@checks.test("foreign_cache")
def foreign_cache(ctx: CheckContext) -> None:
    state = weights(ctx.rng)
    c = with_prefix(ctx, case(state, tokens(ctx.rng, 2, 3), [2, 1]), tokens(ctx.rng, 2, 5))
    judge(ctx, c, feed(ctx, [c])[0], caches=True)


@checks.test("batch_rows")
def batch_rows(ctx: CheckContext) -> None:
    state, x = weights(ctx.rng), tokens(ctx.rng, 3, 6)
    together = case(state, x, [3, 1, 2])
    alone = [case(state, x[b : b + 1], [3, 1, 2]) for b in range(3)]
    replies = feed(ctx, [together, *alone])
    for b, single in enumerate(replies[1:]):
        for n in range(len(together["steps"])):
            mine = (replies[0]["outputs"][n], *replies[0]["caches"][n])  # y, k, v of the whole batch
            for actual, own, name in zip(mine, (single["outputs"][n], *single["caches"][n]), ("y", "k", "v")):
                if not close(actual[b : b + 1], own, TOL):
                    diagnosis = ctx.diagnose(DECODE, values(replies[0]), together, tolerance=TOL)
                    ctx.fail(ctx.msg("rows_mixed", b=b, call=call_name(ctx, together, n), name=name), diagnosis=diagnosis)


@checks.test("past_not_recomputed")
def past_not_recomputed(ctx: CheckContext) -> None:
    c = case(weights(ctx.rng), tokens(ctx.rng, 2, 8), [4, 1, 1, 2])
    rows = feed(ctx, [c])[0]["rows"]
    for n, (seen, step) in enumerate(zip(rows, c["steps"])):
        for name in PROBES.COUNTED:
            if name not in seen:
                ctx.fail(ctx.msg("missing_parameter", name=f"{name}.weight"))
            if seen[name] == 0:
                ctx.fail(ctx.msg("projection_not_called", name=name, call=call_name(ctx, c, n)))
            if seen[name] != 2 * step:
                ctx.fail(
                    ctx.msg("rows_projected", name=name, call=call_name(ctx, c, n), rows=seen[name], new=2 * step),
                    diagnosis=ctx.diagnose(ROWS, rows, c),
                )


@checks.test("cache_not_modified")
def cache_not_modified(ctx: CheckContext) -> None:
    c = case(weights(ctx.rng), tokens(ctx.rng, 2, 7), [3, 2, 1, 1], echo=True)
    reply = feed(ctx, [c])[0]
    for n, (returned, after) in enumerate(zip(reply["caches"][:-1], reply["kept"][:-1])):
        for old, new, name in zip(returned, after, "kv"):  # the cache call n returned, which call n + 1 was given
            if not (isinstance(new, torch.Tensor) and new.shape == old.shape and torch.equal(new, old)):
                ctx.fail(ctx.msg("cache_modified", call=call_name(ctx, c, n + 1), name=name), diagnosis="mutates_cache")


@checks.test("half_precision")
def half_precision(ctx: CheckContext) -> None:
    state, x = weights(ctx.rng), tokens(ctx.rng, 2, 7)
    cases = [cast(case(state, x, [4, 1, 2]), dtype) for dtype in HALF_TOL]
    for c, reply in zip(cases, feed(ctx, cases)):
        for n in range(len(c["steps"])):
            for value, name in zip((reply["outputs"][n], *reply["caches"][n]), ("y", "k", "v")):
                if value.dtype != getattr(torch, c["dtype"]):
                    ctx.fail(ctx.msg("dtype_changed", dtype=c["dtype"], call=call_name(ctx, c, n), name=name,
                                     got=str(value.dtype).removeprefix("torch.")))
        judge(ctx, c, reply, reference_case=widened(c), tol=HALF_TOL[c["dtype"]])


# Real models' shapes: (name, layers, KV heads, d_head, bytes per value).
MODELS = (
    ("Llama-2-7B, float16", 32, 32, 128, 2),
    ("Llama-3-8B (GQA), bfloat16", 32, 8, 128, 2),
    ("Llama-2-70B (GQA), float16", 80, 8, 128, 2),
    ("Mistral-7B (GQA), int8", 32, 8, 128, 1),
    ("GPT-2 small, float32", 12, 12, 64, 4),
)


@checks.test("kv_cache_bytes")
def kv_cache_bytes(ctx: CheckContext) -> None:
    calls = [(32, 1, 1, 32, 128, 2)]  # one token of Llama-2-7B
    for _, layers, kv_heads, d_head, nbytes in MODELS:
        batch, seq_len = int(ctx.rng.integers(2, 17)), int(ctx.rng.choice([1024, 2048, 4096, 8192]))
        calls.append((layers, batch, seq_len, kv_heads, d_head, nbytes))
    names = [MODELS[0][0], *(m[0] for m in MODELS)]
    results = ctx.calls([(BYTES, args) for args in calls])
    truth = [ctx.reference.kv_cache_bytes(*args) for args in calls]
    returned = []
    for args, name, result, right in zip(calls, names, results, truth):
        shown = f"kv_cache_bytes{args}"
        if isinstance(result, bool) or not isinstance(result, numbers.Integral):
            ctx.fail(ctx.msg("not_int", call=shown, type=type(result).__name__))
        returned.append(int(result))
        if int(result) != right:
            ctx.secret(*(t for t in truth if t not in returned))
            off = ctx.msg("too_many") if result > right else ctx.msg("too_few")
            ctx.fail(ctx.msg("bytes_wrong", call=shown, model=name, actual=f"{int(result):,}", off=off),
                     diagnosis=ctx.diagnose(BYTES, int(result), *args),
                     reveal=ctx.msg("reveal_bytes", expected=f"{right:,}"))


# --------------------------------------------------------------------------- figures


@checks.figure("attends")
def _attends(side):
    """Which positions change each new token's output: 3 cached tokens, then a chunk of 3."""
    state = weights(side.rng)
    x = tokens(side.rng, 1, 6)
    return side.probe("influence", CONFIG, state, x, 3)


# --------------------------------------------------------------------------- mistakes
# Each hypothesis is the reference re-run under one mistake (probes.forward driving a subclass of
# the reference); a learner whose outputs and caches, or error, equal it is named with its id.


def _masked(ref, allowed):
    class Mistake(ref.CachedSelfAttention):
        def allowed(self, T_new, T_total, device):
            return allowed(self, T_new, T_total, device)

    return Mistake


def _all_keys(self, T_new, T_total, device):
    return torch.ones(T_new, T_total, dtype=torch.bool, device=device)  # (T_new, T_total): no mask


def _masked_without_cache(self, T_new, T_total, device):
    if T_new == T_total:  # no cache: the prefill is masked
        return torch.ones(T_new, T_new, dtype=torch.bool, device=device).tril()  # (T_new, T_new)
    return _all_keys(self, T_new, T_total, device)


def _aligned_to_start(self, T_new, T_total, device):
    return torch.ones(T_new, T_total, dtype=torch.bool, device=device).tril()  # (T_new, T_total): new token i sees keys 0 … i


@checks.mistake("unmasked_chunk", DECODE)
def _unmasked(ref, c):
    return replay(_masked(ref, _all_keys), c)


@checks.mistake("unmasked_chunk", DECODE)
def _masked_only_without_cache(ref, c):
    return replay(_masked(ref, _masked_without_cache), c)


@checks.mistake("mask_aligned_to_start", DECODE)
def _mask_aligned_to_start(ref, c):
    return replay(_masked(ref, _aligned_to_start), c)


def _concat_on(ref, dim):
    class Mistake(ref.CachedSelfAttention):
        def append(self, cache, k, v):
            return torch.cat([cache[0], k], dim=dim), torch.cat([cache[1], v], dim=dim)

    return Mistake


@checks.mistake("concat_wrong_axis", DECODE)
def _concat_on_heads(ref, c):
    return replay(_concat_on(ref, 1), c)


@checks.mistake("concat_wrong_axis", DECODE)
def _concat_on_features(ref, c):
    return replay(_concat_on(ref, -1), c)


@checks.mistake("concat_wrong_axis", DECODE)
def _concat_on_batch(ref, c):
    return replay(_concat_on(ref, 0), c)


@checks.mistake("queries_cached", DECODE)
def _queries_cached(ref, c):
    class Mistake(ref.CachedSelfAttention):
        def forward(self, x, cache=None):
            q = self.split_heads(self.q_proj(x))  # (B, h, T_new, d_head)
            k = self.split_heads(self.k_proj(x))  # (B, h, T_new, d_head)
            v = self.split_heads(self.v_proj(x))  # (B, h, T_new, d_head)
            kept = q  # the queries go where the keys belong
            if cache is not None:
                (k, v), kept = self.append(cache, k, v), torch.cat([cache[0], q], dim=2)  # past "keys" are queries
            return self.attend(q, k, v), (kept, v)

    return replay(Mistake, c)


def _unsplit_cache(ref, heads_split: bool):
    """The cache kept as the projections come out: (B, T, h, d_head), or (B, T, d_model), grown on dim 1."""

    class Mistake(ref.CachedSelfAttention):
        def forward(self, x, cache=None):
            B, T_new, _ = x.shape
            q = self.split_heads(self.q_proj(x))  # (B, h, T_new, d_head)
            k, v = self.k_proj(x), self.v_proj(x)  # (B, T_new, d_model) each
            if heads_split:
                k, v = k.view(B, T_new, self.num_heads, self.d_head), v.view(B, T_new, self.num_heads, self.d_head)
            if cache is not None:
                k, v = torch.cat([cache[0], k], dim=1), torch.cat([cache[1], v], dim=1)  # (B, T, ...) each
            T = k.shape[1]
            k_heads = k.reshape(B, T, self.num_heads, self.d_head).transpose(1, 2)  # (B, h, T, d_head)
            v_heads = v.reshape(B, T, self.num_heads, self.d_head).transpose(1, 2)  # (B, h, T, d_head)
            return self.attend(q, k_heads, v_heads), (k, v)

    return Mistake


@checks.mistake("cache_before_head_split", DECODE)
def _cache_before_transpose(ref, c):
    return replay(_unsplit_cache(ref, heads_split=True), c)


@checks.mistake("cache_before_head_split", DECODE)
def _cache_before_split(ref, c):
    return replay(_unsplit_cache(ref, heads_split=False), c)


@checks.mistake("missing_scale", DECODE)
def _missing_scale(ref, c):
    state = dict(c["state"])  # q·k/√d_head with q scaled by √d_head is q·k: the same scores as no scale
    for name in ("q_proj.weight", "q_proj.bias"):
        state[name] = state[name] * math.sqrt(D_HEAD)
    return replay(ref.CachedSelfAttention, dict(c, state=state))


def _reprojecting(ref, queries_too: bool):
    """Keep every token seen and project the whole prefix again at each call (the cache is only output)."""

    class Mistake(ref.CachedSelfAttention):
        def forward(self, x, cache=None):
            self.seen = x if cache is None else torch.cat([self.seen, x], dim=1)  # (B, T_total, d_model)
            T_new = x.shape[1]
            q = self.split_heads(self.q_proj(self.seen if queries_too else x))[:, :, -T_new:]  # (B, h, T_new, d_head)
            k = self.split_heads(self.k_proj(self.seen))  # (B, h, T_total, d_head)
            v = self.split_heads(self.v_proj(self.seen))  # (B, h, T_total, d_head)
            return self.attend(q, k, v), (k, v)

    return Mistake


@checks.mistake("reprojects_prefix", ROWS)
def _reprojects_everything(ref, c):
    return PROBES.forward(SimpleNamespace(CachedSelfAttention=_reprojecting(ref, True)), [sent(c)])[0]["rows"]


@checks.mistake("reprojects_prefix", ROWS)
def _reprojects_keys_and_values(ref, c):
    return PROBES.forward(SimpleNamespace(CachedSelfAttention=_reprojecting(ref, False)), [sent(c)])[0]["rows"]


@checks.mistake("forgot_k_or_v", BYTES)
def _forgot_k_or_v(ref, num_layers, batch, seq_len, num_kv_heads, d_head, bytes_per_value):
    return ref.kv_cache_bytes(num_layers, batch, seq_len, num_kv_heads, d_head, bytes_per_value) // 2
