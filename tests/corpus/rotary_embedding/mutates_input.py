"""Wrong: the pairs are rotated in place, inside the caller's x."""

import torch


def apply_rotary(x, positions, base=10000.0, interleaved=False):
    d = x.shape[-1]
    inv_freq = base ** (-torch.arange(0, d, 2, dtype=torch.float32) / d)
    angles = positions.float()[:, None] * inv_freq
    cos, sin = angles.cos().to(x.dtype), angles.sin().to(x.dtype)
    if interleaved:
        a, b = x[..., 0::2].clone(), x[..., 1::2].clone()
        x[..., 0::2] = a * cos - b * sin
        x[..., 1::2] = b * cos + a * sin
    else:
        a, b = x[..., : d // 2].clone(), x[..., d // 2:].clone()
        x[..., : d // 2] = a * cos - b * sin
        x[..., d // 2:] = b * cos + a * sin
    return x
