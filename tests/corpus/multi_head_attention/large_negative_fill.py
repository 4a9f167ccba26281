"""Mistake: the Annotated Transformer's masked_fill(mask == 0, -1e9): a query row with no allowed key
becomes uniform over the keys it may not see, instead of all-zero weights."""

import math

import torch
from torch import nn


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model, num_heads, bias=True, dropout=0.0):
        super().__init__()
        if d_model % num_heads:
            raise ValueError("d_model must be divisible by num_heads")
        self.h, self.d_k = num_heads, d_model // num_heads
        self.W_q = nn.Linear(d_model, d_model, bias=bias)
        self.W_k = nn.Linear(d_model, d_model, bias=bias)
        self.W_v = nn.Linear(d_model, d_model, bias=bias)
        self.W_o = nn.Linear(d_model, d_model, bias=bias)
        self.dropout = nn.Dropout(dropout)

    def forward(self, query, key, value, mask=None):
        B, L_q, d = query.shape
        L_k = key.shape[1]
        q = self.W_q(query).view(B, L_q, self.h, self.d_k).transpose(1, 2)
        k = self.W_k(key).view(B, L_k, self.h, self.d_k).transpose(1, 2)
        v = self.W_v(value).view(B, L_k, self.h, self.d_k).transpose(1, 2)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_k)
        if mask is not None:
            scores = scores.masked_fill(mask == 0, -1e9)
        weights = torch.softmax(scores, dim=-1)
        weights = self.dropout(weights)
        out = (weights @ v).transpose(1, 2).reshape(B, L_q, d)
        return self.W_o(out), weights
