"""Harness helpers that run inside the learner's process for additive_attention.

Each helper receives the learner's module first, drives their ``AdditiveAttention`` (build it,
load the grader's weights, run forward or backward) and returns plain data. They hold no
expected values; every comparison happens in the grader. A helper that cannot load the weights
returns ``{"problem": KIND, "params": {...}}``, which the check turns into the spec's message
KIND. Exceptions from the learner's own code propagate unchanged.
"""

import torch

from grader.probe_kit import Problem, build, replies

PROJECTIONS = ("W_k", "W_q", "w_v")


def _build(lib, config, state=None, dtype="float64"):
    return build(lambda: lib.AdditiveAttention(**config), state, dtype=dtype).eval()


def _call(module, case):
    args = [case["queries"], case["keys"], case["values"]]
    if case.get("valid_lens") is not None:
        args.append(case["valid_lens"])
    return module(*args)


def _kept(module):
    weights = getattr(module, "attention_weights", None)
    return weights if isinstance(weights, torch.Tensor) else None


@replies
def forward(lib, cases):
    """One forward pass per case (config, state, queries, keys, values, valid_lens, dtype):
    ``{"output": ..., "weights": self.attention_weights or None}`` for each."""
    results = []
    for case in cases:
        module = _build(lib, case["config"], case.get("state"), case.get("dtype", "float64"))
        with torch.no_grad():
            output = _call(module, case)
        results.append({"output": output, "weights": _kept(module)})
    return results


@replies
def parameters(lib, config):
    """Names and shapes of the module's parameters; which projections are nn.Linear, and with a bias."""
    module = _build(lib, config, dtype="float32")
    linear = {name: isinstance(getattr(module, name, None), torch.nn.Linear) for name in PROJECTIONS}
    return {
        "parameters": [[name, list(p.shape)] for name, p in module.named_parameters()],
        "linear": linear,
    }


@replies
def operations(lib, cases):
    """How many torch operations (functions and tensor methods) one forward pass runs, per case.

    A broadcast implementation runs the same number whatever n_q and n_k are; a Python loop over
    queries or keys runs more for larger inputs. Counting is deterministic, unlike timing.
    """
    from torch.overrides import TorchFunctionMode

    class Count(TorchFunctionMode):
        def __init__(self):
            super().__init__()
            self.calls = 0

        def __torch_function__(self, func, types, args=(), kwargs=None):
            self.calls += 1
            return func(*args, **(kwargs or {}))

    counts = []
    for case in cases:
        module = _build(lib, case["config"], case.get("state"))
        counter = Count()
        with torch.no_grad(), counter:
            _call(module, case)
        counts.append(counter.calls)
    return counts


@replies
def gradients(lib, case, grad_output):
    """Backpropagate ``sum(output * grad_output)``; the output and each parameter's gradient (None if unused)."""
    module = _build(lib, case["config"], case["state"])
    output = _call(module, case)
    if not isinstance(output, torch.Tensor) or not output.requires_grad:
        raise Problem("detached")
    (output * grad_output).sum().backward()
    return {"output": output.detach(), "grads": {name: p.grad for name, p in module.named_parameters()}}
