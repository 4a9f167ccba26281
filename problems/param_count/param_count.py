"""Exact parameter counts of Transformer models.

Write the functions below, then run ``grade param_count`` in this folder. Each returns an exact
Python int: the number that ``sum(p.numel() for p in model.parameters())`` prints for the model
built from standard torch modules (``nn.Linear``, ``nn.LayerNorm``, ``nn.Embedding``). A matrix
shared by two modules (tied weights) is one parameter and counts once. You may compute with
formulas or by building torch modules (on ``device="meta"`` they cost no memory).

Conventions (the grader checks each one):

* ``bias`` means what it means in torch's layers: ``bias=False`` removes every bias, those of the
  attention and feed-forward ``nn.Linear`` layers and LayerNorm's beta, exactly as
  ``nn.TransformerEncoderLayer(d_model, nhead, d_ff, bias=False)`` does. ``nn.LayerNorm(d_model)``
  has a weight (gamma) and a bias (beta); ``nn.LayerNorm(d_model, bias=False)`` only gamma.
* Multi-head attention is ``nn.MultiheadAttention(d_model, num_heads, bias=bias)``: W_q, W_k, W_v
  and the output projection W_o, each d_model x d_model whatever the number of heads.
* The feed-forward block is ``nn.Linear(d_model, d_ff, bias)`` then ``nn.Linear(d_ff, d_model, bias)``.
* An encoder layer: self-attention, feed-forward, 2 LayerNorms.
* A decoder layer: masked self-attention, cross-attention over the encoder output, feed-forward,
  3 LayerNorms. Without cross-attention (decoder-only models): self-attention, feed-forward,
  2 LayerNorms.
"""


def count_mha(d_model, bias=True):
    """Parameters of one multi-head attention block: W_q, W_k, W_v, W_o (and their biases)."""
    raise NotImplementedError


def count_ffn(d_model, d_ff, bias=True):
    """Parameters of the feed-forward block d_model -> d_ff -> d_model (two nn.Linear)."""
    raise NotImplementedError


def count_layernorm(d_model, bias=True):
    """Parameters of nn.LayerNorm(d_model, bias=bias)."""
    raise NotImplementedError


def count_encoder_layer(d_model, d_ff, bias=True):
    """Parameters of one encoder layer: self-attention + feed-forward + 2 LayerNorms."""
    raise NotImplementedError


def count_decoder_layer(d_model, d_ff, bias=True, cross_attention=True):
    """Parameters of one decoder layer.

    With cross_attention: self-attention + cross-attention + feed-forward + 3 LayerNorms.
    Without: self-attention + feed-forward + 2 LayerNorms.
    """
    raise NotImplementedError


def count_transformer(config):
    """Parameter counts of a whole model, per part.

    ``config`` is a dict with the keys:

    * ``architecture``: "encoder-decoder", "encoder-only" or "decoder-only";
    * ``d_model``, ``num_heads``, ``d_ff``;
    * ``num_encoder_layers``, ``num_decoder_layers`` (the one that does not apply is 0);
    * ``src_vocab_size``, ``tgt_vocab_size``: encoder-only and decoder-only models have a single
      vocabulary, and then both keys hold the same number; a size of 0 means no token embedding;
    * ``max_len``: the number of positions;
    * ``positional``: "sinusoidal" (a fixed table, no parameters) or "learned"
      (one ``nn.Embedding(max_len, d_model)`` per stack: encoder and decoder each have their own);
    * ``bias``: biases in the attention and feed-forward ``nn.Linear`` layers and the LayerNorms
      (final ones included), as torch's ``bias`` argument of ``nn.Transformer``;
    * ``tie_embeddings``: "none", "output" (the output projection's weight *is* the target
      embedding matrix; for a single-stack model, its one embedding) or "all" (source embedding,
      target embedding and output projection are one matrix; for a single-stack model the same
      as "output");
    * ``final_norm``: one extra ``nn.LayerNorm(d_model, bias=bias)`` after the last layer of each stack
      (as in pre-LN models and ``nn.Transformer``);
    * ``output_bias``: whether the output projection ``nn.Linear(d_model, vocab)`` has a bias.

    Returns a dict with exactly these int values, every parameter counted in exactly one key:

    * ``embeddings``: the token embedding matrices (source and target; one matrix if
      tie_embeddings is "all"; the one matrix of a single-stack model) plus the learned position
      tables, if any;
    * ``encoder``: all encoder layers (num_encoder_layers x count_encoder_layer), 0 if none;
    * ``decoder``: all decoder layers (num_decoder_layers x count_decoder_layer, with
      cross-attention only in encoder-decoder models), 0 if none;
    * ``final_norms``: the final LayerNorms (one per stack when final_norm is true, else 0);
    * ``output``: the output projection to the target vocabulary (the vocabulary of a
      single-stack model): its weight unless tied (a tied weight is already in ``embeddings``),
      plus its bias if output_bias;
    * ``total``: the sum of the five parts above.
    """
    raise NotImplementedError
