"""Sinusoidal positional encoding, as a numpy table and as a torch module.

Write the function and the class below, then run ``grade positional_encoding`` in this folder.

    PE[pos, 2i]     = sin(pos / base^(2i / d_model))
    PE[pos, 2i + 1] = cos(pos / base^(2i / d_model))

Conventions (the grader checks each one):

* Positions count from 0, so row 0 is [0, 1, 0, 1, ...].
* Interleaved layout: column 2i holds the sin and column 2i + 1 the cos of the *same* frequency
  omega_i = base^(-2i / d_model). Here i is the pair index (0, 1, 2, ...), so the exponent of
  column 2i is 2i / d_model (not 4i / d_model, not i / d_model).
* An odd d_model ends with the sin column of its last pair (there are ceil(d_model / 2) sin columns).
* The numpy table is float64.
* The module keeps the table in a registered buffer named ``pe`` (not a parameter, not a plain
  attribute), so it follows ``.to(dtype)`` / ``.to(device)`` and is saved in ``state_dict()``.
"""

import numpy as np
import torch
from torch import nn


def sinusoidal_encoding(max_len, d_model, base=10000.0):
    """The table of sinusoidal position encodings.

    Args:
        max_len: number of positions (rows), at least 1; positions are 0 .. max_len - 1.
        d_model: encoding size (columns), at least 1; may be odd.
        base: the wavelength base (10000 in the paper).

    Returns:
        A float64 numpy array of shape (max_len, d_model): sin in even columns, cos in odd columns.

    Raises:
        ValueError: if max_len < 1 or d_model < 1.
    """
    raise NotImplementedError


class PositionalEncoding(nn.Module):
    """Adds the sinusoidal table to a batch-first input.

    ``__init__`` builds the (max_len, d_model) table and registers it as the buffer ``pe``.
    ``forward(x)`` takes x of shape (B, L, d_model) and returns ``x + pe[:L]`` with x's shape,
    dtype and device; it raises ValueError when L > max_len.
    """

    def __init__(self, d_model, max_len=5000, base=10000.0):
        super().__init__()
        raise NotImplementedError

    def forward(self, x):
        """x: (B, L, d_model) -> (B, L, d_model), x plus the encodings of positions 0 .. L - 1."""
        raise NotImplementedError
