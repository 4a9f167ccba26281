"""正弦位置编码：一张 numpy 编码表，以及一个 torch 模块。

写出下面的函数和类，然后在本目录下运行 ``grade positional_encoding``。

    PE[pos, 2i]     = sin(pos / base^(2i / d_model))
    PE[pos, 2i + 1] = cos(pos / base^(2i / d_model))

约定（评分器会逐条检查）：

* 位置从 0 开始数，所以第 0 行是 [0, 1, 0, 1, ...]。
* 交错排列：第 2i 列放 sin，第 2i + 1 列放*同一*频率 omega_i = base^(-2i / d_model) 的 cos。
  这里 i 是第几对（0, 1, 2, ...），所以第 2i 列的指数是 2i / d_model（不是 4i / d_model，
  也不是 i / d_model）。
* d_model 为奇数时，最后一列是最后一对的 sin（共有 ceil(d_model / 2) 列 sin）。
* numpy 编码表的 dtype 是 float64。
* 模块把编码表保存在名为 ``pe`` 的注册缓冲区中（不是参数，也不是普通属性），这样它会跟随
  ``.to(dtype)`` / ``.to(device)``，并保存在 ``state_dict()`` 里。
"""

import numpy as np
import torch
from torch import nn


def sinusoidal_encoding(max_len, d_model, base=10000.0):
    """正弦位置编码表。

    Args:
        max_len: 位置数（行数），至少为 1；位置为 0 .. max_len - 1。
        d_model: 编码维度（列数），至少为 1；可以是奇数。
        base: 波长的底数（论文中为 10000）。

    Returns:
        形状为 (max_len, d_model) 的 float64 numpy 数组：偶数列为 sin，奇数列为 cos。

    Raises:
        ValueError: 当 max_len < 1 或 d_model < 1 时。
    """
    raise NotImplementedError


class PositionalEncoding(nn.Module):
    """把正弦编码表加到批量维度在前的输入上。

    ``__init__`` 构造 (max_len, d_model) 的编码表，并把它注册为缓冲区 ``pe``。
    ``forward(x)`` 接收形状为 (B, L, d_model) 的 x，返回 ``x + pe[:L]``，形状、dtype 和设备都与
    x 相同；L > max_len 时抛出 ValueError。
    """

    def __init__(self, d_model, max_len=5000, base=10000.0):
        super().__init__()
        raise NotImplementedError

    def forward(self, x):
        """x: (B, L, d_model) -> (B, L, d_model)，即 x 加上位置 0 .. L - 1 的编码。"""
        raise NotImplementedError
