"""Wrong (right values, too slow): one Python iteration per query, broadcasting over the keys only."""

import torch
from torch import nn


class AdditiveAttention(nn.Module):
    def __init__(self, key_size, query_size, num_hiddens):
        super().__init__()
        self.W_k = nn.Linear(key_size, num_hiddens, bias=False)
        self.W_q = nn.Linear(query_size, num_hiddens, bias=False)
        self.w_v = nn.Linear(num_hiddens, 1, bias=False)

    def forward(self, queries, keys, values, valid_lens=None):
        q, k = self.W_q(queries), self.W_k(keys)
        rows = [self.w_v(torch.tanh(q[:, i : i + 1] + k)).squeeze(-1) for i in range(q.shape[1])]
        scores = torch.stack(rows, dim=1)
        if valid_lens is not None:
            lens = valid_lens[:, None] if valid_lens.dim() == 1 else valid_lens
            keep = torch.arange(scores.shape[-1]) < lens[..., None]
            scores = scores.masked_fill(~keep, float("-inf"))
            weights = torch.softmax(scores, dim=-1).nan_to_num(0.0)
        else:
            weights = torch.softmax(scores, dim=-1)
        self.attention_weights = weights
        return weights @ values
