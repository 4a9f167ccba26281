"""Correct, the loops the other way round: key blocks outside, query blocks inside; the running
statistics of every row live in arrays of length n_q."""

import math

import numpy as np


def flash_attention(q, k, v, block_size=64, causal=False):
    n_q, d = q.shape
    n_k = k.shape[0]
    scale = 1 / math.sqrt(d)
    row_max = np.full(n_q, -np.inf)
    row_sum = np.zeros(n_q)
    acc = np.zeros((n_q, v.shape[1]))
    for ks in range(0, n_k, block_size):
        ke = min(ks + block_size, n_k)
        for qs in range(0, n_q, block_size):
            qe = min(qs + block_size, n_q)
            if causal and ks > qe - 1:
                continue  # every key of this block comes after every query of that block
            scores = np.einsum("id,jd->ij", q[qs:qe], k[ks:ke]) * scale
            if causal:
                qi, kj = np.ogrid[qs:qe, ks:ke]
                scores = np.where(kj <= qi, scores, -np.inf)
            new_max = np.maximum(row_max[qs:qe], scores.max(axis=1))
            shrink = np.exp(row_max[qs:qe] - new_max)
            weights = np.exp(scores - new_max[:, None])
            row_sum[qs:qe] = row_sum[qs:qe] * shrink + weights.sum(axis=1)
            acc[qs:qe] = acc[qs:qe] * shrink[:, None] + weights @ v[ks:ke]
            row_max[qs:qe] = new_max
    return acc / row_sum[:, None]
