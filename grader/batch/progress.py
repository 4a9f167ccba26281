"""The batch progress bar on stderr: done/total, rate, ETA (rich), and nothing on stdout."""

from __future__ import annotations

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.markup import escape
from rich.text import Text

from grader.messages import t


class RateColumn(ProgressColumn):
    """Results per second."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text(f"{speed:.1f}/s" if speed else "–/s", style="progress.data.speed")


class BarProgress:
    """A :class:`grader.batch.run.Progress` drawn with rich; use as a context manager."""

    def __init__(self, console: Console | None = None):
        self.console = console or Console(stderr=True)
        self.bar = Progress(
            TextColumn("[bold]" + escape(t("batch.progress"))),
            BarColumn(),
            MofNCompleteColumn(),
            RateColumn(),
            TextColumn(escape(t("batch.eta"))),
            TimeRemainingColumn(),
            TimeElapsedColumn(),
            console=self.console,
            transient=False,
        )
        self.task = None

    def start(self, total: int, done: int) -> None:
        """The bar appears here, once the class is found (an error before that prints alone)."""
        self.task = self.bar.add_task("grading", total=total, completed=done)
        self.bar.start()

    def advance(self, student: str, problem: str) -> None:
        if self.task is not None:
            self.bar.advance(self.task)

    def stopping(self, done: int, total: int) -> None:
        """Ctrl-C: say at once that the batch is stopping (the workers are killed next)."""
        self.bar.stop()
        self.console.print(escape(t("batch.stopping")))

    def __enter__(self) -> BarProgress:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.task is not None:
            self.bar.stop()
