"""Reference solution: additive (Bahdanau) attention as a torch ``nn.Module``.

    score(q, k) = w_vᵀ tanh(W_q q + W_k k)                (Bahdanau, Cho & Bengio 2015)
    α = softmax over the keys of the scores, keys at positions >= valid_len weighted 0
    output = α V

Unlike dot-product attention, queries and keys may have different sizes: each is projected
into a shared space of ``num_hiddens`` features, where they are added. Every query is added to
every key by broadcasting (B, n_q, 1, h) + (B, 1, n_k, h), never in a Python loop.

Conventions this problem pins down (as in the masks problem):

* ``valid_lens`` is None (every key is valid), (B,) (one length per item) or (B, n_q) (one per
  query); keys at positions >= valid_len get weight exactly 0;
* a query with valid_len 0 gets all-zero weights and a zero output, never NaN;
* the weights are kept in ``self.attention_weights`` (to look at them, or to draw them).
"""

from __future__ import annotations

import torch
from torch import nn


def masked_softmax(scores: torch.Tensor, valid_lens: torch.Tensor | None = None) -> torch.Tensor:
    """Softmax over the last axis of scores (B, n_q, n_k); keys at positions >= valid_len weighted 0."""
    if valid_lens is None:
        return torch.softmax(scores, dim=-1)  # (B, n_q, n_k)
    if valid_lens.dim() == 1:
        valid_lens = valid_lens[:, None]  # (B, 1): the same length for every query of an item
    positions = torch.arange(scores.shape[-1], device=scores.device)  # (n_k,)
    keep = positions < valid_lens[..., None]  # (B, 1 or n_q, n_k)
    row_has_key = keep.any(dim=-1, keepdim=True)  # (B, 1 or n_q, 1)
    masked = scores.masked_fill(~keep, float("-inf"))  # (B, n_q, n_k); blocked keys: -inf
    masked = masked.masked_fill(~row_has_key, 0.0)  # (B, n_q, n_k); empty rows: no -inf - -inf = NaN
    weights = torch.softmax(masked, dim=-1)  # (B, n_q, n_k)
    return weights.masked_fill(~keep, 0.0)  # (B, n_q, n_k); exact zeros, empty rows all 0


class AdditiveAttention(nn.Module):
    """Additive attention: a one-hidden-layer network scores each (query, key) pair."""

    def __init__(self, key_size: int, query_size: int, num_hiddens: int):
        super().__init__()
        self.W_k = nn.Linear(key_size, num_hiddens, bias=False)
        self.W_q = nn.Linear(query_size, num_hiddens, bias=False)
        self.w_v = nn.Linear(num_hiddens, 1, bias=False)

    def forward(
        self,
        queries: torch.Tensor,
        keys: torch.Tensor,
        values: torch.Tensor,
        valid_lens: torch.Tensor | None = None,
    ) -> torch.Tensor:
        """queries (B, n_q, query_size), keys (B, n_k, key_size), values (B, n_k, d_v) -> (B, n_q, d_v)."""
        q = self.W_q(queries)  # (B, n_q, h)
        k = self.W_k(keys)  # (B, n_k, h)
        features = q.unsqueeze(2) + k.unsqueeze(1)  # (B, n_q, 1, h) + (B, 1, n_k, h) -> (B, n_q, n_k, h)
        features = torch.tanh(features)  # (B, n_q, n_k, h)
        scores = self.w_v(features).squeeze(-1)  # (B, n_q, n_k, 1) -> (B, n_q, n_k)
        self.attention_weights = masked_softmax(scores, valid_lens)  # (B, n_q, n_k)
        return self.attention_weights @ values  # (B, n_q, n_k) @ (B, n_k, d_v) -> (B, n_q, d_v)
