"""Fault: forward allocates an 8 GiB tensor (the memory limit must stop it, fast)."""

import torch
from torch import nn


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model, num_heads, bias=True, dropout=0.0):
        super().__init__()
        self.W_q = nn.Linear(d_model, d_model, bias=bias)
        self.W_k = nn.Linear(d_model, d_model, bias=bias)
        self.W_v = nn.Linear(d_model, d_model, bias=bias)
        self.W_o = nn.Linear(d_model, d_model, bias=bias)

    def forward(self, query, key, value, mask=None):
        cache = torch.ones(2**31, dtype=torch.float32, device=query.device)  # 8 GiB
        return cache[: query.numel()].view_as(query), None
