"""Harness helpers that run inside the learner's process for transformer_block.

Each helper receives the learner's module first, drives their ``TransformerBlock`` (build it,
load the grader's weights, run forward or backward) and returns plain data. They hold no
expected values; every comparison happens in the grader. Forward passes run with autograd on,
as the grader's reference and ``nn.TransformerEncoderLayer`` run, so that ``nn.MultiheadAttention``
takes the same (non-"fast path") route in both. A helper that cannot load the weights returns
``{"problem": KIND, "params": {...}}``, which the check turns into the spec's message KIND.
Exceptions from the learner's own code propagate unchanged.
"""

import torch

from grader.probe_kit import Problem, build, replies


def _build(lib, config, state=None, dtype="float64", train=False, seed=0):
    module = build(lambda: lib.TransformerBlock(**config), state, dtype=dtype, seed=seed)
    module.train(train)
    torch.random.default_generator.manual_seed(seed)  # the CPU generator only (see grader/probe_kit.py)
    return module


def _call(module, case, x=None):
    kwargs = {k: case[k] for k in ("mask", "padding_mask") if case.get(k) is not None}
    return module(case["x"] if x is None else x, **kwargs)


def _plain(output):
    return output.detach() if isinstance(output, torch.Tensor) else output


@replies
def forward(lib, cases):
    """One forward pass per case (config, state, x, mask, padding_mask, dtype, train, seed);
    ``repeat`` runs the same module that many times in a row (dropout in eval mode)."""
    results = []
    for case in cases:
        module = _build(
            lib, case["config"], case.get("state"), case.get("dtype", "float64"),
            case.get("train", False), case.get("seed", 0),
        )
        runs = [_plain(_call(module, case)) for _ in range(case.get("repeat", 1))]
        results.append(runs[0] if case.get("repeat", 1) == 1 else runs)
    return results


@replies
def parameters(lib, config):
    """Names and shapes of the module's parameters."""
    module = _build(lib, config, dtype="float32")
    return {"parameters": [[name, list(p.shape)] for name, p in module.named_parameters()]}


@replies
def gradients(lib, case, grad_output):
    """Backpropagate ``sum(output * grad_output)``; the output and each parameter's gradient (None if unused)."""
    module = _build(lib, case["config"], case["state"])
    output = _call(module, case)
    if not isinstance(output, torch.Tensor) or not output.requires_grad:
        raise Problem("detached")
    (output * grad_output).sum().backward()
    return {"output": output.detach(), "grads": {name: p.grad for name, p in module.named_parameters()}}


def influence(lib, case):
    """How much output token i depends on input token j: the norm of the Jacobian block
    d output[0, i] / d x[0, j], a (T, T) matrix (0 exactly where the mask blocks j for i)."""
    module = _build(lib, case["config"], case["state"])
    x = case["x"]

    def block(inputs):
        return _call(module, case, inputs)

    jacobian = torch.autograd.functional.jacobian(block, x)  # (1, T, d, 1, T, d)
    return jacobian[0, :, :, 0].pow(2).sum(dim=(1, 3)).sqrt().detach()  # (T, T)
