"""Rotary position embedding (RoPE), in torch.

Write the function below, then run ``grade rotary_embedding`` in this folder.

RoPE encodes a token's position by rotating its query and key, two features at a time. Pair i
(i = 0 .. d/2 - 1) of the token at position p turns by the angle

    theta_i = p * base ** (-2 i / d)

    (a, b)  ->  (a * cos(theta_i) - b * sin(theta_i),  b * cos(theta_i) + a * sin(theta_i))

The first pair turns by one radian per position, the last about ``base`` times slower. Since
rotations compose, <rope(q, m), rope(k, n)> depends on m and n only through m - n: attention
sees relative positions.

Which two features form pair i is a convention, and checkpoints disagree:

    d = 8                 pair 0    pair 1    pair 2    pair 3
    interleaved=False    (x0, x4)  (x1, x5)  (x2, x6)  (x3, x7)   rotate-half (GPT-NeoX, HF Llama)
    interleaved=True     (x0, x1)  (x2, x3)  (x4, x5)  (x6, x7)   the paper, Meta's Llama code

Conventions (the grader checks each one):

* x has shape (..., T, d) with d even: any leading batch and head axes.
* positions is an integer tensor of shape (T,): row t of x is at position positions[t]. It need
  not start at 0 (while decoding with a KV cache the new tokens start at T_past).
* Return a tensor of x's shape and dtype. For float16 and bfloat16 inputs, compute the angles in
  float32 (half precision cannot even hold a position such as 3001), then cast the result back.
* Do not modify x.
"""

import torch


def apply_rotary(x, positions, base=10000.0, interleaved=False):
    """Rotate every feature pair of x by its position's angle.

    Args:
        x: (..., T, d) tensor, d even (queries or keys, with any batch and head axes).
        positions: (T,) integer tensor, the position of each of the T rows.
        base: the base of the frequencies, theta_i = p * base ** (-2 i / d).
        interleaved: False pairs x[..., i] with x[..., i + d/2]; True pairs x[..., 2i] with x[..., 2i + 1].

    Returns:
        A (..., T, d) tensor of x's dtype.
    """
    raise NotImplementedError
