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

#: Files larger than this are not fingerprinted.
MAX_SOURCE_BYTES = 512 * 1024


class _Canonical(ast.NodeTransformer):
    """Rename every identifier to v0, v1, ... in order of first appearance; drop docstrings."""

    def __init__(self) -> None:
        self.names: dict[str, str] = {}

    def _name(self, name: str | None) -> str | None:
        if name is None:
            return None
        if name not in self.names:
            self.names[name] = f"v{len(self.names)}"
        return self.names[name]

    def generic_visit(self, node: ast.AST) -> ast.AST:
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and _is_docstring(body[0]):
            node.body = body[1:] or [ast.Pass()]
        for attr in ("returns", "annotation", "type_comment"):
            if hasattr(node, attr) and not isinstance(node, ast.AnnAssign):
                setattr(node, attr, None)
        for types, attr in _RENAMED:
            if isinstance(node, types) and isinstance(getattr(node, attr, None), str):
                setattr(node, attr, self._name(getattr(node, attr)))
        if isinstance(node, (ast.Global, ast.Nonlocal)):
            node.names = [self._name(n) or "" for n in node.names]
        return super().generic_visit(node)


#: (node types, attribute) holding a learner-chosen identifier. Module names in imports, attribute
#: names and keyword-argument names are API names and stay as written.
_RENAMED = (
    (ast.Name, "id"),
    (ast.arg, "arg"),
    ((ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.ExceptHandler), "name"),
    (ast.alias, "asname"),
)


def _is_docstring(node: ast.stmt) -> bool:
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)


def fingerprint(source: str) -> str | None:
    """A short hash of the normalised code, or None if it cannot be parsed (or is too large)."""
    if len(source.encode("utf-8", "replace")) > MAX_SOURCE_BYTES:
        return None
    try:
        tree = _Canonical().visit(ast.parse(source))
        dumped = ast.dump(tree, annotate_fields=False, include_attributes=False)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    return hashlib.sha256(dumped.encode()).hexdigest()[:20]


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
