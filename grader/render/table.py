"""``--format table``: the terminal view: one row per check, then the total."""

from __future__ import annotations

import io
import os

from grader.results import CheckResult, ProblemResult, Status, total

_STYLE = {
    Status.PASS: ("PASS", "green"),
    Status.FAIL: ("FAIL", "red"),
    Status.ERROR: ("ERROR", "red"),
    Status.TIMEOUT: ("TIMEOUT", "magenta"),
    Status.NOT_ATTEMPTED: ("TODO", "yellow"),
    Status.SKIPPED: ("SKIP", "dim"),
}


def _points(value: float) -> str:
    return f"{value:g}"


def _detail(check: CheckResult, verbose: bool) -> str:
    """Message, then the hint; hidden checks keep their inputs' details to themselves."""
    parts = []
    if check.status is not Status.PASS:
        if check.visibility == "hidden" and check.status is Status.FAIL and not verbose:
            parts.append("hidden check: wrong answer")
        elif check.message:
            parts.append(check.message)
        if check.diagnosis is not None:
            parts.append(f"[bold]Mistake:[/] {check.diagnosis.title}")
        if check.hint:
            parts.append(f"[cyan]Hint:[/] {check.hint}")
    if verbose and check.output.strip():
        parts.append("[dim]output:[/]\n" + check.output.rstrip()[-2000:])
    return "\n".join(parts)


def render_table(results: list[ProblemResult], *, verbose: bool = False, combined: bool = False) -> str:
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    buffer = io.StringIO()
    width = None if os.environ.get("COLUMNS") else 110
    console = Console(file=buffer, width=width, force_terminal=os.isatty(1) or None, highlight=False)
    for result in results:
        table = Table(
            title=f"{result.problem}: {_points(result.score)}/{_points(result.max_score)}",
            title_justify="left",
            show_lines=False,
            expand=False,
        )
        table.add_column("Status", no_wrap=True)
        table.add_column("Check")
        table.add_column("Points", justify="right", no_wrap=True)
        table.add_column("Details")
        if verbose:
            table.add_column("ms", justify="right")
        for check in result.checks:
            label, colour = _STYLE[check.status]
            detail = _detail(check, verbose)
            # learner text is escaped; only our own markup (Hint:, Mistake:) is styled
            detail = "\n".join(
                line if line.startswith(("[bold]", "[cyan]", "[dim]")) else escape(line)
                for line in detail.split("\n")
            )
            row = [
                f"[{colour}]{label}[/]",
                escape(check.title) + (" [dim](hidden)[/]" if check.visibility == "hidden" else ""),
                f"{_points(check.score)}/{_points(check.max_score)}",
                detail,
            ]
            if verbose:
                row.append(str(check.duration_ms))
            table.add_row(*row)
        console.print(table)
        if result.error:
            console.print(f"[red]Could not grade:[/] {escape(result.error)}")
        summary = _summary(result)
        console.print(summary)
        if verbose:
            console.print(
                f"[dim]seed {result.seed} · isolation {result.isolation} · grader {result.grader_version} "
                f"· {result.duration_ms} ms[/]"
            )
        console.print()
    if combined and len(results) > 1:
        score, max_score = total(results)
        console.print(f"[bold]Total: {_points(score)}/{_points(max_score)}[/]")
    return buffer.getvalue().rstrip("\n")


def _summary(result: ProblemResult) -> str:
    score, max_score = _points(result.score), _points(result.max_score)
    if result.not_attempted:
        return f"[yellow]Not attempted yet[/]: 0/{max_score}. Edit {result.problem}.py and grade again."
    if result.status == "pass":
        return f"[bold green]All checks pass: {score}/{max_score}[/]"
    counts: dict[str, int] = {}
    for check in result.checks:
        if check.status is not Status.PASS:
            counts[check.status.value] = counts.get(check.status.value, 0) + 1
    failing = ", ".join(f"{n} {s.replace('_', ' ')}" for s, n in counts.items())
    return f"[bold]Score: {score}/{max_score}[/] ({failing})"
