"""Correct, written with explicit Python loops over batch items, queries and keys."""
import math

import numpy as np


def softmax(x, axis=-1):
    x = np.moveaxis(np.asarray(x), axis, -1)
    out = np.empty_like(x)
    for index in np.ndindex(*x.shape[:-1]):
        row = x[index]
        m = max(row)
        e = [math.exp(v - m) for v in row]
        s = sum(e)
        out[index] = [v / s for v in e]
    return np.moveaxis(out, -1, axis)


def _one(Q, K, V, mask):
    L_q, L_k = Q.shape[0], K.shape[0]
    scale = 1.0 / math.sqrt(Q.shape[1])
    w = np.zeros((L_q, L_k), dtype=Q.dtype)
    out = np.zeros((L_q, V.shape[1]), dtype=Q.dtype)
    for i in range(L_q):
        allowed = [j for j in range(L_k) if mask is None or mask[i, j]]
        if not allowed:
            continue
        s = [float(Q[i] @ K[j]) * scale for j in allowed]
        m = max(s)
        e = [math.exp(v - m) for v in s]
        z = sum(e)
        for j, ej in zip(allowed, e):
            w[i, j] = ej / z
            out[i] += (ej / z) * V[j]
    return out, w


def scaled_dot_product_attention(Q, K, V, mask=None):
    batch = np.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2])
    L_q, L_k = Q.shape[-2], K.shape[-2]
    if mask is not None:
        mask = np.broadcast_to(mask, (*batch, L_q, L_k))
    out = np.zeros((*batch, L_q, V.shape[-1]), dtype=Q.dtype)
    w = np.zeros((*batch, L_q, L_k), dtype=Q.dtype)
    Qb = np.broadcast_to(Q, (*batch, *Q.shape[-2:]))
    Kb = np.broadcast_to(K, (*batch, *K.shape[-2:]))
    Vb = np.broadcast_to(V, (*batch, *V.shape[-2:]))
    for index in np.ndindex(*batch):
        out[index], w[index] = _one(Qb[index], Kb[index], Vb[index], None if mask is None else mask[index])
    return out, w


def self_attention(X, W_q, W_k, W_v, mask=None):
    return scaled_dot_product_attention(X @ W_q, X @ W_k, X @ W_v, mask)
