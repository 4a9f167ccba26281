"""``grade merge OUT_1 ... OUT_N --out OUT``: one gradebook and report from the shards of a class.

Each input is a finished ``grade batch --shard i/N`` folder (its ``shard.json`` and journal; the
submissions are not needed). The shards must belong together: the same N with every shard from
1 to N given once, and the same grader version, seeds, sandbox, problems and problem-bank content.
Anything else is refused with a one-line error, as is a shard with a missing result.

The merged journal holds every shard's current results; grades.csv, results.jsonl, report.html
(near-duplicates found across the whole class) and per-student files are then written by the
same code as a one-machine batch, so they are the same files.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any, Iterator

from grader.bank import ProblemBank
from grader.batch import discover, shard
from grader.batch.gradebook import STUDENT_WRITERS
from grader.batch.journal import FILE_NAME as JOURNAL, Journal
from grader.batch.config import problem_files
from grader.batch.run import BatchOptions, BatchSummary, select_problems, write_outputs
from grader.errors import GraderError
from grader.messages import text

#: What every shard of one batch must agree on, and how to name it in an error.
#: Manifest keys every shard must share, and the catalogue key naming each.
MUST_AGREE = {
    "grader_version": "merge.what_version",
    "problems": "merge.what_problems",
    "seeds": "merge.what_seeds",
    "isolation": "merge.what_sandbox",
    "bank": "merge.what_bank",
}


def merge_shards(folders: list[Path], out: Path, per_student: tuple[str, ...] = (),
                 problems_dir: tuple[Path, ...] = ()) -> BatchSummary:
    """Check that ``folders`` are the N shards of one batch and write the merged outputs into ``out``."""
    started = time.monotonic()
    if not folders:
        raise GraderError(text("merge.no_shards"))
    for name in per_student:
        if name not in STUDENT_WRITERS:
            raise GraderError(text("batch.bad_per_student", name=name, choices=", ".join(sorted(STUDENT_WRITERS))))
    manifests = [shard.read(folder) for folder in folders]
    _check_together(folders, manifests)
    first = manifests[0]
    problems = select_problems(ProblemBank(problems_dir), list(first["problems"]))
    if shard.bank_hash((p.name, problem_files(p)) for p in problems) != first["bank"]:
        raise GraderError(text("merge.other_bank"))
    if (out / JOURNAL).exists():
        raise GraderError(text("merge.out_exists", out=out))
    if any(out.resolve() == folder.resolve() for folder in folders):
        raise GraderError(text("merge.out_is_shard", out=out))
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise GraderError(text("batch.cannot_create_out", out=out, reason=err.strerror)) from None

    configs: dict[str, str] = first["configs"]
    students: list[discover.Student] = []
    journal = Journal(out)
    merged = False
    try:
        owner: dict[str, Path] = {}
        for folder, manifest in zip(folders, manifests):
            for student in _students(manifest):
                if student.name in owner:
                    raise GraderError(text("merge.student_twice", name=student.name, first=owner[student.name], second=folder))
                owner[student.name] = folder
                students.append(student)
            _copy_results(folder, manifest, configs, journal)
        students.sort(key=lambda s: s.name)  # a local batch's order
        flags = [discover.Flag("", "", f["kind"], f["message"]) for f in first.get("class_flags", [])]
        flags += [f for s in students for f in s.flags]
        options = BatchOptions(submissions=Path(first["submissions"]), out=out, per_student=per_student)
        summary = write_outputs(options, problems, students, flags, journal, configs)
        merged = True
    finally:
        journal.close()
        if not merged:  # a refused merge leaves no half journal behind
            (out / JOURNAL).unlink(missing_ok=True)
    summary.seconds = round(time.monotonic() - started, 2)
    return summary


def _check_together(folders: list[Path], manifests: list[dict[str, Any]]) -> None:
    """Refuse shards that are not exactly the N shards of one batch."""
    first_folder, first = folders[0], manifests[0]
    count = first["shard"][1]
    seen: dict[int, Path] = {}
    for folder, manifest in zip(folders, manifests):
        index, n = manifest["shard"]
        if n != count:
            raise GraderError(text("merge.different_n", folder=folder, index=index, n=n, first=first_folder,
                                   first_index=first["shard"][0], count=count))
        if index in seen:
            raise GraderError(text("merge.same_index", first=seen[index], second=folder, index=index, count=count))
        seen[index] = folder
        for key, label in MUST_AGREE.items():
            if manifest.get(key) != first.get(key):
                raise GraderError(text("merge.disagree", folder=folder, first=first_folder, what=text(label),
                                       ours=_show(manifest.get(key)), theirs=_show(first.get(key))))
    missing = [str(i) for i in range(1, count + 1) if i not in seen]
    if missing:
        raise GraderError(text("merge.missing", missing=", ".join(missing), count=count))


def _show(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= 60 else text[:57] + "..."


def _students(manifest: dict[str, Any]) -> Iterator[discover.Student]:
    for s in manifest["students"]:
        name = s["name"]
        subs = tuple(discover.Submission(name, sub["problem"], Path(), sub["sha256"]) for sub in s["submissions"])
        flags = tuple(discover.Flag(name, f["problem"], f["kind"], f["message"]) for f in s["flags"])
        yield discover.Student(name, Path(name), subs, flags)


def _copy_results(folder: Path, manifest: dict[str, Any], configs: dict[str, str], journal: Journal) -> None:
    """Append the shard's current result for each of its submissions to the merged journal."""
    offsets: dict[tuple[str, str], int] = {}
    path = folder / JOURNAL
    if not path.is_file():
        raise GraderError(text("merge.no_journal", folder=folder, journal=JOURNAL))
    with open(path, "rb") as f:
        offset = 0
        for line in f:
            if line.endswith(b"\n"):
                try:
                    record = json.loads(line)
                    offsets[(str(record["student"]), str(record["problem"]))] = offset
                except (ValueError, KeyError, TypeError):
                    pass
            offset += len(line)
        for s in manifest["students"]:
            for sub in s["submissions"]:
                at = offsets.get((s["name"], sub["problem"]))
                record = None
                if at is not None:
                    f.seek(at)
                    record = json.loads(f.readline())
                if record is None or record["sha256"] != sub["sha256"] or record["config"] != configs[sub["problem"]]:
                    raise GraderError(text("merge.no_result", folder=folder, student=s["name"], problem=sub["problem"]))
                journal.append(record)
