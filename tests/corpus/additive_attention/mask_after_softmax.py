"""Wrong: softmax over every key, then the weights past valid_len are zeroed (rows no longer sum to 1)."""

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
        weights = torch.softmax(self.w_v(features).squeeze(-1), dim=-1)
        if valid_lens is not None:
            lens = valid_lens[:, None] if valid_lens.dim() == 1 else valid_lens
            keep = torch.arange(weights.shape[-1]) < lens[..., None]
            weights = weights * keep
        self.attention_weights = weights
        return torch.bmm(weights, values)
