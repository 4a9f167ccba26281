"""Load plain YAML/JSON data into frozen dataclasses, strictly.

A small, dependency-free stand-in for pydantic: the dataclass *is* the schema. Each field's type
hint says what is allowed (``int``, ``float``, ``str``, ``bool``, ``Literal[...]``, ``list[X]``,
``dict[str, X]``, ``X | None``, nested dataclasses, and :class:`~grader.i18n.Text`: a text in
every language, ``{en: ..., zh: ...}``); a field without a default is required;
``field(metadata={"doc": ...})`` documents it. Unknown keys, missing keys and wrong types raise
:class:`~grader.errors.SpecError` naming the file and the key path, e.g.
``problems/x/spec.yaml: checks[2].points: expected a number, got 'ten'``.

It exists because the grader loads a spec on every ``grade`` call, and importing pydantic costs
more than the whole numpy grading run (see ``benchmarks/``).
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from typing import Any, Literal, TypeVar, Union, get_args, get_origin

from grader.errors import SpecError
from grader.i18n import LANGS, Text

T = TypeVar("T")

_TYPE_WORDS = {int: "an integer", float: "a number", str: "a string", bool: "true or false"}


def load(cls: type[T], data: Any, *, where: str) -> T:
    """Build ``cls`` from ``data`` or raise SpecError naming ``where`` (a file path) and the key."""
    return _convert(cls, data, where, "")


def _fail(where: str, path: str, message: str) -> SpecError:
    location = f"{where}: {path}" if path else where
    return SpecError(f"{location}: {message}")


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _convert(tp: Any, value: Any, where: str, path: str) -> Any:
    origin = get_origin(tp)
    if tp is Text:
        return _convert_text(value, where, path)
    if dataclasses.is_dataclass(tp):
        return _convert_dataclass(tp, value, where, path)
    if origin is Literal:
        allowed = get_args(tp)
        if value not in allowed:
            choices = ", ".join(repr(a) for a in allowed)
            raise _fail(where, path, f"expected one of {choices}, got {_show(value)}")
        return value
    if origin in (Union, types.UnionType):
        options = get_args(tp)
        if value is None and type(None) in options:
            return None
        errors = []
        for option in options:
            if option is type(None):
                continue
            try:
                return _convert(option, value, where, path)
            except SpecError as err:
                errors.append(err)
        raise errors[0]
    if origin is list:
        (item_type,) = get_args(tp)
        if not isinstance(value, list):
            raise _fail(where, path, f"expected a list, got {_show(value)}")
        return [_convert(item_type, v, where, f"{path}[{i}]") for i, v in enumerate(value)]
    if origin is dict:
        key_type, item_type = get_args(tp)
        if not isinstance(value, dict):
            raise _fail(where, path, f"expected a mapping, got {_show(value)}")
        out = {}
        for k, v in value.items():
            if not isinstance(k, key_type):
                raise _fail(where, f"{path}.{k}", f"keys must be {_TYPE_WORDS.get(key_type, key_type)}")
            out[k] = _convert(item_type, v, where, f"{path}.{k}" if path else str(k))
        return out
    if tp is Any:
        return value
    if tp is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise _fail(where, path, f"expected a number, got {_show(value)}")
        return float(value)
    if tp in (int, str, bool):
        if isinstance(value, bool) != (tp is bool) or not isinstance(value, tp):
            raise _fail(where, path, f"expected {_TYPE_WORDS[tp]}, got {_show(value)}")
        return value
    raise TypeError(f"schema: unsupported type {tp!r}")  # a bug in the schema, not in the data


def _convert_text(value: Any, where: str, path: str) -> Text:
    """A learner-facing text: ``{en: ..., zh: ...}``, every language present and non-empty."""
    languages = ", ".join(LANGS)
    if not isinstance(value, dict):
        raise _fail(where, path, f"write it in every language, as {{{': ..., '.join(LANGS)}: ...}}; got {_show(value)}")
    unknown = [k for k in value if k not in LANGS]
    if unknown:
        raise _fail(where, f"{path}.{unknown[0]}", f"unknown language (languages: {languages})")
    for lang in LANGS:
        if lang not in value:
            raise _fail(where, f"{path}.{lang}", f"missing: every text needs {languages} (docs/i18n.md)")
        if not isinstance(value[lang], str) or not value[lang].strip():
            raise _fail(where, f"{path}.{lang}", f"expected non-empty text, got {_show(value[lang])}")
    return Text(*(value[lang] for lang in LANGS))


def _convert_dataclass(cls: Any, value: Any, where: str, path: str) -> Any:
    if not isinstance(value, dict):
        raise _fail(where, path, f"expected a mapping, got {_show(value)}")
    hints = _type_hints(cls)
    fields = {f.name: f for f in dataclasses.fields(cls) if f.init}
    unknown = [k for k in value if k not in fields]
    if unknown:
        key = f"{path}.{unknown[0]}" if path else str(unknown[0])
        known = ", ".join(fields)
        raise _fail(where, key, f"unknown key (allowed here: {known})")
    kwargs = {}
    for name, f in fields.items():
        key = f"{path}.{name}" if path else name
        if name in value:
            kwargs[name] = _convert(hints[name], value[name], where, key)
        elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            raise _fail(where, key, "required key is missing")
    try:
        return cls(**kwargs)
    except ValueError as err:  # a dataclass __post_init__ rule
        raise _fail(where, path, str(err)) from None


@functools.lru_cache(maxsize=None)
def _type_hints(cls: Any) -> dict[str, Any]:
    """``typing.get_type_hints``, once per dataclass (it re-evaluates every annotation on each call)."""
    return typing.get_type_hints(cls)


def describe(cls: Any) -> dict[str, str]:
    """Map each field of a schema dataclass to its ``doc`` metadata (for docs and ``grade validate``)."""
    return {f.name: f.metadata.get("doc", "") for f in dataclasses.fields(cls)}
