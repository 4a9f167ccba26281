"""Right values, but num_kv_heads = 0 hits num_heads % num_kv_heads before any check: ZeroDivisionError, not ValueError."""

import math

import torch
from torch import nn


class GroupedQueryAttention(nn.Module):
    def __init__(self, d_model, num_heads, num_kv_heads):
        super().__init__()
        if d_model % num_heads or num_heads % num_kv_heads:
            raise ValueError("num_kv_heads must divide num_heads, and num_heads d_model")
        self.n_heads, self.n_kv = num_heads, num_kv_heads
        self.head_dim = d_model // num_heads
        self.q_proj = nn.Linear(d_model, d_model, bias=False)
        self.k_proj = nn.Linear(d_model, num_kv_heads * self.head_dim, bias=False)
        self.v_proj = nn.Linear(d_model, num_kv_heads * self.head_dim, bias=False)
        self.o_proj = nn.Linear(d_model, d_model, bias=False)

    def _kv(self, t, B, T):
        t = t.view(B, T, self.n_kv, self.head_dim).transpose(1, 2)  # (B, kv, T, d)
        group = self.n_heads // self.n_kv
        t = t[:, :, None].expand(B, self.n_kv, group, T, self.head_dim)  # (B, kv, group, T, d)
        return t.reshape(B, self.n_heads, T, self.head_dim)

    def forward(self, x, causal=False):
        B, T, D = x.shape
        q = self.q_proj(x).view(B, T, self.n_heads, self.head_dim).transpose(1, 2)
        k, v = self._kv(self.k_proj(x), B, T), self._kv(self.v_proj(x), B, T)
        att = (q @ k.transpose(-1, -2)) / math.sqrt(self.head_dim)
        if causal:
            att = att + torch.full((T, T), float("-inf"), dtype=x.dtype).triu(1)
        out = att.softmax(-1) @ v
        return self.o_proj(out.transpose(1, 2).reshape(B, T, D))
