"""A two-file upload: the graded file only re-exports what its helper module defines."""

from attention_math import scaled_dot_product_attention, self_attention, softmax

__all__ = ["softmax", "scaled_dot_product_attention", "self_attention"]
