"""Correct, with explicit 2 x 2 rotation matrices applied to the pairs by einsum, angles in float64."""

import math

import torch


def apply_rotary(x, positions, base=10000.0, interleaved=False):
    T, d = x.shape[-2], x.shape[-1]
    i = torch.arange(d // 2, dtype=torch.float64)
    theta = positions.to(torch.float64).unsqueeze(-1) * torch.exp(-2 * i / d * math.log(base))
    c, s = torch.cos(theta), torch.sin(theta)
    rot = torch.stack((torch.stack((c, -s), -1), torch.stack((s, c), -1)), -2)  # (T, d/2, 2, 2)
    xs = x.to(torch.float64)
    if interleaved:
        pairs = xs.unflatten(-1, (d // 2, 2))
    else:
        pairs = torch.stack((xs[..., : d // 2], xs[..., d // 2:]), dim=-1)  # (..., T, d/2, 2)
    turned = torch.einsum("tpij,...tpj->...tpi", rot, pairs)
    if interleaved:
        out = turned.flatten(-2)
    else:
        out = torch.cat((turned[..., 0], turned[..., 1]), dim=-1)
    return out.to(x.dtype)
