"""Correct: heads folded into the batch (b * h + head) and the mask expanded with repeat_interleave."""

import math

import torch
from torch import nn


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model, num_heads, bias=True, dropout=0.0):
        super().__init__()
        if d_model % num_heads != 0:
            raise ValueError(f"{d_model} is not divisible by {num_heads}")
        self.num_heads = num_heads
        self.W_q = nn.Linear(d_model, d_model, bias=bias)
        self.W_k = nn.Linear(d_model, d_model, bias=bias)
        self.W_v = nn.Linear(d_model, d_model, bias=bias)
        self.W_o = nn.Linear(d_model, d_model, bias=bias)
        self.dropout = nn.Dropout(dropout)

    def _fold(self, x):
        # (B, L, d_model) -> (B * h, L, d_k), batch-major: row b * h + head
        B, L, d = x.shape
        x = x.reshape(B, L, self.num_heads, d // self.num_heads).permute(0, 2, 1, 3)
        return x.reshape(B * self.num_heads, L, d // self.num_heads)

    def forward(self, query, key, value, mask=None):
        B, L_q, d = query.shape
        L_k = key.shape[1]
        h = self.num_heads
        q, k, v = self._fold(self.W_q(query)), self._fold(self.W_k(key)), self._fold(self.W_v(value))
        scores = torch.bmm(q, k.transpose(1, 2)) / math.sqrt(d // h)  # (B*h, L_q, L_k)
        if mask is not None:
            mask = torch.broadcast_to(mask, (B, 1, L_q, L_k)).reshape(B, L_q, L_k)
            mask = mask.repeat_interleave(h, dim=0)  # row b * h + head gets item b's mask
            scores = scores.masked_fill(~mask, float("-inf"))
            scores = scores.masked_fill(~mask.any(-1, keepdim=True), 0.0)
        weights = torch.softmax(scores, dim=-1)
        if mask is not None:
            weights = weights * mask
        weights = self.dropout(weights)
        out = torch.bmm(weights, v)  # (B*h, L_q, d_k)
        out = out.reshape(B, h, L_q, d // h).permute(0, 2, 1, 3).reshape(B, L_q, d)
        return self.W_o(out), weights.reshape(B, h, L_q, L_k)
