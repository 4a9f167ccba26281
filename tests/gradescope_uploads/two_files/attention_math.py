"""A helper module of a two-file upload: the functions themselves."""

import math

import numpy as np


def softmax(x: np.ndarray, axis: int = -1) -> np.ndarray:
    """Numerically stable softmax: subtract the max so exp never overflows."""
    shifted = x - np.max(x, axis=axis, keepdims=True)  # same shape as x; max entry is 0
    exps = np.exp(shifted)  # same shape as x; values in (0, 1]
    return exps / np.sum(exps, axis=axis, keepdims=True)  # same shape as x; sums to 1 along axis


def scaled_dot_product_attention(
    Q: np.ndarray, K: np.ndarray, V: np.ndarray, mask: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Return (output, weights): output (..., L_q, d_v), weights (..., L_q, L_k)."""
    d_k = Q.shape[-1]
    scores = Q @ np.swapaxes(K, -1, -2) / math.sqrt(d_k)  # (..., L_q, L_k)
    if mask is None:
        weights = softmax(scores, axis=-1)  # (..., L_q, L_k)
    else:
        mask = np.broadcast_to(mask, scores.shape)  # (..., L_q, L_k), True = may attend
        row_has_key = mask.any(axis=-1, keepdims=True)  # (..., L_q, 1)
        scores = np.where(mask, scores, -np.inf)  # blocked keys get -inf before the softmax
        scores = np.where(row_has_key, scores, 0.0)  # fully-masked rows: avoid -inf - -inf = NaN
        weights = softmax(scores, axis=-1)  # (..., L_q, L_k)
        weights = np.where(mask, weights, 0.0).astype(scores.dtype)  # exact zeros; empty rows all 0
    output = weights @ V  # (..., L_q, d_v)
    return output.astype(Q.dtype, copy=False), weights.astype(Q.dtype, copy=False)


def self_attention(
    X: np.ndarray,
    W_q: np.ndarray,
    W_k: np.ndarray,
    W_v: np.ndarray,
    mask: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Self-attention: queries, keys and values are projections of the same X (..., L, d_model)."""
    Q = X @ W_q  # (..., L, d_k)
    K = X @ W_k  # (..., L, d_k)
    V = X @ W_v  # (..., L, d_v)
    return scaled_dot_product_attention(Q, K, V, mask)  # (..., L, d_v), (..., L, L)
