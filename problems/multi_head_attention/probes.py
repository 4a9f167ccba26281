"""Harness helpers that run inside the learner's process for multi_head_attention.

Each helper receives the learner's module first, drives their ``MultiHeadAttention`` (build it,
load the grader's weights, run forward or backward) and returns plain data: tensors, numbers,
strings, lists and dicts. They hold no expected values; every comparison happens in the grader.

A helper that cannot even load the weights returns ``{"problem": KIND, "params": {...}}``, which
the check turns into a failure with the spec's message KIND (in the learner's language; see
grader/probe_kit.py).
Exceptions from the learner's own code (including NotImplementedError from the stub) propagate
unchanged.
"""

import torch

from grader.probe_kit import Problem, build, replies

PROJECTIONS = ("W_q", "W_k", "W_v", "W_o")


def _build(lib, config, state=None, dtype="float64", train=False, seed=0):
    module = build(lambda: lib.MultiHeadAttention(**config), state, dtype=dtype, seed=seed, names_first=True)
    module.train(train)
    return module


def _call(module, case):
    args = [case["query"], case["key"], case["value"]]
    if case.get("mask") is not None:
        args.append(case["mask"])
    return module(*args)


@replies
def forward(lib, cases):
    """Run one forward pass per case; a case holds config, state, query, key, value, mask, dtype, train.

    ``repeat`` in a case runs the same module that many times in a row (for determinism and dropout).
    """
    results = []
    for case in cases:
        module = _build(
            lib, case["config"], case.get("state"), case.get("dtype", "float64"),
            case.get("train", False), case.get("seed", 0),
        )
        with torch.no_grad():
            runs = [_call(module, case) for _ in range(case.get("repeat", 1))]
        results.append(runs[0] if case.get("repeat", 1) == 1 else runs)
    return results


@replies
def parameters(lib, config):
    """Names and shapes of the module's parameters, and which projections are nn.Linear."""
    module = _build(lib, config, dtype="float32")
    return {
        "parameters": [[name, list(p.shape)] for name, p in module.named_parameters()],
        "linear": {name: isinstance(getattr(module, name, None), torch.nn.Linear) for name in PROJECTIONS},
    }


@replies
def own_weights(lib, config, cases, seed=0):
    """Build the module with the learner's own initialisation; return its weights and outputs."""
    module = _build(lib, config, seed=seed)
    state = {name: value for name, value in module.state_dict().items()}
    with torch.no_grad():
        outputs = [_call(module, case) for case in cases]
    return {"state": state, "outputs": outputs}


@replies
def gradients(lib, case, grad_output):
    """Backpropagate ``sum(output * grad_output)``; return the forward result and each parameter's
    gradient (None for a parameter the output does not depend on)."""
    module = _build(lib, case["config"], case["state"])
    result = _call(module, case)
    output = result[0] if isinstance(result, (tuple, list)) else result
    if not isinstance(output, torch.Tensor) or not output.requires_grad:
        raise Problem("detached")
    (output * grad_output).sum().backward()
    return {"result": result, "grads": {name: p.grad for name, p in module.named_parameters()}}


@replies
def meta_forward(lib, config, cases):
    """Move the module to the meta device and run forward on meta inputs (shapes only)."""
    module = _build(lib, config, dtype="float32")
    module = module.to("meta").eval()
    return [_call(module, case) for case in cases]
