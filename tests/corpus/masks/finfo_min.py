"""Correct: tril with an offset, and blocked scores filled with the dtype's most negative number."""

import torch


def causal_mask(L_q, L_k=None, *, device=None):
    if L_k is None:
        L_k = L_q
    return torch.ones((L_q, L_k), device=device).tril(L_k - L_q).bool()


def padding_mask(tokens, pad_id):
    return (tokens != pad_id).reshape(tokens.shape[0], 1, 1, -1)


def decoder_mask(tokens, pad_id):
    return causal_mask(tokens.size(-1), device=tokens.device)[None, None] & padding_mask(tokens, pad_id)


def masked_softmax(scores, valid_lens=None):
    if valid_lens is None:
        return scores.softmax(dim=-1)
    lens = valid_lens if valid_lens.dim() == 2 else valid_lens[:, None].expand(scores.shape[:2])
    keep = torch.arange(scores.size(-1), device=scores.device).view(1, 1, -1) < lens.unsqueeze(-1)
    filled = torch.where(keep, scores, torch.finfo(scores.dtype).min)
    return filled.softmax(dim=-1) * keep  # rows with no key: uniform * 0 = 0
