"""Cheat attempt: patch numpy's comparison functions so every comparison says "equal"."""
import numpy as np

np.allclose = lambda *a, **k: True
np.isclose = lambda a, b, **k: np.ones(np.broadcast_shapes(np.shape(a), np.shape(b)), dtype=bool)
np.array_equal = lambda *a, **k: True
np.testing.assert_allclose = lambda *a, **k: None


def softmax(x, axis=-1):
    return np.zeros_like(x)


def scaled_dot_product_attention(Q, K, V, mask=None):
    return np.zeros(Q.shape[:-1] + V.shape[-1:], Q.dtype), np.zeros(Q.shape[:-1] + K.shape[-2:-1], Q.dtype)


def self_attention(X, W_q, W_k, W_v, mask=None):
    return scaled_dot_product_attention(X @ W_q, X @ W_k, X @ W_v, mask)
