"""Correct: F.scaled_dot_product_attention with an explicit bottom-right mask (is_causal would be
aligned to the top-left), and the byte count from math.prod."""

import math

import torch
import torch.nn.functional as F
from torch import nn


class CachedSelfAttention(nn.Module):
    def __init__(self, d_model, num_heads):
        super().__init__()
        self.num_heads = num_heads
        for name in ("q_proj", "k_proj", "v_proj", "o_proj"):
            setattr(self, name, nn.Linear(d_model, d_model))

    def split(self, t):
        return t.unflatten(-1, (self.num_heads, -1)).transpose(1, 2)

    def forward(self, x, cache=None):
        q = self.split(self.q_proj(x))
        k = self.split(self.k_proj(x))
        v = self.split(self.v_proj(x))
        past = 0
        if cache is not None:
            past_k, past_v = cache
            past = past_k.shape[2]
            k, v = torch.cat([past_k, k], 2), torch.cat([past_v, v], 2)
        rows = torch.arange(q.shape[2], device=x.device)[:, None] + past
        cols = torch.arange(k.shape[2], device=x.device)[None, :]
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=cols <= rows)
        return self.o_proj(out.transpose(1, 2).flatten(2)), (k, v)


def kv_cache_bytes(num_layers, batch, seq_len, num_kv_heads, d_head, bytes_per_value):
    keys_and_values = 2
    return math.prod([keys_and_values, num_layers, batch, seq_len, num_kv_heads, d_head, bytes_per_value])
