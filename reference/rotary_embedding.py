"""Reference solution: rotary position embedding (RoPE) in torch.

    RoPE rotates each pair of features of a query or key by an angle proportional to its position
    (Su et al. 2021, "RoFormer", eq. 34):

        θ_i = position · base^(−2i/d),          i = 0 … d/2 − 1
        (a, b) ↦ (a cos θ_i − b sin θ_i,  b cos θ_i + a sin θ_i)

Because a rotation by m·ω followed by the transpose of a rotation by n·ω is a rotation by
(m − n)·ω, the score ⟨rope(q, m), rope(k, n)⟩ depends on the positions only through m − n.

Which two features form pair i is a convention, and checkpoints disagree:

* ``interleaved=False``, rotate-half (GPT-NeoX, Llama in Hugging Face): pair i is
  (x[i], x[i + d/2]), the first half rotated against the second half;
* ``interleaved=True`` (the RoFormer paper, Meta's Llama code): pair i is (x[2i], x[2i + 1]),
  neighbours, as if they were the real and imaginary parts of one complex number.

Conventions this problem pins down:

* x (..., T, d) with d even, any leading (batch, head) axes; positions an int tensor (T,), which
  need not start at 0 (decoding with a cache starts at T_past);
* the output has x's shape and dtype; angles are computed in float32 for half-precision inputs
  (float16, bfloat16: a position of 3001 is not even representable in float16) and in x's
  dtype otherwise; x is not modified.
"""

from __future__ import annotations

import torch


def rotary_angles(positions: torch.Tensor, d: int, base: float, dtype: torch.dtype) -> torch.Tensor:
    """θ[t, i] = positions[t] · base^(−2i/d), shape (T, d/2), in ``dtype``."""
    pair = torch.arange(d // 2, dtype=dtype)  # (d/2,) pair index i
    inv_freq = base ** (-2.0 * pair / d)  # (d/2,) radians per position: 1, …, down to about 1/base
    return positions.to(dtype)[:, None] * inv_freq[None, :]  # (T, d/2)


def apply_rotary(
    x: torch.Tensor, positions: torch.Tensor, base: float = 10000.0, interleaved: bool = False
) -> torch.Tensor:
    """Rotate each feature pair of x (..., T, d) by its position's angle; returns (..., T, d) in x's dtype."""
    d = x.shape[-1]
    compute = torch.promote_types(x.dtype, torch.float32)  # float32 for float16/bfloat16, else x's dtype
    theta = rotary_angles(positions, d, base, compute)  # (T, d/2)
    cos, sin = theta.cos(), theta.sin()  # (T, d/2) each; broadcast over the leading axes of x
    dtype = x.dtype
    x = x.to(compute)  # (..., T, d), a copy when the dtype changes; never written to

    if interleaved:
        a, b = x[..., 0::2], x[..., 1::2]  # (..., T, d/2) each: the pairs (x[2i], x[2i+1])
    else:
        a, b = x[..., : d // 2], x[..., d // 2 :]  # (..., T, d/2) each: the pairs (x[i], x[i+d/2])
    rotated_a = a * cos - b * sin  # (..., T, d/2)
    rotated_b = b * cos + a * sin  # (..., T, d/2)

    if interleaved:
        out = torch.stack((rotated_a, rotated_b), dim=-1).flatten(-2)  # (..., T, d/2, 2) -> (..., T, d)
    else:
        out = torch.cat((rotated_a, rotated_b), dim=-1)  # (..., T, d)
    return out.to(dtype)  # (..., T, d) in the input's dtype, rounded once
