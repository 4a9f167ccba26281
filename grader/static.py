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


@functools.lru_cache(maxsize=8)
def parse(source: str) -> ast.Module:
    """The syntax tree of ``source``, parsed once for all the static checks of one grading.

    Shared and cached: callers only read it. Raises SyntaxError or ValueError (null bytes).
    """
    return ast.parse(source)


def syntax_error(source: str, filename: str) -> str | None:
    """A one-line description of the first syntax error, or None."""
    try:
        # From the parsed tree: the compiler's own checks ('return' outside a function, ...) still run.
        compile(parse(source), filename, "exec", dont_inherit=True)
    except SyntaxError as err:
        return f"SyntaxError in {filename}, line {err.lineno}: {err.msg}"
    except ValueError as err:  # e.g. null bytes
        return f"{filename} cannot be compiled: {err}"
    return None


def _is_docstring(node: ast.AST) -> bool:
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)


def _without_docstring(body: list) -> list:
    """A ``body`` list as the skeleton sees it: a leading docstring removed (``pass`` if nothing is left)."""
    if body and _is_docstring(body[0]):
        return body[1:] or [ast.Pass()]
    return body


def _same(a: object, b: object) -> bool:
    """Whether two syntax trees are equal once docstrings are removed: ``ast.dump`` equality
    (fields only, no positions), stopping at the first difference. Docstrings are skipped as the
    comparison reaches each ``body``, so a submission that differs early costs little."""
    if type(a) is not type(b):
        return False
    if isinstance(a, ast.AST):
        for name in a._fields:
            left, right = getattr(a, name, None), getattr(b, name, None)
            if name == "body" and isinstance(left, list) and isinstance(right, list):
                left, right = _without_docstring(left), _without_docstring(right)
            if not _same(left, right):
                return False
        return True
    if isinstance(a, list):
        return len(a) == len(b) and all(map(_same, a, b))
    return a == b and repr(a) == repr(b)  # repr: as ast.dump tells constants apart (0.0 and -0.0)


def is_untouched_stub(source: str, stub_source: str) -> bool:
    """True if the learner's file is the stub up to comments, docstrings and formatting."""
    if source == stub_source:
        return True
    try:
        return _same(parse(source), parse(stub_source))
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
    tracker.visit(parse(source))
    seen: set[tuple[str, int]] = set()
    unique = []
    for v in sorted(tracker.found, key=lambda v: v.line):
        if (v.name, v.line) not in seen:
            seen.add((v.name, v.line))
            unique.append(v)
    return unique
