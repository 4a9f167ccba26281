"""Wrong: the scores are never scaled by 1/sqrt(d_head)."""

import torch
from torch import nn


class GroupedQueryAttention(nn.Module):
    def __init__(self, d_model, num_heads, num_kv_heads):
        super().__init__()
        if num_heads < 1 or num_kv_heads < 1 or d_model % num_heads or num_heads % num_kv_heads:
            raise ValueError("invalid head counts")
        self.heads, self.kv_heads, self.size = num_heads, num_kv_heads, d_model // num_heads
        self.q_proj = nn.Linear(d_model, d_model, bias=False)
        self.k_proj = nn.Linear(d_model, num_kv_heads * self.size, bias=False)
        self.v_proj = nn.Linear(d_model, num_kv_heads * self.size, bias=False)
        self.o_proj = nn.Linear(d_model, d_model, bias=False)

    def forward(self, x, causal=False):
        B, T, D = x.shape
        q = self.q_proj(x).reshape(B, T, self.heads, self.size).permute(0, 2, 1, 3)
        k = self.k_proj(x).reshape(B, T, self.kv_heads, self.size).permute(0, 2, 3, 1)  # (B, kv, d, T)
        v = self.v_proj(x).reshape(B, T, self.kv_heads, self.size).permute(0, 2, 1, 3)
        k = torch.repeat_interleave(k, self.heads // self.kv_heads, dim=1)
        v = torch.repeat_interleave(v, self.heads // self.kv_heads, dim=1)
        scores = torch.matmul(q, k)
        if causal:
            scores = scores.masked_fill(torch.triu(torch.ones(T, T, dtype=torch.bool), 1), float("-inf"))
        out = torch.matmul(torch.softmax(scores, dim=-1), v)
        return self.o_proj(out.permute(0, 2, 1, 3).reshape(B, T, D))
