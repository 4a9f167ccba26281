"""Mistake: masked_softmax fills blocked scores with -1e9 (as the Annotated Transformer does): a row
with valid_len 0 becomes uniform, 1/L_k on every key, instead of zeros."""

import torch


def causal_mask(L_q, L_k=None, *, device=None):
    L_k = L_q if L_k is None else L_k
    i = torch.arange(L_q, device=device)[:, None]
    j = torch.arange(L_k, device=device)[None, :]
    return j <= i + (L_k - L_q)


def padding_mask(tokens, pad_id):
    return (tokens != pad_id).unsqueeze(1).unsqueeze(2)


def decoder_mask(tokens, pad_id):
    return padding_mask(tokens, pad_id) & causal_mask(tokens.shape[1], device=tokens.device)


def masked_softmax(scores, valid_lens=None):
    if valid_lens is None:
        return torch.softmax(scores, dim=-1)
    if valid_lens.dim() == 1:
        valid_lens = valid_lens.unsqueeze(-1)
    keep = torch.arange(scores.shape[-1], device=scores.device) < valid_lens.unsqueeze(-1)
    return torch.softmax(scores.masked_fill(~keep, -1e9), dim=-1)
