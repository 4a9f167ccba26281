"""Reference solution: attention masks and a masked softmax in torch.

Conventions this problem pins down:

* every mask is boolean and **True means "may attend"** (the convention of
  ``F.scaled_dot_product_attention``), shaped to broadcast against scores (B, h, L_q, L_k);
* causal masks are aligned to the end: query i sees key j iff j <= i + (L_k - L_q), as when
  decoding with a KV cache (for L_q == L_k, the lower triangle with the diagonal);
* padding masks the *keys* (the last axis), never the queries;
* a query row with no allowed key gets all-zero weights (as SDPA does), never NaN;
* inputs are never modified; results live on the inputs' device and keep their float dtype.
"""

from __future__ import annotations

import torch


def causal_mask(L_q: int, L_k: int | None = None, *, device: torch.device | str | None = None) -> torch.Tensor:
    """(L_q, L_k) bool: True where query i may attend key j, i.e. j <= i + (L_k - L_q)."""
    L_k = L_q if L_k is None else L_k
    ones = torch.ones(L_q, L_k, dtype=torch.bool, device=device)  # (L_q, L_k)
    return torch.tril(ones, diagonal=L_k - L_q)  # (L_q, L_k); keeps the diagonal shifted by the offset


def padding_mask(tokens: torch.Tensor, pad_id: int) -> torch.Tensor:
    """(B, 1, 1, L) bool: True for real tokens, to broadcast over heads and queries."""
    real = tokens != pad_id  # (B, L)
    return real[:, None, None, :]  # (B, 1, 1, L): padding masks the key axis


def decoder_mask(tokens: torch.Tensor, pad_id: int) -> torch.Tensor:
    """(B, 1, L, L) bool: causal AND key padding, for a decoder's self-attention."""
    L = tokens.shape[-1]
    causal = causal_mask(L, device=tokens.device)  # (L, L)
    return padding_mask(tokens, pad_id) & causal  # (B, 1, 1, L) & (L, L) -> (B, 1, L, L)


def masked_softmax(scores: torch.Tensor, valid_lens: torch.Tensor | None = None) -> torch.Tensor:
    """Softmax over the last axis of scores (B, L_q, L_k), keys at positions >= valid_len weighted 0.

    ``valid_lens`` is None (no masking), (B,) (one length per item) or (B, L_q) (one per query).
    A row with valid_len 0 is all zeros.
    """
    if valid_lens is None:
        return torch.softmax(scores, dim=-1)  # (B, L_q, L_k)
    if valid_lens.dim() == 1:
        valid_lens = valid_lens[:, None]  # (B, 1): the same length for every query of an item
    positions = torch.arange(scores.shape[-1], device=scores.device)  # (L_k,)
    keep = positions < valid_lens[..., None]  # (B, 1 or L_q, L_k)
    row_has_key = keep.any(dim=-1, keepdim=True)  # (B, 1 or L_q, 1)
    masked = scores.masked_fill(~keep, float("-inf"))  # a new tensor: the input is not modified
    masked = masked.masked_fill(~row_has_key, 0.0)  # empty rows: avoid -inf - -inf = NaN
    weights = torch.softmax(masked, dim=-1)  # (B, L_q, L_k)
    return weights.masked_fill(~keep, 0.0)  # exact zeros; empty rows become all 0
