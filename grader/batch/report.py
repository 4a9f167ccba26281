"""report.html: what an instructor looks at after a batch. Self-contained, no network.

Sections: grader errors (results the grader failed to produce, listed first and left out of
every statistic), score distributions (per problem and overall), each check's pass rate, the
most frequent diagnoses with their hints, the slowest submissions, near-duplicate submissions,
data problems, and a table of students linking to each student's per-check detail.

Statistics are accumulated one student at a time (:meth:`Report.add`); per-student detail is
streamed to a side file and spliced in at the end, so memory does not grow with the detail.
Everything that comes from a submission (folder names, messages, learner output) is escaped, and
a Content-Security-Policy forbids loading anything.
"""

from __future__ import annotations

import heapq
import shutil
from array import array
from collections import Counter
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from typing import TextIO

from grader.batch import svg
from grader.i18n import current
from grader.messages import t
from grader.render.feedback import points
from grader.results import ProblemResult, Status

#: Per-student detail is inlined for this many students at most (the table lists everyone).
DETAIL_LIMIT = 2000
#: Answers to review listed in report.html (review.csv holds them all).
REVIEW_LIMIT = 500
BINS = 10
_BIN_LABELS = [f"{10 * i}-{10 * i + 10}%" for i in range(BINS)]

_CSS = """
body{font-family:system-ui,sans-serif;margin:2em auto;max-width:1100px;color:#222;padding:0 1em}
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #ddd}
table{border-collapse:collapse;margin:.5em 0;font-size:.9em}
td,th{border:1px solid #ddd;padding:3px 7px;text-align:left;vertical-align:top}
th{background:#f4f4f4}td.n{text-align:right}
.cards{display:flex;gap:1em;flex-wrap:wrap}.card{border:1px solid #ddd;border-radius:6px;padding:.6em 1em}
.card b{display:block;font-size:1.4em}.charts{display:flex;flex-wrap:wrap;gap:1em}
.pass{color:#2a7d2a}.fail,.error,.timeout{color:#b3261e}.not_attempted,.skipped{color:#8a6d00}
details{margin:.3em 0}summary{cursor:pointer}.muted{color:#666}
"""

_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"


def _percent(part: float, whole: float) -> float:
    return 100.0 * part / whole if whole else 0.0


def _bin(percent: float) -> int:
    return min(int(percent // 10), BINS - 1)


@dataclass
class _ProblemStats:
    max_score: float
    scores: array = field(default_factory=lambda: array("d"))
    check_titles: dict[str, str] = field(default_factory=dict)
    check_pass: Counter = field(default_factory=Counter)
    check_seen: Counter = field(default_factory=Counter)


class Report:
    """Accumulates the class's statistics and writes report.html."""

    def __init__(self, out_dir: Path, problems: list[tuple[str, float]]):
        self.out_dir = out_dir
        self.problems = {name: _ProblemStats(points) for name, points in problems}
        self.max_total = sum(points for _, points in problems)
        self.overall = array("d")
        self.diagnoses: Counter = Counter()
        self.diagnosis_text: dict[tuple[str, str], tuple[str, str]] = {}
        self.slowest: list[tuple[int, str, str]] = []
        self.rows: list[tuple[str, list[float | str | None], float | None, float | None, str]] = []
        self.grader_errors: list[tuple[str, str, str]] = []  # (student, problem, what failed)
        self.review: list = []  # grader.batch.review.ReviewItem: judged answers the grader is unsure of
        self.review_count = 0
        self._details_path = out_dir / ".report-details.tmp"
        self._details: TextIO = open(self._details_path, "w", encoding="utf-8")  # noqa: SIM115

    def add(
        self, student: str, results: dict[str, ProblemResult], got: float | None, percent: float | None, status: str,
        notes: list[str],
    ) -> None:
        """Count one student (every problem of theirs) into the statistics.

        ``percent`` is None for a student with a grader error: no overall figure is made up.
        """
        if percent is not None:
            self.overall.append(percent)
        for name, result in results.items():
            if result.grader_error:
                self.grader_errors.append((student, name, result.error.get() if result.error else ""))
                continue
            stats = self.problems[name]
            stats.scores.append(_percent(result.score, result.max_score))
            for check in result.checks:
                stats.check_titles.setdefault(check.id, check.title.get())
                stats.check_seen[check.id] += 1
                if check.status is Status.PASS:
                    stats.check_pass[check.id] += 1
            for mistake in {c.diagnosis for c in result.checks if c.diagnosis is not None}:
                self.diagnoses[(name, mistake.id)] += 1
                self.diagnosis_text[(name, mistake.id)] = (mistake.title.get(), mistake.hint.get())
            item = (result.duration_ms, student, name)
            if len(self.slowest) < 10:
                heapq.heappush(self.slowest, item)
            else:
                heapq.heappushpop(self.slowest, item)
        index = len(self.rows)
        cells: list[float | str | None] = [
            None if n not in results else "error" if results[n].grader_error else results[n].score for n in self.problems
        ]
        self.rows.append((student, cells, got, percent, status))
        if index < DETAIL_LIMIT:
            self._details.write(_student_detail(index, student, results, notes))

    def add_review(self, items: list) -> None:
        """Answers the grader is unsure of (listed in full up to REVIEW_LIMIT; review.csv has them all)."""
        self.review.extend(items[: max(0, REVIEW_LIMIT - len(self.review))])
        self.review_count += len(items)

    # -- writing ----------------------------------------------------------------------------

    def write(self, *, title: str, meta: list[tuple[str, str]], flags: list[tuple[str, str, str]],
              duplicates: list[tuple[str, list[str]]]) -> Path:
        """Write report.html (atomically) and return its path."""
        self._details.close()
        target = self.out_dir / "report.html"
        tmp = self.out_dir / "report.html.tmp"
        with open(tmp, "w", encoding="utf-8") as out:
            out.write(
                f'<!DOCTYPE html><html lang="{_html_lang()}"><head><meta charset="utf-8">'
                f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">'
                f'<meta name="viewport" content="width=device-width, initial-scale=1">'
                f"<title>{escape(title)}</title><style>{_CSS}</style></head><body>"
                f"<h1>{escape(title)}</h1>"
            )
            out.write(self._summary(meta))
            out.write(self._grader_errors())
            out.write(self._review_table())
            out.write(self._distributions())
            out.write(self._pass_rates())
            out.write(self._diagnosis_table())
            out.write(self._slowest_table())
            out.write(_duplicates(duplicates))
            out.write(_flags(flags))
            out.write(self._students_table())
            out.write(f'<h2 id="details">{_t("details")}</h2>')
            if len(self.rows) > DETAIL_LIMIT:
                out.write(f'<p class="muted">{_t("details_limit", n=DETAIL_LIMIT)}</p>')
            with open(self._details_path, encoding="utf-8") as details:
                shutil.copyfileobj(details, out)
            out.write("</body></html>\n")
        self._details_path.unlink()
        tmp.replace(target)
        return target

    def _review_table(self) -> str:
        count = self.review_count
        if not count:
            return ""
        rows = "".join(
            f"<tr><td>{escape(i.student)}</td><td>{escape(i.problem)}/{escape(i.question)}</td>"
            f'<td class="num">{i.points:g}/{i.max_points:g}</td><td class="num">{i.confidence:.2f}</td>'
            f"<td>{escape(i.why)}</td><td>{escape(i.answer)}</td></tr>"
            for i in self.review
        )
        more = t("report.review_first", n=len(self.review)) if count > len(self.review) else ""
        return (
            f'<h2 id="review">{_t("review", count=count, more=more)}</h2>'
            f'<p class="muted">{_t("review_note")}</p>'
            f"<table><tr>{_th('student', 'question', 'points', 'confidence', 'why', 'answer')}</tr>{rows}</table>"
        )

    def _summary(self, meta: list[tuple[str, str]]) -> str:
        scores = sorted(self.overall)
        mean = sum(scores) / len(scores) if scores else 0.0
        median = scores[len(scores) // 2] if scores else 0.0
        cards = [("card_students", str(len(self.rows))), ("card_mean", f"{mean:.1f}%"),
                 ("card_median", f"{median:.1f}%"), ("card_full", str(sum(1 for s in scores if s >= 100.0)))]
        if self.grader_errors:
            cards.append(("card_grader_errors", str(len(self.grader_errors))))
        html = '<div class="cards">' + "".join(
            f'<div class="card"><b>{escape(v)}</b>{_t(k)}</div>' for k, v in cards
        ) + "</div>"
        html += '<p class="muted">' + " · ".join(f"{escape(k)}: {escape(v)}" for k, v in meta) + "</p>"
        return html

    def _grader_errors(self) -> str:
        """The results the grader failed to produce: not grades, so they come first."""
        if not self.grader_errors:
            return ""
        index = {row[0]: i for i, row in enumerate(self.rows)}
        html = (
            f'<h2 id="grader-errors" class="error">{_t("grader_errors")}</h2>'
            f"<p>{_t('grader_errors_note', n=len(self.grader_errors))}</p>"
            f"<table><tr>{_th('student', 'problem', 'what_failed')}</tr>"
        )
        for student, problem, message in self.grader_errors[:500]:
            html += (
                f'<tr><td><a href="#s{index.get(student, 0)}">{escape(student)}</a></td><td>{escape(problem)}</td>'
                f"<td>{escape(message)}</td></tr>"
            )
        if len(self.grader_errors) > 500:
            html += f"<tr><td colspan=3>{_t('more_errors', n=len(self.grader_errors) - 500)}</td></tr>"
        return html + "</table>"

    def _distributions(self) -> str:
        charts = [svg.histogram(_counts(self.overall), _BIN_LABELS, title=t("report.overall"))]
        for name, stats in self.problems.items():
            title = t("report.graded", name=name, n=len(stats.scores))
            charts.append(svg.histogram(_counts(stats.scores), _BIN_LABELS, title=title))
        return f'<h2 id="distribution">{_t("distribution")}</h2><div class="charts">' + "".join(charts) + "</div>"

    def _pass_rates(self) -> str:
        html = f'<h2 id="checks">{_t("pass_rates")}</h2><div class="charts">'
        for name, stats in self.problems.items():
            if not stats.check_seen:
                continue
            rows = sorted(
                ((f"{cid}: {stats.check_titles[cid]}", _percent(stats.check_pass[cid], seen))
                 for cid, seen in stats.check_seen.items()),
                key=lambda r: (r[1], r[0]),
            )
            html += svg.bars(rows, title=name)
        return html + "</div>"

    def _diagnosis_table(self) -> str:
        html = f'<h2 id="diagnoses">{_t("diagnoses")}</h2>'
        if not self.diagnoses:
            return html + f"<p>{_t('no_diagnoses')}</p>"
        html += f"<table><tr>{_th('problem', 'mistake', 'students', 'share', 'hint')}</tr>"
        for (problem, mistake), count in self.diagnoses.most_common(20):
            title, hint = self.diagnosis_text[(problem, mistake)]
            graded = len(self.problems[problem].scores)
            html += (
                f"<tr><td>{escape(problem)}</td><td>{escape(title)} <span class=muted>({escape(mistake)})</span></td>"
                f'<td class="n">{count}</td><td class="n">{_percent(count, graded):.0f}%</td><td>{escape(hint)}</td></tr>'
            )
        return html + "</table>"

    def _slowest_table(self) -> str:
        html = f'<h2 id="slowest">{_t("slowest")}</h2><table><tr>{_th("student", "problem", "seconds")}</tr>'
        index = {row[0]: i for i, row in enumerate(self.rows)}
        for ms, student, problem in sorted(self.slowest, reverse=True):
            html += (
                f'<tr><td><a href="#s{index.get(student, 0)}">{escape(student)}</a></td><td>{escape(problem)}</td>'
                f'<td class="n">{ms / 1000:.2f}</td></tr>'
            )
        return html + "</table>"

    def _students_table(self) -> str:
        names = list(self.problems)
        head = "".join(f"<th>{escape(n)}</th>" for n in names)
        html = (
            f'<h2 id="students">{_t("students")}</h2><table><tr>{_th("student")}{head}{_th("total")}<th>%</th>'
            f"{_th('status')}</tr>"
        )
        for i, (student, scores, got, percent, status) in enumerate(self.rows):
            link = f'<a href="#s{i}">{escape(student)}</a>' if i < DETAIL_LIMIT else escape(student)
            cells = "".join(
                f'<td class="n">{"–" if s is None else s if isinstance(s, str) else points(s)}</td>' for s in scores
            )
            total = "–" if got is None else points(got)
            share = "–" if percent is None else f"{percent:.1f}"
            html += (
                f"<tr><td>{link}</td>{cells}<td class=n>{total}</td><td class=n>{share}</td>"
                f'<td class="{"error" if status == "error" else ""}">{escape(status)}</td></tr>'
            )
        return html + "</table>"


def _counts(values: array) -> list[int]:
    counts = [0] * BINS
    for v in values:
        counts[_bin(v)] += 1
    return counts


def _student_detail(index: int, student: str, results: dict[str, ProblemResult], notes: list[str]) -> str:
    html = f'<section id="s{index}"><h3>{escape(student)}</h3>'
    if notes:
        html += "<ul>" + "".join(f"<li>{escape(n)}</li>" for n in notes) + "</ul>"
    for name, result in results.items():
        if result.grader_error:
            what = escape(result.error.get() if result.error else "")
            html += f'<p>{escape(name)}: <span class="error">{_t("grader_error_not_grade")}</span>: {what}</p>'
            continue
        html += (
            f"<details><summary>{escape(name)}: {points(result.score)}/{points(result.max_score)} "
            f'<span class="{escape(result.status)}">{escape(result.status)}</span></summary>'
        )
        if result.error:
            html += f"<p>{escape(result.error.get())}</p>"
        html += "".join(f'<p class="muted">{escape(note.get())}</p>' for note in result.notes)  # a notebook's
        html += f"<table><tr>{_th('check', 'status', 'points', 'message')}</tr>"
        for c in result.checks:
            message = c.message.get()
            if c.diagnosis is not None:
                message += " " + t("report.mistake_note", title=c.diagnosis.title)
            if c.reveal:  # the report is the instructor's: the answer, or a hidden check's full text
                message += f" [{c.reveal.get()}]"
            html += (
                f"<tr><td>{escape(c.id)}</td><td class='{c.status.value}'>{c.status.value}</td>"
                f"<td class=n>{points(c.score)}/{points(c.max_score)}</td><td>{escape(message[:600])}</td></tr>"
            )
        html += "</table>"
        shown = {c.figure.id: c.figure for c in result.checks if c.figure is not None}
        if shown:  # the failed checks' pictures: the student's weights beside the reference's
            html += '<div class="charts">' + "".join(f.svg() for f in shown.values()) + "</div>"
        html += "</details>"
    return html + "</section>"


def _duplicates(groups: list[tuple[str, list[str]]]) -> str:
    html = f'<h2 id="duplicates">{_t("duplicates")}</h2>'
    if not groups:
        return html + f"<p>{_t('no_duplicates')}</p>"
    html += f'<p class="muted">{_t("duplicates_note")}</p><table><tr>{_th("problem", "students", "pairs")}</tr>'
    for problem, students in groups[:100]:
        if len(students) <= 4:
            pairs = "<br>".join(
                f"{escape(a)} ↔ {escape(b)}" for i, a in enumerate(students) for b in students[i + 1 :]
            )
        else:
            pairs = _t("pairs_among", pairs=len(students) * (len(students) - 1) // 2, n=len(students))
        html += f"<tr><td>{escape(problem)}</td><td>{escape(', '.join(students))}</td><td>{pairs}</td></tr>"
    if len(groups) > 100:
        html += f"<tr><td colspan=3>{_t('more_groups', n=len(groups) - 100)}</td></tr>"
    return html + "</table>"


def _flags(flags: list[tuple[str, str, str]]) -> str:
    html = f'<h2 id="data">{_t("data")}</h2>'
    if not flags:
        return html + f"<p>{_t('none')}</p>"
    html += f"<table><tr>{_th('student', 'problem', 'what')}</tr>"
    for student, problem, message in flags:
        html += f"<tr><td>{escape(student)}</td><td>{escape(problem)}</td><td>{escape(message)}</td></tr>"
    return html + "</table>"


def _t(key: str, **params: object) -> str:
    """Report text ``report.<key>`` in the current language, escaped for HTML."""
    return escape(t(f"report.{key}", **params))


def _th(*keys: str) -> str:
    """Table header cells ``report.th_<key>``."""
    return "".join(f"<th>{_t('th_' + key)}</th>" for key in keys)


def _html_lang() -> str:
    return {"zh": "zh-CN"}.get(current(), current())
