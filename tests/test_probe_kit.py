"""grader/probe_kit.py, what the torch problems' probes.py share: building the learner's module,
loading the grader's weights, and the structural problems reported instead of a result."""

from __future__ import annotations

import pytest
import torch
from torch import nn

from grader.probe_kit import Problem, build, replies


class Two(nn.Module):
    """A module with parameters ``a.weight`` (3, 2) and ``c.weight`` (1, 3)."""

    def __init__(self):
        super().__init__()
        self.a = nn.Linear(2, 3, bias=False)
        self.c = nn.Linear(3, 1, bias=False)


def reported(make, state=None, **options) -> dict:
    return replies(build)(make, state, **options)


def test_the_grader_weights_are_loaded_and_what_they_leave_out_starts_the_same_each_run() -> None:
    weight = torch.arange(6, dtype=torch.float64).reshape(3, 2)
    first, second = (build(Two, {"a.weight": weight}, seed=5) for _ in range(2))
    assert first.a.weight.dtype == torch.float64 and torch.equal(first.a.weight.detach(), weight)
    assert torch.equal(first.c.weight, second.c.weight)
    assert not torch.equal(first.c.weight, build(Two, seed=6).c.weight)
    assert build(Two, dtype="float32").a.weight.dtype == torch.float32


def test_what_is_not_a_module_is_reported_by_its_type() -> None:
    assert reported(lambda: 3) == {"problem": "not_a_module", "params": {"type": "int"}}


def test_a_missing_name_and_a_wrong_shape_are_reported_in_the_order_of_the_state() -> None:
    state = {"a.weight": torch.zeros(4, 2), "b.weight": torch.zeros(1, 3)}  # a: another shape; b: no such name
    assert reported(Two, state, context={"config": {"d": 2}}) == {
        "problem": "loaded_shape", "params": {"name": "a.weight", "actual": (3, 2), "expected": (4, 2), "config": {"d": 2}}
    }
    assert reported(Two, state, names_first=True) == {"problem": "no_parameter_named", "params": {"name": "b.weight"}}
    assert reported(Two, {"b.weight": torch.zeros(1, 3)}) == {"problem": "no_parameter_named", "params": {"name": "b.weight"}}


def test_replies_returns_a_reported_problem_and_lets_other_errors_through() -> None:
    @replies
    def helper(kind=None):
        if kind is None:
            raise NotImplementedError("the stub")
        raise Problem(kind, got="Tensor")

    assert helper(kind="not_a_pair") == {"problem": "not_a_pair", "params": {"got": "Tensor"}}
    with pytest.raises(NotImplementedError):
        helper()
