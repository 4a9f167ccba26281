"""用 numpy 实现缩放点积注意力。

写出下面三个函数，然后在本目录下运行 ``grade self_attention``。

    Attention(Q, K, V) = softmax(Q K^T / sqrt(d_k)) V

约定（评分器会逐条检查）：

* 形状：Q (..., L_q, d_k)，K (..., L_k, d_k)，V (..., L_k, d_v)。前面可以有任意多个
  批量维度（"..."）。
* ``mask`` 是布尔数组，可以广播到 (..., L_q, L_k)。**True 表示该查询可以关注这个键**；
  False 表示对这个查询屏蔽该键。
* 如果某个查询行的所有键都被屏蔽，它的权重全为 0，输出行也全为 0（不是 NaN）。
* 不要修改输入数组。输入 float32 则输出 float32，输入 float64 则输出 float64。
* 只用 numpy。投影采用行向量约定：``Q = X @ W_q``。
"""

import numpy as np


def softmax(x, axis=-1):
    """沿 ``axis`` 对 ``x`` 做 softmax，输入很大时也要数值稳定。

    Args:
        x: 任意形状的数组。
        axis: 求和为 1 的那个轴。

    Returns:
        与 ``x`` 形状、dtype 都相同的数组。
    """
    raise NotImplementedError


def scaled_dot_product_attention(Q, K, V, mask=None):
    """查询 Q 对键 K 做注意力，再对值 V 加权平均。

    Args:
        Q: (..., L_q, d_k) 查询。
        K: (..., L_k, d_k) 键。
        V: (..., L_k, d_v) 值。
        mask: 可选的布尔数组，可广播到 (..., L_q, L_k)；True 表示可以关注。

    Returns:
        (output, weights)：output 形状为 (..., L_q, d_v)，注意力权重 weights 形状为 (..., L_q, L_k)；
        weights 的每一行在允许关注的键上求和为 1（若没有可关注的键，则全为 0）。
    """
    raise NotImplementedError


def self_attention(X, W_q, W_k, W_v, mask=None):
    """对 X 的各行做自注意力。

    Args:
        X: (..., L, d_model) 输入。
        W_q, W_k: (d_model, d_k) 查询投影和键投影。
        W_v: (d_model, d_v) 值投影。
        mask: 可选的布尔数组，可广播到 (..., L, L)；True 表示可以关注。

    Returns:
        (output, weights)：形状分别为 (..., L, d_v) 和 (..., L, L)。
    """
    raise NotImplementedError
