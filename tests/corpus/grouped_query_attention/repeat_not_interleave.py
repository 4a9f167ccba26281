"""Wrong: K/V heads tiled with repeat (k0 k1 k0 k1 ...), so query head h reads K/V head h % num_kv_heads
instead of h // group. Right for MQA and MHA, where both orders agree."""

import math

import torch
from torch import nn


class GroupedQueryAttention(nn.Module):
    def __init__(self, d_model, num_heads, num_kv_heads):
        super().__init__()
        if num_heads < 1 or num_kv_heads < 1 or d_model % num_heads or num_heads % num_kv_heads:
            raise ValueError("invalid head counts")
        self.num_heads, self.num_kv_heads = num_heads, num_kv_heads
        self.d_head = d_model // num_heads
        self.q_proj = nn.Linear(d_model, d_model, bias=False)
        self.k_proj = nn.Linear(d_model, num_kv_heads * self.d_head, bias=False)
        self.v_proj = nn.Linear(d_model, num_kv_heads * self.d_head, bias=False)
        self.o_proj = nn.Linear(d_model, d_model, bias=False)

    def forward(self, x, causal=False):
        B, T, D = x.shape
        group = self.num_heads // self.num_kv_heads
        q = self.q_proj(x).view(B, T, self.num_heads, self.d_head).transpose(1, 2)
        k = self.k_proj(x).view(B, T, self.num_kv_heads, self.d_head).transpose(1, 2)
        v = self.v_proj(x).view(B, T, self.num_kv_heads, self.d_head).transpose(1, 2)
        k, v = k.repeat(1, group, 1, 1), v.repeat(1, group, 1, 1)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_head)
        if causal:
            scores = scores.masked_fill(torch.ones(T, T, dtype=torch.bool).triu(1), float("-inf"))
        out = torch.softmax(scores, dim=-1) @ v
        return self.o_proj(out.transpose(1, 2).reshape(B, T, D))
