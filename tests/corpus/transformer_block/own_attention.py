"""Correct: self_attn is the learner's own module with nn.MultiheadAttention's parameter layout
(in_proj_weight holding W_q, W_k, W_v stacked, in_proj_bias, out_proj), boolean masks kept in
this project's convention (True = may attend) and applied with masked_fill."""

import math

import torch
import torch.nn.functional as F
from torch import nn


class SelfAttention(nn.Module):
    def __init__(self, d_model, num_heads, dropout):
        super().__init__()
        self.h, self.d_k, self.p = num_heads, d_model // num_heads, dropout
        self.in_proj_weight = nn.Parameter(torch.empty(3 * d_model, d_model))
        self.in_proj_bias = nn.Parameter(torch.zeros(3 * d_model))
        self.out_proj = nn.Linear(d_model, d_model)
        nn.init.xavier_uniform_(self.in_proj_weight)

    def forward(self, x, allowed):
        B, T, d = x.shape
        q, k, v = F.linear(x, self.in_proj_weight, self.in_proj_bias).chunk(3, dim=-1)
        q, k, v = (t.view(B, T, self.h, self.d_k).transpose(1, 2) for t in (q, k, v))
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_k)
        if allowed is not None:
            scores = scores.masked_fill(~allowed, float("-inf"))
        weights = F.dropout(scores.softmax(dim=-1), self.p, training=self.training)
        return self.out_proj((weights @ v).transpose(1, 2).reshape(B, T, d))


class TransformerBlock(nn.Module):
    def __init__(self, d_model, num_heads, d_ff, dropout=0.0, norm_first=False):
        super().__init__()
        self.self_attn = SelfAttention(d_model, num_heads, dropout)
        self.linear1 = nn.Linear(d_model, d_ff)
        self.linear2 = nn.Linear(d_ff, d_model)
        self.norm1 = nn.LayerNorm(d_model)
        self.norm2 = nn.LayerNorm(d_model)
        self.p = dropout
        self.norm_first = norm_first

    def forward(self, x, mask=None, padding_mask=None):
        allowed = None
        if mask is not None:
            allowed = mask[None, None]
        if padding_mask is not None:
            keys = padding_mask[:, None, None, :]
            allowed = keys if allowed is None else allowed & keys

        def attention(h):
            return F.dropout(self.self_attn(h, allowed), self.p, training=self.training)

        def feed_forward(h):
            h = F.dropout(F.relu(self.linear1(h)), self.p, training=self.training)
            return F.dropout(self.linear2(h), self.p, training=self.training)

        if self.norm_first:
            x = x + attention(self.norm1(x))
            return x + feed_forward(self.norm2(x))
        x = self.norm1(x + attention(x))
        return self.norm2(x + feed_forward(x))
