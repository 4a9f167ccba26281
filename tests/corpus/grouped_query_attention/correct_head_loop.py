"""Correct: a plain loop over query heads, each reading the feature slice of K/V head h // group."""

import math

import torch
from torch import nn


class GroupedQueryAttention(nn.Module):
    def __init__(self, d_model, num_heads, num_kv_heads):
        super().__init__()
        if num_kv_heads < 1 or num_heads < num_kv_heads or num_heads % num_kv_heads or d_model % num_heads:
            raise ValueError("need 1 <= num_kv_heads, num_heads a multiple of it, and d_model a multiple of num_heads")
        self.num_heads, self.group = num_heads, num_heads // num_kv_heads
        self.d_head = d_model // num_heads
        self.q_proj = nn.Linear(d_model, d_model, bias=False)
        self.k_proj = nn.Linear(d_model, num_kv_heads * self.d_head, bias=False)
        self.v_proj = nn.Linear(d_model, num_kv_heads * self.d_head, bias=False)
        self.o_proj = nn.Linear(d_model, d_model, bias=False)

    def forward(self, x, causal=False):
        T, d = x.shape[1], self.d_head
        q, k, v = self.q_proj(x), self.k_proj(x), self.v_proj(x)
        heads = []
        for h in range(self.num_heads):
            g = h // self.group
            qh, kh, vh = q[..., h * d:(h + 1) * d], k[..., g * d:(g + 1) * d], v[..., g * d:(g + 1) * d]
            scores = qh @ kh.transpose(1, 2) / math.sqrt(d)
            if causal:
                blocked = torch.arange(T)[None, :] > torch.arange(T)[:, None]
                scores = scores.masked_fill(blocked, -math.inf)
            heads.append(torch.softmax(scores, dim=-1) @ vh)
        return self.o_proj(torch.cat(heads, dim=-1))
