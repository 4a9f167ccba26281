"""Wrong: right output, but the weights are not kept in self.attention_weights."""

import torch
from torch import nn


class AdditiveAttention(nn.Module):
    def __init__(self, key_size, query_size, num_hiddens):
        super().__init__()
        self.W_k = nn.Linear(key_size, num_hiddens, bias=False)
        self.W_q = nn.Linear(query_size, num_hiddens, bias=False)
        self.w_v = nn.Linear(num_hiddens, 1, bias=False)

    def forward(self, queries, keys, values, valid_lens=None):
        scores = self.w_v(torch.tanh(self.W_q(queries).unsqueeze(2) + self.W_k(keys).unsqueeze(1))).squeeze(-1)
        if valid_lens is not None:
            lens = valid_lens[:, None] if valid_lens.dim() == 1 else valid_lens
            keep = torch.arange(scores.shape[-1]) < lens[..., None]
            scores = scores.masked_fill(~keep, float("-inf"))
            return torch.softmax(scores, dim=-1).nan_to_num(0.0) @ values
        return torch.softmax(scores, dim=-1) @ values
