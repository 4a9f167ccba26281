"""``grade progress``: per problem, the best score, the mistakes that came up most, the checks never passed.

Built from the folder's grading history (:mod:`grader.history`) and the bank's specs, which give
the titles in the current language; JSON keeps the ids, with those titles beside them.
"""

from __future__ import annotations

import io
import json

from grader.bank import Problem
from grader.history import Progress
from grader.i18n import current
from grader.messages import t
from grader.render import terminal
from grader.render.feedback import points

#: Checks never passed listed by title in the table; the rest are counted.
SHOWN_CHECKS = 3
#: Mistakes listed per problem in the table.
SHOWN_MISTAKES = 3


def _titles(problem: Problem, done: Progress, lang: str) -> tuple[list[tuple[str, str, int]], list[tuple[str, str]]]:
    """(id, title, gradings) of its mistakes and (id, title) of its checks never passed, in ``lang``."""
    spec = problem.spec
    checks = {c.id: c.title.get(lang) for c in spec.checks}
    mistakes = []
    for mistake_id, n in done.mistakes:
        mistake = spec.mistake(mistake_id)
        mistakes.append((mistake_id, mistake.title.get(lang) if mistake is not None else mistake_id, n))
    return mistakes, [(cid, checks.get(cid, cid)) for cid in done.never_passed]


def render_progress(rows: list[tuple[Problem, Progress]], fmt: str, lang: str | None = None) -> str:
    """The problems graded here (``rows``: those with at least one grading), as a table or JSON."""
    lang = lang or current()
    if fmt == "json":
        data = []
        for problem, done in rows:
            mistakes, never = _titles(problem, done, lang)
            entry = done.to_dict()
            entry["mistakes"] = [{"id": m, "title": title, "gradings": n} for m, title, n in mistakes]
            entry["never_passed"] = [{"id": cid, "title": title} for cid, title in never]
            data.append(entry)
        return json.dumps(data, indent=2, ensure_ascii=False)
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    from grader.render import cjk

    cjk.install()
    table = Table(title=t("progress.title", lang), title_justify="left", show_lines=True)
    table.add_column(t("list.problem", lang), no_wrap=True, min_width=max((len(p.name) for p, _ in rows), default=7))
    table.add_column(t("progress.gradings", lang), justify="right", no_wrap=True)
    table.add_column(t("list.best", lang), justify="right", no_wrap=True)
    table.add_column(t("progress.mistakes", lang), ratio=1, overflow="fold")
    table.add_column(t("progress.never_passed", lang), ratio=1, overflow="fold")
    for problem, done in rows:
        mistakes, never = _titles(problem, done, lang)
        said = [t("progress.mistake_times", lang, title=title, n=n) for _, title, n in mistakes[:SHOWN_MISTAKES]]
        if len(never) > SHOWN_CHECKS:
            unpassed = [title for _, title in never[:SHOWN_CHECKS]] + [
                t("progress.more", lang, n=len(never) - SHOWN_CHECKS)]
        else:
            unpassed = [title for _, title in never]
        best = f"{points(done.best or 0)}/{points(done.max_score)}"
        table.add_row(
            problem.name, str(done.gradings), f"[green]{best}[/]" if (done.best or 0) >= done.max_score else best,
            escape("\n".join(f"• {s}" for s in said)) or f"[dim]{escape(t('progress.none', lang))}[/]",
            escape("\n".join(f"• {s}" for s in unpassed)) or f"[green]{escape(t('progress.all_passed', lang))}[/]",
        )
    buffer = io.StringIO()
    Console(file=buffer, width=terminal.width(), highlight=False).print(table)
    return buffer.getvalue().rstrip("\n")
