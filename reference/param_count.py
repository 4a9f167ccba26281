"""Reference solution: exact parameter counts of a Transformer, from its parts.

Every count is what ``sum(p.numel() for p in model.parameters())`` gives for the matching torch
modules (``nn.Linear``, ``nn.LayerNorm``, ``nn.Embedding``); shared (tied) matrices count once.

* ``nn.Linear(n_in, n_out, bias)`` has n_in·n_out weights (+ n_out biases);
* ``nn.LayerNorm(d)`` has a scale γ and a shift β: 2d; ``nn.LayerNorm(d, bias=False)`` only γ: d;
* multi-head attention has W_q, W_k, W_v, W_o, each d×d whatever the number of heads
  (h heads of size d_k = d/h side by side), so 4d² (+ 4d biases);
* the feed-forward block is Linear(d, d_ff) then Linear(d_ff, d);
* sinusoidal positions are a fixed buffer: 0 parameters. Learned positions: max_len·d per stack.

``bias`` means what torch's ``bias`` argument means (``nn.TransformerEncoderLayer(..., bias=False)``):
False removes every bias, the Linear layers' and LayerNorm's β alike.
"""

from __future__ import annotations


def count_linear(n_in: int, n_out: int, bias: bool = True) -> int:
    """nn.Linear(n_in, n_out): a weight matrix and, optionally, a bias vector."""
    return n_in * n_out + (n_out if bias else 0)


def count_mha(d_model: int, bias: bool = True) -> int:
    """Multi-head attention: W_q, W_k, W_v and W_o, each d_model × d_model (all heads together)."""
    return 4 * count_linear(d_model, d_model, bias)  # 4d² (+ 4d)


def count_ffn(d_model: int, d_ff: int, bias: bool = True) -> int:
    """Position-wise feed-forward block: d_model → d_ff → d_model."""
    return count_linear(d_model, d_ff, bias) + count_linear(d_ff, d_model, bias)  # 2·d·d_ff (+ d_ff + d)


def count_layernorm(d_model: int, bias: bool = True) -> int:
    """LayerNorm over d_model features: γ, and β unless bias is False."""
    return 2 * d_model if bias else d_model


def count_encoder_layer(d_model: int, d_ff: int, bias: bool = True) -> int:
    """Self-attention, feed-forward, and one LayerNorm after (or before) each of the two."""
    return count_mha(d_model, bias) + count_ffn(d_model, d_ff, bias) + 2 * count_layernorm(d_model, bias)


def count_decoder_layer(d_model: int, d_ff: int, bias: bool = True, cross_attention: bool = True) -> int:
    """Masked self-attention, cross-attention over the encoder (optional), feed-forward; a LayerNorm each."""
    sublayers = 3 if cross_attention else 2
    attention = (sublayers - 1) * count_mha(d_model, bias)
    return attention + count_ffn(d_model, d_ff, bias) + sublayers * count_layernorm(d_model, bias)


def count_transformer(config: dict) -> dict:
    """Counts per part of the model described by ``config``; ``total`` is their sum."""
    arch = config["architecture"]
    d, d_ff, bias = config["d_model"], config["d_ff"], config["bias"]
    has_encoder = arch in ("encoder-decoder", "encoder-only")
    has_decoder = arch in ("encoder-decoder", "decoder-only")
    stacks = int(has_encoder) + int(has_decoder)
    tie = config["tie_embeddings"]

    # Token embeddings. An encoder-decoder model has a source and a target table (one if tied "all");
    # a single-stack model has one table for its one vocabulary.
    if arch == "encoder-decoder":
        out_vocab = config["tgt_vocab_size"]
        tables = [config["src_vocab_size"]] if tie == "all" else [config["src_vocab_size"], out_vocab]
    else:
        out_vocab = config["src_vocab_size"] if arch == "encoder-only" else config["tgt_vocab_size"]
        tables = [out_vocab]
    embeddings = sum(vocab * d for vocab in tables)
    if config["positional"] == "learned":
        embeddings += stacks * config["max_len"] * d  # one learned position table per stack

    encoder = config["num_encoder_layers"] * count_encoder_layer(d, d_ff, bias) if has_encoder else 0
    decoder = (
        config["num_decoder_layers"] * count_decoder_layer(d, d_ff, bias, cross_attention=has_encoder)
        if has_decoder
        else 0
    )
    final_norms = stacks * count_layernorm(d, bias) if config["final_norm"] else 0

    tied = tie in ("output", "all")  # the output projection reuses the (target) embedding matrix
    output = (0 if tied else d * out_vocab) + (out_vocab if config["output_bias"] else 0)

    parts = {
        "embeddings": embeddings,
        "encoder": encoder,
        "decoder": decoder,
        "final_norms": final_norms,
        "output": output,
    }
    parts["total"] = sum(parts.values())
    return parts
