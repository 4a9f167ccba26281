"""Compare the learner's arrays with the reference's, and say how they differ.

Messages give the shape, dtype, max absolute and relative error, how many elements are off and
where the first one is, but never the values of hidden inputs or whole expected arrays. They are
:class:`~grader.i18n.Text` (every language); a ``name`` may be Text or a plain identifier.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from grader.i18n import Text, as_text, join
from grader.messages import text


class CheckFailed(Exception):
    """Raised by check code: the learner's answer is wrong.

    ``message`` is Text (``ctx.msg(...)``); ``diagnosis`` names a mistake declared in the spec;
    ``fraction`` (0..1) gives partial credit; ``reveal`` is what only an instructor may read (the
    expected answer and its explanation).
    """

    def __init__(
        self,
        message: Text | str,
        *,
        diagnosis: str | None = None,
        fraction: float = 0.0,
        reveal: Text | str | None = None,
    ):
        message = as_text(message)
        super().__init__(message.en)
        self.message, self.diagnosis, self.fraction = message, diagnosis, fraction
        self.reveal = None if reveal is None else as_text(reveal)


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
    """A short type description in code terms (the same in every language):
    'ndarray float32 (2, 3)', 'Tensor float16 (4,) device=meta', 'list', 'Linear'."""
    if isinstance(value, np.ndarray):
        return f"ndarray {value.dtype} {tuple(value.shape)}"
    if type(value).__module__.split(".")[0] == "torch" and hasattr(value, "dtype"):
        dtype = str(value.dtype).removeprefix("torch.")
        return f"Tensor {dtype} {tuple(value.shape)} device={value.device.type}"
    if hasattr(value, "type") and type(value).__name__ in ("Opaque", "Ref"):
        return str(value.type)
    return type(value).__name__


def _fmt_index(index: tuple[int, ...]) -> str:
    return "(" + ", ".join(str(int(i)) for i in index) + ")" if index else "()"


def _fmt(x: float) -> str:
    return f"{x:.3g}"


def assert_array(value: Any, name: Text | str, *, tensor: bool | None = None) -> np.ndarray:
    """Fail unless ``value`` is an array (``tensor=True``: a torch tensor; False: an ndarray)."""
    is_tensor = type(value).__module__.split(".")[0] == "torch" and hasattr(value, "detach")
    if tensor is True and not is_tensor:
        raise CheckFailed(text("compare.expected_tensor", name=name, got=describe(value)))
    if tensor is False and not isinstance(value, np.ndarray):
        raise CheckFailed(text("compare.expected_ndarray", name=name, got=describe(value)))
    array = as_array(value)
    if array is None and not is_tensor:
        raise CheckFailed(text("compare.expected_array", name=name, got=describe(value)))
    return array


def assert_shape(value: Any, shape: tuple[int, ...], name: Text | str) -> None:
    actual = tuple(getattr(value, "shape", ()))
    if actual != tuple(shape):
        raise CheckFailed(text("compare.shape", name=name, actual=actual, expected=tuple(shape)))


def dtype_name(value: Any) -> str:
    return str(getattr(value, "dtype", type(value).__name__)).removeprefix("torch.")


def assert_dtype(value: Any, expected: Any, name: Text | str) -> None:
    if dtype_name(value) != dtype_name(expected):
        raise CheckFailed(text("compare.dtype", name=name, actual=dtype_name(value), expected=dtype_name(expected)))


def mismatch(
    actual: np.ndarray, expected: np.ndarray, *, rtol: float, atol: float, equal_nan: bool = True,
    name: Text | str = "output",
) -> Text | None:
    """None if the arrays agree; else a sentence on how ``name`` differs (no values of the inputs)."""
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
        counts = [text(key, n=n) for key, n in (("compare.n_nan", n_nan), ("compare.n_inf", n_inf)) if n]
        what = join(counts, text("sep.items"))
        where = _fmt_index(tuple(np.argwhere(a_nan)[0]))
        return text("compare.not_finite", name=name, what=what, where=where)
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):  # a tiny reference value divides
        diff = np.abs(a - e)
        diff = np.where(np.isfinite(diff), diff, 0.0)
        nonzero = np.abs(e) > 0
        rel = np.where(nonzero, diff / np.where(nonzero, np.abs(e), 1.0), 0.0)  # where the reference is 0, rel is undefined
        rel = np.where(np.isfinite(rel), rel, 0.0)
    worst = _fmt_index(tuple(np.unravel_index(int(np.argmax(diff)), diff.shape))) if diff.ndim else "()"
    relative = text("compare.relative", rel_err=_fmt(float(rel.max()))) if nonzero.any() else ""
    return text(
        "compare.differs", name=name, n_bad=n_bad, n=n, abs_err=_fmt(float(diff.max())), worst=worst,
        relative=relative, first=first,
    )


def assert_close(
    actual: Any,
    expected: Any,
    *,
    name: Text | str = "output",
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
    problem = mismatch(act, exp, rtol=rtol, atol=atol, name=name)
    if problem is not None:
        raise CheckFailed(problem, diagnosis=diagnosis)


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
