"""Wrong, unnamed: query blocks only, each against all keys at once: a (block_size, n_k) strip of
scores per block. The values are right; at block_size 256 and n = 4096 the strips cost more than
twice the inputs."""

import numpy as np


def flash_attention(q, k, v, block_size=64, causal=False):
    n_q, d = q.shape
    out = np.empty((n_q, d))
    for i0 in range(0, n_q, block_size):
        s = q[i0:i0 + block_size] @ k.T / np.sqrt(d)
        if causal:
            s = np.where(np.arange(k.shape[0])[None, :] <= np.arange(i0, i0 + len(s))[:, None], s, -np.inf)
        p = np.exp(s - s.max(axis=1, keepdims=True))
        out[i0:i0 + block_size] = p / p.sum(axis=1, keepdims=True) @ v
    return out
