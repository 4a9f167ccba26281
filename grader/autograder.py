"""Gradescope's ``run_autograder``: grade one upload as root, with learner code kept away from the secrets.

``integrations/gradescope/run_autograder`` calls :func:`main` with the autograder root
(``/autograder``). In order:

1. Lock the root down: ``/autograder`` itself, ``source/`` (the private bank, ``grader.env`` with
   the seed), ``submission/``, ``results/`` and ``submission_metadata.json`` become root-only, so
   that the unprivileged account learner code runs as can neither read nor write anything there,
   even without Landlock (the grader's venv lives outside, in ``/opt``).
2. Read ``source/grader.env`` as data (never sourced by a shell, nothing exported): ``PROBLEMS``,
   ``GRADER_SEED``, ``GRADER_GRADESCOPE_HIDDEN``, ``GRADER_LANG``.
3. Find each problem's learner file in the upload, whatever folder it is in, also under the names
   students and browsers give it (``Masks.py``, ``self_attention (1).py``, ``masks copy.py``), or
   else its notebook (``masks.ipynb``, same rules), and copy it, with the other ``.py`` files of its
   folder (helper modules), into a private folder; a missing file becomes the untouched stub
   (``not_attempted``: the maximum never changes).
4. Grade at ``--sandbox full``: bubblewrap where the container allows it, else the ``user`` level
   (a fresh interpreter as an unprivileged account). The level is in ``extra_data``.
5. Write ``results/results.json`` at once, replacing whatever was there: the student sees what was
   graded, the scores their visibility allows, and the real run time.

Whatever fails, a valid results.json is left (score 0 and "tell your instructor"); the details go
to stdout, which only instructors see.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
import tempfile
import time
import traceback
import warnings
from dataclasses import dataclass, field
from pathlib import Path

from grader.errors import GraderError
from grader.i18n import LANGS
from grader.messages import t
from grader.submission import candidates

#: Settings make_autograder.sh may write into grader.env.
SETTINGS = ("PROBLEMS", "GRADER_SEED", "GRADER_GRADESCOPE_HIDDEN", "GRADER_LANG")
#: Helper modules copied with a learner file: at most this many, each at most this big.
MAX_HELPERS, MAX_HELPER_BYTES = 50, 1 << 20
#: Copy suffixes of file names: "x (1).py", "x(2).py", "x - Copy.py", "x - Copy (2).py",
#: "x copy.py", "x copy 2.py" (browsers, Windows Explorer, macOS Finder).
_COPY_SUFFIX = re.compile(r"(?: ?\(\d+\)| - copy(?: \(\d+\))?| copy(?: \d+)?)$", re.IGNORECASE)

@dataclass(frozen=True)
class Settings:
    """What make_autograder.sh put in grader.env."""

    problems: tuple[str, ...] = ()
    seed: int | None = None
    hidden: str | None = None
    lang: str = "en"


def read_settings(path: Path) -> Settings:
    """Parse ``KEY=VALUE`` lines (values may be quoted); unknown keys and comments are ignored."""
    if not path.is_file():
        return Settings()
    values: dict[str, str] = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        key, sep, value = line.partition("=")
        if not sep:
            raise GraderError(f"{path}:{number}: expected KEY=VALUE, got {line!r}")
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        if key.strip() in SETTINGS:
            values[key.strip()] = value
    seed = values.get("GRADER_SEED", "")
    if seed and not seed.isdigit():
        raise GraderError(f"{path}: GRADER_SEED={seed!r}: the seed must be a whole number")
    lang = values.get("GRADER_LANG", "") or "en"
    if lang not in LANGS:
        raise GraderError(f"{path}: GRADER_LANG={lang!r}: choose {' or '.join(LANGS)}")
    return Settings(
        problems=tuple(values.get("PROBLEMS", "").split()),
        seed=int(seed) if seed else None,
        hidden=values.get("GRADER_GRADESCOPE_HIDDEN") or None,
        lang=lang,
    )


def _key(name: str) -> str:
    """A file name as a student means it: case folded, copy suffixes dropped."""
    stem, dot, suffix = name.rpartition(".")
    if not dot:
        return name.casefold()
    return f"{_COPY_SUFFIX.sub('', stem.strip()).casefold()}.{suffix.casefold()}"


def find_learner_file(upload: Path, learner_file: str) -> Path | None:
    """The upload's file for ``learner_file``: the exact name first, then the same name in
    another case, then a copy of it ("self_attention (1).py"); shallowest first. Symbolic links
    and anything outside the upload are ignored (a link to the reference is not the student's)."""
    wanted = _key(learner_file)
    candidates = []
    for path in upload.rglob("*"):
        if path.is_symlink() or not path.is_file() or not path.resolve().is_relative_to(upload):
            continue
        if path.name == learner_file:
            rank = 0
        elif path.name.casefold() == learner_file.casefold():
            rank = 1
        elif _key(path.name) == wanted:
            rank = 2
        else:
            continue
        candidates.append((rank, len(path.parts), str(path), path))
    return min(candidates)[3] if candidates else None


@dataclass
class Staged:
    """The private folder handed to the grader, and what the student is told about it."""

    folder: Path
    notes: list[str] = field(default_factory=list)


def find_answer(upload: Path, learner_file: str) -> tuple[Path, str] | None:
    """The upload's answer to a problem and the name it is graded under: its ``.py`` file, else its
    notebook (:func:`grader.submission.candidates`), each found as :func:`find_learner_file` does."""
    for name in candidates(learner_file):
        found = find_learner_file(upload, name) if upload.is_dir() else None
        if found is not None:
            return found, name
    return None


def stage(upload: Path, work: Path, problems: list, lang: str) -> Staged:
    """Copy each problem's learner file or notebook (or its stub) and its folder's other .py files into ``work``."""
    staged = Staged(work)
    learner_keys = {_key(name) for p in problems for name in candidates(p.spec.learner_file)}
    for problem in problems:
        answer = find_answer(upload, problem.spec.learner_file)
        if answer is None:
            expected = problem.spec.learner_file
            shutil.copyfile(problem.stub_file, work / expected)
            others = candidates(expected)[1:]
            if others:
                staged.notes.append(t("autograder.missing_either", lang, problem=problem.name, expected=expected,
                                      notebook=others[0]))
            else:
                staged.notes.append(t("autograder.missing", lang, problem=problem.name, expected=expected))
            continue
        found, expected = answer
        shutil.copyfile(found, work / expected)
        shown = str(found.relative_to(upload))
        if found.name == expected:
            staged.notes.append(t("autograder.graded", lang, problem=problem.name, found=shown))
        else:
            staged.notes.append(t("autograder.graded_as", lang, problem=problem.name, found=shown, expected=expected))
        helpers = _copy_helpers(found.parent, upload, work, learner_keys)
        if helpers:
            names = t("sep.items", lang).join(helpers)
            staged.notes.append(t("autograder.helpers", lang, problem=problem.name, names=names))
    return staged


def _copy_helpers(folder: Path, upload: Path, work: Path, learner_keys: set[str]) -> list[str]:
    """The other ``.py`` files of ``folder`` (not links, not any problem's learner file under any
    of its names), copied into ``work``."""
    copied = []
    for path in sorted(folder.glob("*.py")):
        if len(copied) >= MAX_HELPERS:
            break
        if _key(path.name) in learner_keys or path.is_symlink() or not path.is_file() or (work / path.name).exists():
            continue
        if not path.resolve().is_relative_to(upload) or path.stat().st_size > MAX_HELPER_BYTES:
            continue
        if not path.stem.isidentifier():  # importable as a module
            continue
        shutil.copyfile(path, work / path.name)
        copied.append(path.name)
    return copied


def lock_down(root: Path) -> None:
    """Make the root, the secrets, the upload and the results root-only (nothing for others)."""
    os.chmod(root, 0o700)
    for name in ("source", "submission", "results", "submission_metadata.json"):
        path = root / name
        if not path.exists() or path.is_symlink():
            continue
        for entry in [path, *(path.rglob("*") if path.is_dir() else [])]:
            if not entry.is_symlink():
                os.chmod(entry, entry.stat().st_mode & 0o700)


def write_results(path: Path, document: dict) -> None:
    """Replace ``path`` at once (a file the learner left there, if any, is gone)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}")
    temporary.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    os.replace(temporary, path)


def run(root: Path, started: float | None = None) -> dict:
    """Grade ``root/submission``; the results.json document.

    ``started``: when the run began (``time.time()``; run_autograder passes its own start), so
    that ``execution_time`` is the whole run, Python's start-up included.
    """
    from grader import engine, i18n
    from grader.bank import ProblemBank, course_order
    from grader.render.audience import learner_view
    from grader.render.gradescope import gradescope_results

    started = time.time() if started is None else started
    lock_down(root)
    source = root / "source"
    settings = read_settings(source / "grader.env")
    i18n.use(settings.lang)  # every text the student reads: checks, hints, notes
    bank = ProblemBank([source / "bank"] if (source / "bank" / "problems").is_dir() else [])
    problems = course_order([bank.get(name) for name in settings.problems] if settings.problems else bank)
    with tempfile.TemporaryDirectory(prefix="autograder-") as work:
        staged = stage(root / "submission", Path(work), problems, settings.lang)
        for note in staged.notes:
            print(note)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            results = engine.grade_all(problems, staged.folder, seed=settings.seed, sandbox_mode="full")
        for warning in caught:
            print(f"warning: {warning.message}")
    return gradescope_results(  # what a learner may see (grader.render.audience), never more
        learner_view(results), hidden=settings.hidden, execution_time=time.time() - started, notes=staged.notes
    )


def main(argv: list[str] | None = None) -> int:
    """``python -m grader.autograder ROOT [STARTED]``: always leaves ROOT/results/results.json; exit 0.

    STARTED: the run's start in seconds since the epoch (``date +%s.%N``)."""
    args = argv if argv is not None else sys.argv[1:]
    root = Path(args[0] if args else "/autograder")
    try:
        started = float(args[1]) if len(args) > 1 else None
    except ValueError:
        started = None
    try:
        document = run(root, started)
    except Exception as err:  # noqa: BLE001 - the student must get a results.json whatever happened
        print(f"run_autograder: {err}" if isinstance(err, GraderError) else traceback.format_exc())
        lang = "en"
        try:
            lang = read_settings(root / "source" / "grader.env").lang
        except Exception:  # noqa: BLE001
            pass
        document = {"score": 0, "output": t("autograder.failed", lang), "tests": []}
    write_results(root / "results" / "results.json", document)
    return 0


if __name__ == "__main__":
    sys.exit(main())
