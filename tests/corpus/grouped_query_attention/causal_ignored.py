"""Wrong: forward accepts causal and never reads it; every query sees the whole sequence."""

import math

import torch
from torch import nn


class GroupedQueryAttention(nn.Module):
    def __init__(self, d_model, num_heads, num_kv_heads):
        super().__init__()
        if num_heads < 1 or num_kv_heads < 1 or d_model % num_heads or num_heads % num_kv_heads:
            raise ValueError("invalid head counts")
        self.h, self.kv, self.dh = num_heads, num_kv_heads, d_model // num_heads
        self.q_proj = nn.Linear(d_model, d_model, bias=False)
        self.k_proj = nn.Linear(d_model, num_kv_heads * self.dh, bias=False)
        self.v_proj = nn.Linear(d_model, num_kv_heads * self.dh, bias=False)
        self.o_proj = nn.Linear(d_model, d_model, bias=False)

    def forward(self, x, causal=False):
        B, T, D = x.shape
        q = self.q_proj(x).view(B, T, self.h, self.dh).transpose(1, 2)
        k = self.k_proj(x).view(B, T, self.kv, self.dh).transpose(1, 2).repeat_interleave(self.h // self.kv, 1)
        v = self.v_proj(x).view(B, T, self.kv, self.dh).transpose(1, 2).repeat_interleave(self.h // self.kv, 1)
        weights = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(self.dh), dim=-1)
        return self.o_proj((weights @ v).transpose(1, 2).reshape(B, T, D))
