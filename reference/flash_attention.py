"""Reference solution: attention computed tile by tile with the online softmax (FlashAttention).

    O = softmax(Q Kᵀ / sqrt(d)) V                     (Dao et al. 2022, algorithm 1)

The score matrix S = Q Kᵀ / sqrt(d) is (n_q, n_k): at n = 4096 in float64 it alone is 128 MiB.
FlashAttention never builds it. It walks over tiles of ``block_size`` queries × ``block_size`` keys
and keeps, for every query row of the current query block, three running quantities:

* ``m``: the largest score seen so far (the running maximum),
* ``l``: the sum of exp(score - m) over the keys seen so far (the running sum),
* ``acc``: the sum of exp(score - m) · v over the keys seen so far (the accumulator).

When a new tile raises the maximum from ``m`` to ``m_new``, everything accumulated so far was
computed relative to the old maximum; multiplying ``l`` and ``acc`` by exp(m - m_new) puts it on
the new scale. After the last key block, ``acc / l`` is exactly softmax(S) V: the output is
normalised once, at the end.

Conventions this problem pins down:

* q (n_q, d), k and v (n_k, d), float64; the output is (n_q, d) float64;
* ``causal=True`` (with n_q = n_k): query i attends to keys 0 … i, itself included;
* the inputs are never modified.
"""

from __future__ import annotations

import math

import numpy as np


def flash_attention(
    q: np.ndarray, k: np.ndarray, v: np.ndarray, block_size: int = 64, causal: bool = False
) -> np.ndarray:
    """softmax(q kᵀ / sqrt(d)) v, one (block_size × block_size) tile of scores at a time."""
    n_q, d = q.shape
    n_k = k.shape[0]
    scale = 1.0 / math.sqrt(d)
    out = np.empty((n_q, v.shape[1]), dtype=np.float64)  # (n_q, d), filled one query block at a time

    for q_start in range(0, n_q, block_size):
        q_stop = min(q_start + block_size, n_q)
        q_blk = q[q_start:q_stop] * scale  # (b_q, d), the scale folded into the queries
        m = np.full(q_stop - q_start, -np.inf)  # (b_q,) running maximum of each row
        l = np.zeros(q_stop - q_start)  # (b_q,) running sum of exp(score - m)
        acc = np.zeros((q_stop - q_start, v.shape[1]))  # (b_q, d) running sum of exp(score - m) · v

        # Under the causal mask, key blocks that start after this block's last query are all blocked.
        k_end = min(n_k, q_stop) if causal else n_k
        for k_start in range(0, k_end, block_size):
            k_stop = min(k_start + block_size, n_k)
            s = q_blk @ k[k_start:k_stop].T  # (b_q, b_k) scores of this tile
            if causal and k_stop - 1 > q_start:  # the tile reaches past the diagonal: mask it
                rows = np.arange(q_start, q_stop)[:, None]  # (b_q, 1) query positions
                cols = np.arange(k_start, k_stop)[None, :]  # (1, b_k) key positions
                s = np.where(cols <= rows, s, -np.inf)  # (b_q, b_k), key j visible to query i iff j <= i

            m_new = np.maximum(m, s.max(axis=1))  # (b_q,) the maximum can only grow
            correction = np.exp(m - m_new)  # (b_q,) rescales what was summed under the old maximum
            p = np.exp(s - m_new[:, None])  # (b_q, b_k) in [0, 1]; blocked keys give exp(-inf) = 0
            l = l * correction + p.sum(axis=1)  # (b_q,)
            acc = acc * correction[:, None] + p @ v[k_start:k_stop]  # (b_q, d)
            m = m_new

        out[q_start:q_stop] = acc / l[:, None]  # (b_q, d): normalised once, after the last key block
    return out
