"""Wrong: the minus sign on the other feature: every pair turns by -theta."""

import torch


def rotate_half(x):
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((x2, -x1), dim=-1)


def rotate_pairs(x):
    x1, x2 = x[..., 0::2], x[..., 1::2]
    return torch.stack((x2, -x1), dim=-1).flatten(-2)


def apply_rotary(x, positions, base=10000.0, interleaved=False):
    d = x.shape[-1]
    inv_freq = 1.0 / (base ** (torch.arange(0, d, 2, dtype=torch.float32) / d))
    freqs = torch.outer(positions.float(), inv_freq)
    if interleaved:
        emb = freqs.repeat_interleave(2, dim=-1)
        return x * emb.cos().to(x.dtype) + rotate_pairs(x) * emb.sin().to(x.dtype)
    emb = torch.cat((freqs, freqs), dim=-1)
    return x * emb.cos().to(x.dtype) + rotate_half(x) * emb.sin().to(x.dtype)
