"""Additive (Bahdanau) attention as a torch nn.Module.

Write the class below, then run ``grade additive_attention`` in this folder.

Dot-product attention needs queries and keys of the same size. Additive attention does not: it
scores each (query, key) pair with a small network of one hidden layer,

    score(q, k) = w_v^T tanh(W_q q + W_k k)
    weights     = softmax of the scores over the keys (the last axis)
    output      = weights @ values

Conventions (the grader checks each one):

* Three submodules, each ``nn.Linear(..., bias=False)`` and no other parameters:
  ``W_k`` (key_size -> num_hiddens), ``W_q`` (query_size -> num_hiddens), ``w_v`` (num_hiddens -> 1).
  The grader loads its own weights into them with ``load_state_dict``.
* Every query is added to every key. Do it by broadcasting: a (B, n_q, 1, h) tensor plus a
  (B, 1, n_k, h) tensor is (B, n_q, n_k, h). A Python loop over queries or keys gives the right
  numbers but is far too slow, and the grader notices it.
* ``valid_lens`` is None (every key is valid), a (B,) tensor (one length per item) or a (B, n_q)
  tensor (one length per query). Keys at positions >= valid_len get weight exactly 0, and each
  row of weights sums to 1 over the valid keys. A query with valid_len 0 gets all-zero weights
  (and a zero output), never NaN.
* Keep the weights in ``self.attention_weights``: (B, n_q, n_k).
"""

import torch
from torch import nn


class AdditiveAttention(nn.Module):
    """Additive attention.

    Args:
        key_size: features of a key.
        query_size: features of a query (may differ from key_size).
        num_hiddens: size h of the hidden layer where projected queries and keys are added.
    """

    def __init__(self, key_size, query_size, num_hiddens):
        super().__init__()
        raise NotImplementedError

    def forward(self, queries, keys, values, valid_lens=None):
        """Attend from each query to the keys and return the weighted sum of the values.

        Args:
            queries: (B, n_q, query_size).
            keys: (B, n_k, key_size).
            values: (B, n_k, d_v).
            valid_lens: None, (B,) or (B, n_q) integer tensor: how many keys each query may see.

        Returns:
            (B, n_q, d_v). Also sets self.attention_weights to the (B, n_q, n_k) weights.
        """
        raise NotImplementedError
