"""Wrong: always one K/V head (multi-query attention), broadcast over the query heads, whatever
num_kv_heads says. Right only where num_kv_heads == 1."""

import math

import torch
from torch import nn


class GroupedQueryAttention(nn.Module):
    def __init__(self, d_model, num_heads, num_kv_heads):
        super().__init__()
        if num_heads < 1 or num_kv_heads < 1 or d_model % num_heads or num_heads % num_kv_heads:
            raise ValueError("invalid head counts")
        self.h, self.dh = num_heads, d_model // num_heads
        self.q_proj = nn.Linear(d_model, d_model, bias=False)
        self.k_proj = nn.Linear(d_model, self.dh, bias=False)
        self.v_proj = nn.Linear(d_model, self.dh, bias=False)
        self.o_proj = nn.Linear(d_model, d_model, bias=False)

    def forward(self, x, causal=False):
        B, T, D = x.shape
        q = self.q_proj(x).view(B, T, self.h, self.dh).transpose(1, 2)  # (B, h, T, dh)
        k = self.k_proj(x)[:, None]  # (B, 1, T, dh), shared by every head
        v = self.v_proj(x)[:, None]
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.dh)
        if causal:
            scores = scores.masked_fill(torch.ones(T, T, dtype=torch.bool).triu(1), float("-inf"))
        out = torch.softmax(scores, dim=-1) @ v
        return self.o_proj(out.transpose(1, 2).reshape(B, T, D))
