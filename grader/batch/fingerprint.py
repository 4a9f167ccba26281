"""Near-duplicate detection: a hash of the code after normalising names, comments and formatting.

Two submissions get the same fingerprint when their syntax trees are equal once docstrings and
annotations are dropped and every identifier is renamed by order of first appearance. Comments
and layout never reach the tree. Attribute names (``np.exp``) and constants are kept, so the
fingerprint still tells apart code that does different things.

Parsing is done with :func:`ast.parse`, which never runs the code; it still happens in the batch
worker (not the scheduler), with a size cap, so a pathological file costs only its own fingerprint.
"""

from __future__ import annotations

import ast
import hashlib
from collections import defaultdict
from typing import Iterable

from grader import static

#: Files larger than this are not fingerprinted.
MAX_SOURCE_BYTES = 512 * 1024


#: (node types, field) holding a learner-chosen identifier. Module names in imports, attribute
#: names and keyword-argument names are API names and stay as written.
_RENAMED_FIELDS = {
    ast.Name: "id",
    ast.arg: "arg",
    ast.FunctionDef: "name",
    ast.AsyncFunctionDef: "name",
    ast.ClassDef: "name",
    ast.ExceptHandler: "name",
    ast.alias: "asname",
}
#: Fields dropped everywhere except in an annotated assignment (whose annotation is its point).
_DROPPED_FIELDS = frozenset(("returns", "annotation", "type_comment"))


class _Canonical:
    """Write a syntax tree as a flat list of tokens: docstrings and annotations dropped, every
    identifier renamed v0, v1, ... in order of first appearance. Reads the tree, never changes it."""

    def __init__(self) -> None:
        self.names: dict[str, str] = {}
        self.tokens: list[str] = []

    def _name(self, name: str) -> str:
        if name not in self.names:
            self.names[name] = f"v{len(self.names)}"
        return self.names[name]

    def write(self, node: object) -> None:
        tokens = self.tokens
        if isinstance(node, ast.AST):
            kind = type(node)
            tokens.append(kind.__name__)
            renamed = _RENAMED_FIELDS.get(kind)
            for field in node._fields:
                value = getattr(node, field, None)
                if field in _DROPPED_FIELDS and kind is not ast.AnnAssign:
                    value = None
                elif field == renamed and isinstance(value, str):
                    value = self._name(value)
                elif field == "body" and isinstance(value, list) and value and _is_docstring(value[0]):
                    value = value[1:] or [ast.Pass()]
                elif field == "names" and kind in (ast.Global, ast.Nonlocal):
                    value = [self._name(n) for n in value]
                self.write(value)
        elif isinstance(node, list):
            tokens.append("[")
            for item in node:
                self.write(item)
            tokens.append("]")
        else:  # a constant, an identifier kept as written, or None
            tokens.append(repr(node))


def _is_docstring(node: ast.stmt) -> bool:
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)


def fingerprint(source: str) -> str | None:
    """A short hash of the normalised code, or None if it cannot be parsed (or is too large)."""
    if len(source.encode("utf-8", "replace")) > MAX_SOURCE_BYTES:
        return None
    canonical = _Canonical()
    try:
        canonical.write(static.parse(source))  # the tree the grading just parsed, if it is still cached
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    return hashlib.sha256("\x1f".join(canonical.tokens).encode("utf-8", "replace")).hexdigest()[:20]


def duplicate_groups(
    items: Iterable[tuple[str, str, str | None]], ignore: dict[str, set[str]] | None = None
) -> list[tuple[str, list[str]]]:
    """Groups of students whose fingerprint for a problem is the same.

    ``items`` are ``(problem, student, fingerprint)``; ``ignore`` maps a problem to fingerprints
    that do not count (the untouched starter file). Returns ``(problem, students)`` for each group
    of two or more, smallest groups first (a pair is more telling than a crowd), then by name.
    """
    ignore = ignore or {}
    groups: dict[tuple[str, str], list[str]] = defaultdict(list)
    for problem, student, fp in items:
        if fp is not None and fp not in ignore.get(problem, set()):
            groups[(problem, fp)].append(student)
    found = [(problem, sorted(students)) for (problem, _fp), students in groups.items() if len(students) > 1]
    return sorted(found, key=lambda g: (len(g[1]), g[0], g[1]))
