"""Wrong: heads split with a bare view to (B, heads, T, d_head), which reads the (B, T, heads * d_head)
projection in the wrong order and mixes tokens with features."""

import math

import torch
from torch import nn


class GroupedQueryAttention(nn.Module):
    def __init__(self, d_model, num_heads, num_kv_heads):
        super().__init__()
        if num_heads < 1 or num_kv_heads < 1 or d_model % num_heads or num_heads % num_kv_heads:
            raise ValueError("invalid head counts")
        self.h, self.kv, self.dh = num_heads, num_kv_heads, d_model // num_heads
        self.q_proj = nn.Linear(d_model, d_model, bias=False)
        self.k_proj = nn.Linear(d_model, num_kv_heads * self.dh, bias=False)
        self.v_proj = nn.Linear(d_model, num_kv_heads * self.dh, bias=False)
        self.o_proj = nn.Linear(d_model, d_model, bias=False)

    def forward(self, x, causal=False):
        B, T, D = x.shape
        q = self.q_proj(x).view(B, self.h, T, self.dh)
        k = self.k_proj(x).view(B, self.kv, T, self.dh).repeat_interleave(self.h // self.kv, dim=1)
        v = self.v_proj(x).view(B, self.kv, T, self.dh).repeat_interleave(self.h // self.kv, dim=1)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.dh)
        if causal:
            scores = scores.masked_fill(torch.ones(T, T, dtype=torch.bool).triu(1), float("-inf"))
        out = torch.softmax(scores, dim=-1) @ v
        return self.o_proj(out.transpose(1, 2).reshape(B, T, D))
