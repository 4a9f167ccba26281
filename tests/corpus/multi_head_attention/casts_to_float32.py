# Mutant: outputs are cast to float32, so a float64 module gives float32.
"""Reference solution: multi-head attention as a torch ``nn.Module``.

    head_i = Attention(Q W_q[i], K W_k[i], V W_v[i])            (Vaswani et al. 2017, sec. 3.2.2)
    MultiHead(Q, K, V) = Concat(head_1, ..., head_h) W_o

Conventions this problem pins down:

* batch first: query (B, L_q, d_model), key and value (B, L_k, d_model);
* four projections ``W_q``, ``W_k``, ``W_v``, ``W_o``, each ``nn.Linear(d_model, d_model)``;
* head i uses the projected features [i * d_k, (i + 1) * d_k), with d_k = d_model / num_heads
  (as ``nn.MultiheadAttention`` does);
* ``mask`` is boolean, broadcastable to (B, num_heads, L_q, L_k); **True means "may attend"**;
* a query row with no allowed key gets zero weights and a zero context (no NaN);
* dropout acts on the attention weights, in train mode only.
"""

from __future__ import annotations

import math

import torch
from torch import nn


class MultiHeadAttention(nn.Module):
    """Multi-head scaled dot-product attention with learned projections."""

    def __init__(self, d_model: int, num_heads: int, bias: bool = True, dropout: float = 0.0):
        super().__init__()
        if d_model % num_heads != 0:
            raise ValueError(f"d_model={d_model} is not divisible by num_heads={num_heads}")
        self.d_model = d_model
        self.num_heads = num_heads
        self.d_k = d_model // num_heads  # features per head
        self.W_q = nn.Linear(d_model, d_model, bias=bias)
        self.W_k = nn.Linear(d_model, d_model, bias=bias)
        self.W_v = nn.Linear(d_model, d_model, bias=bias)
        self.W_o = nn.Linear(d_model, d_model, bias=bias)
        self.dropout = nn.Dropout(dropout)

    def split_heads(self, x: torch.Tensor) -> torch.Tensor:
        """(B, L, d_model) -> (B, h, L, d_k): head i takes features [i*d_k, (i+1)*d_k)."""
        B, L, _ = x.shape
        x = x.view(B, L, self.num_heads, self.d_k)  # (B, L, h, d_k)
        return x.transpose(1, 2)  # (B, h, L, d_k)

    def merge_heads(self, x: torch.Tensor) -> torch.Tensor:
        """(B, h, L, d_k) -> (B, L, d_model): the inverse of split_heads."""
        B, _, L, _ = x.shape
        x = x.transpose(1, 2)  # (B, L, h, d_k)
        return x.reshape(B, L, self.d_model)  # (B, L, d_model)

    def forward(
        self,
        query: torch.Tensor,
        key: torch.Tensor,
        value: torch.Tensor,
        mask: torch.Tensor | None = None,
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """Return (output (B, L_q, d_model), weights (B, h, L_q, L_k))."""
        Q = self.split_heads(self.W_q(query))  # (B, h, L_q, d_k)
        K = self.split_heads(self.W_k(key))  # (B, h, L_k, d_k)
        V = self.split_heads(self.W_v(value))  # (B, h, L_k, d_k)
        scores = Q @ K.transpose(-2, -1) / math.sqrt(self.d_k)  # (B, h, L_q, L_k)
        if mask is None:
            weights = torch.softmax(scores, dim=-1)  # (B, h, L_q, L_k)
        else:
            allowed = mask.to(torch.bool).expand_as(scores)  # (B, h, L_q, L_k), True = may attend
            row_has_key = allowed.any(dim=-1, keepdim=True)  # (B, h, L_q, 1)
            scores = scores.masked_fill(~allowed, float("-inf"))  # blocked keys: -inf before softmax
            scores = scores.masked_fill(~row_has_key, 0.0)  # empty rows: avoid -inf - -inf = NaN
            weights = torch.softmax(scores, dim=-1)  # (B, h, L_q, L_k)
            weights = weights.masked_fill(~allowed, 0.0)  # exact zeros; empty rows become all 0
        weights = self.dropout(weights)  # (B, h, L_q, L_k); identity in eval mode
        context = weights @ V  # (B, h, L_q, d_k)
        output = self.W_o(self.merge_heads(context))  # (B, L_q, d_model)
        return output.float(), weights.float()  # always float32, whatever the input dtype
