"""Hidden tests for positional_encoding: each check's code, and the mistakes recognised by name.

Four of the named mistakes (``exponent_2i_bug``, ``wrong_base``, ``ignored_base``, ``missing_factor_2``) give tables
that pass every property (row 0, unit-norm pairs, relative positions): they change only the
frequencies. They are recognised by re-running the reference under each mistake and, more
generally, by fitting the frequencies: omega_i is the angle turned by pair i from one row to the
next, atan2(PE[1, 2i], PE[1, 2i+1]) - atan2(PE[0, 2i], PE[0, 2i+1]), and the correct table has
omega_i = base^(-2i/d), so log omega falls on a line of slope -2 ln(base)/d. A slope twice as steep
is the 2i bug, half as steep the missing factor 2, the default base's slope an ignored ``base``
argument, any other slope another base. An ignored base and the 2i bug give the same table when
base² = 10000 (base 100), so no check asks for base 100: the bases below tell them apart.

The tables one check asks for go to the learner's process together (``ctx.calls``, one round
trip instead of one per table) and are judged one by one in the order they were asked for,
exactly as separate calls would be.

What a check says is declared under ``messages:`` in spec.yaml, in English and Chinese.
"""

from __future__ import annotations

import math
from typing import Iterator

import numpy as np
import torch

from grader.checks import CheckContext, CheckRegistry, LearnerRaised
from grader.compare import CheckFailed, assert_array, assert_shape, dtype_name
from grader.i18n import Text, join

checks = CheckRegistry()

PE = "sinusoidal_encoding"
DEFAULT_BASE = 10000.0
#: Bases the checks pass explicitly: none is 100 (100² = 10000) or the square root of another.
CUSTOM_BASES = (50.0, 500.0, 1.0e5)
ATOL = 1e-5  # a table computed in float32 at positions below 64 still passes; dtype is its own check
MODULE_ATOL = {"float32": 1e-5, "float64": 1e-6, "float16": 2e-3}


def as_table(value, args: tuple) -> np.ndarray:
    """The learner's table for ``args`` as a float64 array, after checking it is a (max_len, d_model) ndarray."""
    assert_array(value, f"{PE}{args}", tensor=False)
    assert_shape(value, args[:2], f"{PE}{args}")
    return np.asarray(value, dtype=np.float64)


def table(ctx: CheckContext, max_len: int, d_model: int, base: float | None = None) -> np.ndarray:
    """The learner's table as a float64 array, after checking it is a (max_len, d_model) ndarray."""
    args = (max_len, d_model) if base is None else (max_len, d_model, base)
    return as_table(ctx.call(PE, *args), args)


def tables(ctx: CheckContext, cases: tuple[tuple, ...]) -> Iterator[tuple[tuple, np.ndarray]]:
    """``(args, table)`` for each of ``cases``, asked for in one round trip, each checked as it is taken."""
    for args, value in zip(cases, ctx.calls([(PE, args) for args in cases])):
        yield args, as_table(value, args)


def compare_tables(ctx: CheckContext, cases: tuple[tuple, ...]) -> None:
    """Each case's table against the reference's; ``args`` is (max_len, d_model) or (max_len, d_model, base)."""
    for args, actual in tables(ctx, cases):
        expected = ctx.reference.sinusoidal_encoding(*args)
        try:
            ctx.assert_close(actual, expected, name=f"{PE}{args}", rtol=0.0, atol=ATOL)
        except CheckFailed as failure:  # add the diagnosis found by the hypotheses or the frequency fit
            base = args[2] if len(args) > 2 else 10000.0
            ctx.fail(failure.message, diagnosis=table_mistake(ctx, actual, base))


# --------------------------------------------------------------------------- diagnosis


def _angles(max_len: int, d_model: int, base: float) -> np.ndarray:
    positions = np.arange(max_len, dtype=np.float64)[:, None]  # (max_len, 1)
    return positions * base ** (-np.arange(0, d_model, 2) / d_model)  # (max_len, ceil(d/2))


def _concatenated(max_len: int, d_model: int, base: float) -> np.ndarray:
    angles = _angles(max_len, d_model, base)
    return np.concatenate([np.sin(angles), np.cos(angles[:, : d_model // 2])], axis=1)  # (max_len, d)


def _swapped(max_len: int, d_model: int, base: float) -> np.ndarray:
    angles = _angles(max_len, d_model, base)
    pe = np.zeros((max_len, d_model))
    pe[:, 0::2] = np.cos(angles)
    pe[:, 1::2] = np.sin(angles[:, : d_model // 2])
    return pe


@checks.mistake("exponent_2i_bug", PE)
def _exponent_2i_bug(ref, max_len, d_model, base=10000.0):
    return ref.sinusoidal_encoding(max_len, d_model, base**2)  # base^(-2*(2i)/d) = (base^2)^(-2i/d)


@checks.mistake("missing_factor_2", PE)
def _missing_factor_2(ref, max_len, d_model, base=10000.0):
    return ref.sinusoidal_encoding(max_len, d_model, math.sqrt(base))  # base^(-i/d) = sqrt(base)^(-2i/d)


@checks.mistake("wrong_base", PE)
def _base_1000(ref, max_len, d_model, base=10000.0):
    if base == 1000.0:
        raise ValueError("not a different base")
    return ref.sinusoidal_encoding(max_len, d_model, 1000.0)


@checks.mistake("ignored_base", PE)
def _base_ignored(ref, max_len, d_model, base=10000.0):
    if base == DEFAULT_BASE:
        raise ValueError("not a different base")
    return ref.sinusoidal_encoding(max_len, d_model, DEFAULT_BASE)


@checks.mistake("concatenated_layout", PE)
def _concatenated_layout(ref, max_len, d_model, base=10000.0):
    return _concatenated(max_len, d_model, base)


@checks.mistake("sin_cos_swapped", PE)
def _sin_cos_swapped(ref, max_len, d_model, base=10000.0):
    return _swapped(max_len, d_model, base)


@checks.mistake("positions_from_one", PE)
def _positions_from_one(ref, max_len, d_model, base=10000.0):
    return ref.sinusoidal_encoding(max_len + 1, d_model, base)[1:]


def fitted_frequencies(pe: np.ndarray) -> np.ndarray | None:
    """omega_i of each full (sin, cos) pair, from the rotation between rows 0 and 1; None if no pairs."""
    pairs = pe.shape[1] // 2
    if pe.shape[0] < 2 or pairs == 0:
        return None
    theta = np.arctan2(pe[:2, 0 : 2 * pairs : 2], pe[:2, 1 : 2 * pairs : 2])  # (2, pairs)
    return np.angle(np.exp(1j * (theta[1] - theta[0])))  # (pairs,), wrapped into (-pi, pi]


def frequency_mistake(ctx: CheckContext, pe: np.ndarray, base: float) -> tuple[str | None, Text]:
    """Classify a table's frequencies: (mistake id or None, a sentence for the learner)."""
    pairs = pe.shape[1] // 2
    norms = pe[:, 0 : 2 * pairs : 2] ** 2 + pe[:, 1 : 2 * pairs : 2] ** 2  # (L, pairs)
    if not np.allclose(norms, 1.0, atol=1e-4):
        return None, ctx.msg("freq_not_pairs")
    omega = fitted_frequencies(pe)
    if omega is None or pairs < 2:
        return None, ctx.msg("freq_too_few")
    if np.all(omega < 0):
        return "sin_cos_swapped", ctx.msg("freq_backwards")
    if np.any(omega <= 0):
        return None, ctx.msg("freq_not_positive")
    slope = -np.polyfit(np.arange(pairs), np.log(omega), 1)[0]  # log omega_i = log omega_0 - slope * i
    expected = 2 * math.log(base) / pe.shape[1]
    residual = np.abs(np.log(omega) - (np.log(omega[0]) - slope * np.arange(pairs))).max()
    if residual > 1e-3 or abs(omega[0] - 1.0) > 1e-6:
        return None, ctx.msg("freq_not_geometric", omega0=f"{omega[0]:.4g}")
    ratio = slope / expected
    default_ratio = math.log(DEFAULT_BASE) / math.log(base) if base not in (1.0, DEFAULT_BASE) else None
    if default_ratio is not None and abs(ratio - default_ratio) < 1e-6 and abs(default_ratio - 2.0) > 1e-3:
        return "ignored_base", ctx.msg("freq_ignored_base", default=f"{DEFAULT_BASE:g}")
    if abs(ratio - 2.0) < 1e-3:
        return "exponent_2i_bug", ctx.msg("freq_doubled")
    if abs(ratio - 0.5) < 1e-3:
        return "missing_factor_2", ctx.msg("freq_halved")
    if abs(ratio - 1.0) > 1e-6:
        fitted_base = math.exp(slope * pe.shape[1] / 2)
        return "wrong_base", ctx.msg("freq_other_base", fitted=f"{fitted_base:.6g}", base=f"{base:g}")
    return None, ctx.msg("freq_right")


def table_mistake(ctx: CheckContext, pe: np.ndarray, base: float, *, atol: float = 1e-7) -> str | None:
    """The named mistake that explains a wrong table: a hypothesis it matches, else the frequency fit."""
    max_len, d_model = pe.shape
    for mistake_id, hypothesis in ctx.registry.hypotheses.get(PE, []):
        try:
            expected = hypothesis(ctx.reference, max_len, d_model, base)
        except ValueError:
            continue
        if np.allclose(pe, expected, rtol=0.0, atol=atol):
            return mistake_id
    return frequency_mistake(ctx, pe, base)[0]


# --------------------------------------------------------------------------- numpy checks


@checks.test("shape_dtype")
def shape_dtype(ctx: CheckContext) -> None:
    cases = ((6, 10), (1, 1), (3, 7))
    for args, value in zip(cases, ctx.calls([(PE, args) for args in cases])):
        assert_array(value, f"{PE}{args}", tensor=False)
        assert_shape(value, args, f"{PE}{args}")
        if value.dtype != np.float64:
            ctx.fail(ctx.msg("not_float64", call=f"{PE}{args}", dtype=str(value.dtype)))


@checks.test("values")
def values(ctx: CheckContext) -> None:
    compare_tables(ctx, ((2, 8), (4, 4), (50, 16), (9, 64)))


@checks.test("odd_d_model")
def odd_d_model(ctx: CheckContext) -> None:
    compare_tables(ctx, ((3, 5), (12, 9), (4, 1)))


@checks.test("custom_base")
def custom_base(ctx: CheckContext) -> None:
    compare_tables(ctx, tuple(zip((9, 6, 5), (12, 10, 8), CUSTOM_BASES)))


@checks.test("row_zero")
def row_zero(ctx: CheckContext) -> None:
    row = table(ctx, 3, 10)[0]
    expected = np.tile([0.0, 1.0], 5)
    if np.allclose(row, expected, atol=1e-12):
        return
    shown = "[" + ", ".join(f"{v:.3g}" for v in row[:6]) + ", ...]"
    if np.allclose(row, 1 - expected, atol=1e-12):
        ctx.fail(ctx.msg("row0_swapped", row=shown), diagnosis="sin_cos_swapped")
    if np.allclose(row, np.repeat([0.0, 1.0], 5), atol=1e-12):
        ctx.fail(ctx.msg("row0_concatenated", row=shown), diagnosis="concatenated_layout")
    if np.allclose(row, ctx.reference.sinusoidal_encoding(2, 10)[1], atol=1e-9):
        ctx.fail(ctx.msg("row0_position_one", row=shown), diagnosis="positions_from_one")
    ctx.fail(ctx.msg("row0_wrong", row=shown), diagnosis=table_mistake(ctx, table(ctx, 3, 10), 10000.0))


@checks.test("unit_norm_pairs")
def unit_norm_pairs(ctx: CheckContext) -> None:
    pe = table(ctx, 20, 12)
    norms = pe[:, 0::2] ** 2 + pe[:, 1::2] ** 2  # (20, 6)
    if not np.allclose(norms, 1.0, atol=1e-6):
        row, pair = np.argwhere(~np.isclose(norms, 1.0, atol=1e-6))[0]
        ctx.fail(
            ctx.msg("pair_norm", row=row, even=2 * pair, odd=2 * pair + 1, value=f"{norms[row, pair]:.4g}"),
            diagnosis=table_mistake(ctx, pe, 10000.0),
        )


@checks.test("frequencies")
def frequencies(ctx: CheckContext) -> None:
    for (max_len, d_model, base), pe in tables(ctx, ((4, 12, DEFAULT_BASE), (3, 10, CUSTOM_BASES[0]))):
        omega = fitted_frequencies(pe)
        expected = base ** (-np.arange(0, 2 * (d_model // 2), 2) / d_model)
        if omega is not None and np.allclose(omega, expected, rtol=1e-6, atol=1e-9):
            continue
        mistake, sentence = frequency_mistake(ctx, pe, base)
        call = f"{PE}({max_len}, {d_model}, base={base:g})"
        ctx.fail(ctx.msg("freq_case", call=call, sentence=sentence), diagnosis=mistake or table_mistake(ctx, pe, base))


@checks.test("relative_positions")
def relative_positions(ctx: CheckContext) -> None:
    pe = table(ctx, 40, 16)
    gram = pe @ pe.T  # (40, 40): gram[p, q] = PE[p] . PE[q]
    norms = np.diag(gram)
    if not np.allclose(norms, 8.0, atol=1e-6):
        low, high = norms.min(), norms.max()
        ctx.fail(ctx.msg("row_norm", low=f"{low:.4g}", high=f"{high:.4g}"))
    for k in range(1, 6):
        band = np.diag(gram, k)  # PE[p] . PE[p+k] for every p
        if np.ptp(band) > 1e-6:
            ctx.fail(ctx.msg("offset_dependence", k=k, low=f"{band.min():.4g}", high=f"{band.max():.4g}"))


@checks.test("errors")
def errors(ctx: CheckContext) -> None:
    for args in ((0, 8), (4, 0), (-3, 8), (4, -2)):
        if not ctx.raises("ValueError", PE, *args):
            ctx.fail(ctx.msg("no_value_error", call=f"{PE}{args}"))


# --------------------------------------------------------------------------- module checks


def _x(ctx: CheckContext, *shape: int, dtype=torch.float32) -> torch.Tensor:
    return torch.from_numpy(ctx.rng.standard_normal(shape)).to(dtype)  # (B, L, d_model)


def compare_added(ctx: CheckContext, x: torch.Tensor, out, name: Text, dtype: str) -> None:
    """Compare ``out - x`` with the reference table; on a mismatch, diagnose the table that was added."""
    added = out.double().numpy() - x.double().numpy()  # (B, L, d_model)
    L, d_model = x.shape[1], x.shape[2]
    expected = np.broadcast_to(ctx.reference.sinusoidal_encoding(L, d_model), added.shape)
    try:
        ctx.assert_close(added, expected, name=ctx.msg("minus_x", name=name), rtol=0.0, atol=MODULE_ATOL[dtype])
    except CheckFailed as failure:
        mistake = table_mistake(ctx, added[0], 10000.0, atol=MODULE_ATOL[dtype]) if L > 1 else None
        ctx.fail(failure.message, diagnosis=mistake)


@checks.test("module_buffer")
def module_buffer(ctx: CheckContext) -> None:
    info = ctx.probe("structure", 12, 20)
    if "pe" not in info["buffers"]:
        buffers = str(info["buffers"]) if info["buffers"] else ctx.msg("buffers_none")
        if "pe" in info["parameters"]:
            ctx.fail(ctx.msg("no_buffer_parameter", buffers=buffers), diagnosis="not_a_buffer")
        ctx.fail(ctx.msg("no_buffer_plain", buffers=buffers), diagnosis="not_a_buffer")
    if info["parameters"]:
        names = join([ctx.msg("parameter_values", name=n, k=k) for n, k in info["parameters"].items()], ", ")
        ctx.fail(ctx.msg("has_parameters", names=names), diagnosis="not_a_buffer")
    if "pe" not in info["state_dict"]:
        ctx.fail(ctx.msg("not_in_state_dict"))
    if tuple(info["pe_shape"]) not in ((20, 12), (1, 20, 12)):
        ctx.fail(ctx.msg("buffer_shape", shape=tuple(info["pe_shape"])))


@checks.test("module_forward")
def module_forward(ctx: CheckContext) -> None:
    d_model, max_len = 12, 16
    inputs = [_x(ctx, 2, 7, d_model), _x(ctx, 3, 1, d_model), _x(ctx, 1, 16, d_model), _x(ctx, 2, 7, d_model)]
    outputs = ctx.probe("forward", d_model, max_len, inputs)
    for x, out in zip(inputs, outputs):
        name = ctx.msg("forward_of_shape", shape=tuple(x.shape))
        assert_array(out, name, tensor=True)
        assert_shape(out, tuple(x.shape), name)
        if dtype_name(out) != "float32":
            ctx.fail(ctx.msg("float32_dtype", name=name, dtype=dtype_name(out)))
        compare_added(ctx, x, out, name, "float32")
    first, last = (o.double() - x.double() for o, x in ((outputs[0], inputs[0]), (outputs[3], inputs[3])))
    if not torch.allclose(first, last, atol=1e-5):
        ctx.fail(ctx.msg("mixed_with_x"))
    out = ctx.probe("default_forward", 8, _x(ctx, 2, 10, 8))
    assert_shape(out, (2, 10, 8), ctx.msg("default_max_len"))


@checks.test("module_dtype")
def module_dtype(ctx: CheckContext) -> None:
    d_model, max_len = 10, 12
    for dtype in ("float16", "float64"):
        x = _x(ctx, 2, 9, d_model, dtype=getattr(torch, dtype))
        report = ctx.probe("converted", d_model, max_len, x, dtype)
        if report["pe_dtype"] is None:
            ctx.fail(ctx.msg("dtype_no_buffer"), diagnosis="not_a_buffer")
        if report["pe_dtype"] != dtype:
            ctx.fail(ctx.msg("buffer_dtype", dtype=dtype, got=report["pe_dtype"]))
        out = report["out"]
        name = ctx.msg("forward_of_dtype", dtype=dtype)
        assert_array(out, name, tensor=True)
        if dtype_name(out) != dtype:
            ctx.fail(ctx.msg("output_dtype", dtype=dtype, got=dtype_name(out)))
        assert_shape(out, tuple(x.shape), name)
        compare_added(ctx, x, out, name, dtype)


@checks.test("meta_device")
def meta_device(ctx: CheckContext) -> None:
    report = ctx.probe("meta", 8, 10, [2, 6, 8])
    if report["device"] != "meta" or tuple(report["shape"]) != (2, 6, 8):
        ctx.fail(ctx.msg("meta_output", shape=tuple(report["shape"]), device=report["device"]))


@checks.test("too_long")
def too_long(ctx: CheckContext) -> None:
    out = ctx.probe("forward", 4, 8, [_x(ctx, 1, 8, 4)])[0]  # L == max_len is allowed
    assert_shape(out, (1, 8, 4), ctx.msg("forward_at_max_len"))
    try:
        ctx.probe("forward", 4, 8, [_x(ctx, 1, 9, 4)])
    except LearnerRaised as raised:
        if raised.is_a("ValueError"):
            return
        ctx.fail(ctx.msg("too_long_wrong_error", type=raised.type_name))
    ctx.fail(ctx.msg("too_long_returned"))
