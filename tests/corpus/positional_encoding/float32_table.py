# Mutant: the table comes back float32 instead of float64.
"""Reference solution: sinusoidal positional encoding, as a numpy table and as a torch module.

    PE[pos, 2i]     = sin(pos / base^(2i / d_model))          (Vaswani et al. 2017, section 3.5)
    PE[pos, 2i + 1] = cos(pos / base^(2i / d_model))

Conventions this problem pins down:

* positions count from 0, so row 0 is [0, 1, 0, 1, ...];
* the layout is interleaved: sin in the even columns, cos in the odd columns, one frequency per pair;
* an odd ``d_model`` ends with the sin column of its last pair (ceil(d/2) sin columns);
* the table is float64; the module keeps it as a registered buffer named ``pe``.
"""

from __future__ import annotations

import numpy as np
import torch
from torch import nn


def sinusoidal_encoding(max_len: int, d_model: int, base: float = 10000.0) -> np.ndarray:
    """The (max_len, d_model) float64 table of sinusoidal position encodings."""
    if max_len < 1 or d_model < 1:
        raise ValueError(f"max_len and d_model must be at least 1, got {max_len} and {d_model}")
    positions = np.arange(max_len, dtype=np.float64)[:, None]  # (max_len, 1)
    pair_index = np.arange(0, d_model, 2, dtype=np.float64)  # (ceil(d/2),): the 2i of each pair
    frequencies = base ** (-pair_index / d_model)  # (ceil(d/2),): omega_i = base^(-2i/d)
    angles = positions * frequencies  # (max_len, ceil(d/2))
    pe = np.zeros((max_len, d_model), dtype=np.float64)  # (max_len, d_model)
    pe[:, 0::2] = np.sin(angles)  # even columns: ceil(d/2) of them
    pe[:, 1::2] = np.cos(angles[:, : d_model // 2])  # odd columns: floor(d/2) of them
    return pe.astype(np.float32)


class PositionalEncoding(nn.Module):
    """Adds the sinusoidal table to a batch-first input x of shape (B, L, d_model)."""

    def __init__(self, d_model: int, max_len: int = 5000, base: float = 10000.0):
        super().__init__()
        table = torch.from_numpy(sinusoidal_encoding(max_len, d_model, base))  # (max_len, d_model) float64
        # A buffer follows .to(), .half() and state_dict(), but is not a trainable parameter.
        self.register_buffer("pe", table.to(torch.get_default_dtype()))  # (max_len, d_model)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        length = x.size(1)
        if length > self.pe.size(0):
            raise ValueError(f"sequence length {length} exceeds max_len {self.pe.size(0)}")
        return x + self.pe[:length].to(dtype=x.dtype, device=x.device)  # (B, L, d_model)
