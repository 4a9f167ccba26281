"""Harness helper for flash_attention that runs inside the learner's process.

It measures memory where the learner's arrays live and returns one number; it holds no expected
value (the inputs are random, and the check compares only the peak with a limit).
"""

import tracemalloc

import numpy as np


def peak_memory(module, seed, n, d, block_size, causal):
    """Peak bytes of traced allocations (numpy's included) during one call at n × d; -1 if tracing stopped."""
    rng = np.random.default_rng(seed)
    q, k, v = (rng.random((n, d)) - 0.5 for _ in range(3))  # (n, d) each, float64, allocated before tracing
    tracemalloc.start()
    try:
        module.flash_attention(q, k, v, block_size=block_size, causal=causal)
        peak = tracemalloc.get_traced_memory()[1] if tracemalloc.is_tracing() else -1
    finally:
        tracemalloc.stop()
    return int(peak)
