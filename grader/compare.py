"""Compare the learner's arrays with the reference's, and say how they differ.

Messages give the shape, dtype, max absolute and relative error, how many elements are off and
where the first one is, but never the values of hidden inputs or whole expected arrays.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np


class CheckFailed(Exception):
    """Raised by check code: the learner's answer is wrong.

    ``diagnosis`` names a mistake declared in the spec; ``fraction`` (0..1) gives partial credit.
    """

    def __init__(self, message: str, *, diagnosis: str | None = None, fraction: float = 0.0):
        super().__init__(message)
        self.message, self.diagnosis, self.fraction = message, diagnosis, fraction


def as_array(value: Any) -> np.ndarray | None:
    """A numpy view of an ndarray or a (decoded) torch tensor; None for anything else."""
    if isinstance(value, np.ndarray):
        return value
    if isinstance(value, np.generic):
        return np.asarray(value)
    kind = type(value).__module__.split(".")[0]
    if kind == "torch" and hasattr(value, "detach"):
        tensor = value.detach()
        if tensor.device.type == "meta":
            return None
        if str(tensor.dtype) == "torch.bfloat16":
            tensor = tensor.float()
        return tensor.cpu().numpy()
    return None


def describe(value: Any) -> str:
    """A short type description: 'ndarray float32 (2, 3)', 'Tensor float16 (4,) on meta', 'list'."""
    if isinstance(value, np.ndarray):
        return f"ndarray {value.dtype} {tuple(value.shape)}"
    if type(value).__module__.split(".")[0] == "torch" and hasattr(value, "dtype"):
        dtype = str(value.dtype).removeprefix("torch.")
        return f"Tensor {dtype} {tuple(value.shape)} on {value.device.type}"
    if hasattr(value, "type") and type(value).__name__ in ("Opaque", "Ref"):
        return f"a {value.type} object"
    return type(value).__name__


def _fmt_index(index: tuple[int, ...]) -> str:
    return "(" + ", ".join(str(int(i)) for i in index) + ")" if index else "()"


def _fmt(x: float) -> str:
    return f"{x:.3g}"


def assert_array(value: Any, name: str, *, tensor: bool | None = None) -> np.ndarray:
    """Fail unless ``value`` is an array (``tensor=True``: a torch tensor; False: an ndarray)."""
    is_tensor = type(value).__module__.split(".")[0] == "torch" and hasattr(value, "detach")
    if tensor is True and not is_tensor:
        raise CheckFailed(f"{name}: expected a torch.Tensor, got {describe(value)}")
    if tensor is False and not isinstance(value, np.ndarray):
        raise CheckFailed(f"{name}: expected a numpy array, got {describe(value)}")
    array = as_array(value)
    if array is None and not is_tensor:
        raise CheckFailed(f"{name}: expected an array, got {describe(value)}")
    return array


def assert_shape(value: Any, shape: tuple[int, ...], name: str) -> None:
    actual = tuple(getattr(value, "shape", ()))
    if actual != tuple(shape):
        raise CheckFailed(f"{name} has shape {actual}, expected {tuple(shape)}")


def dtype_name(value: Any) -> str:
    return str(getattr(value, "dtype", type(value).__name__)).removeprefix("torch.")


def assert_dtype(value: Any, expected: Any, name: str) -> None:
    if dtype_name(value) != dtype_name(expected):
        raise CheckFailed(
            f"{name} has dtype {dtype_name(value)}, expected {dtype_name(expected)} (the input's dtype)"
        )


def mismatch(
    actual: np.ndarray, expected: np.ndarray, *, rtol: float, atol: float, equal_nan: bool = True
) -> str | None:
    """None if the arrays agree; else a sentence on how they differ (no values of the inputs)."""
    a = np.asarray(actual, dtype=np.complex128 if np.iscomplexobj(actual) else np.float64)
    e = np.asarray(expected, dtype=np.complex128 if np.iscomplexobj(expected) else np.float64)
    close = np.isclose(a, e, rtol=rtol, atol=atol, equal_nan=equal_nan)
    if close.all():
        return None
    bad = ~close
    first = _fmt_index(tuple(np.argwhere(bad)[0]))
    n_bad, n = int(bad.sum()), bad.size
    a_nan = ~np.isfinite(a) & np.isfinite(e)
    if a_nan.any():
        n_nan = int(np.isnan(a).sum())
        n_inf = int(np.isinf(a).sum())
        what = ", ".join(p for p in (f"{n_nan} NaN" if n_nan else "", f"{n_inf} inf" if n_inf else "") if p)
        where = _fmt_index(tuple(np.argwhere(a_nan)[0]))
        return f"contains {what} where the reference is finite (first at index {where})"
    with np.errstate(invalid="ignore", divide="ignore"):
        diff = np.abs(a - e)
        diff = np.where(np.isfinite(diff), diff, 0.0)
        nonzero = np.abs(e) > 0
        rel = np.where(nonzero, diff / np.where(nonzero, np.abs(e), 1.0), 0.0)  # where the reference is 0, rel is undefined
        rel = np.where(np.isfinite(rel), rel, 0.0)
    worst = _fmt_index(tuple(np.unravel_index(int(np.argmax(diff)), diff.shape))) if diff.ndim else "()"
    relative = f", max rel error {_fmt(float(rel.max()))}" if nonzero.any() else ""
    return (
        f"differs from the reference in {n_bad} of {n} elements: max abs error {_fmt(float(diff.max()))} "
        f"at {worst}{relative}, first at {first}"
    )


def assert_close(
    actual: Any,
    expected: Any,
    *,
    name: str = "output",
    rtol: float = 1e-6,
    atol: float = 1e-8,
    check_dtype: bool = False,
    diagnosis: str | None = None,
) -> None:
    """Fail with a precise message unless ``actual`` matches ``expected`` in type, shape and values."""
    exp = as_array(expected)
    act = assert_array(actual, name)
    assert_shape(actual, exp.shape, name)
    if check_dtype:
        assert_dtype(actual, expected, name)
    problem = mismatch(act, exp, rtol=rtol, atol=atol)
    if problem:
        raise CheckFailed(f"{name} {problem}", diagnosis=diagnosis)


def matches(actual: Any, expected: Any, *, rtol: float = 1e-5, atol: float = 1e-7) -> bool:
    """True if two (nested) results agree: used to test a mistake hypothesis."""
    if isinstance(expected, (tuple, list)):
        return (
            isinstance(actual, (tuple, list))
            and len(actual) == len(expected)
            and all(matches(a, e, rtol=rtol, atol=atol) for a, e in zip(actual, expected))
        )
    if isinstance(expected, dict):
        return isinstance(actual, dict) and actual.keys() == expected.keys() and all(
            matches(actual[k], expected[k], rtol=rtol, atol=atol) for k in expected
        )
    exp, act = as_array(expected), as_array(actual)
    if exp is None or act is None:
        if isinstance(expected, float) and isinstance(actual, (int, float)):
            return math.isclose(actual, expected, rel_tol=rtol, abs_tol=atol) or (
                math.isnan(expected) and math.isnan(actual)
            )
        return type(actual) is type(expected) and actual == expected
    if act.shape != exp.shape:
        return False
    return mismatch(act, exp, rtol=rtol, atol=atol) is None
