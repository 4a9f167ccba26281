"""LayerNorm counted as its scale only."""


def count_mha(d_model, bias=True):
    weights = 4 * d_model * d_model
    biases = 4 * d_model if bias else 0
    return weights + biases


def count_ffn(d_model, d_ff, bias=True):
    return 2 * d_model * d_ff + ((d_ff + d_model) if bias else 0)


def count_layernorm(d_model, bias=True):
    return d_model  # gamma


def count_encoder_layer(d_model, d_ff, bias=True):
    return count_mha(d_model, bias) + count_ffn(d_model, d_ff, bias) + 2 * count_layernorm(d_model, bias)


def count_decoder_layer(d_model, d_ff, bias=True, cross_attention=True):
    n_attn = 2 if cross_attention else 1
    n_norm = 3 if cross_attention else 2
    return n_attn * count_mha(d_model, bias) + count_ffn(d_model, d_ff, bias) + n_norm * count_layernorm(d_model, bias)


def count_transformer(config):
    c = config
    d = c["d_model"]
    arch = c["architecture"]
    enc = arch != "decoder-only"
    dec = arch != "encoder-only"
    stacks = int(enc) + int(dec)
    tie = c["tie_embeddings"]
    vocab_out = c["tgt_vocab_size"] if dec else c["src_vocab_size"]
    if arch == "encoder-decoder" and tie != "all":
        embeddings = (c["src_vocab_size"] + c["tgt_vocab_size"]) * d
    else:
        embeddings = vocab_out * d
    if c["positional"] == "learned":
        embeddings += stacks * c["max_len"] * d
    encoder = c["num_encoder_layers"] * count_encoder_layer(d, c["d_ff"], c["bias"]) if enc else 0
    decoder = c["num_decoder_layers"] * count_decoder_layer(d, c["d_ff"], c["bias"], cross_attention=enc) if dec else 0
    final_norms = stacks * count_layernorm(d, c["bias"]) if c["final_norm"] else 0
    output = 0 if tie != "none" else d * vocab_out
    if c["output_bias"]:
        output += vocab_out
    total = embeddings + encoder + decoder + final_norms + output
    return {
        "embeddings": embeddings,
        "encoder": encoder,
        "decoder": decoder,
        "final_norms": final_norms,
        "output": output,
        "total": total,
    }
