"""How wide the grader draws for people: the real terminal's width, not a fixed one.

``COLUMNS`` wins when it is set (an exported value, or a test); otherwise the terminal is asked
(stdout, then stderr, then stdin: ``grade self_attention | less`` still fits the window); output
that reaches no terminal at all (a file, CI logs) is drawn :data:`UNATTACHED` columns wide.
rich measures wide characters (Chinese takes two columns), so tables stay aligned in any language.
"""

from __future__ import annotations

import os
import sys

#: Width for output that reaches no terminal (a file, a pipe to another program, CI logs).
UNATTACHED = 120
#: Narrower than this, tables cannot hold their columns; draw this wide and let the terminal wrap.
NARROWEST = 40


def width(environ: dict[str, str] | None = None) -> int:
    """Columns to draw in (see the module docstring)."""
    env = os.environ if environ is None else environ
    columns = env.get("COLUMNS", "").strip()
    if columns.isdigit() and int(columns) > 0:
        return max(NARROWEST, int(columns))
    for stream in (sys.__stdout__, sys.__stderr__, sys.__stdin__):
        try:
            fd = stream.fileno()
            columns = os.get_terminal_size(fd).columns if os.isatty(fd) else 0
            if columns > 0:  # (a terminal whose size was never set says 0)
                return max(NARROWEST, columns)
        except (AttributeError, OSError, ValueError):
            continue
    return UNATTACHED
