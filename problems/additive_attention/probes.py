"""Harness helpers that run inside the learner's process for additive_attention.

Each helper receives the learner's module first, drives their ``AdditiveAttention`` (build it,
load the grader's weights, run forward or backward) and returns plain data. They hold no
expected values; every comparison happens in the grader. A helper that cannot load the weights
returns ``{"problem": KIND, "params": {...}}``, which the check turns into the spec's message
KIND. Exceptions from the learner's own code propagate unchanged.
"""

import torch

PROJECTIONS = ("W_k", "W_q", "w_v")


class _Problem(Exception):
    """The learner's module does not have the structure the grader needs: a message id and its parameters."""

    def __init__(self, kind, **params):
        super().__init__(kind)
        self.reply = {"problem": kind, "params": params}


def _build(lib, config, state=None, dtype="float64"):
    torch.random.default_generator.manual_seed(0)  # the CPU generator only (see multi_head_attention)
    module = lib.AdditiveAttention(**config)
    if not isinstance(module, torch.nn.Module):
        raise _Problem("not_a_module", type=type(module).__name__)
    module = module.to(getattr(torch, dtype))
    if state is not None:
        own = dict(module.state_dict())
        for name, value in state.items():
            if name not in own:
                raise _Problem("no_parameter_named", name=repr(name))
            if tuple(own[name].shape) != tuple(value.shape):
                raise _Problem(
                    "loaded_shape", name=repr(name), actual=str(tuple(own[name].shape)), expected=str(tuple(value.shape))
                )
        module.load_state_dict(state, strict=False)
    return module.eval()


def _call(module, case):
    args = [case["queries"], case["keys"], case["values"]]
    if case.get("valid_lens") is not None:
        args.append(case["valid_lens"])
    return module(*args)


def _kept(module):
    weights = getattr(module, "attention_weights", None)
    return weights if isinstance(weights, torch.Tensor) else None


def forward(lib, cases):
    """One forward pass per case (config, state, queries, keys, values, valid_lens, dtype):
    ``{"output": ..., "weights": self.attention_weights or None}`` for each."""
    try:
        results = []
        for case in cases:
            module = _build(lib, case["config"], case.get("state"), case.get("dtype", "float64"))
            with torch.no_grad():
                output = _call(module, case)
            results.append({"output": output, "weights": _kept(module)})
        return results
    except _Problem as problem:
        return problem.reply


def parameters(lib, config):
    """Names and shapes of the module's parameters; which projections are nn.Linear, and with a bias."""
    try:
        module = _build(lib, config, dtype="float32")
    except _Problem as problem:
        return problem.reply
    linear = {name: isinstance(getattr(module, name, None), torch.nn.Linear) for name in PROJECTIONS}
    return {
        "parameters": [[name, list(p.shape)] for name, p in module.named_parameters()],
        "linear": linear,
    }


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

    try:
        counts = []
        for case in cases:
            module = _build(lib, case["config"], case.get("state"))
            counter = Count()
            with torch.no_grad(), counter:
                _call(module, case)
            counts.append(counter.calls)
        return counts
    except _Problem as problem:
        return problem.reply


def gradients(lib, case, grad_output):
    """Backpropagate ``sum(output * grad_output)``; the output and each parameter's gradient (None if unused)."""
    try:
        module = _build(lib, case["config"], case["state"])
    except _Problem as problem:
        return problem.reply
    output = _call(module, case)
    if not isinstance(output, torch.Tensor) or not output.requires_grad:
        return {"problem": "detached", "params": {}}
    (output * grad_output).sum().backward()
    return {"output": output.detach(), "grads": {name: p.grad for name, p in module.named_parameters()}}
