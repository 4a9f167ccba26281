"""``grade progress``: what the folder's grading history says about each problem (grader.history)."""

from __future__ import annotations

from pathlib import Path

import click

from grader.messages import t


@click.command("progress")
@click.option(
    "--dir", "directory", type=click.Path(file_okay=False, path_type=Path), default=Path("."),
    help="Folder whose .grade-history.jsonl to read.",
)
@click.option("--format", "fmt", type=click.Choice(("table", "json")), default="table", show_default=True)
@click.pass_context
def progress(ctx: click.Context, directory: Path, fmt: str) -> None:
    """Show, per problem graded here, the best score, the mistakes that came up most and the checks never passed."""
    from grader import history
    from grader.bank import course_order
    from grader.cli import CliError, _bank
    from grader.render.progress import render_progress

    try:
        kept = history.History.load(directory)
    except OSError as err:
        raise CliError(t("history.cannot_read", path=history.path_in(directory), reason=err.strerror)) from None
    if kept.unreadable:
        click.echo(t("cli.warning", message=t("history.unreadable", path=history.path_in(directory),
                                              n=kept.unreadable)), err=True)
    rows = []
    for problem in course_order(_bank(ctx)):
        spec = problem.spec
        done = history.progress(spec.id, kept.entries, [c.id for c in spec.checks], spec.max_score)
        if done.gradings:
            rows.append((problem, done))
    if not rows and fmt == "table":
        click.echo(t("progress.empty", path=history.path_in(directory)))
        return
    click.echo(render_progress(rows, fmt))
