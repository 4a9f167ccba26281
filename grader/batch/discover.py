"""Find the class: one folder per student, each holding some of the problems' learner files.

A GitHub Classroom clone or an LMS download unpacks as ``SUBMISSIONS_DIR/<student>/...``. A
learner file is looked for at the top of the student's folder first, then (LMS archives often add
a level or two) in sub-folders, shallowest first. A problem's answer is ``NAME.py`` or the
Jupyter notebook ``NAME.ipynb`` (:func:`grader.submission.candidates`); where both lie at the
same depth, ``NAME.py`` is graded and the notebook is flagged (``ambiguous``). Learner-controlled
symbolic links are never followed.

Problems in the data are returned as :class:`Flag` records and never stop the batch: an empty
folder, a folder with no learner files, an unreadable file, a file that is not UTF-8 or larger
than the grader reads (:data:`grader.submission.MAX_FILE_BYTES`), a notebook that cannot be read,
a linked file, two candidate files for one problem. A file that cannot be read or decoded still gets a result (an error,
0 points) so the gradebook says why. A submission's hash covers the helper modules it imports
(:mod:`grader.submission`), so ``--resume`` regrades a file whose helper changed.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from grader import submission as reading
from grader.i18n import Text
from grader.messages import text
from grader.errors import GraderError, SubmissionError

#: How deep below a student's folder a learner file is looked for.
MAX_DEPTH = 3
_SKIP_DIRS = {"__MACOSX", "__pycache__", "node_modules", ".git", ".venv", "venv"}


@dataclass(frozen=True)
class Flag:
    """A problem in the data, shown in the report and the summary."""

    student: str
    problem: str  # "" when it concerns the whole folder
    kind: str  # empty_folder | no_learner_files | unreadable | not_utf8 | too_large | symlink | ambiguous | stray_file
    message: Text  # in every language; a plain string (an old summary file) reads the same in each

    def __post_init__(self) -> None:
        object.__setattr__(self, "message", Text.from_json(self.message))


@dataclass(frozen=True)
class Submission:
    """One learner file of one student for one problem."""

    student: str
    problem: str
    path: Path
    sha256: str
    error: Text | str | None = None  # set when the file cannot be graded at all (unreadable, not UTF-8, link)


def learner_names(problems: list) -> dict[str, str]:
    """Every file name that holds an answer (``NAME.py``, ``NAME.ipynb``, ``qa.yaml``) -> its problem."""
    return {name: p.name for p in problems for name in reading.candidates(p.spec.learner_file)}


@dataclass(frozen=True)
class Student:
    name: str
    folder: Path
    submissions: tuple[Submission, ...]
    flags: tuple[Flag, ...]


def students(root: Path) -> list[str]:
    """The student folder names under ``root``, sorted; raises GraderError if root is no class."""
    if not root.is_dir():
        raise GraderError(text("batch.no_submissions", root=root))
    names = sorted(
        entry.name
        for entry in os.scandir(root)
        if not entry.name.startswith((".", "_")) and entry.is_dir(follow_symlinks=False)
    )
    return names


def require_class_layout(root: Path, names: list[str], learner_files: set[str]) -> None:
    """Raise GraderError when ``root`` is not a class: no student folder, or one learner's own folder.

    A learner's folder holds problem files at its top (``self_attention.py``) and perhaps a few
    folders of its own; a class holds one folder per student with those files inside.
    """
    example = sorted(learner_files)[0]
    top = sorted(entry.name for entry in os.scandir(root) if entry.name in learner_files and entry.is_file())
    if top and not any(_holds_learner_file(root / name, learner_files) for name in names):
        raise GraderError(text("batch.one_learner_folder", root=root, files=", ".join(top[:3]), example=example))
    if not names:
        raise GraderError(text("batch.no_students", root=root, example=example))


def _holds_learner_file(folder: Path, learner_files: set[str]) -> bool:
    return any(path.name in learner_files for path in _walk(folder))


def stray_files(root: Path, learner_files: set[str]) -> list[Flag]:
    """Learner files lying directly in SUBMISSIONS_DIR (not in a student's folder)."""
    return [
        Flag("", "", "stray_file", text("batch.flag_stray", name=entry.name))
        for entry in sorted(os.scandir(root), key=lambda e: e.name)
        if entry.name in learner_files and not entry.is_dir(follow_symlinks=False)
    ]


def scan_student(root: Path, name: str, learner_files: dict[str, str]) -> Student:
    """Find ``name``'s learner files; ``learner_files`` maps a file name to its problem."""
    folder = root / name
    flags: list[Flag] = []
    found: dict[str, list[Path]] = {}
    try:
        with os.scandir(folder) as it:
            any_entry = next(it, None) is not None
    except OSError as err:
        flags.append(Flag(name, "", "unreadable", text("batch.flag_folder_unreadable", reason=err.strerror)))
        return Student(name, folder, (), tuple(flags))
    for path in _walk(folder):
        problem = learner_files.get(path.name)
        if problem is not None:
            found.setdefault(problem, []).append(path)
    if not any_entry:
        flags.append(Flag(name, "", "empty_folder", text("batch.flag_empty")))
    elif not found:
        expected = ", ".join(sorted(learner_files))
        flags.append(Flag(name, "", "no_learner_files", text("batch.flag_no_files", expected=expected)))
    submissions = []
    for problem in sorted(found, key=list(learner_files.values()).index):
        paths = sorted(found[problem], key=lambda p: (len(p.relative_to(folder).parts), p.suffix == ".ipynb", str(p)))
        if len(paths) > 1:
            others = ", ".join(str(p.relative_to(folder)) for p in paths[1:])
            flags.append(
                Flag(name, problem, "ambiguous", text("batch.flag_ambiguous", graded=paths[0].relative_to(folder), others=others))
            )
        submission, flag = _read(name, problem, paths[0], folder)
        submissions.append(submission)
        if flag is not None:
            flags.append(flag)
    return Student(name, folder, tuple(submissions), tuple(flags))


def _walk(folder: Path, depth: int = 1) -> Iterator[Path]:
    """Files (and links) under ``folder``, down to MAX_DEPTH levels, never following links."""
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError:
        return
    subdirs = []
    for entry in entries:
        if entry.is_dir(follow_symlinks=False):
            if entry.name not in _SKIP_DIRS and not entry.name.startswith(".") and depth < MAX_DEPTH:
                subdirs.append(Path(entry.path))
        else:
            yield Path(entry.path)
    for sub in subdirs:
        yield from _walk(sub, depth + 1)


def _read(student: str, problem: str, path: Path, folder: Path) -> tuple[Submission, Flag | None]:
    shown = str(path.relative_to(folder))
    if path.is_symlink():
        message = text("batch.flag_symlink", file=shown)
        return Submission(student, problem, path, "", message), Flag(student, problem, "symlink", message)
    try:
        size = path.stat().st_size
        data = b"" if size > reading.MAX_FILE_BYTES else path.read_bytes()
    except OSError as err:
        message = text("batch.flag_unreadable", file=shown, reason=err.strerror)
        return Submission(student, problem, path, "", message), Flag(student, problem, "unreadable", message)
    if size > reading.MAX_FILE_BYTES:  # refused unread, as `grade` refuses it
        refused = reading.too_large(shown, size)
        return (Submission(student, problem, path, f"size:{size}", refused.text),
                Flag(student, problem, "too_large", refused.text))
    sha = hashlib.sha256(data).hexdigest()
    try:
        helpers = reading.from_bytes(path, data, shown, problem).helpers
    except reading.Refused as err:
        return Submission(student, problem, path, sha, err.text), Flag(student, problem, err.kind, err.text)
    except SubmissionError as err:  # a notebook that cannot be read
        return Submission(student, problem, path, sha, err.text), Flag(student, problem, "unreadable", err.text)
    if helpers:
        sha = reading.content_hash(data, helpers)
    return Submission(student, problem, path, sha), None
