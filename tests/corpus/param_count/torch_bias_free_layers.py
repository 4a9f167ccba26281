"""Correct, the way a learner checks a count: torch's own Transformer layers, bias switched off by torch.

Every count is ``sum(p.numel() ...)`` of ``nn.TransformerEncoderLayer``, ``nn.TransformerDecoderLayer``,
``nn.MultiheadAttention``, ``nn.LayerNorm`` and ``nn.Linear`` built on the meta device with the
``bias`` argument passed straight to torch, so ``bias=False`` drops LayerNorm's beta as torch does.
"""

import torch
from torch import nn

META = torch.device("meta")


def _numel(*modules):
    seen = {}
    for module in modules:
        for p in module.parameters():
            seen[id(p)] = p.numel()
    return sum(seen.values())


def _encoder_layer(d_model, d_ff, bias):
    return nn.TransformerEncoderLayer(d_model, 1, d_ff, bias=bias, device=META)


def _decoder_layer(d_model, d_ff, bias, cross_attention):
    if cross_attention:
        return nn.TransformerDecoderLayer(d_model, 1, d_ff, bias=bias, device=META)
    return _encoder_layer(d_model, d_ff, bias)  # a decoder-only layer: self-attention, FFN, 2 norms


def count_mha(d_model, bias=True):
    return _numel(nn.MultiheadAttention(d_model, 1, bias=bias, device=META))


def count_ffn(d_model, d_ff, bias=True):
    return _numel(nn.Linear(d_model, d_ff, bias=bias, device=META), nn.Linear(d_ff, d_model, bias=bias, device=META))


def count_layernorm(d_model, bias=True):
    return _numel(nn.LayerNorm(d_model, bias=bias, device=META))


def count_encoder_layer(d_model, d_ff, bias=True):
    return _numel(_encoder_layer(d_model, d_ff, bias))


def count_decoder_layer(d_model, d_ff, bias=True, cross_attention=True):
    return _numel(_decoder_layer(d_model, d_ff, bias, cross_attention))


def count_transformer(config):
    c = config
    d, arch, bias = c["d_model"], c["architecture"], c["bias"]
    enc, dec = arch != "decoder-only", arch != "encoder-only"
    if arch == "encoder-decoder":
        src = nn.Embedding(c["src_vocab_size"], d, device=META)
        tgt = src if c["tie_embeddings"] == "all" else nn.Embedding(c["tgt_vocab_size"], d, device=META)
        tokens = [src, tgt]
    else:
        tgt = nn.Embedding(c["src_vocab_size"] if enc else c["tgt_vocab_size"], d, device=META)
        tokens = [tgt]
    stacks = int(enc) + int(dec)
    positions = [nn.Embedding(c["max_len"], d, device=META) for _ in range(stacks)] if c["positional"] == "learned" else []
    encoder = [_encoder_layer(d, c["d_ff"], bias) for _ in range(c["num_encoder_layers"] if enc else 0)]
    decoder = [
        _decoder_layer(d, c["d_ff"], bias, cross_attention=enc) for _ in range(c["num_decoder_layers"] if dec else 0)
    ]
    norms = [nn.LayerNorm(d, bias=bias, device=META) for _ in range(stacks)] if c["final_norm"] else []
    output = nn.Linear(d, tgt.num_embeddings, bias=c["output_bias"], device=META)
    if c["tie_embeddings"] != "none":
        output.weight = tgt.weight
    embeddings = _numel(*tokens, *positions)
    parts = {
        "embeddings": embeddings,
        "encoder": _numel(*encoder),
        "decoder": _numel(*decoder),
        "final_norms": _numel(*norms),
        "output": _numel(*tokens, *positions, output) - embeddings,
    }
    parts["total"] = sum(parts.values())
    return parts
