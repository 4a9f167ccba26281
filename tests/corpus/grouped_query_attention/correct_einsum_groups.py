"""Correct: no copy of K and V at all; the queries get a group axis, (B, kv, group, T, d), and einsum
pairs each group with its K/V head. A boolean tril mask, torch.where fill."""

import torch
from torch import nn


class GroupedQueryAttention(nn.Module):
    def __init__(self, d_model, num_heads, num_kv_heads):
        super().__init__()
        if not (num_kv_heads >= 1 and num_heads >= 1):
            raise ValueError(f"bad head counts: num_heads={num_heads}, num_kv_heads={num_kv_heads}")
        if d_model % num_heads:
            raise ValueError(f"d_model={d_model} not divisible by num_heads={num_heads}")
        if num_heads % num_kv_heads:
            raise ValueError(f"num_heads={num_heads} not divisible by num_kv_heads={num_kv_heads}")
        self.kv = num_kv_heads
        self.g = num_heads // num_kv_heads
        self.d = d_model // num_heads
        self.q_proj = nn.Linear(d_model, d_model, bias=False)
        self.k_proj = nn.Linear(d_model, self.kv * self.d, bias=False)
        self.v_proj = nn.Linear(d_model, self.kv * self.d, bias=False)
        self.o_proj = nn.Linear(d_model, d_model, bias=False)

    def forward(self, x, causal=False):
        B, T, _ = x.shape
        q = self.q_proj(x).reshape(B, T, self.kv, self.g, self.d)  # query head h = k * g + j
        k = self.k_proj(x).reshape(B, T, self.kv, self.d)
        v = self.v_proj(x).reshape(B, T, self.kv, self.d)
        s = torch.einsum("bqkgd,bskd->bkgqs", q, k) * self.d**-0.5
        if causal:
            keep = torch.tril(torch.ones(T, T, dtype=torch.bool, device=x.device))
            s = torch.where(keep, s, float("-inf"))
        o = torch.einsum("bkgqs,bskd->bqkgd", s.softmax(dim=-1), v)
        return self.o_proj(o.reshape(B, T, -1))
