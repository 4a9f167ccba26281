"""Attention masks and a masked softmax, in torch.

Write the four functions below, then run ``grade masks`` in this folder.

Conventions (the grader checks each one):

* Every mask is a ``torch.bool`` tensor and **True means "may attend"** (as in
  ``F.scaled_dot_product_attention``); masks broadcast against scores of shape (B, h, L_q, L_k).
* Causal masks are aligned to the end, as when decoding with a KV cache: query i may attend
  key j iff ``j <= i + (L_k - L_q)``. For L_q == L_k that is the lower triangle with the diagonal.
* Padding masks the keys (the last axis), never the queries.
* A query row with no allowed key gets all-zero weights, never NaN.
* Inputs are not modified. Results are on the inputs' device (try the ``meta`` device) and keep
  the float dtype of the scores: float16 in gives float16 out, without overflow.
"""

import torch


def causal_mask(L_q, L_k=None, *, device=None):
    """Causal mask for L_q queries over L_k keys (L_k defaults to L_q).

    Returns:
        BoolTensor (L_q, L_k) on ``device``: True where query i may attend key j,
        i.e. j <= i + (L_k - L_q).
    """
    raise NotImplementedError


def padding_mask(tokens, pad_id):
    """Key-padding mask for a batch of token ids.

    Args:
        tokens: LongTensor (B, L) of token ids.
        pad_id: the id used for padding.

    Returns:
        BoolTensor (B, 1, 1, L): True for real tokens (it broadcasts over heads and queries).
    """
    raise NotImplementedError


def decoder_mask(tokens, pad_id):
    """Mask for a decoder's self-attention: causal AND key padding.

    Args:
        tokens: LongTensor (B, L) of token ids.
        pad_id: the id used for padding.

    Returns:
        BoolTensor (B, 1, L, L).
    """
    raise NotImplementedError


def masked_softmax(scores, valid_lens=None):
    """Softmax over the last axis, ignoring keys at positions >= valid_len.

    Args:
        scores: (B, L_q, L_k) float tensor (float16, float32 or float64).
        valid_lens: None (no masking), LongTensor (B,) (one length per batch item) or
            (B, L_q) (one length per query).

    Returns:
        A new tensor like ``scores``: each row sums to 1 over its first valid_len keys, the other
        keys get exactly 0, and a row with valid_len 0 is all zeros. ``scores`` is not modified.
    """
    raise NotImplementedError
