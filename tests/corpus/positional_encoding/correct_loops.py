"""Correct, written with plain Python loops; the module keeps a (1, max_len, d) buffer."""

import math

import numpy as np
import torch
from torch import nn


def sinusoidal_encoding(max_len, d_model, base=10000.0):
    if max_len < 1 or d_model < 1:
        raise ValueError(f"bad sizes {max_len}, {d_model}")
    rows = []
    for pos in range(max_len):
        row = []
        for col in range(d_model):
            pair = col // 2
            angle = pos / base ** (2 * pair / d_model)
            row.append(math.sin(angle) if col % 2 == 0 else math.cos(angle))
        rows.append(row)
    return np.array(rows, dtype=np.float64)


class PositionalEncoding(nn.Module):
    def __init__(self, d_model, max_len=5000, base=10000.0):
        super().__init__()
        self.max_len = max_len
        self.register_buffer("pe", torch.tensor(sinusoidal_encoding(max_len, d_model, base)).float().unsqueeze(0))

    def forward(self, x):
        if x.size(1) > self.max_len:
            raise ValueError(f"length {x.size(1)} > max_len {self.max_len}")
        return x + self.pe[:, : x.size(1)].to(x.dtype)
