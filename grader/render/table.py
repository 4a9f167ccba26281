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


def _detail(check: CheckResult, verbose: bool) -> list[tuple[str, str]]:
    """(style, text) lines for the Details column; the learner's text is never markup."""
    lines: list[tuple[str, str]] = []
    if check.status is not Status.PASS:
        if check.visibility == "hidden" and check.status is Status.FAIL and not verbose:
            lines.append(("", "hidden check: wrong answer"))
        elif check.message:
            lines.append(("", check.message))
        if check.diagnosis is not None:
            lines.append(("bold", f"Mistake: {check.diagnosis.title}"))
        if check.hint and (check.diagnosis is None or verbose):
            lines.append(("cyan", f"Hint: {check.hint}"))
    if verbose and check.output.strip():
        lines.append(("dim", "output:\n" + check.output.rstrip()[-2000:]))
    return lines


def _diagnoses(result: ProblemResult) -> list[tuple[str, str, int]]:
    """Each recognised mistake once: (title, hint, number of checks it cost)."""
    seen: dict[str, list] = {}
    for check in result.checks:
        if check.diagnosis is not None:
            entry = seen.setdefault(check.diagnosis.id, [check.diagnosis.title, check.diagnosis.hint, 0])
            entry[2] += 1
    return [tuple(v) for v in seen.values()]  # type: ignore[misc]


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
        table.add_column("Check", max_width=38)
        table.add_column("Points", justify="right", no_wrap=True)
        table.add_column("Details")
        if verbose:
            table.add_column("ms", justify="right")
        for check in result.checks:
            label, colour = _STYLE[check.status]
            detail = "\n".join(
                f"[{style}]{escape(text)}[/]" if style else escape(text) for style, text in _detail(check, verbose)
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
        for title, hint, n in _diagnoses(result):
            checks = "1 check" if n == 1 else f"{n} checks"
            console.print(f"[bold]Mistake recognised[/] ({checks}): {escape(title)}\n  [cyan]Hint:[/] {escape(hint)}")
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
        name = result.submission.rsplit("/", 1)[-1] or result.problem
        return f"[yellow]Not attempted yet[/]: 0/{max_score}. Edit {name} and grade again."
    if result.status == "pass":
        return f"[bold green]All checks pass: {score}/{max_score}[/]"
    counts: dict[str, int] = {}
    for check in result.checks:
        if check.status is not Status.PASS:
            counts[check.status.value] = counts.get(check.status.value, 0) + 1
    failing = ", ".join(f"{n} {s.replace('_', ' ')}" for s, n in counts.items())
    return f"[bold]Score: {score}/{max_score}[/] ({failing})"
