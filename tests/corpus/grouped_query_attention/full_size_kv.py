"""Wrong: num_kv_heads accepted and ignored; k_proj and v_proj are d_model wide: plain multi-head
attention, with a KV cache as large as ever. Right only where num_kv_heads == num_heads."""

import math

import torch
from torch import nn


class GroupedQueryAttention(nn.Module):
    def __init__(self, d_model, num_heads, num_kv_heads):
        super().__init__()
        if num_heads < 1 or num_kv_heads < 1 or d_model % num_heads or num_heads % num_kv_heads:
            raise ValueError("invalid head counts")
        self.h = num_heads
        self.q_proj = nn.Linear(d_model, d_model, bias=False)
        self.k_proj = nn.Linear(d_model, d_model, bias=False)
        self.v_proj = nn.Linear(d_model, d_model, bias=False)
        self.o_proj = nn.Linear(d_model, d_model, bias=False)

    def forward(self, x, causal=False):
        B, T, D = x.shape

        def heads(t):
            return t.view(B, T, self.h, D // self.h).transpose(1, 2)

        q, k, v = heads(self.q_proj(x)), heads(self.k_proj(x)), heads(self.v_proj(x))
        scores = q @ k.transpose(-2, -1) / math.sqrt(D // self.h)
        if causal:
            scores = scores.masked_fill(~torch.ones(T, T, dtype=torch.bool).tril(), float("-inf"))
        out = torch.softmax(scores, dim=-1) @ v
        return self.o_proj(out.transpose(1, 2).reshape(B, T, D))
