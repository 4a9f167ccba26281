"""Transformer 模型的精确参数量。

写出下面的函数，然后在本目录下运行 ``grade param_count``。每个函数都返回一个精确的
Python int：用标准 torch 模块（``nn.Linear``、``nn.LayerNorm``、``nn.Embedding``）构建出的模型，
``sum(p.numel() for p in model.parameters())`` 打印出的那个数。被两个模块共享的矩阵（权重共享）
只是一个参数，只算一次。你可以用公式计算，也可以构建 torch 模块来数（放在 ``device="meta"`` 上
不占内存）。

约定（评分器会逐条检查）：

* ``bias`` 的含义与 torch 的层相同：``bias=False`` 去掉所有偏置，包括注意力和前馈网络中
  ``nn.Linear`` 的 bias 以及 LayerNorm 的 beta，与
  ``nn.TransformerEncoderLayer(d_model, nhead, d_ff, bias=False)`` 完全一致。``nn.LayerNorm(d_model)``
  有 weight（gamma）和 bias（beta）；``nn.LayerNorm(d_model, bias=False)`` 只有 gamma。
* 多头注意力是 ``nn.MultiheadAttention(d_model, num_heads, bias=bias)``：W_q、W_k、W_v
  和输出投影 W_o，无论有几个头，每个都是 d_model x d_model。
* 前馈块是 ``nn.Linear(d_model, d_ff, bias)`` 接 ``nn.Linear(d_ff, d_model, bias)``。
* 编码器层：自注意力、前馈网络、2 个 LayerNorm。
* 解码器层：带掩码的自注意力、对编码器输出的交叉注意力、前馈网络、3 个 LayerNorm。
  没有交叉注意力时（纯解码器模型）：自注意力、前馈网络、2 个 LayerNorm。
"""


def count_mha(d_model, bias=True):
    """一个多头注意力块的参数量：W_q、W_k、W_v、W_o（以及它们的 bias）。"""
    raise NotImplementedError


def count_ffn(d_model, d_ff, bias=True):
    """前馈块 d_model -> d_ff -> d_model（两个 nn.Linear）的参数量。"""
    raise NotImplementedError


def count_layernorm(d_model, bias=True):
    """nn.LayerNorm(d_model, bias=bias) 的参数量。"""
    raise NotImplementedError


def count_encoder_layer(d_model, d_ff, bias=True):
    """一个编码器层的参数量：自注意力 + 前馈网络 + 2 个 LayerNorm。"""
    raise NotImplementedError


def count_decoder_layer(d_model, d_ff, bias=True, cross_attention=True):
    """一个解码器层的参数量。

    有 cross_attention 时：自注意力 + 交叉注意力 + 前馈网络 + 3 个 LayerNorm。
    没有时：自注意力 + 前馈网络 + 2 个 LayerNorm。
    """
    raise NotImplementedError


def count_transformer(config):
    """整个模型按部分统计的参数量。

    ``config`` 是一个 dict，包含这些键：

    * ``architecture``："encoder-decoder"、"encoder-only" 或 "decoder-only"；
    * ``d_model``、``num_heads``、``d_ff``；
    * ``num_encoder_layers``、``num_decoder_layers``（不适用的那个为 0）；
    * ``src_vocab_size``、``tgt_vocab_size``：纯编码器和纯解码器模型只有一个词表，此时两个键的值
      相同；大小为 0 表示没有词嵌入；
    * ``max_len``：位置数；
    * ``positional``："sinusoidal"（固定的编码表，没有参数）或 "learned"
      （每个堆叠一个 ``nn.Embedding(max_len, d_model)``：编码器和解码器各有自己的一个）；
    * ``bias``：注意力和前馈网络的 ``nn.Linear`` 以及各 LayerNorm（包括最后的）是否带偏置，
      与 torch 中 ``nn.Transformer`` 的 ``bias`` 参数相同；
    * ``tie_embeddings``："none"、"output"（输出投影的权重*就是*目标语言的嵌入矩阵；单堆叠模型
      则是它唯一的那个嵌入矩阵）或 "all"（源语言嵌入、目标语言嵌入和输出投影是同一个矩阵；
      单堆叠模型与 "output" 相同）；
    * ``final_norm``：每个堆叠最后一层之后再加一个 ``nn.LayerNorm(d_model, bias=bias)``
      （就像 pre-LN 模型和 ``nn.Transformer`` 那样）；
    * ``output_bias``：输出投影 ``nn.Linear(d_model, vocab)`` 是否带 bias。

    返回一个 dict，恰好包含下面这些 int 值，每个参数恰好计入其中一个键：

    * ``embeddings``：词嵌入矩阵（源语言和目标语言；tie_embeddings 为 "all" 时只有一个矩阵；
      单堆叠模型只有一个矩阵），以及可学习的位置编码表（如果有的话）；
    * ``encoder``：所有编码器层（num_encoder_layers x count_encoder_layer），没有则为 0；
    * ``decoder``：所有解码器层（num_decoder_layers x count_decoder_layer，只有编码器-解码器模型
      才有交叉注意力），没有则为 0；
    * ``final_norms``：最后的 LayerNorm（final_norm 为真时每个堆叠一个，否则为 0）；
    * ``output``：投影到目标词表（单堆叠模型则是它的词表）的输出层：它的权重（共享的权重已经
      计入 ``embeddings``，不再重复计算），以及 output_bias 为真时的 bias；
    * ``total``：以上五部分之和。
    """
    raise NotImplementedError
