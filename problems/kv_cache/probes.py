"""Harness helpers that run inside the learner's process for kv_cache.

``forward`` builds the learner's ``CachedSelfAttention``, loads the grader's weights and feeds it a
sequence in pieces (a schedule of T_new per call), passing each call the cache the previous one
returned, the way a generation loop does. It returns plain data: each call's output and cache
(copied as they came back, so that a later call changing them in place cannot rewrite history)
and how many rows each of q_proj, k_proj and v_proj projected in that call (forward hooks). It
holds no expected values; every comparison happens in the grader. The grader also runs it on the
reference (and on the reference under each named mistake), with the module as ``lib``.

A module the grader cannot drive returns ``{"problem": KIND, "params": {...}}``, which the check
turns into the spec's message KIND. Exceptions from the learner's own code propagate unchanged.
"""

import torch

from grader.probe_kit import Problem, build, replies

COUNTED = ("q_proj", "k_proj", "v_proj")


def _build(lib, config, state=None, dtype="float64"):
    return build(lambda: lib.CachedSelfAttention(config["d_model"], config["num_heads"]), state, dtype=dtype).eval()


def _copy(value):
    """A cache or output as it is now: tensors cloned, a tuple or list of them copied."""
    if isinstance(value, torch.Tensor):
        return value.detach().clone()
    if isinstance(value, (tuple, list)):
        return type(value)(_copy(v) for v in value)
    return value


def _count_rows(module, counts):
    """Forward hooks adding the rows each projection outputs (all axes but the last) to ``counts``."""
    handles = []
    for name in COUNTED:
        projection = getattr(module, name, None)
        if isinstance(projection, torch.nn.Module):
            def hook(_module, _args, output, name=name):
                if isinstance(output, torch.Tensor) and output.dim() > 0:
                    counts[name] += output.numel() // max(output.shape[-1], 1)
            handles.append(projection.register_forward_hook(hook))
    return handles


def forward(lib, cases):
    """Feed each case's x (B, T, d_model) in pieces of ``steps`` tokens, threading the cache; a reply per case.

    A case holds config, state, dtype, x, steps and optionally ``cache``, the cache its first call
    gets (otherwise the first call gets no cache argument). With ``echo``, the reply also holds
    ``kept``: every returned cache as it is after all the calls (``caches`` holds each as it was
    returned, before the next call got it).
    """
    try:
        return [_forward(lib, case) for case in cases]
    except Problem as problem:
        return [problem.reply]


def _forward(lib, case):
    module = _build(lib, case["config"], case["state"], case.get("dtype", "float64"))
    x, cache = case["x"], case.get("cache")
    outputs, caches, rows, kept = [], [], [], []
    start = 0
    counts = dict.fromkeys(COUNTED, 0)
    handles = _count_rows(module, counts)
    try:
        with torch.no_grad():
            for n in case["steps"]:
                counts.update(dict.fromkeys(COUNTED, 0))
                piece = x[:, start : start + n]  # (B, T_new, d_model)
                result = module(piece) if cache is None else module(piece, cache)
                if not isinstance(result, (tuple, list)) or len(result) != 2:
                    raise Problem("not_a_pair", got=type(result).__name__)
                y, cache = result
                outputs.append(_copy(y))
                caches.append(_copy(cache))
                kept.append(cache)
                rows.append({name: counts[name] for name in COUNTED if hasattr(module, name)})
                start += n
    finally:
        for handle in handles:
            handle.remove()
    reply = {"outputs": outputs, "caches": caches, "rows": rows}
    if case.get("echo"):
        reply["kept"] = kept
    return reply


def influence(lib, config, state, x, T_past):
    """(T_new, T_total) bool for item 0: True where nudging position j's value changes new token i's output.

    The first T_past tokens of x go in as a prefill, the rest as one chunk with that cache. A cached
    position's value is nudged in the cache (dim 2, the time axis); a new token's at its row of
    v_proj's output. With a true cache, a True is exactly a key the token attends to.
    """
    module = _build(lib, config, state)
    new = x[:, T_past:]  # (1, T_new, d_model)
    with torch.no_grad():
        _, cache = module(x[:, :T_past])
        base, _ = module(new, cache)
        changed = []
        for j in range(x.shape[1]):
            if j < T_past:
                k, v = cache
                v = v.clone()
                v[:, :, j] += 1.0
                y, _ = module(new, (k, v))
            else:
                def nudge(_module, _args, output, row=j - T_past):
                    output = output.clone()
                    output[:, row] += 1.0
                    return output

                handle = module.v_proj.register_forward_hook(nudge)
                try:
                    y, _ = module(new, cache)
                finally:
                    handle.remove()
            changed.append((y - base).abs().amax(dim=-1)[0] > 1e-9)  # (T_new,)
    return torch.stack(changed, dim=1)  # (T_new, T_total)


@replies
def parameters(lib, config):
    """Names and shapes of the module's parameters, and which projections are nn.Linear."""
    module = _build(lib, config, dtype="float32")
    return {
        "parameters": [[name, list(p.shape)] for name, p in module.named_parameters()],
        "linear": {name: isinstance(getattr(module, name, None), torch.nn.Linear)
                   for name in (*COUNTED, "o_proj")},
    }
