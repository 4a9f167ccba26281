"""Wrong: an additive float32 mask turns float16 and bfloat16 scores into float32."""

import math

import torch
from torch import nn


class CachedSelfAttention(nn.Module):
    def __init__(self, d_model, num_heads):
        super().__init__()
        self.h, self.d_head = num_heads, d_model // num_heads
        self.q_proj = nn.Linear(d_model, d_model)
        self.k_proj = nn.Linear(d_model, d_model)
        self.v_proj = nn.Linear(d_model, d_model)
        self.o_proj = nn.Linear(d_model, d_model)

    def split(self, t):
        B, T, _ = t.shape
        return t.view(B, T, self.h, self.d_head).transpose(1, 2)

    def forward(self, x, cache=None):
        B, T_new, D = x.shape
        q, k, v = self.split(self.q_proj(x)), self.split(self.k_proj(x)), self.split(self.v_proj(x))
        if cache is not None:
            k = torch.cat([cache[0], k], dim=2)
            v = torch.cat([cache[1], v], dim=2)
        T_past = k.shape[2] - T_new
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_head)
        mask = torch.ones(T_new, k.shape[2], dtype=torch.bool, device=x.device).tril(diagonal=T_past)
        scores = scores + torch.zeros(mask.shape, device=x.device).masked_fill(~mask, float("-inf"))
        y = (scores.softmax(dim=-1) @ v).transpose(1, 2).reshape(B, T_new, D)
        return self.o_proj(y), (k, v)


def kv_cache_bytes(num_layers, batch, seq_len, num_kv_heads, d_head, bytes_per_value):
    return 2 * num_layers * batch * seq_len * num_kv_heads * d_head * bytes_per_value
