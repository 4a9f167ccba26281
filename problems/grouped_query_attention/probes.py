"""Harness helpers that run inside the learner's process for grouped_query_attention.

Each helper receives the learner's module first, builds their ``GroupedQueryAttention``, loads the
grader's weights when a case carries them, runs forward and returns plain data (tensors, lists,
dicts). They hold no expected values; every comparison happens in the grader. A module whose
parameters cannot take the grader's weights gives ``{"problem": KIND, "params": {...}}``, which
the check turns into the spec's message KIND (and, from the shapes, a named mistake). Exceptions
from the learner's own code (NotImplementedError from the stub too) propagate unchanged.
"""

import functools

import torch

PROJECTIONS = ("q_proj", "k_proj", "v_proj", "o_proj")


class _Problem(Exception):
    """The module lacks the structure the grader needs: a message id and its parameters."""

    def __init__(self, kind, **params):
        super().__init__(kind)
        self.reply = {"problem": kind, "params": params}


def _replies(helper):
    """The helper, with a _Problem it raises returned as its reply."""

    @functools.wraps(helper)
    def run(*args):
        try:
            return helper(*args)
        except _Problem as problem:
            return problem.reply

    return run


def _build(lib, config, state=None, dtype="float64"):
    torch.random.default_generator.manual_seed(0)  # a parameter the grader does not load starts the same each run
    module = lib.GroupedQueryAttention(config["d_model"], config["num_heads"], config["num_kv_heads"])
    if not isinstance(module, torch.nn.Module):
        raise _Problem("not_a_module", type=type(module).__name__)
    module = module.to(getattr(torch, dtype)).eval()
    if state is not None:
        own = module.state_dict()
        for name, value in state.items():
            if name not in own:
                raise _Problem("no_parameter_named", name=name)
            if tuple(own[name].shape) != tuple(value.shape):
                raise _Problem(
                    "loaded_shape", name=name, actual=list(own[name].shape), expected=list(value.shape), config=config
                )
        module.load_state_dict(state, strict=False)
    return module


@_replies
def forward(lib, cases):
    """One forward pass per case: {config, state, x, causal}; ``causal`` is passed only when True."""
    results = []
    for case in cases:
        module = _build(lib, case["config"], case["state"])
        with torch.no_grad():
            results.append(module(case["x"], causal=True) if case["causal"] else module(case["x"]))
    return results


@_replies
def parameters(lib, config):
    """Every parameter's name and shape, and for each projection: is it an nn.Linear, has it a bias."""
    module = _build(lib, config, dtype="float32")
    linear = {}
    for name in PROJECTIONS:
        layer = getattr(module, name, None)
        linear[name] = [isinstance(layer, torch.nn.Linear), getattr(layer, "bias", None) is not None]
    return {"parameters": [[name, list(p.shape)] for name, p in module.named_parameters()], "linear": linear}
