"""Wrong: scores divided by sqrt(d_model), the model width, instead of sqrt(d_head)."""

import math

import torch
from torch import nn


class GroupedQueryAttention(nn.Module):
    def __init__(self, d_model, num_heads, num_kv_heads):
        super().__init__()
        if num_heads < 1 or num_kv_heads < 1 or d_model % num_heads or num_heads % num_kv_heads:
            raise ValueError("invalid head counts")
        self.d_model, self.num_heads, self.num_kv_heads = d_model, num_heads, num_kv_heads
        d_head = d_model // num_heads
        self.q_proj = nn.Linear(d_model, d_model, bias=False)
        self.k_proj = nn.Linear(d_model, num_kv_heads * d_head, bias=False)
        self.v_proj = nn.Linear(d_model, num_kv_heads * d_head, bias=False)
        self.o_proj = nn.Linear(d_model, d_model, bias=False)

    def forward(self, x, causal=False):
        B, T, _ = x.shape
        d_head = self.d_model // self.num_heads
        q = self.q_proj(x).view(B, T, self.num_heads, d_head).transpose(1, 2)
        k = self.k_proj(x).view(B, T, self.num_kv_heads, d_head).transpose(1, 2)
        v = self.v_proj(x).view(B, T, self.num_kv_heads, d_head).transpose(1, 2)
        group = self.num_heads // self.num_kv_heads
        k, v = k.repeat_interleave(group, dim=1), v.repeat_interleave(group, dim=1)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_model)
        if causal:
            scores = scores.masked_fill(torch.ones(T, T, dtype=torch.bool).triu(1), float("-inf"))
        out = scores.softmax(dim=-1) @ v
        return self.o_proj(out.transpose(1, 2).reshape(B, T, self.d_model))
