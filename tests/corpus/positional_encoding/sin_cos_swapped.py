"""cos in the even columns and sin in the odd ones."""

import numpy as np
import torch
from torch import nn


def sinusoidal_encoding(max_len, d_model, base=10000.0):
    if max_len < 1 or d_model < 1:
        raise ValueError("max_len and d_model must be positive")
    pos = np.arange(max_len, dtype=np.float64)[:, None]
    omega = base ** (-np.arange(0, d_model, 2) / d_model)
    pe = np.empty((max_len, d_model))
    pe[:, 0::2] = np.cos(pos * omega)
    pe[:, 1::2] = np.sin(pos * omega[: d_model // 2])
    return pe


class PositionalEncoding(nn.Module):
    def __init__(self, d_model, max_len=5000, base=10000.0):
        super().__init__()
        self.register_buffer("pe", torch.tensor(sinusoidal_encoding(max_len, d_model, base)).float())

    def forward(self, x):
        if x.size(1) > len(self.pe):
            raise ValueError("too long")
        return x + self.pe[: x.size(1)].to(x.dtype)
