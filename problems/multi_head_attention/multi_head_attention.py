"""Multi-head attention as a torch nn.Module.

Write the class below, then run ``grade multi_head_attention`` in this folder.

    head_i = softmax(Q_i K_i^T / sqrt(d_k)) V_i          with d_k = d_model / num_heads
    output = concat(head_1, ..., head_h) W_o

Conventions (the grader checks each one):

* Batch first: query (B, L_q, d_model); key and value (B, L_k, d_model); L_q may differ from L_k.
* Four submodules named ``W_q``, ``W_k``, ``W_v``, ``W_o``, each ``nn.Linear(d_model, d_model, bias=bias)``,
  and no other parameters. The grader loads its own weights into them with ``load_state_dict``.
* Head i uses the projected features ``[i * d_k, (i + 1) * d_k)`` (as ``nn.MultiheadAttention`` does).
* ``mask`` is a boolean tensor broadcastable to (B, num_heads, L_q, L_k), e.g. (L_q, L_k) or
  (B, 1, 1, L_k). **True means the query may attend to that key.**
* A query row with no allowed key gets all-zero weights (and a zero context), never NaN.
* Dropout acts on the attention weights, only in train mode. The dtype and device of the inputs
  are kept (float32 in, float32 out; float64 in, float64 out; the meta device works too).
* Write it from scratch: no ``F.scaled_dot_product_attention``, no ``nn.MultiheadAttention``.
"""

import torch
from torch import nn


class MultiHeadAttention(nn.Module):
    """Multi-head scaled dot-product attention.

    Args:
        d_model: model width; must be divisible by num_heads (raise ValueError otherwise).
        num_heads: number of heads h; each head has d_k = d_model // num_heads features.
        bias: whether the four nn.Linear projections have a bias.
        dropout: dropout probability on the attention weights (train mode only).
    """

    def __init__(self, d_model, num_heads, bias=True, dropout=0.0):
        super().__init__()
        raise NotImplementedError

    def forward(self, query, key, value, mask=None):
        """Attend from each query position to the key/value positions.

        Args:
            query: (B, L_q, d_model).
            key: (B, L_k, d_model).
            value: (B, L_k, d_model).
            mask: optional bool tensor broadcastable to (B, num_heads, L_q, L_k); True = may attend.

        Returns:
            (output, weights): output (B, L_q, d_model) and the attention weights
            (B, num_heads, L_q, L_k), each row summing to 1 over the allowed keys
            (all zeros if no key is allowed).
        """
        raise NotImplementedError
