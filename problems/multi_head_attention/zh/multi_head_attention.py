"""用 torch 实现多头注意力（一个 nn.Module）。

写出下面的类，然后在本目录下运行 ``grade multi_head_attention``。

    head_i = softmax(Q_i K_i^T / sqrt(d_k)) V_i          其中 d_k = d_model / num_heads
    output = concat(head_1, ..., head_h) W_o

约定（评分器会逐条检查）：

* 批量维度在前：query 为 (B, L_q, d_model)；key 和 value 为 (B, L_k, d_model)；L_q 可以不等于 L_k。
* 四个子模块分别命名为 ``W_q``、``W_k``、``W_v``、``W_o``，每个都是 ``nn.Linear(d_model, d_model, bias=bias)``，
  没有其他参数。评分器会用 ``load_state_dict`` 把自己的权重载入这些子模块。
* 第 i 个头使用投影后特征中的 ``[i * d_k, (i + 1) * d_k)`` 部分（与 ``nn.MultiheadAttention`` 相同）。
* ``mask`` 是布尔张量，可以广播到 (B, num_heads, L_q, L_k)，例如 (L_q, L_k) 或 (B, 1, 1, L_k)。
  **True 表示该查询可以关注这个键。**
* 没有任何可关注键的查询行，权重全为 0（上下文向量也为 0），绝不能是 NaN。
* dropout 作用在注意力权重上，且只在 train 模式下生效。保持输入的 dtype 和设备
  （输入 float32 则输出 float32；输入 float64 则输出 float64；meta 设备也要能用）。
* 从零实现：不能用 ``F.scaled_dot_product_attention``，也不能用 ``nn.MultiheadAttention``。
"""

import torch
from torch import nn


class MultiHeadAttention(nn.Module):
    """多头缩放点积注意力。

    Args:
        d_model: 模型宽度；必须能被 num_heads 整除（否则抛出 ValueError）。
        num_heads: 头数 h；每个头有 d_k = d_model // num_heads 个特征。
        bias: 四个 nn.Linear 投影是否带 bias。
        dropout: 注意力权重上的 dropout 概率（只在 train 模式下生效）。
    """

    def __init__(self, d_model, num_heads, bias=True, dropout=0.0):
        super().__init__()
        raise NotImplementedError

    def forward(self, query, key, value, mask=None):
        """每个查询位置对所有键/值位置做注意力。

        Args:
            query: (B, L_q, d_model)。
            key: (B, L_k, d_model)。
            value: (B, L_k, d_model)。
            mask: 可选的布尔张量，可广播到 (B, num_heads, L_q, L_k)；True 表示可以关注。

        Returns:
            (output, weights)：output 形状为 (B, L_q, d_model)，注意力权重 weights 形状为
            (B, num_heads, L_q, L_k)，每行在允许关注的键上求和为 1（若没有可关注的键，则全为 0）。
        """
        raise NotImplementedError
