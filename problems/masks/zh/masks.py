"""用 torch 实现注意力掩码和带掩码的 softmax。

写出下面四个函数，然后在本目录下运行 ``grade masks``。

约定（评分器会逐条检查）：

* 每个掩码都是 ``torch.bool`` 张量，**True 表示“可以关注”**（与
  ``F.scaled_dot_product_attention`` 相同）；掩码要能与形状为 (B, h, L_q, L_k) 的分数广播。
* 因果掩码与末尾对齐，就像用键值缓存解码时那样：查询 i 可以关注键 j 当且仅当
  ``j <= i + (L_k - L_q)``。L_q == L_k 时就是含对角线的下三角。
* 填充掩码屏蔽的是键（最后一个轴），从不屏蔽查询。
* 没有任何可关注键的查询行，权重全为 0，绝不能是 NaN。
* 不修改输入。结果与输入在同一设备上（可以用 ``meta`` 设备试试），并保持分数的浮点 dtype：
  输入 float16 则输出 float16，且不能溢出。
"""

import torch


def causal_mask(L_q, L_k=None, *, device=None):
    """L_q 个查询对 L_k 个键的因果掩码（L_k 默认等于 L_q）。

    Returns:
        位于 ``device`` 上的 BoolTensor (L_q, L_k)：查询 i 可以关注键 j 的位置为 True，
        即 j <= i + (L_k - L_q)。
    """
    raise NotImplementedError


def padding_mask(tokens, pad_id):
    """一批 token id 的键填充掩码。

    Args:
        tokens: LongTensor (B, L)，token id。
        pad_id: 用于填充的 id。

    Returns:
        BoolTensor (B, 1, 1, L)：真实 token 处为 True（可以在头和查询两个维度上广播）。
    """
    raise NotImplementedError


def decoder_mask(tokens, pad_id):
    """解码器自注意力的掩码：因果掩码与键填充掩码取“与”。

    Args:
        tokens: LongTensor (B, L)，token id。
        pad_id: 用于填充的 id。

    Returns:
        BoolTensor (B, 1, L, L)。
    """
    raise NotImplementedError


def masked_softmax(scores, valid_lens=None):
    """沿最后一个轴做 softmax，忽略位置 >= valid_len 的键。

    Args:
        scores: (B, L_q, L_k) 浮点张量（float16、float32 或 float64）。
        valid_lens: None（不加掩码）、LongTensor (B,)（每个样本一个长度）或
            (B, L_q)（每个查询一个长度）。

    Returns:
        一个与 ``scores`` 同形状、同 dtype 的新张量：每行在前 valid_len 个键上求和为 1，其余键的
        权重恰好为 0，valid_len 为 0 的行全为 0。不修改 ``scores``。
    """
    raise NotImplementedError
