"""The batch journal: one JSON line per finished result, appended as it arrives, never rewritten.

It is what makes a batch resumable. Each line holds the student, the problem, the submission's
content hash, the grading configuration's hash, the fingerprint, and the full result dict. A
grader error (``"grader_error": true``: the grader failed, there is no grade) is never current,
so ``--resume`` grades that submission again. A line
is written with one ``write`` and flushed, so a crash, Ctrl-C or SIGKILL loses at most the line
being written; on reopening, a torn last line is cut off before anything new is appended.

The journal keeps only *where* each entry is (a byte offset per student x problem) in memory, so
memory stays flat however large the class; entries are read back one student at a time.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

FILE_NAME = "journal.jsonl"


@dataclass(frozen=True)
class Entry:
    """Where one student x problem result sits in the journal, and what it was graded from."""

    offset: int
    sha256: str
    config: str
    grader_error: bool = False


class Journal:
    """Append results; find the latest for a (student, problem); read it back."""

    def __init__(self, folder: Path):
        self.path = folder / FILE_NAME
        self.index: dict[tuple[str, str], Entry] = {}
        self.torn = 0  # bytes cut off a torn last line on opening
        self.lines = 0
        self._load()
        self._append: BinaryIO = open(self.path, "ab")  # noqa: SIM115 - held for the batch's life
        self._read: BinaryIO | None = None

    def _load(self) -> None:
        if not self.path.exists():
            return
        good_end = 0
        with open(self.path, "rb") as f:
            offset = 0
            for line in f:
                end = offset + len(line)
                if not line.endswith(b"\n"):
                    break  # a write cut short by a crash
                try:
                    record = json.loads(line)
                    key = (str(record["student"]), str(record["problem"]))
                    entry = Entry(offset, str(record["sha256"]), str(record["config"]), bool(record.get("grader_error")))
                except (ValueError, KeyError, TypeError):
                    break
                self.index[key] = entry  # the latest line for a key wins
                self.lines += 1
                good_end = end
                offset = end
        size = self.path.stat().st_size
        if size > good_end:
            self.torn = size - good_end
            with open(self.path, "r+b") as f:
                f.truncate(good_end)

    def is_current(self, student: str, problem: str, sha256: str, config: str) -> bool:
        """True if a result (not a grader error) for exactly this file and configuration is journaled."""
        entry = self.index.get((student, problem))
        return entry is not None and entry.sha256 == sha256 and entry.config == config and not entry.grader_error

    def append(self, record: dict[str, Any]) -> None:
        """Journal one finished result (``student``, ``problem``, ``sha256``, ``config``, ``result``, ...)."""
        line = (json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")
        offset = self._append.seek(0, os.SEEK_END)
        self._append.write(line)
        self._append.flush()
        key = (str(record["student"]), str(record["problem"]))
        self.index[key] = Entry(offset, str(record["sha256"]), str(record["config"]), bool(record.get("grader_error")))
        self.lines += 1

    def read(self, student: str, problem: str) -> dict[str, Any] | None:
        """The latest journaled record for (student, problem), or None."""
        entry = self.index.get((student, problem))
        if entry is None:
            return None
        if self._read is None:
            self._read = open(self.path, "rb")  # noqa: SIM115
        self._read.seek(entry.offset)
        return json.loads(self._read.readline())

    def close(self) -> None:
        try:
            self._append.flush()
            os.fsync(self._append.fileno())
        except OSError:
            pass
        self._append.close()
        if self._read is not None:
            self._read.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
