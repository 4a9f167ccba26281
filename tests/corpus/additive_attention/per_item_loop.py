"""Correct: a Python loop over the batch items (not over queries or keys), broadcasting inside
each item; valid lengths turned into a per-query mask with a comparison."""

import torch
from torch import nn


class AdditiveAttention(nn.Module):
    def __init__(self, key_size, query_size, num_hiddens):
        super().__init__()
        self.W_k = nn.Linear(key_size, num_hiddens, bias=False)
        self.W_q = nn.Linear(query_size, num_hiddens, bias=False)
        self.w_v = nn.Linear(num_hiddens, 1, bias=False)

    def forward(self, queries, keys, values, valid_lens=None):
        outputs, all_weights = [], []
        for b in range(queries.shape[0]):
            q, k = self.W_q(queries[b]), self.W_k(keys[b])  # (n_q, h), (n_k, h)
            scores = self.w_v(torch.tanh(q[:, None, :] + k[None, :, :]))[..., 0]  # (n_q, n_k)
            if valid_lens is not None:
                length = valid_lens[b]
                keep = torch.arange(scores.shape[1]) < length.reshape(-1, 1)  # (1 or n_q, n_k)
                keep = keep.expand_as(scores)
                scores = scores.masked_fill(~keep, float("-inf"))
                weights = torch.softmax(scores, dim=-1)
                weights = weights.masked_fill(~keep, 0.0)
            else:
                weights = torch.softmax(scores, dim=-1)
            all_weights.append(weights)
            outputs.append(weights @ values[b])
        self.attention_weights = torch.stack(all_weights)
        return torch.stack(outputs)
