"""Reference solution: one transformer encoder block, post-LN or pre-LN, as a torch ``nn.Module``.

Two sublayers, each wrapped in a residual connection and a LayerNorm (Vaswani et al. 2017, sec. 3.1):

    post-LN (norm_first=False, the original):  x = LN1(x + SA(x));      x = LN2(x + FFN(x))
    pre-LN  (norm_first=True, GPT-2 and later): x = x + SA(LN1(x));     x = x + FFN(LN2(x))

    SA(x)  = MultiHeadAttention(x, x, x), then dropout
    FFN(x) = linear2(dropout(relu(linear1(x)))), then dropout

Names and layout are those of ``nn.TransformerEncoderLayer(..., batch_first=True)``, so a state
dict loads into either and the two compute the same function. Masks follow this project's
convention, **True = may attend / real token**; ``nn.MultiheadAttention`` takes the opposite
(True = blocked / padding), so they are inverted on the way in.
"""

from __future__ import annotations

import torch
from torch import nn


class TransformerBlock(nn.Module):
    """Multi-head self-attention and a position-wise feed-forward network, each with residual and LayerNorm."""

    def __init__(self, d_model: int, num_heads: int, d_ff: int, dropout: float = 0.0, norm_first: bool = False):
        super().__init__()
        self.self_attn = nn.MultiheadAttention(d_model, num_heads, dropout=dropout, batch_first=True)
        self.linear1 = nn.Linear(d_model, d_ff)
        self.linear2 = nn.Linear(d_ff, d_model)
        self.norm1 = nn.LayerNorm(d_model)
        self.norm2 = nn.LayerNorm(d_model)
        self.dropout = nn.Dropout(dropout)  # inside the feed-forward network, after the activation
        self.dropout1 = nn.Dropout(dropout)  # on the attention sublayer's output
        self.dropout2 = nn.Dropout(dropout)  # on the feed-forward sublayer's output
        self.norm_first = norm_first

    def forward(
        self, x: torch.Tensor, mask: torch.Tensor | None = None, padding_mask: torch.Tensor | None = None
    ) -> torch.Tensor:
        """x (B, T, d_model); mask (T, T) and padding_mask (B, T) bool, True = may attend / real token."""
        attn_mask, key_padding_mask = self.torch_masks(mask, padding_mask)
        if self.norm_first:  # pre-LN: normalise each sublayer's input, add its output to the raw stream
            x = x + self._attention(self.norm1(x), attn_mask, key_padding_mask)  # (B, T, d_model)
            x = x + self._feed_forward(self.norm2(x))  # (B, T, d_model)
        else:  # post-LN: add the sublayer's output to its input, then normalise the sum
            x = self.norm1(x + self._attention(x, attn_mask, key_padding_mask))  # (B, T, d_model)
            x = self.norm2(x + self._feed_forward(x))  # (B, T, d_model)
        return x

    @staticmethod
    def torch_masks(
        mask: torch.Tensor | None, padding_mask: torch.Tensor | None
    ) -> tuple[torch.Tensor | None, torch.Tensor | None]:
        """Our masks (True = may attend / real token) in nn.MultiheadAttention's convention (True = blocked)."""
        attn_mask = None if mask is None else ~mask  # (T, T): True = query i may NOT attend key j
        key_padding_mask = None if padding_mask is None else ~padding_mask  # (B, T): True = padding
        return attn_mask, key_padding_mask

    def _attention(
        self, x: torch.Tensor, attn_mask: torch.Tensor | None, key_padding_mask: torch.Tensor | None
    ) -> torch.Tensor:
        """Self-attention over the tokens of x (B, T, d_model), then dropout."""
        out, _ = self.self_attn(
            x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask, need_weights=False
        )  # (B, T, d_model)
        return self.dropout1(out)  # (B, T, d_model)

    def _feed_forward(self, x: torch.Tensor) -> torch.Tensor:
        """The same two-layer network at every position: d_model -> d_ff -> d_model."""
        hidden = self.dropout(torch.relu(self.linear1(x)))  # (B, T, d_ff)
        return self.dropout2(self.linear2(hidden))  # (B, T, d_model)
