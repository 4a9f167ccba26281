"""A transformer encoder block as a torch nn.Module: post-LN and pre-LN.

Write the class below, then run ``grade transformer_block`` in this folder.

Two sublayers, self-attention (SA) and a position-wise feed-forward network (FFN), each wrapped
in a residual connection and a LayerNorm:

    post-LN (norm_first=False, the 2017 paper):   x = norm1(x + SA(x));   x = norm2(x + FFN(x))
    pre-LN  (norm_first=True, GPT-2 and later):   x = x + SA(norm1(x));   x = x + FFN(norm2(x))
    FFN(x) = linear2(dropout(relu(linear1(x))))

Conventions (the grader checks each one):

* Attributes named as in ``nn.TransformerEncoderLayer``, so the grader can load its weights with
  ``load_state_dict``: ``self_attn``, ``linear1`` (d_model -> d_ff), ``linear2`` (d_ff -> d_model),
  ``norm1``, ``norm2`` (``nn.LayerNorm(d_model)``), and no other parameters.
* ``self_attn`` may be ``nn.MultiheadAttention(d_model, num_heads, dropout=dropout, batch_first=True)``
  or your own module whose parameters are named and shaped like it: ``in_proj_weight``
  (3*d_model, d_model), ``in_proj_bias`` (3*d_model,), ``out_proj`` (an nn.Linear(d_model, d_model)).
* x is (B, T, d_model); the output has the same shape.
* ``mask`` (T, T) and ``padding_mask`` (B, T) are bool tensors where **True = may attend / real
  token**. nn.MultiheadAttention reads bool masks the other way round (True = blocked / padding).
* Dropout after each sublayer and inside the FFN, in train mode only.
* No ``nn.TransformerEncoderLayer``, ``nn.TransformerEncoder`` or ``nn.Transformer``.
"""

import torch
from torch import nn


class TransformerBlock(nn.Module):
    """One encoder block.

    Args:
        d_model: model width.
        num_heads: attention heads; d_model must be divisible by num_heads.
        d_ff: hidden width of the feed-forward network.
        dropout: dropout probability (train mode only).
        norm_first: False for post-LN (normalise after the residual sum), True for pre-LN.
    """

    def __init__(self, d_model, num_heads, d_ff, dropout=0.0, norm_first=False):
        super().__init__()
        raise NotImplementedError

    def forward(self, x, mask=None, padding_mask=None):
        """Apply the block.

        Args:
            x: (B, T, d_model).
            mask: optional bool (T, T); mask[i, j] is True if token i may attend token j.
            padding_mask: optional bool (B, T); True for real tokens, False for padding.

        Returns:
            (B, T, d_model).
        """
        raise NotImplementedError
