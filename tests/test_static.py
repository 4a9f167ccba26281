"""Reading the learner's source without running it: stub detection and the forbidden-call scan."""

from __future__ import annotations

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
    assert static.syntax_error("def f(:\n", "mine.py") == "SyntaxError in mine.py, line 1: invalid syntax"
