"""``grade NAME --watch``: the terminal side of :mod:`grader.watch`.

Grade, print the table (and, from the second grading on, what changed), record the grading in the
history, say that it is watching; then the same after every save. A file that cannot be read, a
syntax error or a grader fault is said and the watch goes on; Ctrl-C ends it (exit 130, from
:meth:`grader.cli.GradeGroup.invoke`).
"""

from __future__ import annotations

import time
from pathlib import Path
import click

from grader import watch
from grader.bank import Problem
from grader.errors import GraderError, GraderFault
from grader.messages import t
from grader.results import ProblemResult


def run(
    problem: Problem, path: Path, *, seed: int | None, sandbox: str, timeout_s: float | None, verbose: bool,
    instructor: bool, no_history: bool,
) -> None:
    """Watch ``path`` until Ctrl-C (KeyboardInterrupt, which the CLI turns into exit 130)."""
    from grader import cli

    try:
        watch.require_watchfiles()
    except watch.WatchUnavailable as err:
        raise cli.CliError(str(err)) from None
    shown = path.name
    with watch.WarmGrader(problem, sandbox_mode=sandbox, seed=seed, timeout_s=timeout_s) as grader:
        graded = watch.signature(path)  # before it is read: a save while it is graded is graded next
        last: ProblemResult | None = _grade(grader, path, None, verbose, instructor, no_history)
        click.echo(t("watch.watching", file=shown))
        for event in watch.saves(path, graded):
            if event == watch.GONE:
                click.echo(t("watch.gone", file=shown))
                continue
            click.echo(t("watch.saved", time=time.strftime("%H:%M:%S"), file=shown))
            last = _grade(grader, path, last, verbose, instructor, no_history)
            click.echo(t("watch.watching", file=shown))


def _grade(
    grader: watch.WarmGrader, path: Path, last: ProblemResult | None, verbose: bool, instructor: bool,
    no_history: bool,
) -> ProblemResult | None:
    """Grade once and print it all; the grading to compare the next one with."""
    from grader import cli
    from grader.render.audience import learner_view
    from grader.render.changes import render_changes
    from grader.render.table import render_table

    status = cli._live_status("table")
    try:
        result = grader.grade(path, while_learner_runs=cli._when_running("table", status),
                              on_check=status and status.on_check)
    except (GraderError, GraderFault) as err:  # unreadable, too large, not UTF-8; or the worker failed
        click.echo(t("watch.not_graded", reason=str(err)), err=True)
        return last
    finally:
        if status is not None:
            status.stop()
    shown = [result] if instructor else learner_view([result])
    click.echo(render_table(shown, verbose=verbose or instructor, again="save"))
    cli._record([result], path.parent, "table", no_history)
    if not watch.loaded(result):
        if last is not None:
            click.echo(t("watch.not_compared"))
        return last
    if last is not None:
        click.echo(render_changes(watch.compare(last, result)))
    return result
