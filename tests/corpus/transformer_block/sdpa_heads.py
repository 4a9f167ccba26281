"""Correct: own attention with F.scaled_dot_product_attention, whose bool mask already means
True = may attend (no inversion needed); heads split with unflatten."""

import torch
import torch.nn.functional as F
from torch import nn


class Attention(nn.Module):
    def __init__(self, d_model, num_heads, dropout):
        super().__init__()
        self.num_heads, self.p = num_heads, dropout
        self.in_proj_weight = nn.Parameter(torch.randn(3 * d_model, d_model) / d_model**0.5)
        self.in_proj_bias = nn.Parameter(torch.zeros(3 * d_model))
        self.out_proj = nn.Linear(d_model, d_model)

    def forward(self, x, allowed=None):
        q, k, v = (t.unflatten(-1, (self.num_heads, -1)).transpose(1, 2)
                   for t in F.linear(x, self.in_proj_weight, self.in_proj_bias).chunk(3, dim=-1))
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=allowed, dropout_p=self.p if self.training else 0.0)
        return self.out_proj(out.transpose(1, 2).flatten(-2))


class TransformerBlock(nn.Module):
    def __init__(self, d_model, num_heads, d_ff, dropout=0.0, norm_first=False):
        super().__init__()
        self.self_attn = Attention(d_model, num_heads, dropout)
        self.linear1, self.linear2 = nn.Linear(d_model, d_ff), nn.Linear(d_ff, d_model)
        self.norm1, self.norm2 = nn.LayerNorm(d_model), nn.LayerNorm(d_model)
        self.drop_ff, self.drop_sa, self.drop_out = nn.Dropout(dropout), nn.Dropout(dropout), nn.Dropout(dropout)
        self.norm_first = norm_first

    def forward(self, x, mask=None, padding_mask=None):
        allowed = None
        if mask is not None or padding_mask is not None:
            T = x.shape[1]
            allowed = torch.ones(T, T, dtype=torch.bool, device=x.device) if mask is None else mask
            if padding_mask is not None:
                allowed = allowed & padding_mask[:, None, None, :]
        sa = lambda h: self.drop_sa(self.self_attn(h, allowed))  # noqa: E731
        ff = lambda h: self.drop_out(self.linear2(self.drop_ff(torch.relu(self.linear1(h)))))  # noqa: E731
        if self.norm_first:
            x = x + sa(self.norm1(x))
            return x + ff(self.norm2(x))
        x = self.norm1(x + sa(x))
        return self.norm2(x + ff(x))
