"""Correct, built in torch the annotated-transformer way (exp/log div_term, float32 buffer)."""

import math

import torch
from torch import nn


def _table(max_len, d_model, base, dtype):
    if max_len < 1 or d_model < 1:
        raise ValueError("max_len and d_model must be at least 1")
    position = torch.arange(max_len, dtype=dtype).unsqueeze(1)
    div_term = torch.exp(torch.arange(0, d_model, 2, dtype=dtype) * (-math.log(base) / d_model))
    pe = torch.zeros(max_len, d_model, dtype=dtype)
    pe[:, 0::2] = torch.sin(position * div_term)
    pe[:, 1::2] = torch.cos(position * div_term[: d_model // 2])
    return pe


def sinusoidal_encoding(max_len, d_model, base=10000.0):
    return _table(max_len, d_model, base, torch.float64).numpy()


class PositionalEncoding(nn.Module):
    def __init__(self, d_model, max_len=5000, base=10000.0):
        super().__init__()
        self.register_buffer("pe", _table(max_len, d_model, base, torch.float32))

    def forward(self, x):
        if x.size(1) > self.pe.size(0):
            raise ValueError("sequence longer than max_len")
        return x + self.pe[: x.size(1)].type_as(x)
