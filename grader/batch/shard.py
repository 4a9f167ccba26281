"""Static sharding: ``grade batch --shard i/N`` grades a stable subset of the class.

A student belongs to shard ``1 + H(name) mod N``, where ``H`` is the first 8 bytes of the SHA-256
of the folder name. The split needs no coordination and no list of the class: every machine
computes the same subset from the name alone, a student added later does not move anyone else,
and re-running a shard (``--resume``) grades the same students.

Each shard's ``--out`` folder gets ``shard.json`` next to its journal: which shard it is and
everything a result depends on besides the submission (grader version, seeds, isolation, a hash
of the problems' files), plus the shard's students with their submissions' hashes and data
problems. :mod:`grader.batch.merge` reads these to refuse shards that do not belong together
and to rebuild the class's gradebook without the submissions folder.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any, Iterable

from grader.errors import GraderError
from grader.messages import text as message

FILE_NAME = "shard.json"
FORMAT = 1


def parse(text: str) -> tuple[int, int]:
    """``"i/N"`` -> ``(i, N)`` with ``1 <= i <= N``; raises GraderError otherwise."""
    index, sep, count = text.strip().partition("/")
    if not sep or not index.strip().isdigit() or not count.strip().isdigit():
        raise GraderError(message("shard.format", value=text))
    i, n = int(index), int(count)
    if n < 1 or not 1 <= i <= n:
        raise GraderError(message("shard.range", value=text))
    return i, n


def shard_of(student: str, count: int) -> int:
    """The shard (1 to ``count``) that grades ``student``."""
    digest = hashlib.sha256(student.encode("utf-8", "surrogateescape")).digest()
    return 1 + int.from_bytes(digest[:8], "big") % count


def select(students: Iterable[str], shard: tuple[int, int]) -> list[str]:
    """The students of ``shard`` (``(i, N)``), in the given order."""
    index, count = shard
    return [s for s in students if shard_of(s, count) == index]


def bank_hash(problem_files: Iterable[tuple[str, Iterable[Path]]]) -> str:
    """A hash of the graded problems' content: names, then each file's name and bytes."""
    h = hashlib.sha256()
    for name, files in problem_files:
        h.update(b"problem\0" + name.encode() + b"\0")
        for path in files:
            if path.is_file():
                h.update(path.name.encode() + b"\0" + hashlib.sha256(path.read_bytes()).digest())
    return h.hexdigest()[:20]


def write(out: Path, manifest: dict[str, Any]) -> None:
    """Write ``out/shard.json`` atomically (a reader never sees half a file)."""
    tmp = out / (FILE_NAME + ".tmp")
    tmp.write_text(json.dumps({"format": FORMAT, **manifest}, ensure_ascii=False, indent=1), encoding="utf-8")
    os.replace(tmp, out / FILE_NAME)


def read(folder: Path) -> dict[str, Any]:
    """``folder/shard.json``; raises GraderError when the folder is not a finished shard."""
    path = folder / FILE_NAME
    if not folder.is_dir():
        raise GraderError(message("shard.no_folder", folder=folder))
    if not path.is_file():
        raise GraderError(message("shard.not_finished", folder=folder, file=FILE_NAME))
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, UnicodeDecodeError) as err:
        raise GraderError(message("shard.unreadable", path=path, reason=str(err))) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise GraderError(message("shard.unknown_format", path=path))
    return data
