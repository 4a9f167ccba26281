"""Reference solution: grouped-query attention (GQA) as a torch ``nn.Module``.

    GQA (Ainslie et al. 2023) keeps num_heads query heads but only num_kv_heads key/value heads;
    each K/V head serves a group of  group = num_heads / num_kv_heads  consecutive query heads:

        head_h = softmax(Q_h K_{g(h)}ᵀ / √d_head) V_{g(h)},     g(h) = h // group
        output = Concat(head_0, …, head_{num_heads−1}) W_o

num_kv_heads = num_heads is multi-head attention; num_kv_heads = 1 is multi-query attention
(Shazeer 2019). Fewer K/V heads mean a smaller KV cache at inference: the cache holds
num_kv_heads, not num_heads, heads of keys and values per layer.

Conventions this problem pins down:

* four bias-free projections: ``q_proj`` and ``o_proj`` are ``nn.Linear(d_model, d_model)``,
  ``k_proj`` and ``v_proj`` are ``nn.Linear(d_model, num_kv_heads * d_head)``, d_head = d_model / num_heads;
* query head h uses the projected features [h·d_head, (h+1)·d_head) and reads K/V head
  h // group: the grouping of Llama checkpoints (``repeat_kv``) and of
  ``F.scaled_dot_product_attention(..., enable_gqa=True)``;
* ``forward(x, causal=False)``, x (B, T, d_model) → (B, T, d_model); ``causal=True``: query t
  attends to keys 0 … t;
* invalid head counts raise ``ValueError``.
"""

from __future__ import annotations

import math

import torch
from torch import nn


class GroupedQueryAttention(nn.Module):
    """Self-attention with num_heads query heads sharing num_kv_heads key/value heads."""

    def __init__(self, d_model: int, num_heads: int, num_kv_heads: int):
        super().__init__()
        if num_heads < 1 or num_kv_heads < 1:
            raise ValueError(f"num_heads={num_heads} and num_kv_heads={num_kv_heads} must both be at least 1")
        if d_model % num_heads != 0:
            raise ValueError(f"d_model={d_model} is not divisible by num_heads={num_heads}")
        if num_heads % num_kv_heads != 0:
            raise ValueError(f"num_heads={num_heads} is not a multiple of num_kv_heads={num_kv_heads}")
        self.num_heads = num_heads
        self.num_kv_heads = num_kv_heads
        self.d_head = d_model // num_heads  # features per head, query and key/value alike
        self.group = num_heads // num_kv_heads  # query heads per K/V head
        self.q_proj = nn.Linear(d_model, d_model, bias=False)
        self.k_proj = nn.Linear(d_model, num_kv_heads * self.d_head, bias=False)
        self.v_proj = nn.Linear(d_model, num_kv_heads * self.d_head, bias=False)
        self.o_proj = nn.Linear(d_model, d_model, bias=False)

    def split_heads(self, x: torch.Tensor, heads: int) -> torch.Tensor:
        """(B, T, heads·d_head) -> (B, heads, T, d_head): head i takes features [i·d_head, (i+1)·d_head)."""
        B, T, _ = x.shape
        x = x.view(B, T, heads, self.d_head)  # (B, T, heads, d_head)
        return x.transpose(1, 2)  # (B, heads, T, d_head)

    def repeat_kv(self, x: torch.Tensor) -> torch.Tensor:
        """(B, num_kv_heads, T, d_head) -> (B, num_heads, T, d_head): K/V head g becomes query
        heads g·group … g·group + group − 1, so query head h reads K/V head h // group."""
        return x.repeat_interleave(self.group, dim=1)  # (B, num_heads, T, d_head)

    def forward(self, x: torch.Tensor, causal: bool = False) -> torch.Tensor:
        """x (B, T, d_model) -> (B, T, d_model)."""
        B, T, d_model = x.shape
        q = self.split_heads(self.q_proj(x), self.num_heads)  # (B, h, T, d_head)
        k = self.repeat_kv(self.split_heads(self.k_proj(x), self.num_kv_heads))  # (B, h, T, d_head)
        v = self.repeat_kv(self.split_heads(self.v_proj(x), self.num_kv_heads))  # (B, h, T, d_head)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_head)  # (B, h, T, T)
        if causal:
            future = torch.ones(T, T, dtype=torch.bool, device=x.device).triu(1)  # (T, T), True above the diagonal
            scores = scores.masked_fill(future, float("-inf"))  # query t sees keys 0 … t
        weights = torch.softmax(scores, dim=-1)  # (B, h, T, T)
        context = weights @ v  # (B, h, T, d_head)
        merged = context.transpose(1, 2).reshape(B, T, d_model)  # (B, T, d_model), heads side by side
        return self.o_proj(merged)  # (B, T, d_model)
