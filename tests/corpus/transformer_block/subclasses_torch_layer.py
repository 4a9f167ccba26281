"""Right values, but the block is nn.TransformerEncoderLayer itself (masks inverted on the way in)."""

from torch import nn


class TransformerBlock(nn.TransformerEncoderLayer):
    def __init__(self, d_model, num_heads, d_ff, dropout=0.0, norm_first=False):
        super().__init__(d_model, num_heads, d_ff, dropout=dropout, batch_first=True, norm_first=norm_first)

    def forward(self, x, mask=None, padding_mask=None):
        return super().forward(
            x, src_mask=None if mask is None else ~mask,
            src_key_padding_mask=None if padding_mask is None else ~padding_mask,
        )
