"""Correct: an explicit loop over the heads, each on its slice of features, then concatenation."""

import math

import torch
import torch.nn as nn


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model, num_heads, bias=True, dropout=0.0):
        super().__init__()
        if d_model % num_heads != 0:
            raise ValueError("d_model % num_heads != 0")
        self.d_model = d_model
        self.num_heads = num_heads
        self.W_q = nn.Linear(d_model, d_model, bias)
        self.W_k = nn.Linear(d_model, d_model, bias)
        self.W_v = nn.Linear(d_model, d_model, bias)
        self.W_o = nn.Linear(d_model, d_model, bias)
        self.dropout = nn.Dropout(p=dropout)

    def forward(self, query, key, value, mask=None):
        d_k = self.d_model // self.num_heads
        Q, K, V = self.W_q(query), self.W_k(key), self.W_v(value)
        heads, all_weights = [], []
        for i in range(self.num_heads):
            cols = slice(i * d_k, (i + 1) * d_k)
            scores = Q[..., cols] @ K[..., cols].transpose(1, 2) / math.sqrt(d_k)  # (B, L_q, L_k)
            if mask is not None:
                m = torch.broadcast_to(mask, (Q.shape[0], self.num_heads, Q.shape[1], K.shape[1]))[:, i]
                scores = torch.where(m, scores, torch.full_like(scores, -1e30))
                weights = torch.softmax(scores, dim=-1) * m
            else:
                weights = torch.softmax(scores, dim=-1)
            weights = self.dropout(weights)
            heads.append(weights @ V[..., cols])
            all_weights.append(weights)
        return self.W_o(torch.cat(heads, dim=-1)), torch.stack(all_weights, dim=1)
