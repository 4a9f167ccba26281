"""Correct, with a running log-sum-exp instead of (m, l): each key block's own softmax output is
merged with weights exp(lse_block - lse_total), the way FlashAttention-2 merges split keys."""

import numpy as np


def _block(qb, kb, vb, mask):
    s = qb @ kb.T / np.sqrt(qb.shape[1])
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    m = s.max(axis=1, keepdims=True)
    p = np.exp(s - m)
    total = p.sum(axis=1, keepdims=True)
    return (p / total) @ vb, (m + np.log(total))[:, 0]


def flash_attention(q, k, v, block_size=64, causal=False):
    n_q, n_k = q.shape[0], k.shape[0]
    blocks = []
    for i in range(0, n_q, block_size):
        qb = q[i:i + block_size]
        rows = np.arange(i, i + len(qb))[:, None]
        out, lse = None, None
        for j in range(0, n_k, block_size):
            if causal and j > rows[-1, 0]:
                break
            mask = (np.arange(j, min(j + block_size, n_k))[None, :] <= rows) if causal else None
            o_j, lse_j = _block(qb, k[j:j + block_size], v[j:j + block_size], mask)
            if out is None:
                out, lse = o_j, lse_j
                continue
            merged = np.logaddexp(lse, lse_j)
            out = np.exp(lse - merged)[:, None] * out + np.exp(lse_j - merged)[:, None] * o_j
            lse = merged
        blocks.append(out)
    return np.concatenate(blocks)
