"""What ``grade list`` and ``grade show`` print: the bank as a table, a problem as its prompt.

``grade list`` follows the course (:func:`grader.bank.course_order`): problems sorted by their
spec's ``order``, each course section (its ``group``) kept together under its heading, sections in
the order of their first problem.
"""

from __future__ import annotations

import io
import json
from dataclasses import asdict, dataclass
from pathlib import Path

from grader import submission
from grader.bank import Problem, ProblemBank, course_order
from grader.i18n import current
from grader.messages import t
from grader.render import terminal
from grader.render.feedback import points


@dataclass(frozen=True)
class ProblemRow:
    name: str
    title: str
    difficulty: str
    points: float
    checks: int
    learner_file: str
    present: bool
    last_score: float | None = None  # from the folder's grading history (grader.history), if any
    best_score: float | None = None
    group: str | None = None  # the section's id; None without one
    group_title: str | None = None  # its heading in the language asked for
    order: int | None = None


def list_problems(bank: ProblemBank, folder: Path, lang: str | None = None) -> list[ProblemRow]:
    """One row per problem in course order, its title and section heading in ``lang`` (ids and
    difficulty stay English: JSON reads them), with its last and best score from the folder's
    history (none when it cannot be read). A section's heading is its first problem's."""
    from grader import history

    try:
        entries = history.History.load(folder).entries
    except OSError:
        entries = []
    rows, headings = [], {}
    for problem in course_order(bank):
        spec = problem.spec
        found = submission.find(folder, spec.learner_file)  # NAME.py, else the notebook NAME.ipynb
        done = history.progress(spec.id, entries, [], spec.max_score)
        group = spec.group.id if spec.group else None
        if spec.group is not None:
            headings.setdefault(group, spec.group.title.get(lang))
        rows.append(
            ProblemRow(
                spec.id, spec.title.get(lang), spec.difficulty, spec.max_score, len(spec.checks),
                spec.learner_file if found is None else found.name, found is not None, done.last, done.best,
                group, headings.get(group), spec.order,
            )
        )
    return rows


def render_list(rows: list[ProblemRow], fmt: str, lang: str | None = None) -> str:
    """The bank as a table as wide as the terminal; below 110 columns, the Level column and the
    per-row ``grade init`` hints give way to one line under the table (names are never cut); with
    scores from the folder's history (Last, Best) below 80 columns, so do the titles."""
    if fmt == "json":
        return json.dumps([asdict(r) for r in rows], indent=2, ensure_ascii=False)
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    from grader.render import cjk

    cjk.install()
    lang = lang or current()
    width = terminal.width()
    wide = width >= 110
    scored = any(r.last_score is not None for r in rows)  # the folder has a grading history
    titled = not scored or width >= 80
    table = Table(title=t("list.title", lang), title_justify="left")
    table.add_column(t("list.problem", lang), no_wrap=True, min_width=max((len(r.name) for r in rows), default=7))
    if titled:
        table.add_column(t("list.name", lang), ratio=1, overflow="fold")
    if wide:
        table.add_column(t("list.level", lang))
    table.add_column(t("list.points", lang), justify="right", no_wrap=True)
    table.add_column(t("list.file_here" if wide else "list.here", lang), no_wrap=not wide)
    if scored:
        table.add_column(t("list.last", lang), justify="right", no_wrap=True)
        table.add_column(t("list.best", lang), justify="right", no_wrap=True)
    grouped = any(r.group is not None for r in rows)
    for i, r in enumerate(rows):
        if grouped and (i == 0 or r.group != rows[i - 1].group):
            _add_heading(table, r.group_title if r.group is not None else t("list.other_group", lang),
                         titled, first=i == 0)
        if wide:
            present = f"[green]✓ {r.learner_file}[/]" if r.present else f"[dim]– grade init {r.name}[/]"
            cells = [r.name, escape(r.title), t(f"level.{r.difficulty}", lang), points(r.points), present]
        else:
            cells = [r.name, *([escape(r.title)] if titled else []), points(r.points),
                     "[green]✓[/]" if r.present else "[dim]–[/]"]
        if scored:
            cells += [_score_cell(r.last_score, r.points), _score_cell(r.best_score, r.points)]
        table.add_row(*cells)
    buffer = io.StringIO()
    console = Console(file=buffer, width=width, highlight=False)
    console.print(table)
    if not wide:
        console.print(escape(t("list.narrow_key", lang)))
    if scored:
        console.print(escape(t("list.scores_key", lang)))
    return buffer.getvalue().rstrip("\n")


def _add_heading(table, heading: str, titled: bool, *, first: bool) -> None:
    """A course section's heading: a row of its own, a line above it from the second section on. It
    goes in the Title column, or, when the titles give way, in the Problem column cut to the width
    of the names (a heading never widens a narrow table)."""
    from rich.text import Text as RichText

    if not first:
        table.add_section()
    cell = RichText(heading, style="bold")
    if not titled:
        cell.truncate(table.columns[0].min_width or len(heading), overflow="ellipsis")
    cells: list = [""] * len(table.columns)
    cells[1 if titled else 0] = cell
    table.add_row(*cells)


def _score_cell(score: float | None, max_score: float) -> str:
    if score is None:
        return "[dim]–[/]"
    return f"[green]{points(score)}[/]" if score >= max_score else points(score)


def render_prompt(problem: Problem, lang: str | None = None) -> str:
    from rich.console import Console
    from rich.markdown import Markdown
    from rich.markup import escape

    from grader.render import cjk

    cjk.install()
    lang = lang or current()
    spec = problem.spec
    buffer = io.StringIO()
    console = Console(file=buffer, width=min(terminal.width(), 100), highlight=False)  # prose reads best narrow
    console.print(Markdown(spec.summary.get(lang)))
    console.print()
    console.print(f"[bold]{escape(t('show.checks', lang, points=f'{spec.max_score:g}'))}[/]")
    for check in spec.checks:
        hidden = f"[dim]{escape(t('table.hidden', lang))}[/]" if check.visibility == "hidden" else ""
        worth = escape(t("show.check_points", lang, points=f"{check.points:g}"))
        console.print(f"  • {escape(check.title.get(lang))} [dim]{worth}[/]{hidden}")
    _print_figures(console, problem, lang)
    console.print()
    console.print(t("show.start", lang, name=spec.id, file=spec.learner_file))
    return buffer.getvalue().rstrip("\n")


def _print_figures(console, problem: Problem, lang: str) -> None:
    """The reference's pictures of the figures marked ``show: true`` (public examples, no learner code)."""
    shown = [f for f in problem.spec.figures if f.show]
    if not shown:
        return
    import sys

    from rich.text import Text as RichText

    from grader import engine, figures
    from grader.render import heatmap

    registry, reference = engine.load_registry(problem), engine.load_reference(problem)
    probes = engine.load_probes(problem)
    unicode = heatmap.use_unicode(getattr(sys.stdout, "encoding", None))
    console.print()
    console.print(f"[bold]{t('show.figures', lang)}[/]")
    for spec in shown:
        figure = figures.reference_only(spec, registry, reference, probes)
        heading = t("figure.heading_show", lang, title=figure.title)
        console.print()
        for line in heatmap.text_lines(figure, unicode=unicode, width=console.width, lang=lang, heading=heading):
            console.print(RichText.assemble(*line))
