"""Hidden tests for flash_attention: each check's code, and the mistakes recognised by name.

Every value check compares the learner with *plain* attention, softmax(q kᵀ / √d) v computed
whole (float64, tight tolerance): a tiled online softmax is exact algebra, so only rounding may
differ. Mistakes are recognised by re-running an online softmax under each mistake
(:func:`online`, the reference's loop with switches) on the same inputs.

The inputs are built so that no verdict depends on the seed:

* ``growing_maximum`` adds +0, +4 and +8 to the scores of key blocks 0, 1 and 2: every row's
  running maximum grows twice, by far more than the noise, so a sum or an accumulator that is not
  rescaled is always far off.
* ``large_logits`` multiplies the scores by 1000 (their maximum is always far above exp's
  overflow at about 709) and shifts every score of a row by ±1000 (the softmax is unchanged and
  not saturated, but exp of a raw score overflows or underflows to 0/0).
* ``causal`` uses n = 70 with block_size 16 (four edges and a short last block), 1 and ≥ n.
* ``peak_memory`` runs the learner at n = 4096, d = 64 inside its own process (probes.py) and
  gets back one number, the peak of traced allocations; the full score matrix alone would be
  128 MiB, the limit is twice q, k and v (12 MiB).
"""

from __future__ import annotations

import math

import numpy as np

from grader.checks import CheckContext, CheckRegistry
from grader.compare import describe

checks = CheckRegistry()

FA = "flash_attention"
RTOL, ATOL = 1e-9, 1e-11  # float64 against float64: only rounding differs
MiB = 2**20

#: The memory probe: sizes, and what it may allocate.
MEMORY_N, MEMORY_D, MEMORY_BLOCK = 4096, 64, 256
MEMORY_LIMIT = 2 * 3 * MEMORY_N * MEMORY_D * 8  # twice q, k and v (float64)
FULL_SCORES = MEMORY_N * MEMORY_N * 8  # one (n_q, n_k) float64 array


# --------------------------------------------------------------------------- inputs and expected values


def qkv(ctx: CheckContext, n_q: int, n_k: int, d: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    q = ctx.rng.standard_normal((n_q, d))  # (n_q, d)
    k = ctx.rng.standard_normal((n_k, d))  # (n_k, d)
    v = ctx.rng.standard_normal((n_k, d))  # (n_k, d)
    return q, k, v


def plain_attention(q: np.ndarray, k: np.ndarray, v: np.ndarray, causal: bool = False) -> np.ndarray:
    """softmax(q kᵀ / √d) v with the whole score matrix: what the tiles must add up to."""
    s = q @ k.T / math.sqrt(q.shape[1])  # (n_q, n_k)
    if causal:
        s = np.where(np.tri(*s.shape, dtype=bool), s, -np.inf)  # key j visible to query i iff j <= i
    p = np.exp(s - s.max(axis=1, keepdims=True))  # (n_q, n_k)
    return p / p.sum(axis=1, keepdims=True) @ v  # (n_q, d)


def call_name(ctx: CheckContext, args: tuple, kwargs: dict):
    shapes = ", ".join(f"{name} {a.shape}" for name, a in zip("qkv", args))
    return ctx.msg(
        "call_name", shapes=shapes, block_size=kwargs.get("block_size", 64), causal=kwargs.get("causal", False)
    )


def judge(ctx: CheckContext, result, args: tuple, kwargs: dict) -> None:
    """The learner's output for ``flash_attention(*args, **kwargs)`` against plain attention."""
    if not isinstance(result, np.ndarray):
        shown = ", ".join(f"{a.shape}" for a in args)
        ctx.fail(ctx.msg("not_an_array", args=f"({shown})", kind=describe(result)))
    expected = ctx.memo(plain_attention, *args, causal=kwargs.get("causal", False))
    ctx.assert_close(
        result, expected, name=call_name(ctx, args, kwargs), rtol=RTOL, atol=ATOL, entry=FA, args=args, kwargs=kwargs
    )


def compare_cases(ctx: CheckContext, cases: list[tuple[tuple, dict]]) -> None:
    """Each ``(args, kwargs)`` case in one round trip, judged in order."""
    results = ctx.calls([(FA, args, kwargs) for args, kwargs in cases])
    for (args, kwargs), result in zip(cases, results):
        judge(ctx, result, args, kwargs)


# --------------------------------------------------------------------------- checks


@checks.test("values")
def values(ctx: CheckContext) -> None:
    compare_cases(ctx, [(qkv(ctx, n_q=150, n_k=200, d=16), {})])  # default block_size 64: 3 × 4 tiles, short edges


@checks.test("block_sizes")
def block_sizes(ctx: CheckContext) -> None:
    sizes = ((50, 45, 7), (20, 20, 1), (30, 37, 37), (37, 30, 100))  # (n_q, n_k, block_size)
    compare_cases(ctx, [(qkv(ctx, n_q, n_k, d=12), {"block_size": bs}) for n_q, n_k, bs in sizes])


@checks.test("growing_maximum")
def growing_maximum(ctx: CheckContext) -> None:
    q, k, v = qkv(ctx, n_q=100, n_k=192, d=16)
    q[:, -1] = 4.0  # with k[:, -1] below, adds k[j, -1] · 4 / √16 = k[j, -1] to every score of key j
    k[:, -1] = np.repeat([0.0, 4.0, 8.0], 64)  # key blocks 0, 1, 2 of 64: +0, +4, +8 (noise: std ≈ 1)
    compare_cases(ctx, [((q, k, v), {"block_size": 64})])


@checks.test("large_logits")
def large_logits(ctx: CheckContext) -> None:
    scaled = qkv(ctx, n_q=40, n_k=100, d=16)
    scaled = (scaled[0] * 1000.0, *scaled[1:])  # scores of standard deviation 1000
    q, k, v = qkv(ctx, n_q=40, n_k=100, d=16)
    q[:, -1] = np.where(np.arange(40) % 2 == 0, 80.0, -80.0)  # rows alternately shifted by ±80 · 50 / √16
    k[:, -1] = 50.0  # = ±1000, the same for every key of a row: the softmax is unchanged
    cases = [(scaled, {"block_size": 32}), ((q, k, v), {"block_size": 32})]
    results = ctx.calls([(FA, args, kwargs) for args, kwargs in cases])
    for (args, kwargs), result in zip(cases, results):
        if isinstance(result, np.ndarray) and result.dtype.kind in "fc" and not np.isfinite(result).all():
            ctx.fail(ctx.msg("not_finite"), diagnosis=ctx.diagnose(FA, result, *args, **kwargs) or "no_max_subtracted")
        judge(ctx, result, args, kwargs)


@checks.test("causal")
def causal(ctx: CheckContext) -> None:
    sizes = ((70, 16), (9, 1), (40, 64))  # (n, block_size): edges at 16, 32, 48, 64; one key per tile; one tile
    compare_cases(ctx, [(qkv(ctx, n, n, d=16), {"block_size": bs, "causal": True}) for n, bs in sizes])


@checks.test("inputs_unchanged")
def inputs_unchanged(ctx: CheckContext) -> None:
    cases = [(qkv(ctx, n_q=20, n_k=30, d=8), {"block_size": 8}), (qkv(ctx, n_q=30, n_k=30, d=8), {"block_size": 8, "causal": True})]
    results = ctx.calls([(FA, args, kwargs) for args, kwargs in cases], echo=True)
    for (args, _), (_, after, _) in zip(cases, results):
        for name, before, now in zip("qkv", args, after):
            if not np.array_equal(np.asarray(now), before):
                ctx.fail(ctx.msg("input_modified", name=name), diagnosis="mutates_input")


@checks.test("peak_memory")
def peak_memory(ctx: CheckContext) -> None:
    seed = int(ctx.rng.integers(2**31))
    peak = ctx.probe("peak_memory", seed, MEMORY_N, MEMORY_D, block_size=MEMORY_BLOCK, causal=True)
    if type(peak) is not int or peak < 0:
        ctx.fail(ctx.msg("not_measured"))
    if peak <= MEMORY_LIMIT:
        return
    peak_mib, limit_mib, full_mib = f"{peak / MiB:.1f}", f"{MEMORY_LIMIT / MiB:.0f}", f"{FULL_SCORES / MiB:.0f}"
    if peak >= FULL_SCORES:
        ctx.fail(ctx.msg("peak_materialised", peak=peak_mib, limit=limit_mib, full=full_mib), diagnosis="materialised_scores")
    ctx.fail(ctx.msg("peak_too_high", peak=peak_mib, limit=limit_mib, full=full_mib))


# --------------------------------------------------------------------------- figures
# A public example (grader/figures.py): drawn beside the reference's when a check naming it fails.


@checks.figure("causal_weights")
def _causal_weights(side):
    q, k = side.rng.standard_normal((8, 8)), side.rng.standard_normal((8, 8))  # (n, d): the public example
    return side.call(FA, q, k, np.eye(8), 3, True)  # (n, n): v = I (d = n), so row i is query i's weights


# --------------------------------------------------------------------------- mistakes
# Each hypothesis is an online softmax run under one mistake on the learner's inputs; an output
# that matches it is diagnosed with that mistake's id.


def online(
    q, k, v, block_size=64, causal=False, *, rescale_acc=True, rescale_sum=True, subtract_max=True, visible="j<=i"
):
    """The reference's tiled loop with switches for the mistakes (rows are independent, so key blocks suffice).

    ``visible`` is the causal rule: "j<=i" (right), "j<i" (the diagonal excluded) or "tile" (whole
    tiles up to the diagonal, nothing masked inside them).
    """
    n_q, d = q.shape
    n_k = k.shape[0]
    rows = np.arange(n_q)[:, None]  # (n_q, 1)
    m = np.full(n_q, -np.inf)  # (n_q,)
    l = np.zeros(n_q)  # (n_q,)
    acc = np.zeros((n_q, v.shape[1]))  # (n_q, d)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        for start in range(0, n_k, block_size):
            cols = np.arange(start, min(start + block_size, n_k))[None, :]  # (1, b_k)
            s = q @ k[cols[0]].T / math.sqrt(d)  # (n_q, b_k)
            if causal:
                seen = {"j<=i": cols <= rows, "j<i": cols < rows, "tile": cols // block_size <= rows // block_size}
                s = np.where(seen[visible], s, -np.inf)
            if subtract_max:
                m_new = np.maximum(m, s.max(axis=1))  # (n_q,)
                correction = np.exp(m - m_new)  # (n_q,)
                p = np.exp(s - m_new[:, None])  # (n_q, b_k)
                m = m_new
            else:
                correction, p = np.ones(n_q), np.exp(s)
            l = (l * correction if rescale_sum else l) + p.sum(axis=1)
            acc = (acc * correction[:, None] if rescale_acc else acc) + p @ v[cols[0]]
        return acc / l[:, None]  # (n_q, d)


def per_block_outputs(q, k, v, block_size, causal):
    """Each key block's own softmax times that block's values, and which rows saw a key in it:
    (n_blocks, n_q, d) and (n_blocks, n_q). A row with no visible key in a block gets zeros there."""
    n_q, n_k = q.shape[0], k.shape[0]
    outputs, seen = [], []
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        for start in range(0, n_k, block_size):
            stop = min(start + block_size, n_k)
            s = q @ k[start:stop].T / math.sqrt(q.shape[1])  # (n_q, b_k)
            if causal:
                s = np.where(np.arange(start, stop)[None, :] <= np.arange(n_q)[:, None], s, -np.inf)
            p = np.exp(s - s.max(axis=1, keepdims=True))  # (n_q, b_k), NaN in rows that see no key
            outputs.append(np.nan_to_num(p / p.sum(axis=1, keepdims=True) @ v[start:stop], nan=0.0))  # (n_q, d)
            seen.append(np.isfinite(s).any(axis=1))  # (n_q,)
    return np.stack(outputs), np.stack(seen)


@checks.mistake("accumulator_not_rescaled", FA)
def _accumulator_not_rescaled(ref, q, k, v, block_size=64, causal=False):
    return online(q, k, v, block_size, causal, rescale_acc=False)


@checks.mistake("sum_not_rescaled", FA)
def _sum_not_rescaled(ref, q, k, v, block_size=64, causal=False):
    return online(q, k, v, block_size, causal, rescale_sum=False)


@checks.mistake("blocks_normalised_separately", FA)
def _blocks_added(ref, q, k, v, block_size=64, causal=False):
    outputs, _ = per_block_outputs(q, k, v, block_size, causal)
    return outputs.sum(axis=0)  # (n_q, d)


@checks.mistake("blocks_normalised_separately", FA)
def _blocks_averaged(ref, q, k, v, block_size=64, causal=False):
    outputs, seen = per_block_outputs(q, k, v, block_size, causal)
    return outputs.sum(axis=0) / seen.sum(axis=0)[:, None]  # (n_q, d): the mean over the blocks each row saw


@checks.mistake("no_max_subtracted", FA)
def _no_max_subtracted(ref, q, k, v, block_size=64, causal=False):
    return online(q, k, v, block_size, causal, subtract_max=False)


@checks.mistake("causal_off_by_one", FA)
def _causal_off_by_one(ref, q, k, v, block_size=64, causal=False):
    if not causal:
        raise ValueError("needs the causal mask")
    return online(q, k, v, block_size, causal, visible="j<i")  # query 0 sees no key: NaN (0 / 0)


@checks.mistake("causal_off_by_one", FA)
def _causal_off_by_one_guarded(ref, q, k, v, block_size=64, causal=False):
    """The same mistake with a guard that gives a row with no visible key zeros instead of NaN."""
    return np.nan_to_num(_causal_off_by_one(ref, q, k, v, block_size, causal), nan=0.0)


@checks.mistake("causal_tile_unmasked", FA)
def _causal_tile_unmasked(ref, q, k, v, block_size=64, causal=False):
    if not causal:
        raise ValueError("needs the causal mask")
    return online(q, k, v, block_size, causal, visible="tile")


@checks.mistake("missing_scale", FA)
def _missing_scale(ref, q, k, v, block_size=64, causal=False):
    return ref.flash_attention(q * math.sqrt(q.shape[1]), k, v, block_size, causal)
