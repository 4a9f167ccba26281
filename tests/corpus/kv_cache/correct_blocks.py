"""Correct: the mask as two blocks (all cached keys, then a triangle over the new ones), an
additive mask made in the scores' dtype, and an explicit softmax computed in float32."""

import torch
from torch import nn


class CachedSelfAttention(nn.Module):
    def __init__(self, d_model, num_heads):
        super().__init__()
        self.n_heads = num_heads
        self.head_dim = d_model // num_heads
        self.q_proj = nn.Linear(d_model, d_model)
        self.k_proj = nn.Linear(d_model, d_model)
        self.v_proj = nn.Linear(d_model, d_model)
        self.o_proj = nn.Linear(d_model, d_model)

    def forward(self, x, cache=None):
        B, T, D = x.shape
        def split(t):
            return t.view(B, T, self.n_heads, self.head_dim).transpose(1, 2)
        q, k, v = split(self.q_proj(x)), split(self.k_proj(x)), split(self.v_proj(x))
        if cache:
            k = torch.cat([cache[0], k], dim=2)
            v = torch.cat([cache[1], v], dim=2)
        T_past = k.shape[2] - T
        seen = torch.ones(T, T_past, dtype=torch.bool, device=x.device)
        own = torch.tril(torch.ones(T, T, dtype=torch.bool, device=x.device))
        allowed = torch.cat([seen, own], dim=1)
        bias = torch.zeros(allowed.shape, dtype=q.dtype, device=x.device).masked_fill(~allowed, float("-inf"))
        scores = (q @ k.transpose(2, 3)) * self.head_dim ** -0.5 + bias
        weights = torch.softmax(scores.float(), dim=-1).to(q.dtype)
        context = (weights @ v).transpose(1, 2).contiguous().view(B, T, D)
        return self.o_proj(context), (k, v)


def kv_cache_bytes(num_layers, batch, seq_len, num_kv_heads, d_head, bytes_per_value):
    per_token_per_layer = num_kv_heads * d_head * 2  # one key and one value vector per KV head
    return num_layers * batch * seq_len * per_token_per_layer * bytes_per_value
