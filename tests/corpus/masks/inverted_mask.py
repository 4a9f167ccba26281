"""Mistake: every mask built as True = blocked (the nn.MultiheadAttention convention)."""

import torch


def causal_mask(L_q, L_k=None, *, device=None):
    L_k = L_q if L_k is None else L_k
    return torch.ones(L_q, L_k, dtype=torch.bool, device=device).triu(diagonal=L_k - L_q + 1)


def padding_mask(tokens, pad_id):
    return (tokens == pad_id)[:, None, None, :]


def decoder_mask(tokens, pad_id):
    return padding_mask(tokens, pad_id) | causal_mask(tokens.shape[-1], device=tokens.device)


def masked_softmax(scores, valid_lens=None):
    if valid_lens is None:
        return scores.softmax(-1)
    if valid_lens.dim() == 1:
        valid_lens = valid_lens[:, None]
    mask = torch.arange(scores.shape[-1], device=scores.device) < valid_lens[..., None]
    scores = scores.masked_fill(mask, float("-inf"))  # True = blocked
    return torch.nan_to_num(scores.softmax(-1), nan=0.0)
