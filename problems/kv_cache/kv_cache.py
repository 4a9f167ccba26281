"""A KV cache for causal self-attention, in torch.

Write the class and the function below, then run ``grade kv_cache`` in this folder.

A decoder generates one token at a time, and token t attends to the keys and values of tokens
0 .. t. Those of tokens 0 .. t-1 were computed at earlier steps and never change: keep them (the
KV cache) and project only the new tokens. Without a cache, generating n tokens projects
1 + 2 + ... + n tokens; with it, n.

    call              x           cache in             cache out (k and v)   y
    model(x)          t0 t1 t2    -                    (1, h, 3, d_head)     y0 y1 y2   (the prompt)
    model(x, cache)   t3          (1, h, 3, d_head)    (1, h, 4, d_head)     y3
    model(x, cache)   t4          (1, h, 4, d_head)    (1, h, 5, d_head)     y4

New token i sits at position T_past + i. It attends to every cached position and to the new
tokens up to itself: the causal mask is aligned to the END of the keys. T_past = 3, T_new = 2:

                 keys   t0 t1 t2 | t3 t4
      query t3           #  #  # |  #  .
      query t4           #  #  # |  #  #

Conventions (the grader checks each one):

* Four submodules named ``q_proj``, ``k_proj``, ``v_proj``, ``o_proj``, each
  ``nn.Linear(d_model, d_model)`` with bias, and no other parameters. The grader loads its own
  weights into them. Head i uses features [i * d_head, (i + 1) * d_head), d_head = d_model // num_heads.
* x is (B, T_new, d_model). cache is None or a tuple (k, v), each (B, num_heads, T_past, d_head).
  Return (y, cache): y is (B, T_new, d_model); the new cache holds all T_past + T_new positions.
* Project only the new tokens, and call the projections as modules (``self.k_proj(x)``): the
  grader counts the rows they see with forward hooks.
* Any split gives the same result: a sequence fed all at once, in chunks or token by token gives,
  call by call, the rows of the full causal forward. A cache your module did not make works too.
* Do not modify the cache you are given (return new tensors); keep the batch rows independent;
  float16 and bfloat16 modules and inputs return outputs and caches of their dtype.
"""

import torch
from torch import nn


class CachedSelfAttention(nn.Module):
    """Multi-head causal self-attention that takes and returns a KV cache.

    Args:
        d_model: model width, divisible by num_heads.
        num_heads: number of heads h; each has d_head = d_model // num_heads features.
    """

    def __init__(self, d_model, num_heads):
        super().__init__()
        raise NotImplementedError

    def forward(self, x, cache=None):
        """Attend from the new tokens to the cached ones and to each other (causally).

        Args:
            x: (B, T_new, d_model), the new tokens.
            cache: None, or a tuple (k, v) of the past, each (B, num_heads, T_past, d_head).

        Returns:
            (y, cache): y is (B, T_new, d_model); cache is (k, v), each
            (B, num_heads, T_past + T_new, d_head), the past followed by the new tokens.
        """
        raise NotImplementedError


def kv_cache_bytes(num_layers, batch, seq_len, num_kv_heads, d_head, bytes_per_value):
    """Bytes the KV cache of a whole model holds.

    Args:
        num_layers: attention layers in the model (each has its own cache).
        batch: sequences decoded together.
        seq_len: tokens per sequence.
        num_kv_heads: heads that have keys and values (fewer than the query heads with
            grouped-query attention, e.g. 8 for Llama-3-8B).
        d_head: features per head.
        bytes_per_value: 2 for float16 or bfloat16, 1 for int8, 4 for float32.

    Returns:
        An int, the number of bytes.
    """
    raise NotImplementedError
