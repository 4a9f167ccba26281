"""Checks that read the learner's source without running it: syntax, untouched stub, forbidden calls.

Parsing is safe in the grader's process: ``ast.parse`` and ``compile`` never execute code.
"""

from __future__ import annotations

import ast
import functools
from dataclasses import dataclass


@dataclass(frozen=True)
class Violation:
    """One use of a forbidden name."""

    name: str
    line: int


def syntax_error(source: str, filename: str) -> str | None:
    """A one-line description of the first syntax error, or None."""
    try:
        compile(source, filename, "exec", dont_inherit=True)
    except SyntaxError as err:
        return f"SyntaxError in {filename}, line {err.lineno}: {err.msg}"
    except ValueError as err:  # e.g. null bytes
        return f"{filename} cannot be compiled: {err}"
    return None


def _skeleton(source: str) -> ast.AST:
    """The AST with docstrings removed, so comment- and docstring-only edits count as untouched."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (
            isinstance(body, list)
            and body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
            and isinstance(body[0].value.value, str)
        ):
            node.body = body[1:] or [ast.Pass()]
    return tree


@functools.lru_cache(maxsize=32)
def _stub_skeleton(stub_source: str) -> ast.AST:
    """The stub's skeleton, parsed once per stub text (only ever read, never changed)."""
    return _skeleton(stub_source)


def _same(a: object, b: object) -> bool:
    """``ast.dump(a) == ast.dump(b)`` (fields only, no positions), stopping at the first difference."""
    if type(a) is not type(b):
        return False
    if isinstance(a, ast.AST):
        return all(_same(getattr(a, name, None), getattr(b, name, None)) for name in a._fields)
    if isinstance(a, list):
        return len(a) == len(b) and all(map(_same, a, b))
    return a == b and repr(a) == repr(b)  # repr: as ast.dump tells constants apart (0.0 and -0.0)


def is_untouched_stub(source: str, stub_source: str) -> bool:
    """True if the learner's file is the stub up to comments, docstrings and formatting."""
    try:
        return _same(_skeleton(source), _stub_skeleton(stub_source))
    except (SyntaxError, ValueError):
        return False


class _ImportTracker(ast.NodeVisitor):
    """Resolve names to dotted paths through the file's imports, and record forbidden uses."""

    def __init__(self, forbidden: list[str]):
        self.forbidden = forbidden
        self.aliases: dict[str, str] = {}
        self.found: list[Violation] = []

    def _check(self, dotted: str, line: int) -> None:
        for name in self.forbidden:
            if dotted == name or dotted.startswith(name + "."):
                self.found.append(Violation(name, line))
                return

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self.aliases[alias.asname or alias.name.split(".")[0]] = (
                alias.name if alias.asname else alias.name.split(".")[0]
            )
            self._check(alias.name, node.lineno)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        module = node.module or ""
        for alias in node.names:
            dotted = f"{module}.{alias.name}" if module else alias.name
            self.aliases[alias.asname or alias.name] = dotted
            self._check(dotted, node.lineno)

    def _dotted(self, node: ast.AST) -> str | None:
        parts = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name):
            return None
        root = self.aliases.get(node.id, node.id)
        return ".".join([root, *reversed(parts)])

    def visit_Attribute(self, node: ast.Attribute) -> None:
        dotted = self._dotted(node)
        if dotted is not None:
            self._check(dotted, node.lineno)
            return  # the chain is judged whole; do not re-judge its prefixes
        self.generic_visit(node)

    def visit_Name(self, node: ast.Name) -> None:
        if node.id in self.aliases:
            self._check(self.aliases[node.id], node.lineno)

    def visit_Call(self, node: ast.Call) -> None:
        # getattr(F, "scaled_dot_product_attention"): a string look-up of a forbidden attribute
        if isinstance(node.func, ast.Name) and node.func.id == "getattr" and len(node.args) >= 2:
            owner, attr = self._dotted(node.args[0]), node.args[1]
            if owner and isinstance(attr, ast.Constant) and isinstance(attr.value, str):
                self._check(f"{owner}.{attr.value}", node.lineno)
        self.generic_visit(node)


def forbidden_uses(source: str, forbidden: list[str]) -> list[Violation]:
    """Every use of a forbidden dotted name, through any import alias (best effort, by design)."""
    tracker = _ImportTracker(forbidden)
    tracker.visit(ast.parse(source))
    seen: set[tuple[str, int]] = set()
    unique = []
    for v in sorted(tracker.found, key=lambda v: v.line):
        if (v.name, v.line) not in seen:
            seen.add((v.name, v.line))
            unique.append(v)
    return unique
