"""Wrong: one fused qkv projection instead of q_proj, k_proj and v_proj."""

import math

import torch
from torch import nn


class CachedSelfAttention(nn.Module):
    def __init__(self, d_model, num_heads):
        super().__init__()
        self.h, self.d_head = num_heads, d_model // num_heads
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.o_proj = nn.Linear(d_model, d_model)

    def split(self, t):
        B, T, _ = t.shape
        return t.view(B, T, self.h, self.d_head).transpose(1, 2)

    def forward(self, x, cache=None):
        B, T_new, D = x.shape
        q, k, v = (self.split(t) for t in self.qkv(x).chunk(3, dim=-1))
        if cache is not None:
            k = torch.cat([cache[0], k], dim=2)
            v = torch.cat([cache[1], v], dim=2)
        T_past = k.shape[2] - T_new
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_head)
        mask = torch.ones(T_new, k.shape[2], dtype=torch.bool, device=x.device).tril(diagonal=T_past)
        scores = scores.masked_fill(~mask, float("-inf"))
        y = (scores.softmax(dim=-1) @ v).transpose(1, 2).reshape(B, T_new, D)
        return self.o_proj(y), (k, v)


def kv_cache_bytes(num_layers, batch, seq_len, num_kv_heads, d_head, bytes_per_value):
    return 2 * num_layers * batch * seq_len * num_kv_heads * d_head * bytes_per_value
