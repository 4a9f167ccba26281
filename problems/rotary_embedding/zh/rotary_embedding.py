"""用 torch 实现旋转位置编码（RoPE）。

写出下面的函数，然后在本目录下运行 ``grade rotary_embedding``。

RoPE 通过旋转查询和键来编码 token 的位置，每次旋转两个特征。位置为 p 的 token，
第 i 对特征（i = 0 .. d/2 - 1）旋转的角度是

    theta_i = p * base ** (-2 i / d)

    (a, b)  ->  (a * cos(theta_i) - b * sin(theta_i),  b * cos(theta_i) + a * sin(theta_i))

第 0 对每个位置转 1 弧度，最后一对大约慢 ``base`` 倍。由于旋转可以复合，
<rope(q, m), rope(k, n)> 只通过 m - n 依赖于 m 和 n：注意力看到的是相对位置。

哪两个特征组成第 i 对是一种约定，不同模型的权重并不一致：

    d = 8                 第 0 对    第 1 对    第 2 对    第 3 对
    interleaved=False    (x0, x4)  (x1, x5)  (x2, x6)  (x3, x7)   前后两半配对（GPT-NeoX、HF 的 Llama）
    interleaved=True     (x0, x1)  (x2, x3)  (x4, x5)  (x6, x7)   相邻配对（原论文、Meta 的 Llama 代码）

约定（评分器会逐条检查）：

* x 的形状为 (..., T, d)，d 为偶数：前面可以有任意的批量维度和头维度。
* positions 是形状为 (T,) 的整数张量：x 的第 t 行位于位置 positions[t]。它不一定从 0 开始
  （使用键值缓存解码时，新 token 从 T_past 开始）。
* 返回与 x 形状、dtype 都相同的张量。对于 float16 和 bfloat16 输入，角度要用 float32 计算
  （半精度甚至无法表示 3001 这样的位置），最后再把结果转换回去。
* 不要修改 x。
"""

import torch


def apply_rotary(x, positions, base=10000.0, interleaved=False):
    """把 x 的每一对特征按其位置对应的角度旋转。

    Args:
        x: (..., T, d) 张量，d 为偶数（查询或键，可以带任意的批量维度和头维度）。
        positions: (T,) 整数张量，T 行各自的位置。
        base: 频率的底数，theta_i = p * base ** (-2 i / d)。
        interleaved: False 时 x[..., i] 与 x[..., i + d/2] 配对；True 时 x[..., 2i] 与 x[..., 2i + 1] 配对。

    Returns:
        与 x dtype 相同的 (..., T, d) 张量。
    """
    raise NotImplementedError
