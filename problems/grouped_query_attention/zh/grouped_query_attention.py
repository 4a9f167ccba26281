"""用 torch 实现分组查询注意力（GQA），写成一个 nn.Module。

写出下面的类，然后在本目录下运行 ``grade grouped_query_attention``。

生成文本时，解码器要缓存每个历史 token 的键和值。普通的多头注意力在每一层缓存 num_heads 个头的
K 和 V；上下文一长，占满内存的就是这份缓存，而不是模型权重。GQA 保留 num_heads 个查询头，
但只计算 num_kv_heads 个头的键和值；每个键值头由一组相邻的查询头共享：

    group  = num_heads // num_kv_heads          每个键值头对应的查询头数
    d_head = d_model // num_heads               每个头的特征数（查询、键、值都一样）

    head_h = softmax(Q_h K_g^T / sqrt(d_head)) V_g     其中 g = h // group
    output = concat(head_0, ..., head_{num_heads-1}) W_o

    num_heads = 6，num_kv_heads = 2，group = 3：
        查询头         q0  q1  q2 | q3  q4  q5
        读取的键值头   k0  k0  k0 | k1  k1  k1      g = h // group  （k.repeat_interleave(group, dim=1)）
        而不是         k0  k1  k0 | k1  k0  k1      h % num_kv_heads（k.repeat(1, group, 1, 1)）

num_kv_heads == num_heads 就是多头注意力（MHA）；num_kv_heads == 1 是多查询注意力（MQA）：
所有查询头读取同一组键和值。键值缓存缩小为原来的 1/group。

约定（评分器会逐条检查）：

* 四个子模块，都没有 bias：``q_proj`` 和 ``o_proj`` 是 ``nn.Linear(d_model, d_model)``，
  ``k_proj`` 和 ``v_proj`` 是 ``nn.Linear(d_model, num_kv_heads * d_head)``。没有其他参数。
  评分器会用 ``load_state_dict`` 把自己的权重载入这些子模块。
* 第 i 个头（查询头或键值头）使用投影后特征中的 ``[i * d_head, (i + 1) * d_head)`` 部分。
* 查询头 h 读取键值头 ``h // group``，与 Llama 模型权重（``repeat_kv``）以及
  ``F.scaled_dot_product_attention(..., enable_gqa=True)`` 一致。
* ``causal=True``：位置 t 的查询只关注键 0 .. t。
* 头数不合法时抛出 ValueError，并在信息中说明是哪一条：某个头数小于 1、d_model 不能被 num_heads
  整除、num_heads 不是 num_kv_heads 的倍数。先检查，再做除法。
"""

import torch
from torch import nn


class GroupedQueryAttention(nn.Module):
    """num_heads 个查询头共享 num_kv_heads 个键值头的自注意力。

    Args:
        d_model: 模型宽度；必须能被 num_heads 整除。
        num_heads: 查询头的个数；每个头有 d_head = d_model // num_heads 个特征。
        num_kv_heads: 键值头的个数；num_heads 必须是它的倍数。
    """

    def __init__(self, d_model, num_heads, num_kv_heads):
        super().__init__()
        raise NotImplementedError

    def forward(self, x, causal=False):
        """从 x 的每个位置关注所有位置（causal 为 True 时只关注之前的位置和自身）。

        Args:
            x: (B, T, d_model)。
            causal: 为 True 时，位置 t 只关注位置 0 .. t。

        Returns:
            (B, T, d_model)。
        """
        raise NotImplementedError
