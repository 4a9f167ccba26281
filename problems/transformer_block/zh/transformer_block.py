"""Transformer 编码器块：实现一个 torch nn.Module，支持后置 LN 和前置 LN。

写好下面的类，然后在本目录下运行 ``grade transformer_block``。

两个子层：自注意力（SA）和逐位置前馈网络（FFN），各自包上残差连接和 LayerNorm：

    后置 LN（norm_first=False，2017 年原论文）：x = norm1(x + SA(x))；   x = norm2(x + FFN(x))
    前置 LN（norm_first=True，GPT-2 及之后）：  x = x + SA(norm1(x))；   x = x + FFN(norm2(x))
    FFN(x) = linear2(dropout(relu(linear1(x))))

约定（评分器会逐条检查）：

* 属性名与 ``nn.TransformerEncoderLayer`` 一致，评分器才能用 ``load_state_dict`` 载入它的权重：
  ``self_attn``、``linear1``（d_model -> d_ff）、``linear2``（d_ff -> d_model）、
  ``norm1``、``norm2``（``nn.LayerNorm(d_model)``），没有其他参数。
* ``self_attn`` 可以是 ``nn.MultiheadAttention(d_model, num_heads, dropout=dropout, batch_first=True)``，
  也可以是你自己写的模块，只要参数的名字和形状与它相同：``in_proj_weight``（3*d_model, d_model）、
  ``in_proj_bias``（3*d_model,）、``out_proj``（一个 nn.Linear(d_model, d_model)）。
* x 的形状为 (B, T, d_model)，输出形状相同。
* ``mask``（T, T）和 ``padding_mask``（B, T）是布尔张量，**True 表示可以关注 / 真实 token**。
  nn.MultiheadAttention 对布尔掩码的理解正好相反（True 表示屏蔽 / 填充）。
* 每个子层之后和 FFN 内部都有 dropout，且只在 train 模式下生效。
* 不能用 ``nn.TransformerEncoderLayer``、``nn.TransformerEncoder`` 或 ``nn.Transformer``。
"""

import torch
from torch import nn


class TransformerBlock(nn.Module):
    """一个编码器块。

    Args:
        d_model: 模型宽度。
        num_heads: 注意力头数；d_model 必须能被 num_heads 整除。
        d_ff: 前馈网络的隐藏层宽度。
        dropout: dropout 概率（只在 train 模式下生效）。
        norm_first: False 表示后置 LN（残差相加之后再归一化），True 表示前置 LN。
    """

    def __init__(self, d_model, num_heads, d_ff, dropout=0.0, norm_first=False):
        super().__init__()
        raise NotImplementedError

    def forward(self, x, mask=None, padding_mask=None):
        """对输入应用这个块。

        Args:
            x: (B, T, d_model)。
            mask: 可选，布尔张量 (T, T)；token i 可以关注 token j 时 mask[i, j] 为 True。
            padding_mask: 可选，布尔张量 (B, T)；真实 token 为 True，填充为 False。

        Returns:
            (B, T, d_model)。
        """
        raise NotImplementedError
