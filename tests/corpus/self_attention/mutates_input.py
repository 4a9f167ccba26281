"""Mistake: scales Q in place, so the caller's array changes."""
import numpy as np


def softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def scaled_dot_product_attention(Q, K, V, mask=None):
    Q /= np.sqrt(Q.shape[-1]).astype(Q.dtype)
    scores = Q @ np.swapaxes(K, -1, -2)
    if mask is not None:
        mask = np.broadcast_to(mask, scores.shape)
        empty = ~mask.any(axis=-1, keepdims=True)
        scores = np.where(mask, scores, -np.inf)
        scores = np.where(empty, 0.0, scores)
        w = np.where(mask, softmax(scores), 0.0).astype(Q.dtype)
    else:
        w = softmax(scores)
    return w @ V, w


def self_attention(X, W_q, W_k, W_v, mask=None):
    return scaled_dot_product_attention(X @ W_q, X @ W_k, X @ W_v, mask)
