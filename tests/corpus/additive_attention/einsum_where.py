"""Correct: projections by einsum on the Linear weights, a keep mask broadcast from arange,
torch.finfo(dtype).min as the fill, and the weights re-masked (rows with no key become 0)."""

import torch
from torch import nn


class AdditiveAttention(nn.Module):
    def __init__(self, key_size, query_size, num_hiddens):
        super().__init__()
        self.W_k = nn.Linear(key_size, num_hiddens, bias=False)
        self.W_q = nn.Linear(query_size, num_hiddens, bias=False)
        self.w_v = nn.Linear(num_hiddens, 1, bias=False)

    def forward(self, queries, keys, values, valid_lens=None):
        q = torch.einsum("bqd,hd->bqh", queries, self.W_q.weight)
        k = torch.einsum("bkd,hd->bkh", keys, self.W_k.weight)
        hidden = torch.tanh(q[:, :, None, :] + k[:, None, :, :])
        scores = torch.einsum("bqkh,h->bqk", hidden, self.w_v.weight[0])
        if valid_lens is None:
            weights = scores.softmax(dim=-1)
        else:
            lengths = valid_lens if valid_lens.dim() == 2 else valid_lens[:, None].expand(-1, scores.shape[1])
            keep = torch.arange(scores.shape[-1], device=scores.device) < lengths[..., None]
            filled = torch.where(keep, scores, torch.finfo(scores.dtype).min)
            weights = torch.where(keep, filled.softmax(dim=-1), 0.0)
        self.attention_weights = weights
        return torch.einsum("bqk,bkv->bqv", weights, values)
