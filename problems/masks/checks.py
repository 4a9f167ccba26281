"""Hidden tests for masks: each check's code, and the mistakes recognised by name.

Masks are compared entry by entry with the reference's, then used the way a model uses them:
the grader runs attention with the learner's masks (or the learner's masked softmax) and checks
behaviour: later keys cannot change earlier outputs, padded keys cannot change anything.
Token batches use a pad id other than 0 in one case, so a hard-coded 0 fails.

The calls one check makes go to the learner's process together (``ctx.calls``, one round
trip instead of one per call) and are judged one by one in the order they were made, exactly as
separate calls would be: a call that raises or is missing ends the check where it would have,
after the results before it have been judged.

What a check says is declared under ``messages:`` in spec.yaml, in English and Chinese.
"""

from __future__ import annotations

import math

import numpy as np
import torch

from grader.checks import CheckContext, CheckRegistry, LearnerRaised
from grader.compare import as_array, assert_array, assert_shape, describe
from grader.i18n import Text

checks = CheckRegistry()

RTOL, ATOL = 1e-6, 1e-9  # float64 against a float64 reference
SOFTMAX = "masked_softmax"


# --------------------------------------------------------------------------- inputs


def scores(ctx: CheckContext, B: int = 3, L_q: int = 4, L_k: int = 6, dtype=torch.float64) -> torch.Tensor:
    return torch.from_numpy(ctx.rng.standard_normal((B, L_q, L_k))).to(dtype)  # (B, L_q, L_k)


def lens(ctx: CheckContext, shape: tuple[int, ...], low: int, high: int) -> torch.Tensor:
    """Valid lengths in [low, high], int64."""
    return torch.from_numpy(ctx.rng.integers(low, high + 1, size=shape))


def token_batch(ctx: CheckContext, pad_id: int, B: int = 3, L: int = 6) -> torch.Tensor:
    """(B, L) token ids: item 0 unpadded, the others right-padded by different amounts, the last left-padded."""
    ids = ctx.rng.integers(10, 50, size=(B, L))  # never a pad id
    real = [L] + [int(n) for n in ctx.rng.permutation(np.arange(2, L))[: B - 1]]
    for b in range(1, B):
        ids[b, real[b]:] = pad_id
    ids[B - 1] = np.roll(ids[B - 1], L - real[B - 1])  # left padding
    return torch.from_numpy(ids)


def attend(Q: torch.Tensor, K: torch.Tensor, V: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Reference attention under a bool mask (True = may attend); rows with no key give zeros."""
    scores = Q @ K.transpose(-2, -1) / math.sqrt(Q.shape[-1])  # (..., L_q, L_k)
    mask = torch.broadcast_to(mask, scores.shape)
    scores = scores.masked_fill(~mask, float("-inf")).masked_fill(~mask.any(-1, keepdim=True), 0.0)
    return torch.softmax(scores, dim=-1).masked_fill(~mask, 0.0) @ V  # (..., L_q, d_v)


# --------------------------------------------------------------------------- judging


def same_mask(ctx: CheckContext, actual, expected: torch.Tensor, call: str, entry: str, args=(), kwargs=None) -> None:
    """Fail unless ``actual`` is a bool tensor equal to ``expected``; diagnose a wrong mask by name."""
    kwargs = kwargs or {}
    got = assert_array(actual, call, tensor=True)
    wrong = None
    if tuple(actual.shape) != tuple(expected.shape):
        wrong = ctx.msg("mask_shape", call=call, actual=tuple(actual.shape), expected=tuple(expected.shape))
    else:
        bad = got.astype(bool) != expected.numpy()
        if bad.any():
            first = tuple(int(i) for i in np.argwhere(bad)[0])
            wrong = ctx.msg(
                "mask_wrong", call=call, bad=int(bad.sum()), total=bad.size, first=first,
                got=int(got.astype(bool).sum()), expected=int(expected.sum()),
            )
    if wrong is not None:
        ctx.fail(wrong, diagnosis=ctx.diagnose(entry, actual, *args, **kwargs))
    if actual.dtype != torch.bool:
        ctx.fail(ctx.msg("mask_dtype", call=call, dtype=describe(actual)))


def softmax_result(ctx: CheckContext, actual, like: torch.Tensor, call: str | Text) -> np.ndarray:
    got = assert_array(actual, call, tensor=True)
    assert_shape(actual, tuple(like.shape), call)
    return got


def softmax_args(S: torch.Tensor, valid=None) -> tuple:
    return (S,) if valid is None else (S, valid)


def compare_softmax(ctx: CheckContext, actual, S: torch.Tensor, valid=None, *, label: str | Text, rtol=RTOL,
                    atol=ATOL) -> None:
    """Judge ``actual``, the learner's masked_softmax(S[, valid]), against the reference."""
    args = softmax_args(S, valid)
    name = ctx.msg("softmax_case", case=label)
    softmax_result(ctx, actual, S, name)
    ctx.assert_close(
        actual, ctx.reference.masked_softmax(*args), name=name, rtol=rtol, atol=atol, entry=SOFTMAX, args=args,
    )


# --------------------------------------------------------------------------- checks


@checks.test("causal_mask")
def causal_mask(ctx: CheckContext) -> None:
    calls = [((4,), {}), ((5, 5), {}), ((3, 5), {}), ((1, 6), {}), ((6,), {"device": "cpu"})]
    results = ctx.calls([("causal_mask", args, kwargs) for args, kwargs in calls])
    for (args, kwargs), actual in zip(calls, results):
        shown = ", ".join([*map(str, args), *(f"{k}={v!r}" for k, v in kwargs.items())])
        expected = ctx.reference.causal_mask(*args, **kwargs)
        same_mask(ctx, actual, expected, f"causal_mask({shown})", "causal_mask", args, kwargs)


@checks.test("padding_mask")
def padding_mask(ctx: CheckContext) -> None:
    batches = [(token_batch(ctx, pad_id), pad_id) for pad_id in (0, 7)]
    for (tokens, pad_id), actual in zip(batches, ctx.calls([("padding_mask", b) for b in batches])):
        expected = ctx.reference.padding_mask(tokens, pad_id)
        same_mask(ctx, actual, expected, f"padding_mask(tokens, pad_id={pad_id})", "padding_mask", (tokens, pad_id))


@checks.test("decoder_mask")
def decoder_mask(ctx: CheckContext) -> None:
    batches = [(token_batch(ctx, pad_id), pad_id) for pad_id in (0, 7)]
    for (tokens, pad_id), actual in zip(batches, ctx.calls([("decoder_mask", b) for b in batches])):
        expected = ctx.reference.decoder_mask(tokens, pad_id)
        same_mask(ctx, actual, expected, f"decoder_mask(tokens, pad_id={pad_id})", "decoder_mask", (tokens, pad_id))


@checks.test("masked_softmax")
def masked_softmax(ctx: CheckContext) -> None:
    S = scores(ctx)
    cases = [
        (lens(ctx, (3,), 1, 5), "valid_lens (B,)"),
        (lens(ctx, (3, 4), 1, 6), "valid_lens (B, L_q)"),
        (None, "valid_lens None"),
    ]
    results = ctx.calls([(SOFTMAX, softmax_args(S, valid)) for valid, _ in cases])
    for (valid, label), actual in zip(cases, results):
        compare_softmax(ctx, actual, S, valid, label=label)


@checks.test("rows_sum_to_one")
def rows_sum_to_one(ctx: CheckContext) -> None:
    S, valid = scores(ctx), lens(ctx, (3, 4), 1, 6)
    weights = softmax_result(ctx, ctx.call(SOFTMAX, S, valid), S, "masked_softmax(scores, valid_lens)")
    keep = np.arange(6)[None, None, :] < valid.numpy()[..., None]  # (B, L_q, L_k)
    if (weights < 0).any():
        ctx.fail(ctx.msg("negative_weights"))
    if np.abs(weights[~keep]).max(initial=0) != 0:
        ctx.fail(ctx.msg("past_valid_len"))
    sums = weights.sum(axis=-1)
    if not np.allclose(sums, 1.0, atol=1e-9):
        worst = f"{float(np.abs(sums - 1).max()):.3g}"
        ctx.fail(ctx.msg("zeroed_after_softmax", worst=worst), diagnosis="mask_after_softmax")


@checks.test("fully_masked_rows")
def fully_masked_rows(ctx: CheckContext) -> None:
    S = scores(ctx)
    cases = (
        (torch.tensor([3, 0, 5]), ctx.msg("lens_with_a_zero")),
        (torch.tensor([[2, 0, 6, 1], [0, 0, 3, 4], [5, 1, 0, 2]]), ctx.msg("lens_with_zeros")),
    )
    # Each case's call is made twice, as separate calls would: the weights, then the comparison.
    results = ctx.calls([(SOFTMAX, (S, valid)) for valid, _ in cases for _twice in range(2)])
    for valid, label in cases:
        weights = softmax_result(ctx, next(results), S, ctx.msg("softmax_case", case=label))
        empty = np.broadcast_to(valid.numpy().reshape(3, -1) == 0, (3, 4))  # (B, L_q)
        rows = weights[empty]
        if np.isnan(rows).any():
            ctx.fail(ctx.msg("empty_row_nan", case=label), diagnosis="nan_on_fully_masked")
        if np.abs(rows).max() != 0:
            if np.allclose(rows, 1 / 6):  # a finite fill such as -1e9 gives every key the same weight
                ctx.fail(ctx.msg("empty_row_uniform", case=label), diagnosis="large_negative_fill")
            ctx.fail(ctx.msg("empty_row_not_zero", case=label))
        compare_softmax(ctx, next(results), S, valid, label=label)


@checks.test("causality")
def causality(ctx: CheckContext) -> None:
    """Changing keys and values after position t leaves the outputs at positions <= t unchanged."""
    L, d = 6, 4
    Q = torch.from_numpy(ctx.rng.standard_normal((L, d)))  # (L, d)
    K, V = (torch.from_numpy(ctx.rng.standard_normal((L, d))) for _ in range(2))  # (L, d)
    Ks, Vs = [K], [V]  # variant t changes keys and values after position t
    for t in range(L - 1):
        K_t, V_t = K.clone(), V.clone()
        K_t[t + 1 :] = torch.from_numpy(ctx.rng.standard_normal((L - t - 1, d))) * 3
        V_t[t + 1 :] = torch.from_numpy(ctx.rng.standard_normal((L - t - 1, d))) * 3
        Ks.append(K_t)
        Vs.append(V_t)
    Ks, Vs = torch.stack(Ks), torch.stack(Vs)  # (L, L, d): variant, position, feature

    def judge(outputs: torch.Tensor, how: str | Text) -> None:
        for t in range(L - 1):
            changed = ~np.isclose(outputs[t + 1, : t + 1].numpy(), outputs[0, : t + 1].numpy(), rtol=1e-9, atol=1e-12)
            if changed.any():
                row = int(np.argwhere(changed)[0][0])
                ctx.fail(ctx.msg("future_changed_past", how=how, t=t, row=row))

    tokens = torch.arange(10, 10 + L)[None]  # (1, L), no padding
    S = Q @ Ks.transpose(-2, -1) / math.sqrt(d)  # (L, L_q, L_k): variant, query, key
    valid = torch.arange(1, L + 1).expand(L, L)  # query i sees keys 0..i
    results = ctx.calls([("causal_mask", (L,)), ("decoder_mask", (tokens, 0)), (SOFTMAX, (S, valid))])
    mask = next(results)
    assert_shape(mask, (L, L), f"causal_mask({L})")
    judge(attend(Q, Ks, Vs, torch.as_tensor(mask).bool()), f"causal_mask({L})")
    mask = next(results)
    assert_shape(mask, (1, 1, L, L), ctx.msg("one_sequence"))
    judge(attend(Q, Ks, Vs, torch.as_tensor(mask).bool()[0]), "decoder_mask")
    weights = softmax_result(ctx, next(results), S, "masked_softmax(scores, valid_lens=i + 1)")
    judge(torch.from_numpy(np.asarray(weights, dtype=np.float64)) @ Vs, ctx.msg("with_valid_lens"))


@checks.test("padding_invariance")
def padding_invariance(ctx: CheckContext) -> None:
    """Changing padded positions, even to 1e6, changes nothing."""
    S, valid = scores(ctx), lens(ctx, (3,), 2, 5)
    padded = np.arange(6)[None, None, :] >= valid.numpy()[:, None, None]  # (B, 1, L_k)
    loud = S.masked_fill(torch.from_numpy(padded), 1e6)
    both = torch.cat([S, loud])  # (2B, L_q, L_k): the same rows, padded keys quiet then loud
    pad_id = 7
    tokens = token_batch(ctx, pad_id)  # (B, L)
    B, L, d = 3, 6, 4
    Q, K, V = (torch.from_numpy(ctx.rng.standard_normal((B, 1, L, d))) for _ in range(3))  # (B, h=1, L, d)
    entries = ("padding_mask", "decoder_mask")
    results = ctx.calls([(SOFTMAX, (both, valid.repeat(2))), *((e, (tokens, pad_id)) for e in entries)])
    weights = softmax_result(ctx, next(results), both, "masked_softmax")
    if not np.allclose(weights[3:], weights[:3], rtol=1e-9, atol=1e-12, equal_nan=True):
        ctx.fail(ctx.msg("padded_scores_count"))
    is_pad = (tokens == pad_id)[:, None, :, None]  # (B, 1, L, 1)
    K_loud, V_loud = K.masked_fill(is_pad, 1e6), V.masked_fill(is_pad, 1e6)
    for entry, mask in zip(entries, results):
        assert_array(mask, entry, tensor=True)
        try:
            mask = torch.broadcast_to(torch.as_tensor(mask).bool(), (B, 1, L, L))
        except RuntimeError:
            ctx.fail(ctx.msg("not_broadcastable", entry=entry, shape=tuple(mask.shape)))
        quiet, loud_out = attend(Q, K, V, mask), attend(Q, K_loud, V_loud, mask)
        if not torch.allclose(loud_out, quiet, rtol=1e-9, atol=1e-9):
            ctx.fail(ctx.msg("padded_changed_output", entry=entry))


@checks.test("inputs_unchanged")
def inputs_unchanged(ctx: CheckContext) -> None:
    S = scores(ctx)
    valids = (lens(ctx, (3,), 0, 5), lens(ctx, (3, 4), 0, 6))
    echoed = ctx.calls([(SOFTMAX, (S, valid)) for valid in valids], echo=True)
    for valid, (_, (S_after, valid_after), _) in zip(valids, echoed):
        for name, before, after in (("scores", S, S_after), ("valid_lens", valid, valid_after)):
            if as_array(after) is None or not np.array_equal(as_array(after), before.numpy(), equal_nan=True):
                ctx.fail(ctx.msg("modified_argument", name=name), diagnosis="mutates_input")


@checks.test("dtypes")
def dtypes(ctx: CheckContext) -> None:
    """The same scores in float64, float32 and float16: each keeps its dtype and they agree."""
    S64, valid = scores(ctx).half().double(), lens(ctx, (3,), 1, 6)  # values float16 can hold
    results = {}
    dtypes = (torch.float64, torch.float32, torch.float16)
    answers = ctx.calls([(SOFTMAX, (S64.to(dtype), valid)) for dtype in dtypes])
    for dtype in dtypes:
        name = str(dtype).removeprefix("torch.")
        try:
            actual = next(answers)
        except LearnerRaised as raised:
            if dtype == torch.float16 and "overflow" in raised.detail and not raised.is_a("NotImplementedError"):
                ctx.fail(ctx.msg("float16_raised", error=raised.sentence()), diagnosis="float16_overflow")
            raise
        weights = softmax_result(ctx, actual, S64, ctx.msg("of_dtype", dtype=name))
        if actual.dtype != dtype:
            ctx.fail(ctx.msg("weights_dtype", dtype=name, got=describe(actual)))
        if not np.isfinite(weights).all():
            overflow = "float16_overflow" if name == "float16" else None
            ctx.fail(ctx.msg("weights_not_finite", dtype=name), diagnosis=overflow)
        results[name] = actual
    for name, tol in (("float32", 1e-5), ("float16", 2e-3)):
        label = ctx.msg("against_float64", dtype=name)
        ctx.assert_close(results[name], results["float64"], name=label, rtol=tol, atol=tol)


@checks.test("device")
def device(ctx: CheckContext) -> None:
    def meta(*shape, dtype=torch.float32):
        return torch.empty(shape, dtype=dtype, device="meta")

    tokens = meta(3, 6, dtype=torch.int64)
    calls = [
        ("causal_mask", (4, 6), {"device": "meta"}, (4, 6)),
        ("padding_mask", (tokens, 0), {}, (3, 1, 1, 6)),
        ("decoder_mask", (tokens, 0), {}, (3, 1, 6, 6)),
        (SOFTMAX, (meta(3, 4, 6), meta(3, dtype=torch.int64)), {}, (3, 4, 6)),
        (SOFTMAX, (meta(3, 4, 6), meta(3, 4, dtype=torch.int64)), {}, (3, 4, 6)),
    ]
    results = ctx.calls([(entry, args, kwargs) for entry, args, kwargs, _ in calls])
    for (entry, args, kwargs, shape), actual in zip(calls, results):
        assert_array(actual, ctx.msg("on_meta", entry=entry), tensor=True)
        if actual.device.type != "meta":
            ctx.fail(ctx.msg("wrong_device", entry=entry, device=actual.device.type))
        assert_shape(actual, shape, ctx.msg("on_meta", entry=entry))


# --------------------------------------------------------------------------- figures
# Public examples (grader/figures.py): drawn beside the reference's when a check naming them fails,
# and by grade show. side.rng is seeded by the figure id alone, never by the grading seed.


@checks.figure("causal")
def _causal_figure(side):
    return side.call("causal_mask", 6)  # (6, 6)


def _sentences(side, lengths: list[int], L: int = 6) -> torch.Tensor:
    """(len(lengths), L) token ids, right-padded with 0 after each sentence's real tokens."""
    ids = torch.from_numpy(side.rng.integers(1, 50, size=(len(lengths), L)))  # never the pad id 0
    real = torch.arange(L)[None, :] < torch.tensor(lengths)[:, None]  # (B, L)
    return ids.masked_fill(~real, 0)  # (B, L)


@checks.figure("padding")
def _padding_figure(side):
    tokens = _sentences(side, [3, 6, 4])  # (3, 6)
    return side.call("padding_mask", tokens, 0)[:, 0, 0, :]  # (3, 6)


@checks.figure("decoder")
def _decoder_figure(side):
    tokens = _sentences(side, [4])  # (1, 6)
    return side.call("decoder_mask", tokens, 0)[0, 0]  # (6, 6)


@checks.figure("softmax")
def _softmax_figure(side):
    S = torch.from_numpy(side.rng.standard_normal((1, 4, 6)))  # (1, 4, 6)
    return side.call(SOFTMAX, S, torch.tensor([[1, 3, 0, 6]]))[0]  # (4, 6)


# --------------------------------------------------------------------------- mistakes
# Each hypothesis is the reference re-run under one mistake; a learner output that matches it
# is diagnosed with that mistake's id.


def _causal(L_q, L_k=None, shift=0):
    L_k = L_q if L_k is None else L_k
    return torch.ones(L_q, L_k, dtype=torch.bool).tril(L_k - L_q + shift)  # (L_q, L_k)


@checks.mistake("inverted_mask", "causal_mask")
def _causal_inverted(ref, L_q, L_k=None, *, device=None):
    return ~ref.causal_mask(L_q, L_k)


@checks.mistake("causal_off_by_one", "causal_mask")
def _causal_diagonal_masked(ref, L_q, L_k=None, *, device=None):
    return _causal(L_q, L_k, -1)


@checks.mistake("causal_off_by_one", "causal_mask")
def _causal_one_future_key(ref, L_q, L_k=None, *, device=None):
    return _causal(L_q, L_k, +1)


@checks.mistake("inverted_mask", "padding_mask")
def _padding_inverted(ref, tokens, pad_id):
    return ~ref.padding_mask(tokens, pad_id)


@checks.mistake("padding_on_queries", "padding_mask")
def _padding_on_queries(ref, tokens, pad_id):
    return (tokens != pad_id)[:, None, :, None]  # (B, 1, L, 1): masks query rows


@checks.mistake("inverted_mask", "decoder_mask")
def _decoder_inverted(ref, tokens, pad_id):
    return ~ref.decoder_mask(tokens, pad_id)


@checks.mistake("inverted_mask", "decoder_mask")
def _decoder_inverted_causal(ref, tokens, pad_id):
    return ref.padding_mask(tokens, pad_id) & ~_causal(tokens.shape[-1])


@checks.mistake("causal_off_by_one", "decoder_mask")
def _decoder_diagonal_masked(ref, tokens, pad_id):
    return ref.padding_mask(tokens, pad_id) & _causal(tokens.shape[-1], shift=-1)


@checks.mistake("causal_off_by_one", "decoder_mask")
def _decoder_one_future_key(ref, tokens, pad_id):
    return ref.padding_mask(tokens, pad_id) & _causal(tokens.shape[-1], shift=+1)


@checks.mistake("padding_on_queries", "decoder_mask")
def _decoder_padding_on_queries(ref, tokens, pad_id):
    return (tokens != pad_id)[:, None, :, None] & _causal(tokens.shape[-1])  # (B, 1, L, L)


def _keep(scores, valid_lens):
    """(B, L_q or 1, L_k) bool: True for keys before valid_len."""
    valid = valid_lens[:, None] if valid_lens.dim() == 1 else valid_lens
    return torch.arange(scores.shape[-1]) < valid[..., None]


def _softmax_keeping(scores, keep, empty="zeros"):
    """Softmax over the kept keys; rows with none kept are zeros, uniform (finite fill) or NaN (-inf fill)."""
    fill = {"zeros": float("-inf"), "nan": float("-inf"), "uniform": -1e9}[empty]
    keep = torch.broadcast_to(keep, scores.shape)
    masked = scores.double().masked_fill(~keep, fill)
    if empty == "zeros":
        masked = masked.masked_fill(~keep.any(-1, keepdim=True), 0.0)
    weights = torch.softmax(masked, dim=-1)
    return weights.masked_fill(~keep, 0.0) if empty == "zeros" else weights


def _needs_lens(valid_lens):
    if valid_lens is None:
        raise ValueError("the mistake needs valid_lens")


@checks.mistake("inverted_mask", SOFTMAX)
def _softmax_inverted(ref, scores, valid_lens=None):
    _needs_lens(valid_lens)
    return _softmax_keeping(scores, ~_keep(scores, valid_lens))


@checks.mistake("mask_after_softmax", SOFTMAX)
def _softmax_mask_after(ref, scores, valid_lens=None):
    _needs_lens(valid_lens)
    return torch.softmax(scores.double(), dim=-1) * _keep(scores, valid_lens)


@checks.mistake("multiplicative_mask", SOFTMAX)
def _softmax_multiplied(ref, scores, valid_lens=None):
    _needs_lens(valid_lens)
    return torch.softmax(scores.double() * _keep(scores, valid_lens), dim=-1)


@checks.mistake("multiplicative_mask", SOFTMAX)
def _softmax_multiplied_then_zeroed(ref, scores, valid_lens=None):
    _needs_lens(valid_lens)
    keep = _keep(scores, valid_lens)
    return torch.softmax(scores.double() * keep, dim=-1) * keep


for _empty in ("zeros", "uniform", "nan"):

    @checks.mistake("padding_on_queries", SOFTMAX)
    def _softmax_padding_on_queries(ref, scores, valid_lens=None, _empty=_empty):
        _needs_lens(valid_lens)
        if valid_lens.dim() != 1:
            raise ValueError("query-axis padding needs one length per item")
        rows = torch.arange(scores.shape[1])[None, :, None] < valid_lens[:, None, None]  # (B, L_q, 1)
        return _softmax_keeping(scores, rows, _empty)


@checks.mistake("nan_on_fully_masked", SOFTMAX)
def _softmax_nan_rows(ref, scores, valid_lens=None):
    _needs_lens(valid_lens)
    return _softmax_keeping(scores, _keep(scores, valid_lens), "nan")
