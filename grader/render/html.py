"""HTML of a graded result, for a notebook's output (the ``%%grade`` cell magic).

It says what the terminal table says (:mod:`grader.render.table`), from the same helpers, in the
current language: one row per check with its details (message, mistake, hint), the notes (a
notebook's lines that were not graded), the pictures of failed checks as inline SVG (the same
``figure_svg`` the batch report uses), each recognised mistake once with its hint, the next step
when the code could not be graded, and the score. Everything the learner's code wrote reaches the
page escaped; the styles are scoped to the ``ag`` class so they change nothing else on the page.
"""

from __future__ import annotations

from html import escape

from grader.i18n import current
from grader.messages import t
from grader.render.feedback import next_step, points, status_word
from grader.render.table import detail_lines, diagnoses, figures_of, summary
from grader.results import ProblemResult

_STYLE = """<style>
.ag{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;font-size:13px;line-height:1.4}
.ag table{border-collapse:collapse;margin:4px 0}
.ag th,.ag td{border:1px solid rgba(128,128,128,.35);padding:3px 8px;text-align:left;vertical-align:top}
.ag td.n,.ag td.st{text-align:right;white-space:nowrap}.ag td.st{text-align:left}
.ag .pass{color:#1a7f37;font-weight:600}.ag .fail,.ag .error{color:#cf222e;font-weight:600}
.ag .timeout{color:#8250df;font-weight:600}.ag .not_attempted{color:#9a6700;font-weight:600}
.ag .skipped,.ag .dim{opacity:.65}.ag .cyan{color:#0969da}.ag .magenta{color:#8250df}.ag .bold{font-weight:600}
.ag .figures{background:#fff;color:#000;padding:6px;display:inline-block;border-radius:4px}
.ag pre{white-space:pre-wrap;margin:0}
</style>"""


def render_html(
    results: list[ProblemResult], *, verbose: bool = False, lang: str | None = None, again: str = "grade",
    footer: str = "",
) -> str:
    """One ``<div class="ag">`` per result; ``again`` words the next step (:func:`next_step`),
    ``footer`` is last (lines already in ``lang``)."""
    lang = lang or current()
    parts = [_STYLE]
    for result in results:
        parts.append(f'<div class="ag" lang="{"zh-CN" if lang == "zh" else lang}">')
        parts.append(f"<h3>{escape(result.problem)}: {points(result.score)}/{points(result.max_score)}</h3>")
        parts.append(_table(result, verbose, lang))
        parts += [f'<p class="dim">{escape(note.get(lang))}</p>' for note in result.notes]
        shown = figures_of(result)
        if shown:  # the failed checks' pictures: yours beside the reference's, on a public example
            parts.append('<div class="figures">' + "".join(f.svg(lang) for f, _ in shown) + "</div>")
        for title, hint, n in diagnoses(result):
            checks = t("summary.checks_one", lang) if n == 1 else t("summary.checks_many", lang, n=n)
            parts.append(
                f'<p><span class="bold">{escape(t("summary.mistake", lang, checks=checks, title=title))}</span><br>'
                f'<span class="cyan">{escape(t("summary.hint_label", lang))}</span>{escape(hint.get(lang))}</p>'
            )
        if result.error:
            parts.append(
                f'<p><span class="error">{escape(t("summary.could_not_grade", lang))}</span> '
                f'{escape(result.error.get(lang))}<br><span class="bold">'
                f"{escape(next_step(result, again, lang) or '')}</span></p>"
            )
        style, line = summary(result, lang)
        parts.append(f'<p class="{style}">{escape(line)}</p>')
        parts += [f'<p class="dim">{escape(line)}</p>' for line in footer.splitlines()]
        parts.append("</div>")
    return "\n".join(parts)


def _table(result: ProblemResult, verbose: bool, lang: str) -> str:
    heads = [t("table.status", lang), t("table.check", lang), t("table.points", lang), t("table.details", lang)]
    rows = ["<table><tr>" + "".join(f"<th>{escape(h)}</th>" for h in heads) + "</tr>"]
    hidden = f' <span class="dim">{escape(t("table.hidden", lang))}</span>'
    for check in result.checks:
        details = "<br>".join(
            f'<span class="{style}">{_lines(text)}</span>' if style else _lines(text)
            for style, text in detail_lines(check, verbose, lang)
        )
        rows.append(
            f'<tr><td class="st {check.status.value}">{escape(status_word(check.status, lang))}</td>'
            f"<td>{escape(check.title.get(lang))}{hidden if check.visibility == 'hidden' else ''}</td>"
            f'<td class="n">{points(check.score)}/{points(check.max_score)}</td><td>{details}</td></tr>'
        )
    return "".join(rows) + "</table>"


def _lines(text: str) -> str:
    """Learner text (a message, printed output) escaped, its line breaks kept."""
    return f"<pre>{escape(text)}</pre>" if "\n" in text else escape(text)

