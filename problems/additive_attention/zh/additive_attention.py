"""加性注意力（Bahdanau 注意力）：实现一个 torch nn.Module。

写好下面的类，然后在本目录下运行 ``grade additive_attention``。

点积注意力要求查询和键的维度相同，加性注意力则不需要：它用一个只有一个隐藏层的小网络给每一对
（查询，键）打分：

    score(q, k) = w_v^T tanh(W_q q + W_k k)
    weights     = 分数沿键的方向（最后一个轴）做 softmax
    output      = weights @ values

约定（评分器会逐条检查）：

* 三个子模块，都是 ``nn.Linear(..., bias=False)``，没有其他参数：
  ``W_k``（key_size -> num_hiddens）、``W_q``（query_size -> num_hiddens）、``w_v``（num_hiddens -> 1）。
  评分器会用 ``load_state_dict`` 把自己的权重载入这三个子模块。
* 每个查询都要与每个键相加。请用广播来做：形状为 (B, n_q, 1, h) 的张量加上形状为 (B, 1, n_k, h)
  的张量，得到 (B, n_q, n_k, h)。用 Python 循环遍历查询或键，数值虽然正确，但慢得多，评分器会发现。
* ``valid_lens`` 为 None（所有键都有效）、形状为 (B,) 的张量（每个样本一个长度）或形状为 (B, n_q)
  的张量（每个查询一个长度）。位置 >= valid_len 的键权重恰好为 0，每行权重在有效的键上之和为 1。
  valid_len 为 0 的查询，权重全为 0（输出也为 0），绝不能是 NaN。
* 把权重保存在 ``self.attention_weights`` 中，形状为 (B, n_q, n_k)。
"""

import torch
from torch import nn


class AdditiveAttention(nn.Module):
    """加性注意力。

    Args:
        key_size: 键的特征数。
        query_size: 查询的特征数（可以与 key_size 不同）。
        num_hiddens: 隐藏层的大小 h，投影后的查询和键在这里相加。
    """

    def __init__(self, key_size, query_size, num_hiddens):
        super().__init__()
        raise NotImplementedError

    def forward(self, queries, keys, values, valid_lens=None):
        """从每个查询关注各个键，返回值的加权和。

        Args:
            queries: (B, n_q, query_size)。
            keys: (B, n_k, key_size)。
            values: (B, n_k, d_v)。
            valid_lens: None、(B,) 或 (B, n_q) 的整数张量：每个查询可以看到多少个键。

        Returns:
            (B, n_q, d_v)。同时把形状为 (B, n_q, n_k) 的权重保存到 self.attention_weights。
        """
        raise NotImplementedError
