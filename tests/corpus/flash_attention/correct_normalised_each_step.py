"""Correct, as Algorithm 1 of the FlashAttention paper writes it: the output block is kept
normalised after every key block (O = (l_old e^(m_old - m_new) O + e^(S - m_new) V) / l_new)."""

import numpy as np


def flash_attention(q, k, v, block_size=64, causal=False):
    n, d = q.shape
    o = np.zeros((n, v.shape[1]))
    for a in range(0, n, block_size):
        b = min(a + block_size, n)
        m = np.full(b - a, -np.inf)
        l = np.zeros(b - a)
        for c in range(0, k.shape[0], block_size):
            if causal and c >= b:
                break
            e = min(c + block_size, k.shape[0])
            s = (q[a:b] @ k[c:e].T) / np.sqrt(d)
            if causal:
                s = np.where(np.tril(np.ones((b - a, e - c), dtype=bool), k=a - c), s, -np.inf)
            m_new = np.maximum(m, s.max(axis=1))
            p = np.exp(s - m_new[:, None])
            l_new = np.exp(m - m_new) * l + p.sum(axis=1)
            o[a:b] = ((l * np.exp(m - m_new))[:, None] * o[a:b] + p @ v[c:e]) / l_new[:, None]
            m, l = m_new, l_new
    return o
