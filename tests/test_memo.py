"""grader.memo: reference results remembered by argument values, handed out as fresh copies."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from grader import static
from grader.memo import Memo


def test_a_hit_is_an_equal_fresh_copy_that_the_caller_may_change():
    calls = []

    def ref(x, scale=1.0):
        calls.append(1)
        return {"out": x * scale, "pair": (torch.ones(2), [np.zeros(2)])}

    memo = Memo()
    first = memo.call(ref, torch.arange(3.0), scale=2.0)
    first["out"].add_(100)  # a check that changes what it got
    first["pair"][1][0][:] = 7
    second = memo.call(ref, torch.arange(3.0), scale=2.0)  # equal values, new objects
    assert len(calls) == 1 and memo.hits == 1
    assert torch.equal(second["out"], torch.tensor([0.0, 2.0, 4.0]))
    assert np.array_equal(second["pair"][1][0], np.zeros(2))
    third = memo.call(ref, torch.arange(3.0), scale=2.0)
    assert third["out"] is not second["out"]


@pytest.mark.parametrize(
    "a, b",
    [
        (torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.5])),  # values
        (torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.0], dtype=torch.float64)),  # dtype
        (torch.zeros(2, 3), torch.zeros(3, 2)),  # shape
        (np.zeros(2), torch.zeros(2, dtype=torch.float64)),  # array or tensor
        (1, 1.0),  # int or float
        (1, True),
        ({"a": 1, "b": 2}, {"b": 2, "a": 1}),  # order of a state dict
        (torch.empty(2, device="meta"), torch.empty(3, device="meta")),
    ],
)
def test_different_arguments_are_different_calls(a, b):
    memo = Memo()
    memo.call(repr, a)
    memo.call(repr, b)
    assert memo.misses == 2 and memo.hits == 0


def test_identity_keyed_objects_and_unmemoisable_arguments():
    memo = Memo()
    memo.call(lambda m, x: x, np, 1)
    memo.call(lambda m, x: x, np, 1)  # a new function object: a new key
    assert memo.misses == 2

    class Thing:
        pass

    calls = []
    for _ in range(2):
        memo.call(lambda t: calls.append(t), Thing())  # no content to digest: it simply runs
    assert len(calls) == 2 and memo.misses == 2


def test_an_exception_is_not_remembered():
    memo, calls = Memo(), []

    def flaky(x):
        calls.append(x)
        if len(calls) == 1:
            raise ValueError("first time")
        return x

    with pytest.raises(ValueError):
        memo.call(flaky, 3)
    assert memo.call(flaky, 3) == 3 and len(calls) == 2


def test_the_memo_is_bounded():
    memo = Memo(max_entries=3)
    for i in range(10):
        memo.call(abs, i)
    assert len(memo.entries) == 3


def test_the_stub_check_agrees_with_comparing_ast_dumps():
    stub = 'def f(x):\n    """Doc."""\n    raise NotImplementedError\n'
    assert static.is_untouched_stub("def f(x):  # mine\n    raise NotImplementedError\n", stub)
    for changed in ("def f(x):\n    raise NotImplementedError('x')\n", "def f(y):\n    raise NotImplementedError\n",
                    "def f(x):\n    return 1\n", "def f(x):\n    return 1.0\n"):
        assert not static.is_untouched_stub(changed, stub)
    assert not static.is_untouched_stub("def f(x):\n    return 1\n", "def f(x):\n    return 1.0\n")
    assert not static.is_untouched_stub("def f(x):\n    return 1\n", "def f(x):\n    return True\n")
