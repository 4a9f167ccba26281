"""Mistake: padding applied to the query axis (rows) instead of the key axis."""

import torch


def causal_mask(L_q, L_k=None, *, device=None):
    L_k = L_q if L_k is None else L_k
    return torch.tril(torch.ones(L_q, L_k, dtype=torch.bool, device=device), diagonal=L_k - L_q)


def padding_mask(tokens, pad_id):
    return (tokens != pad_id)[:, None, :, None]  # (B, 1, L, 1)


def decoder_mask(tokens, pad_id):
    return padding_mask(tokens, pad_id) & causal_mask(tokens.shape[-1], device=tokens.device)


def masked_softmax(scores, valid_lens=None):
    if valid_lens is None:
        return torch.softmax(scores, dim=-1)
    if valid_lens.dim() == 1:
        rows = torch.arange(scores.shape[1], device=scores.device)[None, :, None] < valid_lens[:, None, None]
    else:
        rows = valid_lens[..., None] > 0
    weights = torch.softmax(scores.masked_fill(~rows, float("-inf")), dim=-1)
    return torch.nan_to_num(weights, nan=0.0)
