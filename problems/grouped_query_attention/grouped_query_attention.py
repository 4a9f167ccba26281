"""Grouped-query attention (GQA) as a torch nn.Module.

Write the class below, then run ``grade grouped_query_attention`` in this folder.

While generating, a decoder caches the keys and values of every past token. With plain multi-head
attention that cache holds num_heads heads of K and V per layer, and on long contexts it, not
the weights, fills the memory. GQA keeps num_heads query heads but computes only num_kv_heads
heads of keys and values; each K/V head is shared by a group of consecutive query heads:

    group  = num_heads // num_kv_heads          query heads per K/V head
    d_head = d_model // num_heads               features per head (queries, keys and values)

    head_h = softmax(Q_h K_g^T / sqrt(d_head)) V_g     with g = h // group
    output = concat(head_0, ..., head_{num_heads-1}) W_o

    num_heads = 6, num_kv_heads = 2, group = 3:
        query head     q0  q1  q2 | q3  q4  q5
        reads K/V      k0  k0  k0 | k1  k1  k1      g = h // group  (k.repeat_interleave(group, dim=1))
        not            k0  k1  k0 | k1  k0  k1      h % num_kv_heads (k.repeat(1, group, 1, 1))

num_kv_heads == num_heads is multi-head attention (MHA); num_kv_heads == 1 is multi-query
attention (MQA): every query head reads the same keys and values. The KV cache shrinks by group.

Conventions (the grader checks each one):

* Four submodules, all without bias: ``q_proj`` and ``o_proj`` are ``nn.Linear(d_model, d_model)``,
  ``k_proj`` and ``v_proj`` are ``nn.Linear(d_model, num_kv_heads * d_head)``. No other
  parameters. The grader loads its own weights into them with ``load_state_dict``.
* Head i (query or K/V) uses the projected features ``[i * d_head, (i + 1) * d_head)``.
* Query head h reads K/V head ``h // group``, as Llama checkpoints (``repeat_kv``) and
  ``F.scaled_dot_product_attention(..., enable_gqa=True)`` do.
* ``causal=True``: the query at position t attends to keys 0 .. t only.
* Invalid head counts raise ValueError with a message saying which: a count below 1, d_model not
  divisible by num_heads, num_heads not a multiple of num_kv_heads. Check before you divide.
"""

import torch
from torch import nn


class GroupedQueryAttention(nn.Module):
    """Self-attention with num_heads query heads sharing num_kv_heads key/value heads.

    Args:
        d_model: model width; must be divisible by num_heads.
        num_heads: number of query heads; each has d_head = d_model // num_heads features.
        num_kv_heads: number of key/value heads; num_heads must be a multiple of it.
    """

    def __init__(self, d_model, num_heads, num_kv_heads):
        super().__init__()
        raise NotImplementedError

    def forward(self, x, causal=False):
        """Attend from every position of x to every position (only to earlier ones if causal).

        Args:
            x: (B, T, d_model).
            causal: if True, position t attends to positions 0 .. t only.

        Returns:
            (B, T, d_model).
        """
        raise NotImplementedError
