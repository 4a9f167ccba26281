"""A notebook's code as the engine grades it: its code cells in order, IPython syntax left out.

A notebook is data to the grader: it is read here, in the grader (with ``nbformat``), and only
the Python source made of it travels to the sandboxed runner, exactly as a ``.py`` file's does.

What is left out, because it is IPython and not Python, and said in the feedback (a note):

* a line magic or shell escape starting a statement: ``%pip install x``, ``!ls``,
  ``files = !ls``, ``t = %timeit -o f()`` (the line becomes blank, or ``pass`` inside a block,
  so that every other line keeps its number);
* a cell starting with a cell magic (``%%timeit``, ``%%bash``, ...), whole; except ``%%grade``,
  whose body is the learner's code: a ``%%grade NAME`` cell counts when NAME is the problem
  graded (or is missing), and is left out for another problem.

Markdown and raw cells are not code. IPython compiles each cell on its own, so a cell may say
``from __future__ import annotations`` anywhere; Python allows it only at the top of a file, so
such lines move to one line at the top of the source. Each line of the source remembers its cell
(:class:`Span`, kept by :class:`grader.submission.LearnerFiles`), so that a syntax error or an
exception names ``notebook.ipynb, cell 4, line 2``: cells are counted from the top, markdown
included, as a learner counts them on the screen.
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass
from pathlib import PurePath

from grader.errors import SubmissionError
from grader.i18n import Text, join
from grader.messages import text

#: How many left-out lines a note lists by name (then "and N more").
NOTE_ITEMS = 6
_SHOWN_CHARS = 40
#: A statement that is IPython, not Python: ``%magic``, ``!shell``, ``x = !shell``, ``x = %magic``.
_IPYTHON = re.compile(r"[ \t]*(?:[%!]|[A-Za-z_][\w.]*[ \t]*=[ \t]*[%!])")
#: ``from __future__ import a, b`` on one line (the features are group 1).
_FUTURE = re.compile(r"from[ \t]+__future__[ \t]+import[ \t]+\(?([\w, \t]+)\)?[ \t]*(?:#.*)?$")


@dataclass(frozen=True)
class Span:
    """Lines ``first`` .. ``first + count - 1`` of the graded source are ``place``'s, from its line ``start``."""

    first: int
    count: int
    place: Text | str  # "lesson.ipynb, cell 4", "this cell"
    start: int


@dataclass(frozen=True)
class Left:
    """What was left out: a line (``line`` set) or a whole cell (``line`` None, ``code`` its magic)."""

    place: Text
    line: int | None
    code: str


@dataclass(frozen=True)
class NotebookCode:
    """The source to grade, where each of its lines came from, and the notes for the feedback."""

    source: str
    spans: tuple[Span, ...]
    notes: tuple[Text, ...]


def statement_starts(lines: list[str]) -> list[bool]:
    """For each line, whether a new statement may begin on it: not inside brackets, a
    triple-quoted string, or after a line ending in a backslash (a small scanner, not a parser)."""
    starts = []
    depth, quote, continued = 0, None, False
    for line in lines:
        starts.append(depth == 0 and quote is None and not continued)
        if starts[-1] and _IPYTHON.match(line):
            continue  # IPython syntax: its quotes and brackets are not Python's
        continued, i = False, 0
        while i < len(line):
            char = line[i]
            if quote is not None:
                if char == "\\":
                    i += 2
                elif line.startswith(quote, i):
                    i, quote = i + len(quote), None
                else:
                    i += 1
                continue
            if char == "#":
                break
            if char in "'\"":
                quote = line[i : i + 3] if line[i : i + 3] in ('"""', "'''") else char
                i += len(quote)
                continue
            if char in "([{":
                depth += 1
            elif char in ")]}":
                depth = max(0, depth - 1)
            elif char == "\\" and not line[i + 1 :].strip():
                continued = True
            i += 1
        if quote in ("'", '"'):  # a one-quote string ends with its line
            quote = None
    return starts


def python_lines(
    lines: list[str], place: Text, first: int, future: list[str] | None = None
) -> tuple[list[str], list[Left]]:
    """``lines`` (of a cell, ``first`` the cell line of the first) with IPython statements blanked;
    ``from __future__`` lines are blanked too, their features added to ``future``."""
    kept, left = [], []
    for i, (line, start) in enumerate(zip(lines, statement_starts(lines))):
        if start and _IPYTHON.match(line):
            indent = line[: len(line) - len(line.lstrip())]
            kept.append(indent + "pass" if indent else "")
            left.append(Left(place, first + i, line.strip()))
        elif start and future is not None and (match := _FUTURE.match(line)):
            future += [f for f in (part.strip() for part in match.group(1).split(",")) if f and f not in future]
            kept.append("")
        else:
            kept.append(line)
    return kept, left


def cell_magic(lines: list[str]) -> tuple[int, str | None]:
    """(index of the cell's first non-blank line, its ``%%magic`` line or None)."""
    head = next((i for i, line in enumerate(lines) if line.strip()), len(lines))
    if head < len(lines) and lines[head].startswith("%%"):
        return head, lines[head]
    return head, None


def grade_target(magic_line: str) -> tuple[bool, str | None]:
    """(whether the line is ``%%grade``, the problem it names or None)."""
    words = magic_line[2:].split()
    if not words or words[0] != "grade":
        return False, None
    return True, next((w for w in words[1:] if not w.startswith("-")), None)


def cell_source(cell: object) -> str:
    """A cell's source as one string (nbformat may give a list of lines)."""
    source = cell.get("source", "") if isinstance(cell, dict) else ""
    return "".join(source) if isinstance(source, list) else str(source)


def from_cells(cells: list[tuple[Text, Text, str]], problem: str | None) -> NotebookCode:
    """Join code cells, each ``(place in messages, place in notes, source)``, into one graded source."""
    lines: list[str] = []
    spans: list[Span] = []
    left: list[Left] = []
    future: list[str] = []
    for place, noted, source in cells:
        cell = source.split("\n")
        head, magic = cell_magic(cell)
        first = 1
        if magic is not None:
            is_grade, target = grade_target(magic)
            if not is_grade or (target is not None and problem is not None and target != problem):
                left.append(Left(noted, None, magic.split()[0] if not is_grade else magic.strip()))
                continue
            cell, first = cell[head + 1 :], head + 2  # the body of %%grade is the code
        kept, skipped = python_lines(cell, noted, first, future)
        left += skipped
        spans.append(Span(len(lines) + 1, len(kept), place, first))
        lines += kept
    if future:  # one line at the top, where Python wants it; every span moves down by one
        lines.insert(0, f"from __future__ import {', '.join(future)}")
        spans = [Span(s.first + 1, s.count, s.place, s.start) for s in spans]
    return NotebookCode("\n".join(lines) + "\n" if lines else "", tuple(spans), notes(left))


def notes(left: list[Left]) -> tuple[Text, ...]:
    """The one note that lists what was left out (nothing when nothing was)."""
    if not left:
        return ()
    items = []
    for item in left[:NOTE_ITEMS]:
        code = item.code if len(item.code) <= _SHOWN_CHARS else item.code[: _SHOWN_CHARS - 1] + "…"
        if item.line is None:
            items.append(text("notebook.left_cell", place=item.place, magic=code))
        else:
            items.append(text("notebook.left_line", place=item.place, line=item.line, code=code))
    if len(left) > NOTE_ITEMS:
        items.append(text("notebook.left_more", n=len(left) - NOTE_ITEMS))
    return (text("notebook.left_out", items=join(items, text("sep.clauses"))),)


def read_notebook(data: str, shown: str, problem: str | None) -> NotebookCode:
    """The graded source of a notebook's JSON text; SubmissionError (one line, naming ``shown``)
    when it is not a notebook nbformat can read."""
    from grader.notebook import require

    nbformat = require("nbformat", text("notebook.reading", file=shown))
    try:
        with warnings.catch_warnings():  # e.g. "cell is missing an id field": still a notebook
            warnings.simplefilter("ignore")
            notebook = nbformat.reads(data, as_version=4)
        cells = list(notebook.get("cells", []))
    except Exception as err:  # noqa: BLE001 - nbformat raises many kinds; one line names the file
        reason = (str(err).strip().splitlines() or [type(err).__name__])[0][:160]
        raise SubmissionError(text("notebook.corrupt", file=shown, reason=reason)) from None
    name = PurePath(shown).name
    code = [
        (text("notebook.file_cell", file=name, cell=n), text("notebook.cell", cell=n), cell_source(cell))
        for n, cell in enumerate(cells, 1)
        if isinstance(cell, dict) and cell.get("cell_type") == "code"
    ]
    return from_cells(code, problem)

