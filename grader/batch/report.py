"""report.html: what an instructor looks at after a batch. Self-contained, no network.

Sections: score distributions (per problem and overall), each check's pass rate, the most
frequent diagnoses with their hints, the slowest submissions, near-duplicate submissions, data
problems, and a table of students linking to each student's per-check detail.

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
from grader.results import ProblemResult, Status

#: Per-student detail is inlined for this many students at most (the table lists everyone).
DETAIL_LIMIT = 2000
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
        self.rows: list[tuple[str, list[float | None], float, float, str]] = []
        self._details_path = out_dir / ".report-details.tmp"
        self._details: TextIO = open(self._details_path, "w", encoding="utf-8")  # noqa: SIM115

    def add(
        self, student: str, results: dict[str, ProblemResult], got: float, percent: float, status: str, notes: list[str]
    ) -> None:
        """Count one student (every problem of theirs) into the statistics."""
        self.overall.append(percent)
        for name, result in results.items():
            stats = self.problems[name]
            stats.scores.append(_percent(result.score, result.max_score))
            for check in result.checks:
                stats.check_titles.setdefault(check.id, check.title)
                stats.check_seen[check.id] += 1
                if check.status is Status.PASS:
                    stats.check_pass[check.id] += 1
            for mistake in {c.diagnosis for c in result.checks if c.diagnosis is not None}:
                self.diagnoses[(name, mistake.id)] += 1
                self.diagnosis_text[(name, mistake.id)] = (mistake.title, mistake.hint)
            item = (result.duration_ms, student, name)
            if len(self.slowest) < 10:
                heapq.heappush(self.slowest, item)
            else:
                heapq.heappushpop(self.slowest, item)
        index = len(self.rows)
        self.rows.append((student, [results[n].score if n in results else None for n in self.problems], got, percent, status))
        if index < DETAIL_LIMIT:
            self._details.write(_student_detail(index, student, results, notes))

    # -- writing ----------------------------------------------------------------------------

    def write(self, *, title: str, meta: list[tuple[str, str]], flags: list[tuple[str, str, str]],
              duplicates: list[tuple[str, list[str]]]) -> Path:
        """Write report.html (atomically) and return its path."""
        self._details.close()
        target = self.out_dir / "report.html"
        tmp = self.out_dir / "report.html.tmp"
        with open(tmp, "w", encoding="utf-8") as out:
            out.write(
                f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
                f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">'
                f'<meta name="viewport" content="width=device-width, initial-scale=1">'
                f"<title>{escape(title)}</title><style>{_CSS}</style></head><body>"
                f"<h1>{escape(title)}</h1>"
            )
            out.write(self._summary(meta))
            out.write(self._distributions())
            out.write(self._pass_rates())
            out.write(self._diagnosis_table())
            out.write(self._slowest_table())
            out.write(_duplicates(duplicates))
            out.write(_flags(flags))
            out.write(self._students_table())
            out.write('<h2 id="details">Per-student detail</h2>')
            if len(self.rows) > DETAIL_LIMIT:
                out.write(f'<p class="muted">Shown for the first {DETAIL_LIMIT} students; see results.jsonl for all.</p>')
            with open(self._details_path, encoding="utf-8") as details:
                shutil.copyfileobj(details, out)
            out.write("</body></html>\n")
        self._details_path.unlink()
        tmp.replace(target)
        return target

    def _summary(self, meta: list[tuple[str, str]]) -> str:
        scores = sorted(self.overall)
        mean = sum(scores) / len(scores) if scores else 0.0
        median = scores[len(scores) // 2] if scores else 0.0
        cards = [("students", str(len(self.rows))), ("mean", f"{mean:.1f}%"), ("median", f"{median:.1f}%"),
                 ("full marks", str(sum(1 for s in scores if s >= 100.0)))]
        html = '<div class="cards">' + "".join(
            f'<div class="card"><b>{escape(v)}</b>{escape(k)}</div>' for k, v in cards
        ) + "</div>"
        html += '<p class="muted">' + " · ".join(f"{escape(k)}: {escape(v)}" for k, v in meta) + "</p>"
        return html

    def _distributions(self) -> str:
        charts = [svg.histogram(_counts(self.overall), _BIN_LABELS, title="Overall (percent of all points)")]
        for name, stats in self.problems.items():
            charts.append(
                svg.histogram(_counts(stats.scores), _BIN_LABELS, title=f"{name} ({len(stats.scores)} graded)")
            )
        return '<h2 id="distribution">Score distribution</h2><div class="charts">' + "".join(charts) + "</div>"

    def _pass_rates(self) -> str:
        html = '<h2 id="checks">Check pass rates (lowest first: what the class fails most)</h2><div class="charts">'
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
        html = '<h2 id="diagnoses">Most frequent mistakes (what to teach next)</h2>'
        if not self.diagnoses:
            return html + "<p>No named mistake was recognised.</p>"
        html += "<table><tr><th>Problem</th><th>Mistake</th><th>Students</th><th>Share</th><th>Hint</th></tr>"
        for (problem, mistake), count in self.diagnoses.most_common(20):
            title, hint = self.diagnosis_text[(problem, mistake)]
            graded = len(self.problems[problem].scores)
            html += (
                f"<tr><td>{escape(problem)}</td><td>{escape(title)} <span class=muted>({escape(mistake)})</span></td>"
                f'<td class="n">{count}</td><td class="n">{_percent(count, graded):.0f}%</td><td>{escape(hint)}</td></tr>'
            )
        return html + "</table>"

    def _slowest_table(self) -> str:
        html = '<h2 id="slowest">Slowest submissions</h2><table><tr><th>Student</th><th>Problem</th><th>Seconds</th></tr>'
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
            f'<h2 id="students">Students</h2><table><tr><th>Student</th>{head}<th>Total</th><th>%</th>'
            f"<th>Status</th></tr>"
        )
        for i, (student, scores, got, percent, status) in enumerate(self.rows):
            link = f'<a href="#s{i}">{escape(student)}</a>' if i < DETAIL_LIMIT else escape(student)
            cells = "".join(f'<td class="n">{"–" if s is None else f"{s:g}"}</td>' for s in scores)
            html += (
                f"<tr><td>{link}</td>{cells}<td class=n>{got:g}</td><td class=n>{percent:.1f}</td>"
                f"<td>{escape(status)}</td></tr>"
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
        html += (
            f"<details><summary>{escape(name)}: {result.score:g}/{result.max_score:g} "
            f'<span class="{escape(result.status)}">{escape(result.status)}</span></summary>'
        )
        if result.error:
            html += f"<p>{escape(result.error)}</p>"
        html += "<table><tr><th>Check</th><th>Status</th><th>Points</th><th>Message</th></tr>"
        for c in result.checks:
            message = c.message
            if c.diagnosis is not None:
                message += f" [mistake: {c.diagnosis.title}]"
            html += (
                f"<tr><td>{escape(c.id)}</td><td class='{c.status.value}'>{c.status.value}</td>"
                f"<td class=n>{c.score:g}/{c.max_score:g}</td><td>{escape(message[:600])}</td></tr>"
            )
        html += "</table></details>"
    return html + "</section>"


def _duplicates(groups: list[tuple[str, list[str]]]) -> str:
    html = '<h2 id="duplicates">Near-duplicate submissions</h2>'
    if not groups:
        return html + "<p>None: no two submissions are the same after normalising names, comments and layout.</p>"
    html += (
        '<p class="muted">Same code after renaming identifiers and removing comments, docstrings and '
        "formatting (the untouched starter file is ignored).</p>"
        "<table><tr><th>Problem</th><th>Students</th><th>Pairs</th></tr>"
    )
    for problem, students in groups[:100]:
        if len(students) <= 4:
            pairs = "<br>".join(
                f"{escape(a)} ↔ {escape(b)}" for i, a in enumerate(students) for b in students[i + 1 :]
            )
        else:
            pairs = f"{len(students) * (len(students) - 1) // 2} pairs among {len(students)} students"
        html += f"<tr><td>{escape(problem)}</td><td>{escape(', '.join(students))}</td><td>{pairs}</td></tr>"
    if len(groups) > 100:
        html += f"<tr><td colspan=3>… and {len(groups) - 100} more groups</td></tr>"
    return html + "</table>"


def _flags(flags: list[tuple[str, str, str]]) -> str:
    html = '<h2 id="data">Problems in the data</h2>'
    if not flags:
        return html + "<p>None.</p>"
    html += "<table><tr><th>Student</th><th>Problem</th><th>What</th></tr>"
    for student, problem, message in flags:
        html += f"<tr><td>{escape(student)}</td><td>{escape(problem)}</td><td>{escape(message)}</td></tr>"
    return html + "</table>"
