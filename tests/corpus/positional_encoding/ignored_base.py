"""Takes a base argument but never uses it: the frequencies always use 10000."""

import math

import numpy as np
import torch
from torch import nn


def sinusoidal_encoding(max_len, d_model, base=10000.0):
    if max_len < 1 or d_model < 1:
        raise ValueError("max_len and d_model must be positive")
    pe = np.zeros((max_len, d_model))
    position = np.arange(max_len)[:, None]
    div = np.exp(np.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))  # base is ignored
    pe[:, 0::2] = np.sin(position * div)
    pe[:, 1::2] = np.cos(position * div[: d_model // 2])
    return pe


class PositionalEncoding(nn.Module):
    def __init__(self, d_model, max_len=5000, base=10000.0):
        super().__init__()
        self.register_buffer("pe", torch.from_numpy(sinusoidal_encoding(max_len, d_model, base)).float())

    def forward(self, x):
        if x.size(1) > self.pe.size(0):
            raise ValueError("sequence longer than max_len")
        return x + self.pe[: x.size(1)].to(x.dtype)
