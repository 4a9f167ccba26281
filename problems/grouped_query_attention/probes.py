"""Harness helpers that run inside the learner's process for grouped_query_attention.

Each helper receives the learner's module first, builds their ``GroupedQueryAttention``, loads the
grader's weights when a case carries them, runs forward and returns plain data (tensors, lists,
dicts). They hold no expected values; every comparison happens in the grader. A module whose
parameters cannot take the grader's weights gives ``{"problem": KIND, "params": {...}}``, which
the check turns into the spec's message KIND (and, from the shapes, a named mistake). Exceptions
from the learner's own code (NotImplementedError from the stub too) propagate unchanged.
"""

import torch

from grader.probe_kit import build, replies

PROJECTIONS = ("q_proj", "k_proj", "v_proj", "o_proj")


def _build(lib, config, state=None, dtype="float64"):
    def make():
        return lib.GroupedQueryAttention(config["d_model"], config["num_heads"], config["num_kv_heads"])

    # A shape that does not fit carries the config, for the checks to name the mistake it shows.
    return build(make, state, dtype=dtype, context={"config": config}).eval()


@replies
def forward(lib, cases):
    """One forward pass per case: {config, state, x, causal}; ``causal`` is passed only when True."""
    results = []
    for case in cases:
        module = _build(lib, case["config"], case["state"])
        with torch.no_grad():
            results.append(module(case["x"], causal=True) if case["causal"] else module(case["x"]))
    return results


@replies
def parameters(lib, config):
    """Every parameter's name and shape, and for each projection: is it an nn.Linear, has it a bias."""
    module = _build(lib, config, dtype="float32")
    linear = {}
    for name in PROJECTIONS:
        layer = getattr(module, name, None)
        linear[name] = [isinstance(layer, torch.nn.Linear), getattr(layer, "bias", None) is not None]
    return {"parameters": [[name, list(p.shape)] for name, p in module.named_parameters()], "linear": linear}
