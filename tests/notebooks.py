"""Notebooks for the tests: written with nbformat, as Jupyter writes them."""

from __future__ import annotations

from pathlib import Path

#: The start of a cell given as a string that makes it markdown instead of code.
MARKDOWN = "md:"


def write_notebook(path: Path, cells: list[str]) -> Path:
    """Write a v4 notebook whose cells are ``cells`` (code; ``"md:..."`` for markdown) to ``path``."""
    import nbformat
    from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

    made = [new_markdown_cell(c[len(MARKDOWN):]) if c.startswith(MARKDOWN) else new_code_cell(c) for c in cells]
    notebook = new_notebook(cells=made, metadata={"kernelspec": {"name": "python3", "display_name": "Python 3",
                                                                 "language": "python"}})
    nbformat.validate(notebook)
    nbformat.write(notebook, str(path))
    return path


def split_at_defs(source: str) -> list[str]:
    """``source`` cut into cells before each top-level ``def``/``class`` (how a learner spreads a file)."""
    cells, current = [], []
    for line in source.splitlines(keepends=True):
        if line.startswith(("def ", "class ")) and any(s.strip() for s in current):
            cells.append("".join(current))
            current = []
        current.append(line)
    cells.append("".join(current))
    return [c.rstrip("\n") for c in cells]
