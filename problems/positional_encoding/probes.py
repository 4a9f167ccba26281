"""Harness helpers for positional_encoding that run inside the learner's process.

Each helper builds the learner's ``PositionalEncoding``, drives it, and returns plain data
(tensors, strings, numbers, lists, dicts). They hold no expected values: the checks compare.
"""

import torch


def structure(module, d_model, max_len):
    """Names of buffers, parameters and state-dict entries of a freshly built module."""
    m = module.PositionalEncoding(d_model, max_len=max_len)
    buffers = dict(m.named_buffers())
    pe = buffers.get("pe")
    return {
        "buffers": sorted(buffers),
        "parameters": {name: int(p.numel()) for name, p in m.named_parameters()},
        "trainable": int(sum(p.numel() for p in m.parameters() if p.requires_grad)),
        "state_dict": sorted(m.state_dict()),
        "pe_shape": list(pe.shape) if isinstance(pe, torch.Tensor) else None,
    }


def forward(module, d_model, max_len, inputs, base=None):
    """The module's outputs for each input tensor (one module, several calls)."""
    kwargs = {} if base is None else {"base": base}
    m = module.PositionalEncoding(d_model, max_len=max_len, **kwargs)
    return [m(x) for x in inputs]


def default_forward(module, d_model, x):
    """Output of a module built with only d_model (default max_len and base)."""
    return module.PositionalEncoding(d_model)(x)


def converted(module, d_model, max_len, x, dtype):
    """After ``m.to(dtype)``: the dtype of buffer ``pe`` (or None) and the output for x."""
    m = module.PositionalEncoding(d_model, max_len=max_len).to(getattr(torch, dtype))
    pe = dict(m.named_buffers()).get("pe")
    return {"pe_dtype": str(pe.dtype).removeprefix("torch.") if pe is not None else None, "out": m(x)}


def meta(module, d_model, max_len, shape):
    """After ``m.to('meta')``: the output for a meta input of ``shape`` (only its shape travels)."""
    m = module.PositionalEncoding(d_model, max_len=max_len).to("meta")
    out = m(torch.zeros(shape, device="meta"))
    return {"device": out.device.type, "shape": list(out.shape), "dtype": str(out.dtype).removeprefix("torch.")}
