"""Packages read top-down: no import circle between the modules of a package.

Imports inside functions count too (a lazy import is still a dependency; it only hides the
circle until the function runs). The graph is read from the source with ``ast``, so a module
that needs an optional extra (Dask) is checked without importing it.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path, package: str, modules: set[str]) -> set[str]:
    """The modules of ``package`` that ``path`` imports, at any depth of its code."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            # ``from grader.batch import run`` imports grader.batch.run; ``from m import f`` imports m
            names = [f"{node.module}.{alias.name}" for alias in node.names] + [node.module]
        else:
            continue
        found.update(name for name in names if name in modules and name != package)
    return found


def import_graph(package: str) -> dict[str, set[str]]:
    folder = ROOT.joinpath(*package.split("."))
    paths = {module_name(p): p for p in folder.glob("*.py")}
    modules = set(paths)
    return {name: imports_of(path, package, modules) - {name} for name, path in paths.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle as [a, b, ..., a], or None (depth-first search, colouring nodes)."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        path.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state and (cycle := visit(start)):
            return cycle
    return None


def test_the_cycle_finder_finds_a_circle_through_a_lazy_import(tmp_path: Path) -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None
    lazy = tmp_path / "m.py"
    lazy.write_text("def f():\n    from grader.batch.run import config_hash\n", encoding="utf-8")
    assert imports_of(lazy, "grader.batch", {"grader.batch.run"}) == {"grader.batch.run"}


@pytest.mark.parametrize(
    "package", ["grader", "grader.batch", "grader.commands", "grader.notebook", "grader.qa", "grader.render",
                "grader.worker"]
)
def test_no_import_circle_in(package: str) -> None:
    graph = import_graph(package)
    assert len(graph) > 3  # the package was found
    assert find_cycle(graph) is None, " -> ".join(find_cycle(graph) or [])
