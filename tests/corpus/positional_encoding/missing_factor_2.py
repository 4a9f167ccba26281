"""i counts pairs (0, 1, 2, ...) but the exponent is i/d_model: the factor 2 is missing."""

import numpy as np
import torch
from torch import nn


def sinusoidal_encoding(max_len, d_model, base=10000.0):
    if max_len < 1 or d_model < 1:
        raise ValueError("max_len and d_model must be positive")
    pe = np.zeros((max_len, d_model))
    for i in range((d_model + 1) // 2):
        freq = 1.0 / base ** (i / d_model)
        angle = np.arange(max_len) * freq
        pe[:, 2 * i] = np.sin(angle)
        if 2 * i + 1 < d_model:
            pe[:, 2 * i + 1] = np.cos(angle)
    return pe


class PositionalEncoding(nn.Module):
    def __init__(self, d_model, max_len=5000, base=10000.0):
        super().__init__()
        self.register_buffer("pe", torch.from_numpy(sinusoidal_encoding(max_len, d_model, base)).float())

    def forward(self, x):
        if x.size(1) > self.pe.size(0):
            raise ValueError("sequence longer than max_len")
        return x + self.pe[: x.size(1)].to(x.dtype)
