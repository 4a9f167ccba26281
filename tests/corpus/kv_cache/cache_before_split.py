"""Mistake: the projections are cached as they come out, (B, T, d_model), and split at each call."""

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
        q, k_all, v_all = self.split(self.q_proj(x)), self.k_proj(x), self.v_proj(x)
        if cache is not None:
            k_all = torch.cat([cache[0], k_all], dim=1)
            v_all = torch.cat([cache[1], v_all], dim=1)
        k, v = self.split(k_all), self.split(v_all)
        T_past = k.shape[2] - T_new
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_head)
        mask = torch.ones(T_new, k.shape[2], dtype=torch.bool, device=x.device).tril(diagonal=T_past)
        scores = scores.masked_fill(~mask, float("-inf"))
        y = (scores.softmax(dim=-1) @ v).transpose(1, 2).reshape(B, T_new, D)
        return self.o_proj(y), (k_all, v_all)


def kv_cache_bytes(num_layers, batch, seq_len, num_kv_heads, d_head, bytes_per_value):
    return 2 * num_layers * batch * seq_len * num_kv_heads * d_head * bytes_per_value
