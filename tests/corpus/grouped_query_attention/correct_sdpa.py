"""Correct: F.scaled_dot_product_attention with enable_gqa=True (torch >= 2.5) groups the heads itself."""

import torch.nn.functional as F
from torch import nn


class GroupedQueryAttention(nn.Module):
    def __init__(self, d_model, num_heads, num_kv_heads):
        super().__init__()
        if num_heads <= 0 or num_kv_heads <= 0:
            raise ValueError("head counts must be at least 1")
        if d_model % num_heads != 0:
            raise ValueError("d_model must be divisible by num_heads")
        if num_heads % num_kv_heads != 0:
            raise ValueError("num_heads must be a multiple of num_kv_heads")
        self.h, self.kv, self.dh = num_heads, num_kv_heads, d_model // num_heads
        self.q_proj = nn.Linear(d_model, d_model, bias=False)
        self.k_proj = nn.Linear(d_model, num_kv_heads * self.dh, bias=False)
        self.v_proj = nn.Linear(d_model, num_kv_heads * self.dh, bias=False)
        self.o_proj = nn.Linear(d_model, d_model, bias=False)

    def forward(self, x, causal=False):
        B, T, d_model = x.shape
        q = self.q_proj(x).unflatten(-1, (self.h, self.dh)).transpose(1, 2)
        k = self.k_proj(x).unflatten(-1, (self.kv, self.dh)).transpose(1, 2)
        v = self.v_proj(x).unflatten(-1, (self.kv, self.dh)).transpose(1, 2)
        out = F.scaled_dot_product_attention(q, k, v, is_causal=causal, enable_gqa=True)
        return self.o_proj(out.transpose(1, 2).reshape(B, T, d_model))
