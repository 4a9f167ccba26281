"""Harness helpers that run inside the learner's process for multi_head_attention.

Each helper receives the learner's module first, drives their ``MultiHeadAttention`` (build it,
load the grader's weights, run forward or backward) and returns plain data: tensors, numbers,
strings, lists and dicts. They hold no expected values; every comparison happens in the grader.

A helper that cannot even load the weights returns ``{"problem": KIND, "params": {...}}``, which
the check turns into a failure with the spec's message KIND (in the learner's language).
Exceptions from the learner's own code (including NotImplementedError from the stub) propagate
unchanged.
"""

import torch

PROJECTIONS = ("W_q", "W_k", "W_v", "W_o")


class _Problem(Exception):
    """The learner's module does not have the structure the grader needs: a message id and its parameters."""

    def __init__(self, kind, **params):
        super().__init__(kind)
        self.reply = {"problem": kind, "params": params}


def _build(lib, config, state=None, dtype="float64", train=False, seed=0):
    # Seed only the CPU generator: torch.manual_seed also queues a call (with a formatted stack
    # trace) for every lazy accelerator backend, which costs about a millisecond each time.
    torch.random.default_generator.manual_seed(seed)
    module = lib.MultiHeadAttention(**config)
    if not isinstance(module, torch.nn.Module):
        raise _Problem("not_a_module", type=type(module).__name__)
    module = module.to(getattr(torch, dtype))
    if state is not None:
        own = dict(module.state_dict())
        missing = [name for name in state if name not in own]
        if missing:
            raise _Problem("no_parameter_named", name=repr(missing[0]))
        for name, value in state.items():
            if tuple(own[name].shape) != tuple(value.shape):
                raise _Problem(
                    "loaded_shape", name=repr(name), actual=str(tuple(own[name].shape)), expected=str(tuple(value.shape))
                )
        module.load_state_dict(state, strict=False)
    module.train(train)
    return module


def _call(module, case):
    args = [case["query"], case["key"], case["value"]]
    if case.get("mask") is not None:
        args.append(case["mask"])
    return module(*args)


def forward(lib, cases):
    """Run one forward pass per case; a case holds config, state, query, key, value, mask, dtype, train.

    ``repeat`` in a case runs the same module that many times in a row (for determinism and dropout).
    """
    try:
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
    except _Problem as problem:
        return problem.reply


def parameters(lib, config):
    """Names and shapes of the module's parameters, and which projections are nn.Linear."""
    try:
        module = _build(lib, config, dtype="float32")
    except _Problem as problem:
        return problem.reply
    return {
        "parameters": [[name, list(p.shape)] for name, p in module.named_parameters()],
        "linear": {name: isinstance(getattr(module, name, None), torch.nn.Linear) for name in PROJECTIONS},
    }


def own_weights(lib, config, cases, seed=0):
    """Build the module with the learner's own initialisation; return its weights and outputs."""
    try:
        module = _build(lib, config, seed=seed)
    except _Problem as problem:
        return problem.reply
    state = {name: value for name, value in module.state_dict().items()}
    with torch.no_grad():
        outputs = [_call(module, case) for case in cases]
    return {"state": state, "outputs": outputs}


def gradients(lib, case, grad_output):
    """Backpropagate ``sum(output * grad_output)``; return the forward result and each parameter's
    gradient (None for a parameter the output does not depend on)."""
    try:
        module = _build(lib, case["config"], case["state"])
    except _Problem as problem:
        return problem.reply
    result = _call(module, case)
    output = result[0] if isinstance(result, (tuple, list)) else result
    if not isinstance(output, torch.Tensor) or not output.requires_grad:
        return {"problem": "detached", "params": {}}
    (output * grad_output).sum().backward()
    return {"result": result, "grads": {name: p.grad for name, p in module.named_parameters()}}


def meta_forward(lib, config, cases):
    """Move the module to the meta device and run forward on meta inputs (shapes only)."""
    try:
        module = _build(lib, config, dtype="float32")
    except _Problem as problem:
        return problem.reply
    module = module.to("meta").eval()
    return [_call(module, case) for case in cases]
