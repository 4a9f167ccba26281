"""A tiny private problem bank written into a temporary folder, for bank, validate and integration tests.

``add_one`` (numpy): ``add_one(x) -> x + 1``, two checks, one declared mistake (``adds_two``) with
its hypothesis, and a corpus that reaches it. Each test breaks one thing on purpose.
"""

from __future__ import annotations

from pathlib import Path

SPEC = """\
id: add_one
title: {en: Add one to every element, zh: 每个元素加一}
difficulty: easy
summary:
  en: Write `add_one(x)` returning `x + 1` for a numpy array `x`.
  zh: 写出 `add_one(x)`，对 numpy 数组 `x` 返回 `x + 1`。
learner_file: add_one.py
entry_points: [add_one]
runtime: numpy
seed: 5
limits:
  timeout_s: 5
checks:
  - id: values
    title: {en: add_one matches the reference, zh: add_one 与参考实现一致}
    points: 2
    hint: {en: Return x + 1., zh: 返回 x + 1。}
  - id: dtype
    title: {en: float32 stays float32, zh: float32 仍是 float32}
    points: 1
    visibility: hidden
mistakes:
  - id: adds_two
    title: {en: adds two instead of one, zh: 加了 2 而不是 1}
    hint: {en: "Add 1, not 2.", zh: 应加 1，而不是 2。}
"""

STUB = '''\
"""Add one to every element."""


def add_one(x):
    """x: numpy array (any shape). Returns x + 1, same shape and dtype."""
    raise NotImplementedError("write add_one")
'''

STUB_ZH = '''\
"""每个元素加一。"""


def add_one(x):
    """x：numpy 数组（任意形状）。返回 x + 1，形状和 dtype 不变。"""
    raise NotImplementedError("write add_one")
'''

CHECKS = '''\
import numpy as np

from grader.checks import CheckContext, CheckRegistry

checks = CheckRegistry()


@checks.test("values")
def values(ctx: CheckContext) -> None:
    x = ctx.rng.standard_normal((3, 4))
    out = ctx.call("add_one", x)
    ctx.assert_close(out, ctx.reference.add_one(x), entry="add_one", args=(x,))


@checks.test("dtype")
def dtype(ctx: CheckContext) -> None:
    x = ctx.rng.standard_normal(5).astype(np.float32)
    out = ctx.call("add_one", x)
    ctx.assert_close(out, ctx.reference.add_one(x), entry="add_one", args=(x,))


@checks.mistake("adds_two", "add_one")
def _(ref, x):
    return x + 2
'''

REFERENCE = '''\
"""Reference: add one."""


def add_one(x):
    return x + 1  # same shape and dtype as x
'''

WRONG = '''\
def add_one(x):
    return x + 2
'''

EXPECTED = "adds_two.py: {diagnosis: adds_two}\n"


def make_bank(root: Path, *, corpus: bool = True) -> Path:
    """Write the bank (and its corpus under ``tests/corpus``) into ``root``; return ``root``."""
    files = {
        "problems/add_one/spec.yaml": SPEC,
        "problems/add_one/add_one.py": STUB,
        "problems/add_one/zh/add_one.py": STUB_ZH,
        "problems/add_one/checks.py": CHECKS,
        "reference/add_one.py": REFERENCE,
    }
    if corpus:
        files["tests/corpus/add_one/expected.yaml"] = EXPECTED
        files["tests/corpus/add_one/adds_two.py"] = WRONG
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root
