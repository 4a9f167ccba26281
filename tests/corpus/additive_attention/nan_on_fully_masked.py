"""Wrong: a -inf fill with no guard: a query with valid_len 0 gets NaN."""

import torch
from torch import nn


class AdditiveAttention(nn.Module):
    def __init__(self, key_size, query_size, num_hiddens):
        super().__init__()
        self.W_k = nn.Linear(key_size, num_hiddens, bias=False)
        self.W_q = nn.Linear(query_size, num_hiddens, bias=False)
        self.w_v = nn.Linear(num_hiddens, 1, bias=False)

    def forward(self, queries, keys, values, valid_lens=None):
        features = torch.tanh(self.W_q(queries).unsqueeze(2) + self.W_k(keys).unsqueeze(1))
        scores = self.w_v(features).squeeze(-1)
        if valid_lens is not None:
            lens = valid_lens[:, None] if valid_lens.dim() == 1 else valid_lens
            keep = torch.arange(scores.shape[-1]) < lens[..., None]
            scores = scores.masked_fill(~keep, float("-inf"))
            weights = torch.softmax(scores, dim=-1)
        else:
            weights = torch.softmax(scores, dim=-1)
        self.attention_weights = weights
        return weights @ values
