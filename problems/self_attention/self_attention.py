"""Scaled dot-product attention in numpy.

Write the three functions below, then run ``grade self_attention`` in this folder.

    Attention(Q, K, V) = softmax(Q K^T / sqrt(d_k)) V

Conventions (the grader checks each one):

* Shapes: Q (..., L_q, d_k), K (..., L_k, d_k), V (..., L_k, d_v). There may be any number of
  leading batch dimensions ("...").
* ``mask`` is a boolean array broadcastable to (..., L_q, L_k). **True means the query may
  attend to that key**; False means the key is blocked for that query.
* A query row whose keys are all blocked gets all-zero weights and an all-zero output row (not NaN).
* Do not modify the input arrays. float32 inputs give float32 outputs, float64 give float64.
* Use numpy only. Projections are row-vector style: ``Q = X @ W_q``.
"""

import numpy as np


def softmax(x, axis=-1):
    """Softmax of ``x`` along ``axis``, numerically stable for large inputs.

    Args:
        x: array of any shape.
        axis: the axis that must sum to 1.

    Returns:
        An array with the same shape and dtype as ``x``.
    """
    raise NotImplementedError


def scaled_dot_product_attention(Q, K, V, mask=None):
    """Attention of queries Q over keys K, averaging values V.

    Args:
        Q: (..., L_q, d_k) queries.
        K: (..., L_k, d_k) keys.
        V: (..., L_k, d_v) values.
        mask: optional bool array broadcastable to (..., L_q, L_k); True = may attend.

    Returns:
        (output, weights): output (..., L_q, d_v) and attention weights (..., L_q, L_k),
        each row of weights summing to 1 over the allowed keys (or all zeros if none is allowed).
    """
    raise NotImplementedError


def self_attention(X, W_q, W_k, W_v, mask=None):
    """Self-attention over the rows of X.

    Args:
        X: (..., L, d_model) inputs.
        W_q, W_k: (d_model, d_k) query and key projections.
        W_v: (d_model, d_v) value projection.
        mask: optional bool array broadcastable to (..., L, L); True = may attend.

    Returns:
        (output, weights): (..., L, d_v) and (..., L, L).
    """
    raise NotImplementedError
