"""Correct: nn.MultiheadAttention, masks inverted with ~, sublayers as helper methods."""

import torch
from torch import nn


class TransformerBlock(nn.Module):
    def __init__(self, d_model, num_heads, d_ff, dropout=0.0, norm_first=False):
        super().__init__()
        self.self_attn = nn.MultiheadAttention(d_model, num_heads, dropout=dropout, batch_first=True)
        self.linear1 = nn.Linear(d_model, d_ff)
        self.linear2 = nn.Linear(d_ff, d_model)
        self.norm1 = nn.LayerNorm(d_model)
        self.norm2 = nn.LayerNorm(d_model)
        self.dropout = nn.Dropout(dropout)
        self.dropout1 = nn.Dropout(dropout)
        self.dropout2 = nn.Dropout(dropout)
        self.norm_first = norm_first

    def sa(self, x, mask, padding_mask):
        attn_mask = None if mask is None else ~mask
        key_padding_mask = None if padding_mask is None else ~padding_mask
        out, _ = self.self_attn(x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask, need_weights=False)
        return self.dropout1(out)

    def ff(self, x):
        return self.dropout2(self.linear2(self.dropout(torch.relu(self.linear1(x)))))

    def forward(self, x, mask=None, padding_mask=None):
        if self.norm_first:
            x = x + self.sa(self.norm1(x), mask, padding_mask)
            x = x + self.ff(self.norm2(x))
        else:
            x = self.norm1(x + self.sa(x, mask, padding_mask))
            x = self.norm2(x + self.ff(x))
        return x
