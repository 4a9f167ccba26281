import numpy as np


def softmax(x, axis=-1)
    return np.exp(x) / np.exp(x).sum(axis=axis, keepdims=True)
