"""Checks that read the learner's source without running it: syntax, untouched stub, the entry
points it defines, forbidden calls.

Parsing is safe in the grader's process: ``ast.parse`` and ``compile`` never execute code.
"""

from __future__ import annotations

import ast
import functools
from dataclasses import dataclass
from typing import TYPE_CHECKING

from grader.i18n import Text
from grader.messages import text

if TYPE_CHECKING:
    from grader.submission import LearnerFiles


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


@dataclass(frozen=True)
class SourceError:
    """Why a learner file cannot even be compiled, and the line to fix (None when no line is known)."""

    message: Text
    line: int | None


def syntax_error(source: str, filename: str, files: LearnerFiles | None = None) -> SourceError | None:
    """The first syntax error, described on one line, or None (Python's own words kept as they are).

    With ``files`` (what ``source`` was read from), the message names the place as the learner
    knows it (a notebook's cell and line: :meth:`LearnerFiles.locate`).
    """
    try:
        # From the parsed tree: the compiler's own checks ('return' outside a function, ...) still run.
        compile(parse(source), filename, "exec", dont_inherit=True)
    except SyntaxError as err:
        if files is None or err.lineno is None:
            return SourceError(text("static.syntax_error", file=filename, line=err.lineno, detail=err.msg), err.lineno)
        place, line = files.locate(err.lineno)
        message = text("static.syntax_error", file=place, line=line, detail=err.msg)
        return SourceError(message, files.line_of_file(err.lineno))
    except ValueError as err:  # e.g. null bytes
        return SourceError(text("static.cannot_compile", file=filename if files is None else files.label,
                                detail=str(err)), None)
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


#: Names whose use at module level can bind names the syntax tree does not show.
_DYNAMIC_BINDERS = frozenset({"globals", "exec", "setattr", "vars", "__import__", "eval", "locals"})


def _bound_targets(target: ast.AST) -> set[str]:
    """Names an assignment target binds (``a``, ``a, b = ...``, ``[a, *b] = ...``)."""
    return {node.id for node in ast.walk(target) if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)}


def _module_level(body: list[ast.stmt]):
    """Statements that run at module level: the body, and the bodies of its if/try/with/for blocks."""
    for node in body:
        yield node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            for field in ("body", "orelse", "finalbody", "handlers"):
                inner = getattr(node, field, None)
                if isinstance(inner, list):
                    yield from _module_level(inner)
            for case in getattr(node, "cases", ()):  # match statements
                yield from _module_level(case.body)


def module_names(source: str) -> set[str] | None:
    """The names a module binds at module level, read from its syntax tree without running it.

    None when the tree cannot tell: a star import, a module ``__getattr__``, or ``globals()``,
    ``exec``, ``setattr`` and the like, which can bind names no statement shows. The file must parse.
    """
    tree = parse(source)
    if any(isinstance(node, ast.Name) and node.id in _DYNAMIC_BINDERS for node in ast.walk(tree)):
        return None
    names: set[str] = set()
    for node in _module_level(tree.body):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                if alias.name == "*":
                    return None
                names.add(alias.asname or alias.name.split(".")[0])
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                names |= _bound_targets(target)
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign, ast.For, ast.AsyncFor)):
            names |= _bound_targets(node.target)
        elif isinstance(node, (ast.With, ast.AsyncWith)):
            for item in node.items:
                if item.optional_vars is not None:
                    names |= _bound_targets(item.optional_vars)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            names.add(node.name)
    for node in ast.walk(tree):  # `(name := ...)`: counted wherever it is, erring towards "bound"
        if isinstance(node, ast.NamedExpr):
            names |= _bound_targets(node.target)
    if "__getattr__" in names:
        return None
    return names


def missing_entry_points(source: str, entry_points: list[str]) -> list[str]:
    """The entry points ``source`` does not bind at module level (none when that cannot be told)."""
    names = module_names(source)
    return [] if names is None else [name for name in entry_points if name not in names]


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
