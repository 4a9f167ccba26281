"""A learner's files as the grader takes them: the graded file, and the helper modules it imports.

One function reads a learner file for every path into the grader (``grade NAME``, ``grade all``,
``grade batch`` and its Dask workers), so the same file gives the same verdict everywhere:

* it is refused, with a one-line message, above :data:`MAX_FILE_BYTES` (a solution is a few KiB;
  parsing megabytes of code in the grader would cost seconds and gigabytes);
* a UTF-8 byte-order mark (Windows Notepad writes one) is dropped, as Python itself does;
* the modules it imports that lie beside it (``import helpers`` with ``helpers.py``, or a package
  folder with ``__init__.py``) travel with it to the learner's process, which finds them on its
  ``sys.path``. Nothing else of the learner's folder does: in a batch, the runner never sees another
  student's folder, and under ``--sandbox full`` not even its own.

Imports are found by a line scan (``import a``, ``from a import b``), transitively through the
helpers; a module imported by a computed name (``importlib.import_module(name)``) is not found.

A Jupyter notebook (``.ipynb``) is read the same way, then its code cells become the source
(:mod:`grader.notebook.code`): the source keeps ``Span`` records, so that a message about
one of its lines names the cell and the line there (:meth:`LearnerFiles.locate`).
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from typing import TYPE_CHECKING

from grader.errors import SubmissionError
from grader.i18n import Text
from grader.messages import text

if TYPE_CHECKING:
    from grader.notebook.code import Span

#: The largest learner file the grader reads, and the most its helper modules may add together.
MAX_FILE_BYTES = 1 * 2**20
#: The most helper files that travel with one learner file.
MAX_HELPER_FILES = 64
_PACKAGE_DEPTH = 3
_SKIP_DIRS = {"__pycache__"}
_BOM = b"\xef\xbb\xbf"

class Refused(SubmissionError):
    """A learner file the grader does not grade; ``kind`` (too_large, not_utf8) names why."""

    def __init__(self, kind: str, message: Text):
        super().__init__(message)
        self.kind = kind


def size_text(n: int) -> str:
    """``1 MiB``, ``5.0 MiB``, ``800 KiB``: a file size for people."""
    if n >= 2**20:
        return f"{n / 2**20:.1f} MiB" if n % 2**20 else f"{n // 2**20} MiB"
    return f"{max(1, round(n / 1024))} KiB"


#: Learner files whose source is Python code (their helper modules travel with them).
CODE_SUFFIXES = (".py", ".ipynb")
NOTEBOOK_SUFFIX = ".ipynb"


@dataclass(frozen=True)
class LearnerFiles:
    """What is graded: the file's text (no BOM) and its helper modules (relative path -> bytes).

    A notebook's (or a notebook cell's) source also has ``spans`` (where each line came from),
    ``notes`` for the feedback (the lines left out), and ``shown``, how messages name it.
    """

    path: Path
    source: str
    helpers: dict[str, bytes] = field(default_factory=dict)
    spans: tuple[Span, ...] = ()
    notes: tuple[Text, ...] = ()
    shown: Text | str | None = None

    @property
    def name(self) -> str:
        """The file name the learner's module is compiled under (and its tracebacks name)."""
        return self.path.name

    @property
    def label(self) -> Text | str:
        """How messages name what was graded: the file name, or "this cell"."""
        return self.name if self.shown is None else self.shown

    def locate(self, line: int) -> tuple[Text | str, int]:
        """(where, line there) of a line of the graded source: (the file, the same line) for a
        plain file, (its cell, the line in that cell) for a notebook's."""
        for span in self.spans:
            if span.first <= line < span.first + span.count:
                return span.place, line - span.first + span.start
        return self.label, line

    def line_of_file(self, line: int | None) -> int | None:
        """The line to fix as a line of :attr:`label` (None when ``line`` lies in a cell of a notebook)."""
        if line is None:
            return None
        place, there = self.locate(line)
        return there if place == self.label else None


def decode(data: bytes, shown: str) -> str:
    """The text of a learner file's bytes, BOM dropped; SubmissionError if too large or not UTF-8."""
    if len(data) > MAX_FILE_BYTES:
        raise too_large(shown, len(data))
    try:
        return data.removeprefix(_BOM).decode("utf-8")
    except UnicodeDecodeError as err:
        byte = err.start + (3 if data.startswith(_BOM) else 0)
        raise Refused("not_utf8", text("submission.not_utf8", file=shown, byte=byte)) from None


def too_large(shown: str, size: int) -> Refused:
    """The error for a learner file of ``size`` bytes, over :data:`MAX_FILE_BYTES`."""
    return Refused("too_large", text("submission.too_large", file=shown, size=size_text(size),
                                     limit=size_text(MAX_FILE_BYTES)))


def read(path: Path, shown: str | None = None, problem: str | None = None) -> LearnerFiles:
    """Read the learner file at ``path`` and the helper modules it imports (see the module docstring).

    ``shown`` is how messages name the file (default: the path as given); ``problem``, the problem
    graded (a notebook's ``%%grade OTHER`` cells are left out).
    """
    shown = str(path) if shown is None else shown
    try:
        size = path.stat().st_size
        if path.is_dir():
            raise IsADirectoryError
        if size > MAX_FILE_BYTES:  # refuse before reading it into memory
            raise too_large(shown, size)
        data = path.read_bytes()
    except FileNotFoundError:
        raise SubmissionError(text("submission.missing", file=shown)) from None
    except IsADirectoryError:
        raise SubmissionError(text("submission.folder", file=shown)) from None
    except OSError as err:
        raise SubmissionError(text("submission.unreadable", file=shown, why=err.strerror)) from None
    return from_bytes(path, data, shown, problem)


def from_bytes(path: Path, data: bytes, shown: str, problem: str | None = None) -> LearnerFiles:
    """The learner files of ``path`` whose bytes are ``data`` (size already checked)."""
    source = decode(data, shown)
    if path.suffix != NOTEBOOK_SUFFIX:
        return LearnerFiles(path, source, helper_modules(path, source) if path.suffix in CODE_SUFFIXES else {})
    from grader.notebook.code import read_notebook

    code = read_notebook(source, shown, problem)
    return LearnerFiles(path, code.source, helper_modules(path, code.source), code.spans, code.notes)


def candidates(learner_file: str) -> list[str]:
    """The names that may hold a problem's answer, in the order they win: ``NAME.py``, then the
    notebook ``NAME.ipynb`` (a problem of code only; ``qa.yaml`` has no notebook)."""
    stem, suffix = os.path.splitext(learner_file)
    return [learner_file, stem + NOTEBOOK_SUFFIX] if suffix == ".py" else [learner_file]


def find(folder: Path, learner_file: str) -> Path | None:
    """The first of :func:`candidates` that is a file in ``folder``, or None."""
    return next((folder / name for name in candidates(learner_file) if (folder / name).is_file()), None)


def source_text(path: Path) -> str:
    """The Python source graded for ``path`` (a notebook's code cells), for fingerprints; raises
    SubmissionError or OSError."""
    if path.suffix == NOTEBOOK_SUFFIX:
        return read(path).source
    return path.read_text(encoding="utf-8-sig")


_IMPORT = re.compile(r"^[ \t]*(?:from[ \t]+([A-Za-z_]\w*)[\w.]*[ \t]+import\b|import[ \t]+([^#;\n]+))", re.M)


def imported_names(source: str) -> set[str]:
    """Top-level module names that ``source`` may import (a superset: a line scan, not a parse)."""
    names: set[str] = set()
    for match in _IMPORT.finditer(source):
        if match.group(1):
            names.add(match.group(1))
            continue
        for part in match.group(2).split(","):
            head = part.strip().split(" ")[0].split(".")[0].strip("()\\ \t")
            if head.isidentifier():
                names.add(head)
    return names


def helper_modules(path: Path, source: str) -> dict[str, bytes]:
    """The modules beside ``path`` that ``source`` imports, transitively: relative path -> bytes.

    Links are never followed; the learner file itself is not a helper. Raises SubmissionError
    when they exceed :data:`MAX_FILE_BYTES` or :data:`MAX_HELPER_FILES` together.
    """
    folder = path.parent
    helpers: dict[str, bytes] = {}
    seen: set[str] = {path.stem}
    todo = sorted(imported_names(source) - seen)
    total = 0
    while todo:
        name = todo.pop(0)
        if name in seen:
            continue
        seen.add(name)
        for rel in _module_files(folder, name):
            try:
                data = (folder / rel).read_bytes()
            except OSError:
                continue
            helpers[rel] = data
            total += len(data)
            if total > MAX_FILE_BYTES or len(helpers) > MAX_HELPER_FILES:
                raise Refused("too_large", text(
                    "submission.helpers_too_large", file=path.name, names=", ".join(sorted(helpers)[:5]),
                    limit=size_text(MAX_FILE_BYTES), count=MAX_HELPER_FILES,
                ))
            if rel.endswith(".py"):
                helper_source = data.removeprefix(_BOM).decode("utf-8", "replace")
                todo.extend(sorted(imported_names(helper_source) - seen))
    return helpers


def _module_files(folder: Path, name: str) -> list[str]:
    """``name.py``, or every ``.py`` of the package folder ``name/`` (with ``__init__.py``)."""
    single = folder / f"{name}.py"
    if _plain_file(single):
        return [single.name]
    package = folder / name
    if not (package.is_dir() and not package.is_symlink() and _plain_file(package / "__init__.py")):
        return []
    found = []
    for top, dirs, files in os.walk(package):
        depth = len(Path(top).relative_to(folder).parts)
        dirs[:] = sorted(d for d in dirs if d not in _SKIP_DIRS and depth < _PACKAGE_DEPTH
                         and not (Path(top) / d).is_symlink())
        found += [str(Path(top, f).relative_to(folder)) for f in sorted(files)
                  if f.endswith(".py") and _plain_file(Path(top, f))]
    return found


def _plain_file(path: Path) -> bool:
    return path.is_file() and not path.is_symlink()


def content_hash(data: bytes, helpers: dict[str, bytes]) -> str:
    """SHA-256 of what a grade depends on from the learner: the file, then its helpers by name."""
    digest = hashlib.sha256(data)
    for rel in sorted(helpers):
        digest.update(b"\0" + rel.encode() + b"\0" + hashlib.sha256(helpers[rel]).digest())
    return digest.hexdigest()
