"""Fault: a matmul loop that never ends, at import (a "warm-up" gone wrong): one timeout, then every check ends."""

import torch
from torch import nn

_w = torch.randn(512, 512)
while True:
    _w = torch.tanh(_w @ _w)


class MultiHeadAttention(nn.Module):
    pass
