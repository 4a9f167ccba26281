"""Correct: build each part from torch modules on the meta device and count numel()."""

import torch
from torch import nn

META = torch.device("meta")


def _numel(*modules):
    seen = {}
    for module in modules:
        for p in module.parameters():
            seen[id(p)] = p.numel()
    return sum(seen.values())


def _mha(d_model, heads, bias):
    return nn.MultiheadAttention(d_model, heads, bias=bias, device=META)


def _ffn(d_model, d_ff, bias):
    return nn.Sequential(nn.Linear(d_model, d_ff, bias=bias, device=META), nn.Linear(d_ff, d_model, bias=bias, device=META))


def _norm(d_model, bias=True):
    return nn.LayerNorm(d_model, bias=bias, device=META)


def _layer(d_model, d_ff, bias, attentions, norms, heads=1):
    parts = [_mha(d_model, heads, bias) for _ in range(attentions)]
    parts += [_ffn(d_model, d_ff, bias)] + [_norm(d_model, bias) for _ in range(norms)]
    return nn.ModuleList(parts)


def _embedding(n, d_model):
    return nn.Embedding.from_pretrained(torch.empty(n, d_model, device=META), freeze=False)


def count_mha(d_model, bias=True):
    return _numel(_mha(d_model, 1, bias))


def count_ffn(d_model, d_ff, bias=True):
    return _numel(_ffn(d_model, d_ff, bias))


def count_layernorm(d_model, bias=True):
    return _numel(_norm(d_model, bias))


def count_encoder_layer(d_model, d_ff, bias=True):
    return _numel(_layer(d_model, d_ff, bias, 1, 2))


def count_decoder_layer(d_model, d_ff, bias=True, cross_attention=True):
    return _numel(_layer(d_model, d_ff, bias, 2 if cross_attention else 1, 3 if cross_attention else 2))


def count_transformer(config):
    c = config
    d, heads, arch = c["d_model"], c["num_heads"], c["architecture"]
    enc, dec = arch != "decoder-only", arch != "encoder-only"
    tokens = []
    if arch == "encoder-decoder":
        src = _embedding(c["src_vocab_size"], d)
        tgt = src if c["tie_embeddings"] == "all" else _embedding(c["tgt_vocab_size"], d)
        tokens = [src, tgt]
    else:
        tgt = _embedding(c["src_vocab_size"] if enc else c["tgt_vocab_size"], d)
        tokens = [tgt]
    stacks = int(enc) + int(dec)
    positions = [_embedding(c["max_len"], d) for _ in range(stacks)] if c["positional"] == "learned" else []
    encoder = [_layer(d, c["d_ff"], c["bias"], 1, 2, heads) for _ in range(c["num_encoder_layers"] if enc else 0)]
    cross = arch == "encoder-decoder"
    decoder = [
        _layer(d, c["d_ff"], c["bias"], 2 if cross else 1, 3 if cross else 2, heads)
        for _ in range(c["num_decoder_layers"] if dec else 0)
    ]
    norms = [_norm(d, c["bias"]) for _ in range(stacks)] if c["final_norm"] else []
    output = nn.Linear(d, tgt.num_embeddings, bias=c["output_bias"], device=META)
    if c["tie_embeddings"] != "none":
        output.weight = tgt.weight
    result = {
        "embeddings": _numel(*tokens, *positions),
        "encoder": _numel(*encoder),
        "decoder": _numel(*decoder),
        "final_norms": _numel(*norms),
    }
    result["output"] = _numel(*tokens, *positions, output) - result["embeddings"]
    result["total"] = _numel(*tokens, *positions, *encoder, *decoder, *norms, output)
    return result
