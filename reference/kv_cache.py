"""Reference solution: causal self-attention with a key/value cache, as a torch ``nn.Module``.

A decoder generates one token at a time. Token t's query attends to the keys and values of
tokens 0 … t, and those of 0 … t − 1 have not changed since they were computed: keep them (the
KV cache) and project only the new tokens.

    call 1   x = t0 t1 t2 (prefill)   cache None          -> y of t0 t1 t2, cache K, V of t0 … t2
    call 2   x = t3                   cache K, V t0 … t2  -> y of t3,       cache K, V of t0 … t3

Conventions this problem pins down:

* x is (B, T_new, d_model); the cache is None or a tuple (k, v), each (B, num_heads, T_past,
  d_head), d_head = d_model / num_heads; the cache returned holds all T_past + T_new positions;
* four projections ``q_proj``, ``k_proj``, ``v_proj``, ``o_proj``, each ``nn.Linear(d_model,
  d_model)``, applied to the new tokens only;
* new token i sits at position T_past + i: it attends to every cached position and to new
  tokens 0 … i (the causal mask aligned to the end of the keys);
* the caller's cache tensors are left as they were: the grown cache is a new tensor.
"""

from __future__ import annotations

import math

import torch
from torch import nn


class CachedSelfAttention(nn.Module):
    """Multi-head causal self-attention that takes and returns a key/value cache."""

    def __init__(self, d_model: int, num_heads: int):
        super().__init__()
        self.d_model = d_model
        self.num_heads = num_heads
        self.d_head = d_model // num_heads  # features per head
        self.q_proj = nn.Linear(d_model, d_model)
        self.k_proj = nn.Linear(d_model, d_model)
        self.v_proj = nn.Linear(d_model, d_model)
        self.o_proj = nn.Linear(d_model, d_model)

    def split_heads(self, x: torch.Tensor) -> torch.Tensor:
        """(B, T, d_model) -> (B, h, T, d_head): head i takes features [i*d_head, (i+1)*d_head)."""
        B, T, _ = x.shape
        return x.view(B, T, self.num_heads, self.d_head).transpose(1, 2)  # (B, h, T, d_head)

    def merge_heads(self, x: torch.Tensor) -> torch.Tensor:
        """(B, h, T, d_head) -> (B, T, d_model): the inverse of split_heads."""
        B, _, T, _ = x.shape
        return x.transpose(1, 2).reshape(B, T, self.d_model)  # (B, T, d_model)

    def allowed(self, T_new: int, T_total: int, device: torch.device) -> torch.Tensor:
        """(T_new, T_total) bool, True = may attend: new token i (at position T_past + i) sees keys 0 … T_past + i."""
        T_past = T_total - T_new
        query_position = torch.arange(T_new, device=device)[:, None] + T_past  # (T_new, 1)
        key_position = torch.arange(T_total, device=device)[None, :]  # (1, T_total)
        return key_position <= query_position  # (T_new, T_total): the causal mask aligned to the end

    def append(self, cache: tuple[torch.Tensor, torch.Tensor], k: torch.Tensor, v: torch.Tensor):
        """The cached keys and values followed by the new ones, along the time axis (dim 2)."""
        k_past, v_past = cache  # (B, h, T_past, d_head) each
        return torch.cat([k_past, k], dim=2), torch.cat([v_past, v], dim=2)  # (B, h, T_past + T_new, d_head) each

    def attend(self, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        """softmax(q kᵀ / √d_head, causal) v for the new queries, heads merged and projected."""
        T_new, T_total = q.shape[2], k.shape[2]
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_head)  # (B, h, T_new, T_total)
        scores = scores.masked_fill(~self.allowed(T_new, T_total, q.device), float("-inf"))  # every row keeps a key
        weights = torch.softmax(scores, dim=-1)  # (B, h, T_new, T_total)
        return self.o_proj(self.merge_heads(weights @ v))  # (B, T_new, d_model)

    def forward(self, x: torch.Tensor, cache: tuple[torch.Tensor, torch.Tensor] | None = None):
        """Return (y (B, T_new, d_model), (k, v) each (B, h, T_past + T_new, d_head))."""
        q = self.split_heads(self.q_proj(x))  # (B, h, T_new, d_head): only the new tokens are projected
        k = self.split_heads(self.k_proj(x))  # (B, h, T_new, d_head)
        v = self.split_heads(self.v_proj(x))  # (B, h, T_new, d_head)
        if cache is not None:
            k, v = self.append(cache, k, v)  # (B, h, T_past + T_new, d_head) each
        return self.attend(q, k, v), (k, v)


def kv_cache_bytes(num_layers: int, batch: int, seq_len: int, num_kv_heads: int, d_head: int,
                   bytes_per_value: int) -> int:
    """Bytes the cache of a whole model holds: a key and a value vector per layer, sequence, position and KV head."""
    values_per_layer = 2 * batch * seq_len * num_kv_heads * d_head  # K and V, each (batch, kv_heads, seq, d_head)
    return num_layers * values_per_layer * bytes_per_value
