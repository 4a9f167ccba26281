"""What changed since the last grading, under ``grade NAME --watch``'s table (see grader.watch.compare).

    Since the last grading: 4/10 -> 9/10
      + now passes: scaled dot-product attention values
      - now fails: fully-masked rows give zeros, not NaN (mistake: a fully-masked row gives NaN)

Titles and mistakes only: never a message, which for a hidden check could name its inputs.
"""

from __future__ import annotations

import click

from grader.i18n import current
from grader.messages import t
from grader.render.feedback import points


def render_changes(changes, lang: str | None = None) -> str:
    """``changes`` (a :class:`grader.watch.Changes`) as lines, coloured on a terminal by click."""
    lang = lang or current()
    (before, _), (after, max_score) = changes.before, changes.after
    if changes.none:
        return t("watch.unchanged", lang, score=points(after), max_score=points(max_score))
    lines = [t("watch.changes", lang, before=points(before), after=points(after), max_score=points(max_score))]
    for check in changes.now_pass:
        lines.append(click.style(t("watch.now_passes", lang, title=check.title.get(lang)), fg="green"))
    for check in changes.now_fail:
        title = check.title.get(lang)
        said = (t("watch.now_fails_mistake", lang, title=title, mistake=check.diagnosis.title.get(lang))
                if check.diagnosis is not None else t("watch.now_fails", lang, title=title))
        lines.append(click.style(said, fg="red"))
    return "\n".join(lines)
