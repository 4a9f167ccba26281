"""FlashAttention's tiled online softmax, in numpy.

Write the function below, then run ``grade flash_attention`` in this folder.

    O = softmax(q k^T / sqrt(d)) v

Plain attention builds the whole score matrix S = q k^T / sqrt(d) of shape (n_q, n_k); at n = 4096
in float64 that is 128 MiB. FlashAttention gets the same O without ever holding S: it computes one
tile of block_size queries x block_size keys at a time, and for every query row it keeps

    m    the largest score seen so far                         (n_q,)
    l    the sum of exp(score - m) over the keys seen so far    (n_q,)
    acc  the sum of exp(score - m) * v over the keys seen so far (n_q, d)

Both sums are measured against the current m. Ask yourself what must happen to them when a new
tile brings a score larger than m. After the last key block, O = acc / l (normalise once).

    n_q = n_k = 10, block_size = 4
                keys 0-3  keys 4-7  keys 8-9       causal=True
    queries 0-3    S00       S01       S02           ◩   .   .      ■ whole tile
    queries 4-7    S10       S11       S12           ■   ◩   .      ◩ masked inside
    queries 8-9    S20       S21       S22           ■   ■   ◩      . skipped
    query block i: m, l, acc take in S_i0, then S_i1, then S_i2; O_i = acc / l

Conventions (the grader checks each one):

* q (n_q, d), k and v (n_k, d), all float64; return (n_q, d) float64.
* ``block_size`` need not divide n_q or n_k (the last blocks are shorter); 1 and >= n must work.
* ``causal=True`` comes with n_q = n_k: query i attends to keys 0 .. i, itself included.
* Scores may be as large as +-1000 or more: nothing may overflow or give NaN.
* Never hold an (n_q, n_k) array: the grader measures your peak memory at n = 4096, d = 64.
* Do not modify q, k or v. Use numpy only.
"""

import numpy as np


def flash_attention(q, k, v, block_size=64, causal=False):
    """softmax(q k^T / sqrt(d)) v, computed tile by tile with an online softmax.

    Args:
        q: (n_q, d) queries, float64.
        k: (n_k, d) keys, float64.
        v: (n_k, d) values, float64.
        block_size: number of queries and of keys per tile.
        causal: if True (n_q = n_k), query i attends only to keys 0 .. i.

    Returns:
        (n_q, d) float64 array, equal to plain attention up to rounding.
    """
    raise NotImplementedError
