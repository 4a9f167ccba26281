"""What a torch problem's ``probes.py`` shares: build the learner's module, load the grader's
weights, and report a structure the grader cannot drive as ``{"problem": KIND, "params": {...}}``.

probes.py runs in the learner's process (sent to the runner as source; this module comes with the
grader package, which the zygote has already imported) and, for figures and named mistakes, in the
grader on the reference. It imports ``from grader.probe_kit import Problem, build, replies``. In
the grader, ``ctx.probe_or_fail`` and ``ctx.probe_problem`` (grader/checks.py) turn a reported
problem into the spec's message KIND, for the kinds the problem's ``CheckRegistry`` declares.
"""

from __future__ import annotations

import functools
from typing import Any, Callable

import torch


class Problem(Exception):
    """The learner's module does not have the structure the grader needs: a message id and its parameters."""

    def __init__(self, kind: str, **params: Any):
        super().__init__(kind)
        self.reply = {"problem": kind, "params": params}


def replies(helper: Callable[..., Any]) -> Callable[..., Any]:
    """``helper``, with a :class:`Problem` it raises returned as its reply (plain data for the grader).

    Exceptions from the learner's own code (NotImplementedError from the stub too) propagate unchanged.
    """

    @functools.wraps(helper)
    def run(*args: Any, **kwargs: Any) -> Any:
        try:
            return helper(*args, **kwargs)
        except Problem as problem:
            return problem.reply

    return run


def build(
    make: Callable[[], Any], state: dict[str, torch.Tensor] | None = None, *, dtype: str = "float64", seed: int = 0,
    names_first: bool = False, context: dict[str, Any] | None = None,
) -> torch.nn.Module:
    """The module ``make()`` builds (the learner's class called), cast to ``dtype``, with the grader's
    weights ``state`` loaded (``strict=False``: a parameter the grader does not give keeps its own).

    Only the CPU generator is seeded, with ``seed``, before ``make()``: a parameter the grader does
    not load starts the same each run (``torch.manual_seed`` would also queue a call, with a
    formatted stack trace, for every lazy accelerator backend: about a millisecond each time).

    Raises :class:`Problem` ``not_a_module`` (``type``); ``no_parameter_named`` (``name``) for a name
    of ``state`` the module lacks; ``loaded_shape`` (``name``, shapes ``actual`` and ``expected`` as
    tuples, and the items of ``context``) for a parameter of another shape. Names are checked in
    the order of ``state``, each before its shape; with ``names_first``, every name before any shape.
    """
    torch.random.default_generator.manual_seed(seed)
    module = make()
    if not isinstance(module, torch.nn.Module):
        raise Problem("not_a_module", type=type(module).__name__)
    module = module.to(getattr(torch, dtype))
    if state is not None:
        own = module.state_dict()
        for name in state if names_first else ():
            if name not in own:
                raise Problem("no_parameter_named", name=name)
        for name, value in state.items():
            if name not in own:
                raise Problem("no_parameter_named", name=name)
            actual, expected = tuple(own[name].shape), tuple(value.shape)
            if actual != expected:
                raise Problem("loaded_shape", name=name, actual=actual, expected=expected, **(context or {}))
        module.load_state_dict(state, strict=False)
    return module
