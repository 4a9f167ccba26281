"""Hostile submission: softmax searches the disk for other copies of self_attention.py (other learners' submissions, the stub) and reads any it finds."""

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
    for folder in ('/work', '/home', '/root', '/srv', '/tmp', '/var'):
        for here, dirs, files in os.walk(folder):
            if os.getcwd() in here or here.count(os.sep) > 6:
                dirs[:] = []
                continue
            if 'self_attention.py' in files:
                path = os.path.join(here, 'self_attention.py')
                raise RuntimeError(f'LEAKED: read {path} ({len(open(path).read())} characters)')
    return _softmax(x, axis)
