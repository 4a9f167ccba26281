"""Keep torch's first meta-device operation from importing torch._dynamo (about 1.2 s on torch 2.13).

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
