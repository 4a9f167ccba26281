"""What ``grade list`` and ``grade show`` print: the bank as a table, a problem as its prompt."""

from __future__ import annotations

import io
import json
from dataclasses import asdict, dataclass
from pathlib import Path

from grader.bank import Problem, ProblemBank


@dataclass(frozen=True)
class ProblemRow:
    name: str
    title: str
    difficulty: str
    points: float
    checks: int
    learner_file: str
    present: bool


def list_problems(bank: ProblemBank, folder: Path) -> list[ProblemRow]:
    rows = []
    for problem in bank:
        spec = problem.spec
        rows.append(
            ProblemRow(
                spec.id, spec.title, spec.difficulty, spec.max_score, len(spec.checks),
                spec.learner_file, (folder / spec.learner_file).is_file(),
            )
        )
    return rows


def render_list(rows: list[ProblemRow], fmt: str) -> str:
    if fmt == "json":
        return json.dumps([asdict(r) for r in rows], indent=2, ensure_ascii=False)
    from rich.console import Console
    from rich.table import Table

    table = Table(title="Problems", title_justify="left")
    for column, justify in (("Problem", "left"), ("Title", "left"), ("Level", "left"), ("Points", "right"),
                            ("File here", "left")):
        table.add_column(column, justify=justify)
    for r in rows:
        present = f"[green]✓ {r.learner_file}[/]" if r.present else f"[dim]– grade init {r.name}[/]"
        table.add_row(r.name, r.title, r.difficulty, f"{r.points:g}", present)
    buffer = io.StringIO()
    Console(file=buffer, width=120, highlight=False).print(table)
    return buffer.getvalue().rstrip("\n")


def render_prompt(problem: Problem) -> str:
    from rich.console import Console
    from rich.markdown import Markdown

    spec = problem.spec
    buffer = io.StringIO()
    console = Console(file=buffer, width=100, highlight=False)
    console.print(Markdown(spec.summary))
    console.print()
    console.print(f"[bold]Checks[/] ({spec.max_score:g} points):")
    for check in spec.checks:
        hidden = " [dim](hidden)[/]" if check.visibility == "hidden" else ""
        console.print(f"  • {check.title} [dim]{check.points:g} pt[/]{hidden}")
    console.print()
    console.print(f"Start with: [bold]grade init {spec.id}[/], edit {spec.learner_file}, then [bold]grade {spec.id}[/]")
    return buffer.getvalue().rstrip("\n")
