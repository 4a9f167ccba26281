"""Correct: the masks converted to additive float masks (0 where allowed, -inf where blocked),
the padding folded into a per-item (B * h, T, T) attn_mask, F.relu and functional dropout."""

import torch
import torch.nn.functional as F
from torch import nn


class TransformerBlock(nn.Module):
    def __init__(self, d_model, num_heads, d_ff, dropout=0.0, norm_first=False):
        super().__init__()
        self.num_heads = num_heads
        self.self_attn = nn.MultiheadAttention(d_model, num_heads, dropout=dropout, batch_first=True)
        self.linear1 = nn.Linear(d_model, d_ff)
        self.linear2 = nn.Linear(d_ff, d_model)
        self.norm1 = nn.LayerNorm(d_model)
        self.norm2 = nn.LayerNorm(d_model)
        self.p = dropout
        self.norm_first = norm_first

    def additive_mask(self, x, mask, padding_mask):
        B, T, _ = x.shape
        allowed = torch.ones(B, T, T, dtype=torch.bool, device=x.device)
        if mask is not None:
            allowed = allowed & mask
        if padding_mask is not None:
            allowed = allowed & padding_mask[:, None, :]
        bias = torch.zeros(B, T, T, dtype=x.dtype, device=x.device).masked_fill(torch.logical_not(allowed), float("-inf"))
        return bias.repeat_interleave(self.num_heads, dim=0)

    def forward(self, x, mask=None, padding_mask=None):
        bias = self.additive_mask(x, mask, padding_mask)
        drop = lambda t: F.dropout(t, self.p, training=self.training)  # noqa: E731

        def attention(h):
            return drop(self.self_attn(h, h, h, attn_mask=bias, need_weights=False)[0])

        def feed_forward(h):
            return drop(self.linear2(drop(F.relu(self.linear1(h)))))

        if self.norm_first:
            x = x + attention(self.norm1(x))
            x = x + feed_forward(self.norm2(x))
        else:
            x = self.norm1(x + attention(x))
            x = self.norm2(x + feed_forward(x))
        return x
