"""用 torch 为因果自注意力实现键值缓存（KV cache）。

写出下面的类和函数，然后在本目录下运行 ``grade kv_cache``。

解码器一次只生成一个 token，而 token t 要关注 token 0 .. t 的键和值。其中 token 0 .. t-1
的键和值在前面的步骤里已经算过，而且不会再变：把它们保存下来（键值缓存），每次只投影新来的
token。不用缓存时，生成 n 个 token 一共要投影 1 + 2 + ... + n 个 token；用了缓存只需 n 个。

    调用              x           传入的缓存           返回的缓存（k 和 v）  y
    model(x)          t0 t1 t2    -                    (1, h, 3, d_head)     y0 y1 y2   （提示）
    model(x, cache)   t3          (1, h, 3, d_head)    (1, h, 4, d_head)     y3
    model(x, cache)   t4          (1, h, 4, d_head)    (1, h, 5, d_head)     y4

第 i 个新 token 位于位置 T_past + i。它可以关注所有已缓存的位置，以及新 token 中它自己和它
之前的那些：因果掩码要与键的“末尾”对齐。T_past = 3、T_new = 2 时：

                 键     t0 t1 t2 | t3 t4
      查询 t3            #  #  # |  #  .
      查询 t4            #  #  # |  #  #

约定（评分器会逐条检查）：

* 四个子模块分别命名为 ``q_proj``、``k_proj``、``v_proj``、``o_proj``，每个都是带 bias 的
  ``nn.Linear(d_model, d_model)``，没有其他参数。评分器会把自己的权重载入这些子模块。
  第 i 个头使用第 [i * d_head, (i + 1) * d_head) 个特征，d_head = d_model // num_heads。
* x 的形状为 (B, T_new, d_model)。cache 为 None 或元组 (k, v)，两者的形状都是
  (B, num_heads, T_past, d_head)。返回 (y, cache)：y 的形状为 (B, T_new, d_model)；
  新的缓存包含全部 T_past + T_new 个位置。
* 只投影新 token，并把投影当作模块来调用（``self.k_proj(x)``）：评分器用 forward hook
  统计它们处理了多少行。
* 无论怎样切分，结果都一样：一条序列一次全部输入、分块输入或逐个 token 输入，每次调用都
  返回完整因果前向计算中对应的那几行。不是由你的模块生成的缓存也要能用。
* 不要修改传入的缓存（返回新的张量）；批量中的各行互不影响；float16 和 bfloat16 的模块
  配同样 dtype 的输入，返回的输出和缓存也是这个 dtype。
"""

import torch
from torch import nn


class CachedSelfAttention(nn.Module):
    """接收并返回键值缓存的多头因果自注意力。

    Args:
        d_model: 模型宽度，能被 num_heads 整除。
        num_heads: 头数 h；每个头有 d_head = d_model // num_heads 个特征。
    """

    def __init__(self, d_model, num_heads):
        super().__init__()
        raise NotImplementedError

    def forward(self, x, cache=None):
        """让新 token 关注已缓存的 token 以及彼此（按因果顺序）。

        Args:
            x: (B, T_new, d_model)，新 token。
            cache: None，或过去的元组 (k, v)，两者的形状都是 (B, num_heads, T_past, d_head)。

        Returns:
            (y, cache)：y 的形状为 (B, T_new, d_model)；cache 为 (k, v)，两者的形状都是
            (B, num_heads, T_past + T_new, d_head)，先是过去，后面接着新 token。
        """
        raise NotImplementedError


def kv_cache_bytes(num_layers, batch, seq_len, num_kv_heads, d_head, bytes_per_value):
    """整个模型的键值缓存占多少字节。

    Args:
        num_layers: 模型中注意力层的层数（每层都有自己的缓存）。
        batch: 一起解码的序列条数。
        seq_len: 每条序列的 token 数。
        num_kv_heads: 有键和值的头数（使用分组查询注意力时少于查询头数，例如 Llama-3-8B 为 8）。
        d_head: 每个头的特征数。
        bytes_per_value: float16 或 bfloat16 为 2，int8 为 1，float32 为 4。

    Returns:
        int，字节数。
    """
    raise NotImplementedError
