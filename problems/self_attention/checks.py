"""Hidden tests for self_attention: each check's code, and the mistakes recognised by name.

Inputs are standard-normal (unsaturated softmax), with distinct sizes for every axis so that an
axis mix-up fails loudly, and Q != K so that K Qᵀ differs from Q Kᵀ.

The calls one check makes go to the learner's process together (``ctx.calls``, one round trip
instead of one per call) and are judged one by one in the order they were made, exactly as
separate calls would be: a call that raises or is missing ends the check where it would have,
after the results before it have been judged.

What a check says is declared under ``messages:`` in spec.yaml, in English and Chinese.
"""

from __future__ import annotations

import math

import numpy as np

from grader.checks import CheckContext, CheckRegistry
from grader.compare import assert_array, assert_shape

checks = CheckRegistry()

SDPA = "scaled_dot_product_attention"
RTOL, ATOL = 1e-6, 1e-9  # float64 against a float64 reference


def qkv(ctx: CheckContext, batch: tuple[int, ...], L_q: int, L_k: int, d_k: int, d_v: int):
    Q = ctx.rng.standard_normal((*batch, L_q, d_k))  # (..., L_q, d_k)
    K = ctx.rng.standard_normal((*batch, L_k, d_k))  # (..., L_k, d_k)
    V = ctx.rng.standard_normal((*batch, L_k, d_v))  # (..., L_k, d_v)
    return Q, K, V


def mixed_mask(ctx: CheckContext, shape: tuple[int, ...]) -> np.ndarray:
    """A random mask where every row has at least one allowed and one blocked key."""
    mask = ctx.rng.random(shape) < 0.6
    mask[..., 0] = True
    mask[..., -1] = False
    return np.apply_along_axis(ctx.rng.permutation, -1, mask)


def attention_pair(ctx: CheckContext, result, name: str = SDPA):
    """Fail unless the learner returned (output, weights)."""
    if not isinstance(result, tuple) or len(result) != 2:
        ctx.fail(ctx.msg("not_a_pair", name=name, kind=type(result).__name__))
    return result


def compare_attention(ctx: CheckContext, Q, K, V, mask=None, *, rtol=RTOL, atol=ATOL) -> None:
    """Call the learner, compare output and weights with the reference, diagnose on mismatch."""
    args = (Q, K, V) if mask is None else (Q, K, V, mask)
    judge_attention(ctx, ctx.call(SDPA, *args), args, rtol=rtol, atol=atol)


def judge_attention(ctx: CheckContext, result, args: tuple, *, rtol=RTOL, atol=ATOL) -> None:
    """Compare the learner's attention result on ``args`` with the reference, diagnose on mismatch."""
    result = attention_pair(ctx, result)
    expected_out, expected_w = ctx.reference.scaled_dot_product_attention(*args)
    for actual, expected, name in ((result[1], expected_w, "weights"), (result[0], expected_out, "output")):
        ctx.assert_close(actual, expected, name=name, rtol=rtol, atol=atol, entry=SDPA, args=args, result=result)


# --------------------------------------------------------------------------- checks


@checks.test("softmax")
def softmax_values(ctx: CheckContext) -> None:
    x = ctx.rng.standard_normal((3, 4, 5))
    big = x * 1000.0
    axes = (-1, 0, 1)
    results = ctx.calls([*(("softmax", (x,), {"axis": axis}) for axis in axes), ("softmax", (big,))])
    for axis, actual in zip(axes, results):
        ctx.assert_close(actual, ctx.reference.softmax(x, axis=axis), name=f"softmax(x, axis={axis})")
    actual = assert_array(next(results), ctx.msg("large_inputs"))
    if not np.isfinite(actual).all():
        ctx.fail(ctx.msg("softmax_overflow"), diagnosis="unstable_softmax")
    ctx.assert_close(actual, ctx.reference.softmax(big), name=ctx.msg("large_inputs"))


@checks.test("shapes")
def shapes(ctx: CheckContext) -> None:
    Q, K, V = qkv(ctx, (), L_q=5, L_k=7, d_k=8, d_v=3)
    output, weights = attention_pair(ctx, ctx.call(SDPA, Q, K, V))
    assert_array(output, "output", tensor=False)
    assert_array(weights, "weights", tensor=False)
    assert_shape(weights, (5, 7), "weights (L_q=5, L_k=7)")
    assert_shape(output, (5, 3), "output (L_q=5, d_v=3)")


@checks.test("values")
def values(ctx: CheckContext) -> None:
    Q, K, V = qkv(ctx, (2,), L_q=6, L_k=6, d_k=6, d_v=6)
    compare_attention(ctx, Q, K, V)


@checks.test("values_rectangular")
def values_rectangular(ctx: CheckContext) -> None:
    Q, K, V = qkv(ctx, (2, 3), L_q=5, L_k=7, d_k=8, d_v=3)
    compare_attention(ctx, Q, K, V)


@checks.test("weights_sum_to_one")
def weights_sum_to_one(ctx: CheckContext) -> None:
    Q, K, _ = qkv(ctx, (2,), L_q=6, L_k=6, d_k=4, d_v=1)
    V = np.ones((2, 6, 3))
    output, weights = attention_pair(ctx, ctx.call(SDPA, Q, K, V))
    weights = np.asarray(weights, dtype=float)
    if weights.shape != (2, 6, 6):
        ctx.fail(ctx.msg("weights_shape", shape=weights.shape, expected=(2, 6, 6)))
    if (weights < 0).any():
        ctx.fail(ctx.msg("negative_weights"))
    rows = weights.sum(axis=-1)
    if not np.allclose(rows, 1.0, atol=1e-9):
        columns_ok = np.allclose(weights.sum(axis=-2), 1.0, atol=1e-9)
        worst = f"{float(np.abs(rows - 1).max()):.3g}"
        if columns_ok:
            ctx.fail(ctx.msg("rows_not_one_columns_are", worst=worst), diagnosis="softmax_wrong_axis")
        ctx.fail(ctx.msg("rows_not_one", worst=worst))
    ctx.assert_close(output, np.ones((2, 6, 3)), name=ctx.msg("output_for_ones"))


@checks.test("batch_dims")
def batch_dims(ctx: CheckContext) -> None:
    cases = [qkv(ctx, batch, L_q=4, L_k=5, d_k=3, d_v=2) for batch in ((), (3,), (2, 2))]
    Q, K, V = qkv(ctx, (3,), L_q=4, L_k=5, d_k=3, d_v=2)
    items = [(Q[b], K[b], V[b]) for b in range(3)]
    results = ctx.calls([(SDPA, args) for args in (*cases, (Q, K, V), *items)])
    for args, result in zip(cases, results):
        judge_attention(ctx, result, args)
    batched = attention_pair(ctx, next(results))[0]
    for b, result in zip(range(3), results):
        alone = attention_pair(ctx, result)[0]
        ctx.assert_close(np.asarray(batched)[b], alone, name=ctx.msg("batch_item", index=b))


@checks.test("large_logits")
def large_logits(ctx: CheckContext) -> None:
    """Scores past exp's overflow (about 710), built so that no named mistake's verdict depends on the seed.

    1. Every score of a query shifted by the same ±1131: the softmax is unchanged and not saturated,
       so a missing or wrong scale always shows, and an unshifted exp always overflows (or underflows
       to 0/0).
    2. One key per query ahead of the others by 1273: every stable softmax, scaled or not, gives
       the same one-hot row, and so does nothing that subtracts less than the row max.
    """
    Q, K, V = qkv(ctx, (2,), L_q=5, L_k=7, d_k=8, d_v=3)
    shifted_Q, shifted_K = Q.copy(), K.copy()  # (2, 5, 8), (2, 7, 8)
    shifted_Q[..., 0] = np.array([80.0, -80.0])[:, None]  # item 0 shifted up, item 1 down
    shifted_K[..., 0] = 40.0  # each score gains ±80·40/√8 ≈ ±1131, the same for every key of a query
    basis = np.linalg.qr(ctx.rng.standard_normal((2, 8, 8)))[0]  # (2, 8, 8) orthogonal columns
    peaked_K = 60.0 * np.swapaxes(basis, -1, -2)[:, :7, :]  # (2, 7, 8) orthogonal keys of norm 60
    picks = ctx.rng.integers(0, 7, size=(2, 5, 1))  # the key each query copies
    peaked_Q = np.take_along_axis(peaked_K, picks, axis=1)  # (2, 5, 8): score 3600/√8 ≈ 1273 with it, 0 else
    for args in ((shifted_Q, shifted_K, V), (peaked_Q, peaked_K, V)):
        compare_attention(ctx, *args)


@checks.test("mask")
def mask(ctx: CheckContext) -> None:
    Q, K, V = qkv(ctx, (2,), L_q=5, L_k=7, d_k=8, d_v=3)
    full = mixed_mask(ctx, (2, 5, 7))  # a different pattern for every query
    padding = mixed_mask(ctx, (2, 1, 7))  # key padding, broadcast over queries
    # The full mask's call is made twice, as separate calls would: the comparison, then the weights.
    results = ctx.calls([(SDPA, (Q, K, V, m)) for m in (full, padding, full)])
    judge_attention(ctx, next(results), (Q, K, V, full))
    judge_attention(ctx, next(results), (Q, K, V, padding))
    _, weights = attention_pair(ctx, next(results))
    if np.any(np.asarray(weights)[~full] != 0):
        ctx.fail(ctx.msg("blocked_keys_weighted"), diagnosis="inverted_mask")


@checks.test("fully_masked_rows")
def fully_masked_rows(ctx: CheckContext) -> None:
    Q, K, V = qkv(ctx, (2,), L_q=5, L_k=7, d_k=8, d_v=3)
    m = mixed_mask(ctx, (2, 5, 7))
    m[0, 1, :] = False
    m[1, 4, :] = False
    # The call is made twice, as separate calls would: the empty rows, then the comparison.
    results = ctx.calls([(SDPA, (Q, K, V, m))] * 2)
    output, weights = attention_pair(ctx, next(results))
    output, weights = np.asarray(output, dtype=float), np.asarray(weights, dtype=float)
    empty = (np.array([0, 1]), np.array([1, 4]))
    if np.isnan(output[empty]).any() or np.isnan(weights[empty]).any():
        ctx.fail(ctx.msg("empty_row_nan"), diagnosis="nan_on_fully_masked")
    if np.allclose(weights[empty], 1 / weights.shape[-1]):  # every key the same weight: a finite fill
        ctx.fail(ctx.msg("empty_row_uniform"), diagnosis="large_negative_fill")
    if np.abs(weights[empty]).max() > 0:
        ctx.fail(ctx.msg("empty_row_weights"))
    if np.abs(output[empty]).max() > 0:
        ctx.fail(ctx.msg("empty_row_output"))
    judge_attention(ctx, next(results), (Q, K, V, m))


@checks.test("inputs_unchanged")
def inputs_unchanged(ctx: CheckContext) -> None:
    Q, K, V = qkv(ctx, (2,), L_q=5, L_k=7, d_k=8, d_v=3)
    m = mixed_mask(ctx, (2, 5, 7))
    cases = ((Q, K, V, m), (Q.swapaxes(-1, -2).copy().swapaxes(-1, -2), K, V))
    for args, (_, after, _) in zip(cases, ctx.calls([(SDPA, args) for args in cases], echo=True)):
        for name, before, now in zip(("Q", "K", "V", "mask"), args, after):
            if not np.array_equal(np.asarray(now), before):
                ctx.fail(ctx.msg("input_modified", name=name), diagnosis="mutates_input")


@checks.test("dtype")
def dtype(ctx: CheckContext) -> None:
    dtypes = (np.float32, np.float64)
    cases = [tuple(a.astype(dt) for a in qkv(ctx, (2,), L_q=5, L_k=7, d_k=8, d_v=3)) for dt in dtypes]
    for dt, result in zip(dtypes, ctx.calls([(SDPA, args) for args in cases])):
        output, weights = attention_pair(ctx, result)
        for value, name in ((output, "output"), (weights, "weights")):
            got = getattr(value, "dtype", type(value).__name__)
            if got != np.dtype(dt):
                ctx.fail(ctx.msg("dtype_changed", dtype=np.dtype(dt).name, name=name, got=got))


@checks.test("self_attention")
def self_attention(ctx: CheckContext) -> None:
    X = ctx.rng.standard_normal((2, 6, 5))  # (B, L, d_model)
    W_q, W_k = ctx.rng.standard_normal((5, 4)), ctx.rng.standard_normal((5, 4))  # (d_model, d_k)
    W_v = ctx.rng.standard_normal((5, 3))  # (d_model, d_v)
    m = mixed_mask(ctx, (2, 6, 6))
    cases = ((X, W_q, W_k, W_v), (X, W_q, W_k, W_v, m))
    for args, result in zip(cases, ctx.calls([("self_attention", args) for args in cases])):
        result = attention_pair(ctx, result, "self_attention")
        expected_out, expected_w = ctx.reference.self_attention(*args)
        ctx.assert_close(result[1], expected_w, name="weights", entry="self_attention", args=args, result=result)
        ctx.assert_close(result[0], expected_out, name="output", entry="self_attention", args=args, result=result)


# --------------------------------------------------------------------------- figures
# A public example (grader/figures.py): drawn beside the reference's when a check naming it fails.


@checks.figure("causal_weights")
def _causal_weights(side):
    Q, K, V = (side.rng.standard_normal((6, 4)) for _ in range(3))  # (L, d_k): the public example
    causal = np.tril(np.ones((6, 6), dtype=bool))  # (L, L), True = may attend
    _output, weights = side.call(SDPA, Q, K, V, causal)
    return weights  # (L, L)


# --------------------------------------------------------------------------- mistakes
# Each hypothesis is the reference re-run under one mistake; a learner output that matches it
# is diagnosed with that mistake's id.


def _softmax(x, axis=-1):
    shifted = x - np.max(x, axis=axis, keepdims=True)
    e = np.exp(shifted)
    return e / e.sum(axis=axis, keepdims=True)


def _scores(Q, K):
    return Q @ np.swapaxes(K, -1, -2) / math.sqrt(Q.shape[-1])


@checks.mistake("missing_scale", SDPA)
def _missing_scale(ref, Q, K, V, mask=None):
    return ref.scaled_dot_product_attention(Q * math.sqrt(Q.shape[-1]), K, V, mask)


@checks.mistake("scale_by_dk", SDPA)
def _scale_by_dk(ref, Q, K, V, mask=None):
    return ref.scaled_dot_product_attention(Q / math.sqrt(Q.shape[-1]), K, V, mask)


@checks.mistake("softmax_wrong_axis", SDPA)
def _softmax_wrong_axis(ref, Q, K, V, mask=None):
    scores = _scores(Q, K)
    if mask is not None:
        scores = np.where(mask, scores, -1e9)
    weights = _softmax(scores, axis=-2)
    return weights @ V, weights


@checks.mistake("softmax_wrong_axis", SDPA)
def _softmax_wrong_axis_masked(ref, Q, K, V, mask=None):
    """The same mistake written like the reference: -inf fill, blocked weights set to 0 after the
    softmax (they differ from the -1e9 fill where a key is blocked for every query)."""
    if mask is None:
        raise ValueError("needs a mask")
    mask = np.broadcast_to(mask, _scores(Q, K).shape)
    with np.errstate(invalid="ignore"):
        scores = np.where(mask, _scores(Q, K), -np.inf)
        e = np.exp(scores - scores.max(axis=-2, keepdims=True))
        weights = np.where(mask, e / e.sum(axis=-2, keepdims=True), 0.0)
    return weights @ V, weights


@checks.mistake("transposed_scores", SDPA)
def _transposed_scores(ref, Q, K, V, mask=None):
    scores = _scores(K, Q)  # (..., L_k, L_q): rows index keys
    if mask is not None:
        scores = np.where(mask, scores, -1e9)
    weights = _softmax(scores)
    return weights @ V, weights


@checks.mistake("keys_as_values", SDPA)
def _keys_as_values(ref, Q, K, V, mask=None):
    return ref.scaled_dot_product_attention(Q, K, K, mask)


@checks.mistake("unstable_softmax", SDPA)
def _unstable_softmax(ref, Q, K, V, mask=None):
    with np.errstate(over="ignore", invalid="ignore"):
        e = np.exp(_scores(Q, K))
        weights = e / e.sum(axis=-1, keepdims=True)
        return weights @ V, weights


@checks.mistake("inverted_mask", SDPA)
def _inverted_mask(ref, Q, K, V, mask=None):
    if mask is None:
        raise ValueError("needs a mask")
    return ref.scaled_dot_product_attention(Q, K, V, ~np.asarray(mask))


@checks.mistake("mask_after_softmax", SDPA)
def _mask_after_softmax(ref, Q, K, V, mask=None):
    if mask is None:
        raise ValueError("needs a mask")
    weights = _softmax(_scores(Q, K)) * mask
    return weights @ V, weights


@checks.mistake("nan_on_fully_masked", SDPA)
def _nan_on_fully_masked(ref, Q, K, V, mask=None):
    if mask is None:
        raise ValueError("needs a mask")
    with np.errstate(invalid="ignore"):
        scores = np.where(mask, _scores(Q, K), -np.inf)
        e = np.exp(scores - scores.max(axis=-1, keepdims=True))
        weights = e / e.sum(axis=-1, keepdims=True)
        return weights @ V, weights


def _via_projections(mistake):
    """Lift an attention hypothesis to self_attention(X, W_q, W_k, W_v, mask)."""

    def hypothesis(ref, X, W_q, W_k, W_v, mask=None):
        return mistake(ref, X @ W_q, X @ W_k, X @ W_v, mask)

    return hypothesis


for _id, _fn in (
    ("missing_scale", _missing_scale),
    ("scale_by_dk", _scale_by_dk),
    ("softmax_wrong_axis", _softmax_wrong_axis),
    ("transposed_scores", _transposed_scores),
    ("inverted_mask", _inverted_mask),
    ("mask_after_softmax", _mask_after_softmax),
):
    checks.mistake(_id, "self_attention")(_via_projections(_fn))
