"""Correct: F.linear with the modules' weights, expand() to the full (B, n_q, n_k, h) grid,
a -inf fill, and rows with no valid key replaced by zeros afterwards."""

import torch
import torch.nn.functional as F
from torch import nn


class AdditiveAttention(nn.Module):
    def __init__(self, key_size, query_size, num_hiddens):
        super().__init__()
        self.W_q = nn.Linear(query_size, num_hiddens, bias=False)
        self.W_k = nn.Linear(key_size, num_hiddens, bias=False)
        self.w_v = nn.Linear(num_hiddens, 1, bias=False)

    def forward(self, queries, keys, values, valid_lens=None):
        B, n_q, _ = queries.shape
        n_k = keys.shape[1]
        q = F.linear(queries, self.W_q.weight).unsqueeze(2).expand(B, n_q, n_k, -1)
        k = F.linear(keys, self.W_k.weight).unsqueeze(1).expand(B, n_q, n_k, -1)
        scores = F.linear(torch.tanh(q + k), self.w_v.weight)[..., 0]
        if valid_lens is not None:
            if valid_lens.dim() == 1:
                valid_lens = valid_lens.unsqueeze(1)
            blocked = torch.arange(n_k, device=scores.device).view(1, 1, n_k) >= valid_lens.unsqueeze(-1)
            scores = scores.masked_fill(blocked, float("-inf"))
        weights = F.softmax(scores, dim=-1)
        weights = torch.where(torch.isnan(weights), torch.zeros_like(weights), weights)
        self.attention_weights = weights
        return weights.matmul(values)
