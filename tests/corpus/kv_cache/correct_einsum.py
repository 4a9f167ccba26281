"""Correct: einsum for the scores and the mix, the mask as a shifted lower triangle."""

import math

import torch
from torch import nn


class CachedSelfAttention(nn.Module):
    def __init__(self, d_model, num_heads):
        super().__init__()
        self.h, self.d = num_heads, d_model // num_heads
        self.q_proj = nn.Linear(d_model, d_model)
        self.k_proj = nn.Linear(d_model, d_model)
        self.v_proj = nn.Linear(d_model, d_model)
        self.o_proj = nn.Linear(d_model, d_model)

    def heads(self, t):
        B, T, _ = t.shape
        return t.reshape(B, T, self.h, self.d).permute(0, 2, 1, 3)

    def forward(self, x, cache=None):
        q, k, v = self.heads(self.q_proj(x)), self.heads(self.k_proj(x)), self.heads(self.v_proj(x))
        if cache is not None:
            k = torch.cat((cache[0], k), dim=-2)
            v = torch.cat((cache[1], v), dim=-2)
        T_new, T_all = q.shape[-2], k.shape[-2]
        scores = torch.einsum("bhqd,bhkd->bhqk", q, k) / math.sqrt(self.d)
        keep = torch.ones(T_new, T_all, dtype=torch.bool, device=x.device).tril(diagonal=T_all - T_new)
        weights = scores.masked_fill(~keep, float("-inf")).softmax(dim=-1)
        out = torch.einsum("bhqk,bhkd->bqhd", weights, v).flatten(2)
        return self.o_proj(out), (k, v)


def kv_cache_bytes(num_layers, batch, seq_len, num_kv_heads, d_head, bytes_per_value):
    return 2 * num_layers * batch * seq_len * num_kv_heads * d_head * bytes_per_value
