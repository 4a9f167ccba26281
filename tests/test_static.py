"""Reading the learner's source without running it: stub detection and the forbidden-call scan."""

from __future__ import annotations

import pytest

from grader import static

FORBIDDEN = ["torch.nn.functional.scaled_dot_product_attention", "torch.nn.MultiheadAttention", "scipy.special.softmax"]


def names(source: str) -> list[tuple[str, int]]:
    return [(v.name, v.line) for v in static.forbidden_uses(source, FORBIDDEN)]


def test_attribute_chain_through_alias() -> None:
    src = "import torch.nn.functional as F\n\ndef f(q, k, v):\n    return F.scaled_dot_product_attention(q, k, v)\n"
    assert names(src) == [("torch.nn.functional.scaled_dot_product_attention", 4)]


def test_from_import_with_rename() -> None:
    src = "from torch.nn.functional import scaled_dot_product_attention as sdpa\nx = sdpa\n"
    assert [n for n, _ in names(src)] == ["torch.nn.functional.scaled_dot_product_attention"] * 2


def test_module_attribute_and_getattr_lookup() -> None:
    src = "import torch\nm = torch.nn.MultiheadAttention(4, 2)\ng = getattr(torch.nn.functional, 'scaled_dot_product_attention')\n"
    assert names(src) == [("torch.nn.MultiheadAttention", 2), ("torch.nn.functional.scaled_dot_product_attention", 3)]


def test_own_function_with_the_same_name_is_fine() -> None:
    src = '"""scaled_dot_product_attention from scratch."""\n\ndef scaled_dot_product_attention(q, k, v):\n    return q\n'
    assert names(src) == []


def test_untouched_stub_ignores_comments_and_docstrings() -> None:
    stub = 'def f(x):\n    """Do it."""\n    raise NotImplementedError\n'
    edited = '# my notes\ndef f(x):\n    """Changed the docstring."""\n\n    raise NotImplementedError  # todo\n'
    assert static.is_untouched_stub(edited, stub)
    assert not static.is_untouched_stub(stub.replace("raise NotImplementedError", "return x"), stub)


def test_syntax_error_names_file_and_line() -> None:
    broken = static.syntax_error("x = 1\ndef f(:\n", "mine.py")
    assert (broken.message.en, broken.line) == ("SyntaxError in mine.py, line 2: invalid syntax", 2)
    assert static.syntax_error("x = 1\n", "mine.py") is None


def test_module_names_are_what_module_level_code_binds() -> None:
    src = (
        "import numpy as np\nimport os.path\nfrom math import sqrt as root\nA, (B, *C) = 1, (2, 3)\n"
        "def f():\n    inner = 1\nclass K:\n    method = 2\nif True:\n    G = 1\nelse:\n    H = 2\n"
        "try:\n    import torch\nexcept ImportError as err:\n    T = None\nfor I in range(2):\n    pass\n"
        "with open('x') as W:\n    pass\nN: int = 3\n"
    )
    assert static.module_names(src) == {
        "np", "os", "root", "A", "B", "C", "f", "K", "G", "H", "torch", "err", "T", "I", "W", "N"
    }
    assert static.missing_entry_points(src, ["f", "K", "softmax"]) == ["softmax"]


@pytest.mark.parametrize("src", [
    "from numpy import *\n",
    "globals()['softmax'] = lambda x: x\n",
    "exec('def softmax(x): return x')\n",
    "import sys\nsetattr(sys.modules[__name__], 'softmax', len)\n",
    "def __getattr__(name):\n    return len\n",
])
def test_module_names_cannot_tell_when_names_are_bound_dynamically(src: str) -> None:
    """Then nothing is taken as missing: the file runs and the checks decide."""
    assert static.module_names(src) is None
    assert static.missing_entry_points(src, ["softmax"]) == []
