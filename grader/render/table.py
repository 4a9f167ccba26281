"""``--format table``: the terminal view: one row per check, then the total, in the current language.

Drawn as wide as the terminal (:mod:`grader.render.terminal`). ``grade all`` starts with one row
per problem, then each problem's table, then the total.
"""

from __future__ import annotations

import io
import os
import sys

from grader.i18n import current
from grader.messages import t
from grader.render import heatmap, terminal
from grader.render.feedback import STATUS_COLOURS, next_step, points, status_word
from grader.results import CheckResult, ProblemResult, Status, total


def detail_lines(check: CheckResult, verbose: bool, lang: str) -> list[tuple[str, str]]:
    """(style, text) lines for the Details column; the learner's text is never markup."""
    lines: list[tuple[str, str]] = []
    if check.status is not Status.PASS:
        if check.visibility == "hidden" and check.status is Status.FAIL and not verbose:
            lines.append(("", t("feedback.hidden_fail", lang)))
        elif check.message.get(lang):
            lines.append(("", check.message.get(lang)))
        if check.diagnosis is not None:
            lines.append(("bold", t("feedback.mistake", lang, title=check.diagnosis.title)))
        if check.hint and (check.diagnosis is None or verbose):
            lines.append(("cyan", t("feedback.hint", lang, hint=check.hint)))
        if check.reveal:
            lines.append(("magenta", t("feedback.reveal", lang, reveal=check.reveal)))
    if verbose and check.output.strip():
        lines.append(("dim", t("table.output", lang) + "\n" + check.output.rstrip()[-2000:]))
    return lines


def diagnoses(result: ProblemResult) -> list[tuple]:
    """Each recognised mistake once: (title, hint, number of checks it cost)."""
    seen: dict[str, list] = {}
    for check in result.checks:
        if check.diagnosis is not None:
            entry = seen.setdefault(check.diagnosis.id, [check.diagnosis.title, check.diagnosis.hint, 0])
            entry[2] += 1
    return [tuple(v) for v in seen.values()]


def render_table(
    results: list[ProblemResult], *, verbose: bool = False, combined: bool = False, lang: str | None = None,
    again: str = "grade",
) -> str:
    """The table; ``again`` says how to grade a file that could not be graded again
    (grader.render.feedback.AGAIN: run the command, ``save`` it under --watch, run a notebook's ``cell``)."""
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    from grader.render import cjk

    cjk.install()
    lang = lang or current()
    buffer = io.StringIO()
    console = Console(file=buffer, width=terminal.width(), force_terminal=os.isatty(1) or None, highlight=False)
    if combined and len(results) > 1:
        console.print(_overview(results, lang))
        console.print()
    for result in results:
        table = Table(
            title=f"{result.problem}: {points(result.score)}/{points(result.max_score)}",
            title_justify="left",
            show_lines=False,
            expand=False,
        )
        details = [
            "\n".join(f"[{style}]{escape(text)}[/]" if style else escape(text) for style, text in detail_lines(c, verbose, lang))
            for c in result.checks
        ]
        table.add_column(t("table.status", lang), no_wrap=True)
        # fold: Chinese has no spaces to wrap at, so a long run of it breaks between characters
        # (the default would cut it short with an ellipsis)
        table.add_column(t("table.check", lang), max_width=38, overflow="fold", ratio=2 if any(details) else None)
        table.add_column(t("table.points", lang), justify="right", no_wrap=True)
        if any(details):  # every check passed: no empty column to squeeze the titles in a narrow terminal
            table.add_column(t("table.details", lang), overflow="fold", ratio=3)
        if verbose:
            table.add_column(t("table.ms", lang), justify="right")
        hidden = "[dim]" + escape(t("table.hidden", lang)) + "[/]"
        for check, detail in zip(result.checks, details):
            row = [
                f"[{STATUS_COLOURS[check.status]}]{escape(status_word(check.status, lang))}[/]",
                escape(check.title.get(lang)) + (hidden if check.visibility == "hidden" else ""),
                f"{points(check.score)}/{points(check.max_score)}",
            ]
            if any(details):
                row.append(detail)
            if verbose:
                row.append(str(check.duration_ms))
            table.add_row(*row)
        console.print(table)
        for note in result.notes:  # about the file, e.g. a notebook's lines that were not graded
            console.print(f"[dim]{escape(note.get(lang))}[/]")
        _print_figures(console, result, verbose, lang)
        for title, hint, n in diagnoses(result):
            checks = t("summary.checks_one", lang) if n == 1 else t("summary.checks_many", lang, n=n)
            headline = escape(t("summary.mistake", lang, checks=checks, title=title))
            console.print(f"[bold]{headline}[/]\n  [cyan]{escape(t('summary.hint_label', lang))}[/]{escape(hint.get(lang))}")
        if result.error:
            console.print(f"[red]{escape(t('summary.could_not_grade', lang))}[/] {escape(result.error.get(lang))}")
            console.print(f"[bold]{escape(next_step(result, again, lang) or '')}[/]")
        console.print(_summary(result, lang))
        printed = sum(1 for c in result.checks if c.output.strip())
        if printed and not verbose:  # the learner's prints are shown with -v only: say so
            console.print(f"[dim]{escape(t('table.printed_hint', lang, n=printed))}[/]")
        if verbose:
            meta = t(
                "summary.meta", lang, seed=result.seed, isolation=result.isolation, version=result.grader_version,
                ms=result.duration_ms,
            )
            console.print(f"[dim]{escape(meta)}[/]")
        console.print()
    if combined and len(results) > 1:
        score, max_score = total(results)
        console.print(f"[bold]{escape(t('summary.total', lang, score=points(score), max_score=points(max_score)))}[/]")
    return buffer.getvalue().rstrip("\n")


def figures_of(result: ProblemResult) -> list[tuple[object, list[str]]]:
    """Each distinct figure of the result once, with the ids of the checks it was drawn for."""
    seen: dict[str, tuple[object, list[str]]] = {}
    for check in result.checks:
        if check.figure is not None:
            seen.setdefault(check.figure.id, (check.figure, []))[1].append(check.id)
    return list(seen.values())


def _print_figures(console, result: ProblemResult, verbose: bool, lang: str) -> None:
    """The heatmaps of the failed checks that have one, under the table (see render/heatmap.py)."""
    from rich.text import Text as RichText

    unicode = heatmap.use_unicode(getattr(sys.stdout, "encoding", None))
    for figure, checks in figures_of(result):
        lines = heatmap.text_lines(
            figure, checks=checks, unicode=unicode, verbose=verbose, width=console.width, lang=lang
        )
        for line in lines:
            console.print(RichText.assemble(*line), overflow="fold", crop=False)
        console.print()


def _overview(results: list[ProblemResult], lang: str):
    """``grade all``: one row per problem (its points and what went wrong), before the details."""
    from rich.markup import escape
    from rich.table import Table

    score, max_score = total(results)
    table = Table(title=t("table.overview", lang, score=points(score), max_score=points(max_score)),
                  title_justify="left")
    table.add_column(t("table.problem", lang), no_wrap=True)
    table.add_column(t("table.points", lang), justify="right", no_wrap=True)
    table.add_column(t("table.result", lang), overflow="fold")
    for result in results:
        if result.not_attempted:
            outcome = f"[yellow]{escape(t('table.not_attempted', lang))}[/]"
        elif result.error:
            outcome = f"[red]{escape(t('table.could_not_grade', lang))}[/]"
        elif result.status == "pass":
            outcome = f"[green]{escape(t('table.all_pass', lang))}[/]"
        else:
            outcome = escape(_failing(result, lang))
        table.add_row(result.problem, f"{points(result.score)}/{points(result.max_score)}", outcome)
    return table


def _failing(result: ProblemResult, lang: str) -> str:
    """``2 fail, 1 timeout``: the checks that did not pass, by status."""
    counts: dict[Status, int] = {}
    for check in result.checks:
        if check.status is not Status.PASS:
            counts[check.status] = counts.get(check.status, 0) + 1
    return t("sep.list", lang).join(t(f"count.{s.value}", lang, n=n) for s, n in counts.items())


def summary(result: ProblemResult, lang: str) -> tuple[str, str]:
    """(status class, line): the last line under a table (not attempted, all pass, or the score)."""
    score, max_score = points(result.score), points(result.max_score)
    if result.not_attempted:
        name = result.submission.rsplit("/", 1)[-1] or result.problem
        return Status.NOT_ATTEMPTED.value, t("summary.not_attempted", lang, max_score=max_score, file=name)
    if result.status == "pass":
        return Status.PASS.value, t("summary.all_pass", lang, score=score, max_score=max_score)
    failing = _failing(result, lang)
    return "bold", t("summary.score", lang, score=score, max_score=max_score, counts=failing)


_SUMMARY_STYLES = {Status.NOT_ATTEMPTED.value: "yellow", Status.PASS.value: "bold green", "bold": "bold"}


def _summary(result: ProblemResult, lang: str) -> str:
    from rich.markup import escape

    style, line = summary(result, lang)
    return f"[{_SUMMARY_STYLES[style]}]{escape(line)}[/]"
