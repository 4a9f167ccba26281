"""Jupyter: grading a notebook's code, the ``%%grade`` cell magic, and the starter notebook.

* :mod:`grader.notebook.code` turns a notebook (or one ``%%grade`` cell) into the Python source
  the engine grades, skipping IPython syntax (``%magic``, ``!shell``, ``%%cell`` magics) and
  remembering which cell each line came from, so that feedback names the cell and its line.
* :mod:`grader.notebook.magic` is the IPython extension (``%load_ext grader``); it grades a
  cell in a separate grading process (:mod:`grader.notebook.grade_cell`), never in the kernel.
* :mod:`grader.notebook.starter` writes ``grade init NAME --notebook``'s notebook.

Reading a notebook needs ``nbformat`` and the magic needs IPython: the optional ``jupyter``
extra. Without it the ``grade`` CLI works as before, and asking for a notebook feature is a
one-line error naming the extra (:func:`require`).
"""

from __future__ import annotations

import importlib

from grader.errors import GraderError
from grader.messages import text

#: The pip argument that installs the notebook support.
EXTRA = '"attention-grader[jupyter]"'


def require(module: str, what: str) -> object:
    """Import ``module`` of the jupyter extra, or raise a one-line GraderError about ``what`` needs it."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise GraderError(text("notebook.needs_extra", what=what, module=module, extra=EXTRA)) from None
