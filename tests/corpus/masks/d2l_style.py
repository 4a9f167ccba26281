"""Correct: d2l's sequence_mask over a flattened (B * L_q, L_k) view, a -inf fill, rows guarded."""

import torch


def causal_mask(L_q, L_k=None, *, device=None):
    L_k = L_q if L_k is None else L_k
    blocked = torch.ones(L_q, L_k, dtype=torch.bool, device=device).triu(diagonal=L_k - L_q + 1)
    return ~blocked


def padding_mask(tokens, pad_id):
    return tokens.ne(pad_id).view(tokens.shape[0], 1, 1, tokens.shape[1])


def decoder_mask(tokens, pad_id):
    B, L = tokens.shape
    return torch.logical_and(padding_mask(tokens, pad_id).expand(B, 1, L, L), causal_mask(L, device=tokens.device))


def sequence_mask(X, valid_len):
    """X (N, L_k), valid_len (N,): True where the position is within the valid length."""
    return torch.arange(X.shape[1], dtype=torch.float32, device=X.device)[None, :] < valid_len[:, None]


def masked_softmax(scores, valid_lens=None):
    if valid_lens is None:
        return torch.nn.functional.softmax(scores, dim=-1)
    shape = scores.shape
    if valid_lens.dim() == 1:
        valid_lens = torch.repeat_interleave(valid_lens, shape[1])
    else:
        valid_lens = valid_lens.reshape(-1)
    flat = scores.reshape(-1, shape[-1])
    keep = sequence_mask(flat, valid_lens)
    flat = torch.where(keep, flat, torch.full_like(flat, float("-inf")))
    has_key = keep.any(dim=-1, keepdim=True)
    flat = torch.where(has_key, flat, torch.zeros_like(flat))
    weights = torch.softmax(flat, dim=-1) * keep
    return weights.reshape(shape)
