"""The line that says which check is running, for a learner watching a terminal.

Without it, an endless loop in the learner's code shows a blank screen until the check's
deadline. :class:`CheckStatus` draws one line on stderr, after a short delay (a quick grade shows
nothing), redrawn a few times a second: a spinner, the problem, the check's number and title, and
how long it has run against its limit. It is cleared before the results are printed. It is only
used when stderr is a terminal and the format is for people (``--format table``): machine formats
and pipes get nothing extra.

It runs in a thread, so it must start only after the grader has forked its worker (see
``engine.grade(while_learner_runs=...)``).
"""

from __future__ import annotations

import os
import sys
import threading
import time
from typing import Any, TextIO

from grader.messages import t
from grader.render import terminal

#: Seconds before the line first appears.
DELAY_S = 0.5
_FRAMES = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"



class CheckStatus:
    """``on_check`` for :func:`grader.engine.grade`; ``start`` once the worker exists; ``stop`` before printing."""

    def __init__(self, stream: TextIO | None = None, delay_s: float = DELAY_S, lang: str | None = None):
        self.stream = stream or sys.stderr
        self.delay_s, self.lang = delay_s, lang  # lang None: the current language
        self.current: tuple[str, int, int, Any, float, float] | None = None  # problem, n, count, title, limit, since
        self.started = time.monotonic()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._drawn = False
        self._lock = threading.Lock()

    @staticmethod
    def wanted(fmt: str, stream: TextIO | None = None) -> bool:
        """Whether to show it: a format for people, on a terminal."""
        stream = stream or sys.stderr
        try:
            return fmt == "table" and os.isatty(stream.fileno()) and os.environ.get("TERM") != "dumb"
        except (AttributeError, OSError, ValueError):
            return False

    def on_check(self, spec: Any, index: int, limit_s: float) -> None:
        check = spec.checks[index]
        self.current = (spec.id, index + 1, len(spec.checks), check.title, limit_s, time.monotonic())

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="check-status", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        with self._lock:
            if self._drawn:
                self.stream.write("\r\x1b[2K")
                self.stream.flush()
                self._drawn = False

    def _run(self) -> None:
        frame = 0
        if self._stop.wait(self.delay_s):
            return
        while not self._stop.is_set():
            line = self.line(_FRAMES[frame % len(_FRAMES)])
            with self._lock:
                if line and not self._stop.is_set():
                    self.stream.write("\r\x1b[2K" + line)
                    self.stream.flush()
                    self._drawn = True
            frame += 1
            self._stop.wait(0.12)

    def line(self, spinner: str = _FRAMES[0]) -> str:
        """The text of the line now, cut to the terminal's width ("" before the first check)."""
        if self.current is None:
            return ""
        problem, number, count, title, limit, since = self.current
        text = t(
            "live.running", self.lang, problem=problem, number=number, count=count, title=title,
            seconds=int(time.monotonic() - since), limit=f"{limit:g}",
        )
        return _fit(f"{spinner} {text}", terminal.width() - 1)


def _fit(text: str, columns: int) -> str:
    """``text`` cut to ``columns`` terminal cells (a Chinese character takes two), with … if cut."""
    from rich.cells import cell_len

    if cell_len(text) <= columns:
        return text
    out, used = [], 0
    for char in text:
        w = cell_len(char)
        if used + w > columns - 1:
            break
        out.append(char)
        used += w
    return "".join(out) + "…"
