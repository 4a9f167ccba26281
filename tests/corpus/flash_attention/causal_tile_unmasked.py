"""Wrong: future key blocks are skipped, but nothing is masked inside the tile on the diagonal."""

import numpy as np


def flash_attention(q, k, v, block_size=64, causal=False):
    n_q, d = q.shape
    n_k = k.shape[0]
    out = np.zeros((n_q, d))
    for i0 in range(0, n_q, block_size):
        i1 = min(i0 + block_size, n_q)
        qb = q[i0:i1] / np.sqrt(d)
        m = np.full((i1 - i0, 1), -np.inf)
        l = np.zeros((i1 - i0, 1))
        acc = np.zeros((i1 - i0, d))
        for j0 in range(0, i1 if causal else n_k, block_size):
            j1 = min(j0 + block_size, n_k)
            s = qb @ k[j0:j1].T
            m_new = np.maximum(m, s.max(axis=1, keepdims=True))
            p = np.exp(s - m_new)
            alpha = np.exp(m - m_new)
            l = alpha * l + p.sum(axis=1, keepdims=True)
            acc = alpha * acc + p @ v[j0:j1]
            m = m_new
        out[i0:i1] = acc / l
    return out
