"""Correct: each key as one closed-form polynomial in the config."""


def count_mha(d_model, bias=True):
    return 4 * d_model * (d_model + bias)


def count_ffn(d_model, d_ff, bias=True):
    return 2 * d_model * d_ff + bias * (d_ff + d_model)


def count_layernorm(d_model, bias=True):
    return (1 + bias) * d_model


def count_encoder_layer(d_model, d_ff, bias=True):
    d = d_model
    return 4 * d * d + 2 * d * d_ff + bias * (4 * d + d_ff + d) + 2 * (1 + bias) * d


def count_decoder_layer(d_model, d_ff, bias=True, cross_attention=True):
    d, x = d_model, int(cross_attention)
    return (1 + x) * 4 * d * (d + bias) + 2 * d * d_ff + bias * (d_ff + d) + (2 + x) * (1 + bias) * d


def count_transformer(config):
    c = config
    d, arch, b = c["d_model"], c["architecture"], int(c["bias"])
    e = c["num_encoder_layers"] if arch != "decoder-only" else 0
    n = c["num_decoder_layers"] if arch != "encoder-only" else 0
    x = int(arch == "encoder-decoder")  # cross-attention in the decoder
    stacks = 1 + x
    vocab = c["tgt_vocab_size"] if arch != "encoder-only" else c["src_vocab_size"]
    matrices = 2 if (x and c["tie_embeddings"] != "all") else 1
    src = c["src_vocab_size"] if matrices == 2 else 0
    embeddings = (vocab + src) * d + (stacks * c["max_len"] * d if c["positional"] == "learned" else 0)
    encoder = e * (4 * d * d + 2 * d * c["d_ff"] + b * (5 * d + c["d_ff"]) + 2 * (1 + b) * d)
    decoder = n * ((1 + x) * 4 * d * (d + b) + 2 * d * c["d_ff"] + b * (c["d_ff"] + d) + (2 + x) * (1 + b) * d)
    final_norms = (1 + b) * d * stacks * int(c["final_norm"])
    output = (vocab * d if c["tie_embeddings"] == "none" else 0) + vocab * int(c["output_bias"])
    total = embeddings + encoder + decoder + final_norms + output
    return dict(embeddings=embeddings, encoder=encoder, decoder=decoder, final_norms=final_norms, output=output, total=total)
