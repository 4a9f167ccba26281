"""用 numpy 实现 FlashAttention 的分块在线 softmax。

写出下面的函数，然后在本目录下运行 ``grade flash_attention``。

    O = softmax(q k^T / sqrt(d)) v

普通的注意力会生成整个分数矩阵 S = q k^T / sqrt(d)，形状为 (n_q, n_k)；在 n = 4096、float64 下
它有 128 MiB。FlashAttention 不保存 S 也能得到同样的 O：它每次只计算一个 block_size 个查询 ×
block_size 个键的小块（tile），并为每个查询行维护

    m    到目前为止见过的最大分数                      (n_q,)
    l    到目前为止所有键的 exp(score - m) 之和          (n_q,)
    acc  到目前为止所有键的 exp(score - m) * v 之和      (n_q, d)

两个累加和都是相对当前的 m 计算的。想一想：当新的小块带来比 m 更大的分数时，它们应该怎么变？
处理完最后一个键块后，O = acc / l（只归一化一次）。

    n_q = n_k = 10，block_size = 4
                 键 0-3    键 4-7    键 8-9        causal=True
    查询 0-3       S00       S01       S02           ◩   .   .      ■ 整块计算
    查询 4-7       S10       S11       S12           ■   ◩   .      ◩ 块内加掩码
    查询 8-9       S20       S21       S22           ■   ■   ◩      . 跳过
    第 i 个查询块：m、l、acc 依次并入 S_i0、S_i1、S_i2；O_i = acc / l

约定（评分器会逐条检查）：

* q 为 (n_q, d)，k 和 v 为 (n_k, d)，全部是 float64；返回 (n_q, d) 的 float64 数组。
* ``block_size`` 不一定能整除 n_q 或 n_k（最后一块更短）；1 和 >= n 的情况都要正确。
* ``causal=True`` 时 n_q = n_k：查询 i 只关注键 0 .. i，包括它自己。
* 分数可能达到 +-1000 甚至更大：任何地方都不能溢出或出现 NaN。
* 任何时候都不能持有 (n_q, n_k) 的数组：评分器会在 n = 4096、d = 64 时测量你的内存峰值。
* 不要修改 q、k、v。只用 numpy。
"""

import numpy as np


def flash_attention(q, k, v, block_size=64, causal=False):
    """用在线 softmax 逐块计算 softmax(q k^T / sqrt(d)) v。

    Args:
        q: (n_q, d) 查询，float64。
        k: (n_k, d) 键，float64。
        v: (n_k, d) 值，float64。
        block_size: 每个小块中查询的个数，也是键的个数。
        causal: 为 True 时（n_q = n_k），查询 i 只关注键 0 .. i。

    Returns:
        (n_q, d) 的 float64 数组，除舍入误差外与普通注意力相同。
    """
    raise NotImplementedError
