"""Correct, written the way Meta's Llama code writes it: each pair is one complex number,
multiplied by e^(i theta) (torch.polar)."""

import torch


def apply_rotary(x, positions, base=10000.0, interleaved=False):
    d = x.shape[-1]
    real = torch.float64 if x.dtype == torch.float64 else torch.float32
    freqs = base ** (-torch.arange(0, d, 2, dtype=real) / d)
    angles = positions.to(real)[:, None] * freqs
    turn = torch.polar(torch.ones_like(angles), angles)
    xr = x.to(real)
    if interleaved:
        z = torch.view_as_complex(xr.reshape(*x.shape[:-1], d // 2, 2).contiguous())
        out = torch.view_as_real(z * turn).flatten(-2)
    else:
        z = torch.complex(xr[..., : d // 2], xr[..., d // 2:])
        w = z * turn
        out = torch.cat((w.real, w.imag), dim=-1)
    return out.to(x.dtype)
