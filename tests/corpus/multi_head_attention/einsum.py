"""Correct: einsum throughout, a large negative fill, and a guard for rows with no allowed key."""

import torch
from torch import nn


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model, num_heads, bias=True, dropout=0.0):
        super().__init__()
        if d_model % num_heads:
            raise ValueError("num_heads must divide d_model")
        self.h = num_heads
        self.d_k = d_model // num_heads
        for name in ("W_q", "W_k", "W_v", "W_o"):
            setattr(self, name, nn.Linear(d_model, d_model, bias=bias))
        self.drop = nn.Dropout(dropout)

    def forward(self, query, key, value, mask=None):
        B, L_q, _ = query.shape
        L_k = key.shape[1]
        q = self.W_q(query).reshape(B, L_q, self.h, self.d_k)
        k = self.W_k(key).reshape(B, L_k, self.h, self.d_k)
        v = self.W_v(value).reshape(B, L_k, self.h, self.d_k)
        scores = torch.einsum("bqhd,bkhd->bhqk", q, k) * self.d_k**-0.5
        if mask is not None:
            mask = mask.expand(B, self.h, L_q, L_k)
            scores = scores.masked_fill(~mask, torch.finfo(scores.dtype).min)
        weights = scores.softmax(dim=-1)
        if mask is not None:
            weights = weights.masked_fill(~mask, 0.0)  # also zeroes rows with no allowed key
        weights = self.drop(weights)
        context = torch.einsum("bhqk,bkhd->bqhd", weights, v).reshape(B, L_q, self.h * self.d_k)
        return self.W_o(context), weights
