"""All sines first, then all cosines (the layout of some TensorFlow tutorials)."""

import numpy as np
import torch
from torch import nn


def sinusoidal_encoding(max_len, d_model, base=10000.0):
    if max_len < 1 or d_model < 1:
        raise ValueError("max_len and d_model must be positive")
    positions = np.arange(max_len)[:, np.newaxis]
    rates = 1.0 / np.power(base, np.arange(0, d_model, 2) / d_model)
    angles = positions * rates
    return np.concatenate([np.sin(angles), np.cos(angles[:, : d_model // 2])], axis=-1)


class PositionalEncoding(nn.Module):
    def __init__(self, d_model, max_len=5000, base=10000.0):
        super().__init__()
        self.register_buffer("pe", torch.tensor(sinusoidal_encoding(max_len, d_model, base), dtype=torch.float32))

    def forward(self, x):
        if x.shape[1] > self.pe.shape[0]:
            raise ValueError("too long")
        return x + self.pe[: x.shape[1]].to(x.dtype)
