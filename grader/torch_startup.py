"""Keep torch's first meta-device operation from importing torch._dynamo (about 1.2 s on torch 2.13),
and nn.MultiheadAttention's key_padding_mask from importing sympy (about 1.8 s).

Many of torch's Python operator implementations (``torch._refs``, decompositions: exactly what
runs on the meta device) are wrapped by ``torch._compile._disable_dynamo``, which on first call
does ``import torch._dynamo`` only to ask ``torch._dynamo.disable(fn)`` for a wrapper that turns
compilation off inside ``fn``. Outside ``torch.compile`` that wrapper is a plain call of ``fn``.

Every torch problem checks the learner's module on the meta device, so without this each grade
paid the whole torch._dynamo import (sympy included) for a wrapper that changes nothing. Until
something needs more than ``disable``, a stand-in module answers ``disable(fn) -> fn``; any other
use (``torch.compile``, ``torch._dynamo.config``, ...) loads the real module and forwards to it,
so learner code that compiles still works. The one difference: functions already wrapped through
the stand-in do not switch compilation off if they are later traced by ``torch.compile``.
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import Any

_NAME = "torch._dynamo"


class _DeferredDynamo(types.ModuleType):
    """``torch._dynamo`` until something needs more than ``disable``."""

    @staticmethod
    def disable(fn: Any = None, recursive: bool = True, **_options: Any) -> Any:
        if fn is None:  # used as @disable(recursive=...)
            return lambda f: f
        return fn

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") and name.endswith("__"):
            # inspect.getmodule() asks every module in sys.modules for __file__ and the like, even
            # in the middle of another import (torch.testing.assert_close importing
            # torch.distributed.tensor): loading torch._dynamo there is a circular import.
            raise AttributeError(name)
        return getattr(_load_real(), name)


def _load_real() -> types.ModuleType:
    torch = sys.modules["torch"]
    if isinstance(sys.modules.get(_NAME), _DeferredDynamo):
        del sys.modules[_NAME]
        if isinstance(torch.__dict__.get("_dynamo"), _DeferredDynamo):
            del torch.__dict__["_dynamo"]
    return importlib.import_module(_NAME)


def defer_dynamo_import() -> None:
    """Install the stand-in, once, if torch is loaded and torch._dynamo is not."""
    torch = sys.modules.get("torch")
    if torch is None or _NAME in sys.modules:
        return
    stand_in = _DeferredDynamo(_NAME)
    sys.modules[_NAME] = stand_in
    torch._dynamo = stand_in


def check_plain_bools_without_sympy() -> None:
    """Let ``torch._check_with`` accept a plain ``True`` without importing sympy.

    ``torch._check_with(error_type, cond, message)`` imports ``torch.fx.experimental.symbolic_shapes``
    (and with it sympy, about 1.8 s) to evaluate ``cond``, even when ``cond`` is a plain bool;
    ``nn.MultiheadAttention`` calls it for every ``key_padding_mask``, so each runner of a block
    that passes one would pay that import. A plain ``True`` is what the original returns at once
    after the import; anything else (False, a symbolic bool) goes the original way, error included.
    """
    torch = sys.modules.get("torch")
    original = getattr(torch, "_check_with", None)
    if original is None or getattr(original, "_grader_plain_bools", False):
        return

    def _check_with(error_type: Any, cond: Any, message: Any) -> None:
        if cond is True:
            return
        original(error_type, cond, message)

    _check_with._grader_plain_bools = True  # type: ignore[attr-defined]
    _check_with.__wrapped__ = original  # type: ignore[attr-defined]
    torch._check_with = _check_with
