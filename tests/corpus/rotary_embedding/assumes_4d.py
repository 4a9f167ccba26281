"""Wrong, unnamed: written for (B, H, T, d) only (x.shape[2] is T), so (T, d) and (B, T, d) inputs break."""

import torch


def apply_rotary(x, positions, base=10000.0, interleaved=False):
    B, H, T, d = x.shape
    inv_freq = base ** (-torch.arange(0, d, 2, dtype=torch.float32) / d)
    angles = positions.float()[:, None] * inv_freq
    cos, sin = angles.cos(), angles.sin()
    xf = x.float()
    if interleaved:
        a, b = xf[:, :, :, 0::2], xf[:, :, :, 1::2]
        out = torch.stack((a * cos - b * sin, b * cos + a * sin), dim=-1).reshape(B, H, T, d)
    else:
        a, b = xf[:, :, :, : d // 2], xf[:, :, :, d // 2:]
        out = torch.cat((a * cos - b * sin, b * cos + a * sin), dim=-1)
    return out.to(x.dtype)
