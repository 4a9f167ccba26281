"""Hidden tests for rotary_embedding: each check's code, and the mistakes recognised by name.

Values are compared with the reference within 1e-4: a learner may compute the angles in float32
for float32 and float64 inputs (as Hugging Face does), which costs about position × 1e-7 radians;
every named mistake is off by far more. Mistakes are recognised by re-running the reference
under each one, matched within the same tolerance (``hypothesis_tol``).

Inputs are chosen so that no verdict depends on the seed:

* d ≥ 8 everywhere (at d = 2 both layouts are the same pair);
* the bases passed explicitly are 500 and 10⁶: never 100 or 10⁸, where an ignored base and an
  exponent of i/d or 4i/d give the same frequencies;
* ``half_precision`` puts float16 at positions 3000 … 3015 (float16 holds only even integers
  there, so odd positions alone are off by one radian) and bfloat16 at 1000 … 1015 (a spacing of
  8): angles computed in half precision are wrong by far more than rounding, for every seed.
"""

from __future__ import annotations

import math

import numpy as np
import torch

from grader.checks import CheckContext, CheckRegistry
from grader.compare import CheckFailed, as_array, assert_array, describe

checks = CheckRegistry()

ROPE = "apply_rotary"
TOL = (1e-4, 1e-4)  # (rtol, atol) against the reference, for float32 and float64 outputs
HALF_TOL = {torch.float16: (1e-2, 2e-2), torch.bfloat16: (2e-2, 8e-2)}  # a few units in the last place
DEFAULT_BASE = 10000.0


# --------------------------------------------------------------------------- inputs


def tensor(ctx: CheckContext, shape: tuple[int, ...], dtype: torch.dtype = torch.float32) -> torch.Tensor:
    return torch.from_numpy(ctx.rng.standard_normal(shape)).to(dtype)


def positions(start: int, stop: int) -> torch.Tensor:
    return torch.arange(start, stop)  # (T,) int64


def describe_positions(pos: torch.Tensor) -> str:
    values = pos.tolist()
    if values == list(range(values[0], values[0] + len(values))):
        return f"positions {values[0]}…{values[-1]}"
    return f"positions {values}"


def call_name(ctx: CheckContext, args: tuple, kwargs: dict):
    x, pos = args
    return ctx.msg(
        "call_name", shape=tuple(x.shape), dtype=str(x.dtype).removeprefix("torch."),
        positions=describe_positions(pos), base=f"{kwargs.get('base', DEFAULT_BASE):g}",
        interleaved=kwargs.get("interleaved", False),
    )


def as_output(ctx: CheckContext, result, args: tuple, kwargs: dict) -> torch.Tensor:
    """The learner's result, after checking it is a tensor of x's shape."""
    if not isinstance(result, torch.Tensor):
        ctx.fail(ctx.msg("not_a_tensor", name=call_name(ctx, args, kwargs), kind=describe(result)))
    assert_array(result, call_name(ctx, args, kwargs), tensor=True)
    return result


def judge(ctx: CheckContext, result, args: tuple, kwargs: dict, tol: tuple[float, float] = TOL) -> None:
    """The learner's output for ``apply_rotary(*args, **kwargs)`` against the reference's."""
    result = as_output(ctx, result, args, kwargs)
    expected = ctx.memo(ctx.reference.apply_rotary, *args, **kwargs)
    ctx.assert_close(
        result, expected, name=call_name(ctx, args, kwargs), rtol=tol[0], atol=tol[1],
        entry=ROPE, args=args, kwargs=kwargs, hypothesis_tol=tol,
    )


def compare_cases(ctx: CheckContext, cases: list[tuple[tuple, dict]]) -> None:
    """Each ``(args, kwargs)`` case in one round trip, judged in order."""
    for (args, kwargs), result in zip(cases, ctx.calls([(ROPE, args, kwargs) for args, kwargs in cases])):
        judge(ctx, result, args, kwargs)


def pairs(d: int, interleaved: bool) -> tuple[np.ndarray, np.ndarray]:
    """Feature indices (first, second) of pairs 0 … d/2 − 1 in a layout."""
    i = np.arange(d // 2)
    return (2 * i, 2 * i + 1) if interleaved else (i, i + d // 2)


# --------------------------------------------------------------------------- checks


@checks.test("rotate_half")
def rotate_half(ctx: CheckContext) -> None:
    compare_cases(ctx, [((tensor(ctx, (2, 3, 10, 16)), positions(0, 10)), {})])  # (B, H, T, d), the defaults


@checks.test("interleaved")
def interleaved(ctx: CheckContext) -> None:
    compare_cases(ctx, [((tensor(ctx, (2, 3, 10, 16)), positions(0, 10)), {"interleaved": True})])


@checks.test("position_zero")
def position_zero(ctx: CheckContext) -> None:
    cases = [((tensor(ctx, (2, 5, 12)), torch.zeros(5, dtype=torch.int64)), {"interleaved": flag}) for flag in (False, True)]
    for (args, kwargs), result in zip(cases, ctx.calls([(ROPE, args, kwargs) for args, kwargs in cases])):
        out = as_array(as_output(ctx, result, args, kwargs))
        x = args[0].numpy()
        if out.shape != x.shape or not np.allclose(out, x, rtol=1e-6, atol=1e-6):
            worst = f"{float(np.abs(out - x).max()):.3g}" if out.shape == x.shape else "?"
            ctx.fail(ctx.msg("not_identity", interleaved=kwargs["interleaved"], worst=worst),
                     diagnosis=ctx.diagnose(ROPE, result, *args, tolerance=TOL, **kwargs))


@checks.test("pair_norms")
def pair_norms(ctx: CheckContext) -> None:
    d = 16
    pos = torch.from_numpy(np.sort(ctx.rng.choice(300, size=20, replace=False)))  # (20,) distinct positions
    cases = [((tensor(ctx, (3, 20, d), torch.float64), pos), {"interleaved": flag}) for flag in (False, True)]
    for (args, kwargs), result in zip(cases, ctx.calls([(ROPE, args, kwargs) for args, kwargs in cases])):
        out = as_array(as_output(ctx, result, args, kwargs))
        x = args[0].numpy()
        if out.shape != x.shape:
            judge(ctx, result, args, kwargs)  # says what the shape should be
        first, second = pairs(d, kwargs["interleaved"])
        before = np.hypot(x[..., first], x[..., second])  # (3, 20, d/2)
        after = np.hypot(out[..., first], out[..., second])  # (3, 20, d/2)
        change = np.abs(after - before) / before  # (3, 20, d/2)
        if not change.max() <= 1e-5:
            pair = int(np.unravel_index(np.nanargmax(np.nan_to_num(change, nan=np.inf)), change.shape)[-1])
            ctx.fail(
                ctx.msg("norm_changed", interleaved=kwargs["interleaved"], pair=pair, a=int(first[pair]),
                        b=int(second[pair]), worst=f"{float(np.nanmax(change)):.3g}"),
                diagnosis=ctx.diagnose(ROPE, result, *args, tolerance=TOL, **kwargs),
            )


@checks.test("relative_positions")
def relative_positions(ctx: CheckContext) -> None:
    """Copies of one q at positions m and of one k at positions n, with m − n the same in each group."""
    d = 16
    q, k = ctx.rng.standard_normal(d), ctx.rng.standard_normal(d)  # (d,) each
    m = np.array([3, 40, 123, 301, 777, 10, 50, 402, 666])  # (9,)
    n = m - np.array([3] * 5 + [-5] * 4)  # (9,): offsets 3 (q after k) and -5 (k after q)
    cases = []
    for flag in (False, True):
        for vec, pos in ((q, m), (k, n)):
            cases.append(((torch.from_numpy(np.tile(vec, (len(pos), 1))), torch.from_numpy(pos)), {"interleaved": flag}))
    results = ctx.calls([(ROPE, args, kwargs) for args, kwargs in cases])
    for (args_q, kwargs), (args_k, _) in zip(cases[::2], cases[1::2]):
        rotated = []
        for args in (args_q, args_k):
            result = as_output(ctx, next(results), args, kwargs)
            if tuple(result.shape) != (len(m), d):
                judge(ctx, result, args, kwargs)  # says which shape it should have
            rotated.append(as_array(result).astype(np.float64))  # (9, d)
        scores = (rotated[0] * rotated[1]).sum(axis=1) / (np.linalg.norm(q) * np.linalg.norm(k))  # (9,)
        spread = max(np.ptp(scores[:5]), np.ptp(scores[5:]))  # each group shares one m - n
        if not spread <= 1e-4:
            learner_q = torch.from_numpy(rotated[0]).to(args_q[0].dtype)
            ctx.fail(ctx.msg("not_relative", worst=f"{float(spread):.3g}"),
                     diagnosis=ctx.diagnose(ROPE, learner_q, *args_q, tolerance=TOL, **kwargs))


@checks.test("offsets")
def offsets(ctx: CheckContext) -> None:
    packed = torch.tensor([0, 1, 2, 0, 1, 2, 3])  # two sequences packed in one row
    compare_cases(ctx, [
        ((tensor(ctx, (2, 8, 16)), positions(37, 45)), {}),  # decoding after T_past = 37 tokens
        ((tensor(ctx, (1, 2, 7, 16)), packed), {"interleaved": True}),
    ])


@checks.test("broadcasting")
def broadcasting(ctx: CheckContext) -> None:
    shapes = ((9, 16), (3, 9, 16), (2, 3, 9, 16))  # (T, d), (B, T, d), (B, H, T, d)
    compare_cases(ctx, [((tensor(ctx, shape), positions(4, 13)), {"interleaved": i == 1}) for i, shape in enumerate(shapes)])


@checks.test("custom_base")
def custom_base(ctx: CheckContext) -> None:
    compare_cases(ctx, [
        ((tensor(ctx, (2, 10, 16)), positions(0, 10)), {"base": 500.0}),
        ((tensor(ctx, (2, 10, 16)), positions(5, 15)), {"base": 1.0e6, "interleaved": True}),
    ])


@checks.test("dtypes")
def dtypes(ctx: CheckContext) -> None:
    kinds = (torch.float16, torch.bfloat16, torch.float32, torch.float64)
    cases = [((tensor(ctx, (2, 6, 8), dtype), positions(0, 6)), {}) for dtype in kinds]
    for (args, kwargs), result in zip(cases, ctx.calls([(ROPE, args, kwargs) for args, kwargs in cases])):
        result = as_output(ctx, result, args, kwargs)
        if result.dtype != args[0].dtype:
            ctx.fail(ctx.msg("dtype_changed", dtype=str(args[0].dtype).removeprefix("torch."),
                             got=str(result.dtype).removeprefix("torch.")))
        judge(ctx, result, args, kwargs, HALF_TOL.get(args[0].dtype, TOL))


@checks.test("half_precision")
def half_precision(ctx: CheckContext) -> None:
    """Each half-precision input and the same values in float32, at positions in the thousands."""
    cases = []
    for dtype, start in ((torch.float16, 3000), (torch.bfloat16, 1000)):
        x = tensor(ctx, (2, 16, 32), dtype)  # (B, T, d)
        cases += [((x, positions(start, start + 16)), {}), ((x.float(), positions(start, start + 16)), {})]
    results = ctx.calls([(ROPE, args, kwargs) for args, kwargs in cases])
    for (args, kwargs), (args32, _) in zip(cases[::2], cases[1::2]):
        dtype = args[0].dtype
        half, full = as_output(ctx, next(results), args, kwargs), next(results)
        if half.dtype != dtype:
            ctx.fail(ctx.msg("dtype_changed", dtype=str(dtype).removeprefix("torch."),
                             got=str(half.dtype).removeprefix("torch.")))
        try:
            judge(ctx, half, args, kwargs, HALF_TOL[dtype])
        except CheckFailed as failure:
            if failure.diagnosis is not None or not right_in_float32(ctx, full, args32):
                raise
            worst = np.abs(as_array(half).astype(np.float64) - as_array(ctx.reference.apply_rotary(*args)).astype(np.float64))
            ctx.fail(ctx.msg("half_wrong", dtype=str(dtype).removeprefix("torch."), worst=f"{float(worst.max()):.3g}"),
                     diagnosis="half_precision_angles")


def right_in_float32(ctx: CheckContext, result, args: tuple) -> bool:
    """True if the learner's float32 answer on the same values and positions is right."""
    if not isinstance(result, torch.Tensor) or tuple(result.shape) != tuple(args[0].shape):
        return False
    expected = ctx.memo(ctx.reference.apply_rotary, *args)
    return bool(np.allclose(as_array(result), as_array(expected), rtol=TOL[0], atol=TOL[1]))


@checks.test("inputs_unchanged")
def inputs_unchanged(ctx: CheckContext) -> None:
    cases = [((tensor(ctx, (2, 6, 16)), positions(3, 9)), {"interleaved": flag}) for flag in (False, True)]
    results = ctx.calls([(ROPE, args, kwargs) for args, kwargs in cases], echo=True)
    for (args, _), (_, after, _) in zip(cases, results):
        for name, before, now in zip(("x", "positions"), args, after):
            if not (isinstance(now, torch.Tensor) and torch.equal(now, before)):
                ctx.fail(ctx.msg("input_modified", name=name), diagnosis="mutates_input")


# --------------------------------------------------------------------------- mistakes
# Each hypothesis is the reference re-run under one mistake; an output that matches it (within
# the check's tolerance) is diagnosed with that mistake's id.


@checks.mistake("layouts_swapped", ROPE)
def _layouts_swapped(ref, x, positions, base=DEFAULT_BASE, interleaved=False):
    return ref.apply_rotary(x, positions, base, not interleaved)


@checks.mistake("missing_factor_2", ROPE)
def _missing_factor_2(ref, x, positions, base=DEFAULT_BASE, interleaved=False):
    return ref.apply_rotary(x, positions, math.sqrt(base), interleaved)  # base^(-i/d) = sqrt(base)^(-2i/d)


@checks.mistake("exponent_2i_bug", ROPE)
def _exponent_2i_bug(ref, x, positions, base=DEFAULT_BASE, interleaved=False):
    return ref.apply_rotary(x, positions, base**2, interleaved)  # base^(-2(2i)/d) = (base^2)^(-2i/d)


@checks.mistake("rotation_reversed", ROPE)
def _rotation_reversed(ref, x, positions, base=DEFAULT_BASE, interleaved=False):
    return ref.apply_rotary(x, -positions, base, interleaved)


@checks.mistake("positions_ignored", ROPE)
def _positions_ignored(ref, x, positions, base=DEFAULT_BASE, interleaved=False):
    rows = torch.arange(x.shape[-2])
    if torch.equal(rows, positions):
        raise ValueError("the positions are 0 … T - 1 already")
    return ref.apply_rotary(x, rows, base, interleaved)


@checks.mistake("ignored_base", ROPE)
def _ignored_base(ref, x, positions, base=DEFAULT_BASE, interleaved=False):
    if base == DEFAULT_BASE:
        raise ValueError("not another base")
    return ref.apply_rotary(x, positions, DEFAULT_BASE, interleaved)


def _rotate(x, cos, sin, interleaved, negate=True):
    """x·cos + rotate(x)·sin with full-width (T, d) tables: the Hugging Face way of writing RoPE."""
    d = x.shape[-1]
    sign = -1 if negate else 1
    if interleaved:
        turned = torch.stack((sign * x[..., 1::2], x[..., 0::2]), dim=-1).flatten(-2)  # (..., T, d)
    else:
        turned = torch.cat((sign * x[..., d // 2:], x[..., : d // 2]), dim=-1)  # (..., T, d)
    return x * cos + turned * sin


def _tables(ref, x, positions, base, dtype, layout_interleaved):
    theta = ref.rotary_angles(positions, x.shape[-1], base, dtype)  # (T, d/2)
    full = theta.repeat_interleave(2, dim=-1) if layout_interleaved else torch.cat((theta, theta), dim=-1)  # (T, d)
    return full.cos(), full.sin()


@checks.mistake("missing_negation", ROPE)
def _missing_negation(ref, x, positions, base=DEFAULT_BASE, interleaved=False):
    compute = torch.promote_types(x.dtype, torch.float32)
    cos, sin = _tables(ref, x, positions, base, compute, interleaved)
    return _rotate(x.to(compute), cos, sin, interleaved, negate=False).to(x.dtype)


@checks.mistake("frequency_layout_mismatch", ROPE)
def _frequency_layout_mismatch(ref, x, positions, base=DEFAULT_BASE, interleaved=False):
    compute = torch.promote_types(x.dtype, torch.float32)
    cos, sin = _tables(ref, x, positions, base, compute, not interleaved)
    return _rotate(x.to(compute), cos, sin, interleaved).to(x.dtype)


HALF = (torch.float16, torch.bfloat16)


def _rotate_by(x, angles, interleaved):
    """x rotated by angles (T, d/2) given in x's dtype, computed in x's dtype throughout."""
    full = angles.repeat_interleave(2, -1) if interleaved else torch.cat((angles, angles), -1)  # (T, d)
    return _rotate(x, full.cos(), full.sin(), interleaved)


@checks.mistake("half_precision_angles", ROPE)
def _angles_in_half(ref, x, positions, base=DEFAULT_BASE, interleaved=False):
    """Frequencies made in float32, then positions and frequencies cast to x's dtype and multiplied there."""
    if x.dtype not in HALF:
        raise ValueError("not a half-precision input")
    d = x.shape[-1]
    inv_freq = (base ** (-2.0 * torch.arange(d // 2, dtype=torch.float32) / d)).to(x.dtype)  # (d/2,)
    return _rotate_by(x, positions.to(x.dtype)[:, None] * inv_freq[None, :], interleaved)  # angles (T, d/2)


@checks.mistake("half_precision_angles", ROPE)
def _angles_all_in_half(ref, x, positions, base=DEFAULT_BASE, interleaved=False):
    """Everything in x's dtype, the frequencies too."""
    if x.dtype not in HALF:
        raise ValueError("not a half-precision input")
    inv_freq = base ** (-torch.arange(0, x.shape[-1], 2, dtype=x.dtype) / x.shape[-1])  # (d/2,) in half precision
    return _rotate_by(x, positions.to(x.dtype)[:, None] * inv_freq[None, :], interleaved)  # angles (T, d/2)


@checks.mistake("half_precision_angles", ROPE)
def _angles_rounded_to_half(ref, x, positions, base=DEFAULT_BASE, interleaved=False):
    """The angles made in float32, then rounded to x's dtype before cos and sin."""
    if x.dtype not in HALF:
        raise ValueError("not a half-precision input")
    angles = ref.rotary_angles(positions, x.shape[-1], base, torch.float32)  # (T, d/2)
    return _rotate_by(x, angles.to(x.dtype), interleaved)
