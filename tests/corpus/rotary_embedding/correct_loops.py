"""Correct, one pair at a time in a Python loop, angles with math.cos and math.sin per position."""

import math

import torch


def apply_rotary(x, positions, base=10000.0, interleaved=False):
    d = x.shape[-1]
    work = x.to(torch.float64 if x.dtype == torch.float64 else torch.float32)
    out = torch.empty_like(work)
    pos = [int(p) for p in positions]
    for i in range(d // 2):
        a_idx, b_idx = (2 * i, 2 * i + 1) if interleaved else (i, i + d // 2)
        omega = base ** (-2 * i / d)
        cos = torch.tensor([math.cos(p * omega) for p in pos], dtype=work.dtype)
        sin = torch.tensor([math.sin(p * omega) for p in pos], dtype=work.dtype)
        a, b = work[..., a_idx], work[..., b_idx]
        out[..., a_idx] = a * cos - b * sin
        out[..., b_idx] = b * cos + a * sin
    return out.to(x.dtype)
