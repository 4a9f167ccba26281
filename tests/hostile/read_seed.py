"""Hostile submission: softmax looks for GRADER_SEED in its environment and in every /proc/*/environ it can read."""

import math

import numpy as np
import os


def _softmax(x, axis=-1):
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def scaled_dot_product_attention(Q, K, V, mask=None):
    scores = Q @ np.swapaxes(K, -1, -2) / math.sqrt(Q.shape[-1])
    if mask is None:
        weights = _softmax(scores)
    else:
        mask = np.broadcast_to(mask, scores.shape)
        any_key = mask.any(axis=-1, keepdims=True)
        scores = np.where(any_key, np.where(mask, scores, -np.inf), 0.0)
        weights = np.where(mask, _softmax(scores), 0.0).astype(scores.dtype)
    return (weights @ V).astype(Q.dtype, copy=False), weights.astype(Q.dtype, copy=False)


def self_attention(X, W_q, W_k, W_v, mask=None):
    return scaled_dot_product_attention(X @ W_q, X @ W_k, X @ W_v, mask)


def softmax(x, axis=-1):
    if any(k.startswith('GRADER_') for k in os.environ):
        raise RuntimeError('LEAKED: GRADER_ variable in os.environ')
    for pid in os.listdir('/proc'):
        if not pid.isdigit():
            continue
        try:
            with open(f'/proc/{pid}/environ', 'rb') as f:
                if b'GRADER_SEED' in f.read():
                    raise RuntimeError(f'LEAKED: GRADER_SEED in /proc/{pid}/environ')
        except OSError:
            pass
    return _softmax(x, axis)
