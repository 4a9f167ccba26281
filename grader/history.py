"""The learner's own record of local gradings: one JSON line per grading, beside their files.

``grade NAME``, ``grade all``, ``grade NAME --watch`` and a notebook's ``%%grade`` cell append a
line to :data:`HISTORY_FILE` (``.grade-history.jsonl``) in the folder of the graded file (of the
notebook); ``grade list``
and ``grade progress`` read the one in the folder they look at. A line holds ids, statuses and
scores only, never a message, an input or an expected value (``tests/test_leaks.py``)::

    {"v": 1, "at": "2025-05-01T10:00:00Z", "problem": "self_attention", "file": "self_attention.py",
     "score": 9.0, "max_score": 10.0, "checks": {"softmax": "pass", "masked_rows": "fail", ...},
     "mistakes": ["nan_on_masked_rows"]}

A line that cannot be read (cut short by a crash, edited by hand) is skipped and counted; the file
is never rewritten to repair it. Past :data:`MAX_BYTES` the oldest half of the lines is dropped.
A file that could not be graded (a syntax error mid-edit) is no grading of a solution: nothing is
written for it.

Nothing is written when :func:`skip_reason` says so: a format other than the table (programs read
those, and CI platforms: gradescope, classroom, junit, exercism), a CI run (``CI``,
``GITHUB_ACTIONS``, a Gradescope container's ``/autograder``), ``GRADER_HISTORY=off`` or
``--no-history``. ``grade batch`` never writes one.
"""

from __future__ import annotations

import json
import os
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from grader.results import ProblemResult, Status

HISTORY_FILE = ".grade-history.jsonl"
#: ``GRADER_HISTORY=off`` (or 0, no, false) turns the history off, like ``--no-history``.
ENV = "GRADER_HISTORY"
_OFF = ("0", "off", "no", "false")
VERSION = 1
#: Past this size the oldest half of the lines is dropped (a line is 0.3-3 KiB).
MAX_BYTES = 2 * 2**20
#: Where Gradescope's container keeps the autograder (a run there is never a learner's practice).
GRADESCOPE_ROOT = Path("/autograder")


def skip_reason(
    fmt: str, folder: Path, opted_out: bool = False, environ: dict[str, str] | None = None
) -> str | None:
    """Why a run in format ``fmt`` that graded files in ``folder`` writes no history, or None to write it."""
    env = os.environ if environ is None else environ
    if opted_out or env.get(ENV, "").strip().lower() in _OFF:
        return "opted out"
    if fmt != "table":
        return "a format for programs"
    if env.get("CI", "").strip().lower() not in ("", "0", "false") or env.get("GITHUB_ACTIONS"):
        return "CI"
    try:
        places = (Path.cwd().resolve(), folder.resolve())
    except OSError:
        return "no folder"
    if any(place.is_relative_to(GRADESCOPE_ROOT) for place in places):
        return "Gradescope"
    return None


@dataclass(frozen=True)
class Entry:
    """One grading, as one line of the file."""

    at: str
    problem: str
    file: str
    score: float
    max_score: float
    checks: dict[str, str]  # check id -> status
    mistakes: tuple[str, ...] = ()  # the named mistakes it showed, each once

    @classmethod
    def of(cls, result: ProblemResult, at: float | None = None) -> Entry:
        mistakes = dict.fromkeys(c.diagnosis.id for c in result.checks if c.diagnosis is not None)
        return cls(
            time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(at)), result.problem, Path(result.submission).name,
            round(result.score, 6), round(result.max_score, 6), {c.id: c.status.value for c in result.checks},
            tuple(mistakes),
        )

    def line(self) -> str:
        data = {"v": VERSION, "at": self.at, "problem": self.problem, "file": self.file, "score": self.score,
                "max_score": self.max_score, "checks": self.checks, "mistakes": list(self.mistakes)}
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def parse(cls, line: str) -> Entry | None:
        """The entry on ``line``, or None when it is not one (cut short, edited, another version)."""
        try:
            data = json.loads(line)
            if not isinstance(data, dict) or data.get("v") != VERSION:
                return None
            checks, mistakes = data["checks"], data.get("mistakes", [])
            if not (isinstance(checks, dict) and all(isinstance(v, str) for v in checks.values())):
                return None
            if not (isinstance(mistakes, list) and all(isinstance(m, str) for m in mistakes)):
                return None
            score, max_score = data["score"], data["max_score"]
            if not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in (score, max_score)):
                return None
            return cls(str(data["at"]), str(data["problem"]), str(data.get("file", "")), float(score),
                       float(max_score), {str(k): v for k, v in checks.items()}, tuple(mistakes))
        except (ValueError, KeyError, TypeError):
            return None


def path_in(folder: Path) -> Path:
    return folder / HISTORY_FILE


def record(results: Iterable[ProblemResult], folder: Path) -> int:
    """Append one line per graded result to the history in ``folder``; how many were written.

    Results whose file could not be graded (``error``) or that the grader failed on are left out.
    Raises OSError when the file cannot be written (the caller says so in one line and goes on).
    """
    lines = [Entry.of(r).line() for r in results if r.error is None and not r.grader_error]
    if not lines:
        return 0
    path = path_in(folder)
    with open(path, "a+b") as out:
        end = out.seek(0, os.SEEK_END)
        if end:
            out.seek(end - 1)
            if out.read(1) != b"\n":  # a line cut short by a crash: start a fresh one after it
                lines[0] = "\n" + lines[0]
        out.write(("\n".join(lines) + "\n").encode("utf-8"))
        end = out.tell()
    if end > MAX_BYTES:
        _drop_oldest_half(path)
    return len(lines)


def record_where_kept(results: list[ProblemResult], folder: Path, fmt: str, opted_out: bool = False) -> str | None:
    """Add local gradings to ``folder``'s history unless :func:`skip_reason` says not to; the one-line
    warning to show when the file cannot be written (the grading itself stands), else None."""
    if skip_reason(fmt, folder, opted_out) is not None:
        return None
    try:
        record(results, folder)
    except OSError as err:
        from grader.messages import t

        return t("cli.warning", message=t("history.cannot_write", path=path_in(folder),
                                          reason=err.strerror or type(err).__name__))
    return None


def _drop_oldest_half(path: Path) -> None:
    kept = path.read_bytes().splitlines(keepends=True)
    kept = kept[len(kept) // 2:]
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(b"".join(kept))
    os.replace(tmp, path)


@dataclass
class History:
    """The entries of one history file, oldest first, and how many lines could not be read."""

    entries: list[Entry] = field(default_factory=list)
    unreadable: int = 0

    @classmethod
    def load(cls, folder: Path) -> History:
        """The history in ``folder`` (empty when there is none). Raises OSError when unreadable."""
        path = path_in(folder)
        if not path.is_file():
            return cls()
        history = cls()
        with open(path, encoding="utf-8", errors="replace") as lines:
            for line in lines:
                if not line.strip():
                    continue
                entry = Entry.parse(line)
                if entry is None:
                    history.unreadable += 1
                else:
                    history.entries.append(entry)
        return history

    def of(self, problem: str) -> list[Entry]:
        return [e for e in self.entries if e.problem == problem]


@dataclass(frozen=True)
class Progress:
    """One problem's progress: its gradings, last and best score, mistakes by how often, checks never passed."""

    problem: str
    gradings: int
    last: float | None
    best: float | None
    max_score: float
    mistakes: tuple[tuple[str, int], ...]  # (mistake id, gradings it came up in), most first
    never_passed: tuple[str, ...]  # check ids, in the spec's order

    def to_dict(self) -> dict[str, Any]:
        return {
            "problem": self.problem, "gradings": self.gradings, "last_score": self.last, "best_score": self.best,
            "max_score": self.max_score, "mistakes": [{"id": m, "gradings": n} for m, n in self.mistakes],
            "never_passed": list(self.never_passed),
        }


def progress(problem: str, entries: list[Entry], check_ids: list[str], max_score: float) -> Progress:
    """Summarise ``entries`` of ``problem`` against the checks it has now (``check_ids``, in order)."""
    entries = [e for e in entries if e.problem == problem]
    passed = {cid for e in entries for cid, status in e.checks.items() if status == Status.PASS.value}
    counts = Counter(m for e in entries for m in e.mistakes)
    mistakes = tuple(sorted(counts.items(), key=lambda item: (-item[1], item[0])))
    best = max(entries, key=lambda e: e.score / e.max_score if e.max_score else 0.0, default=None)
    return Progress(
        problem, len(entries), entries[-1].score if entries else None, best.score if best else None, max_score,
        mistakes, tuple(cid for cid in check_ids if cid not in passed),
    )
