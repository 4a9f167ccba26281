"""Find problems: the bundled bank plus any private banks, each a folder with the same layout.

A bank is a directory holding ``problems/<id>/`` (stub, ``spec.yaml``, ``checks.py``) and
``reference/<id>.py``. Banks named later override earlier ones problem by problem, so an
instructor's private bank (``--problems-dir`` or ``GRADER_PROBLEMS``) can replace a public problem
or add new ones.

Wherever problems are listed (``grade list``, ``grade all``, ``grade progress``, a batch's
gradebook and report) they follow the course: :func:`course_order`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Iterable

from grader.errors import ProblemBankError, UnknownProblem
from grader.messages import text
from grader.spec import ProblemSpec, load_spec

#: Environment variable naming extra bank folders, separated by os.pathsep.
PROBLEMS_ENV = "GRADER_PROBLEMS"


@dataclass(frozen=True)
class Problem:
    """One problem: where its files are, and its validated spec (loaded on first use)."""

    name: str
    folder: Path  # problems/<name>/
    root: Path  # the bank holding it

    @cached_property
    def spec(self) -> ProblemSpec:
        return load_spec(self.folder / "spec.yaml")

    @property
    def reference_file(self) -> Path:
        """``reference/<name>`` with the learner file's extension (``.py``, or ``.yaml`` for answers)."""
        return self.root / "reference" / f"{self.name}{Path(self.spec.learner_file).suffix}"

    @property
    def stub_file(self) -> Path:
        """The starter file, commented in English (the default language)."""
        return self.folder / self.spec.learner_file

    def stub_for(self, lang: str) -> Path:
        """The starter file commented in ``lang``: ``problems/<id>/<lang>/<learner_file>``, the same code.

        Until every bundled problem has one, a missing translation gives the English stub
        (tests/test_i18n.py lists the problems still missing theirs).
        """
        translated = self.folder / lang / self.spec.learner_file
        return translated if lang != "en" and translated.is_file() else self.stub_file

    @property
    def checks_file(self) -> Path:
        return self.folder / "checks.py"

    def require_files(self) -> None:
        """Raise ProblemBankError unless the stub, checks and reference all exist."""
        needed = [self.stub_file, self.reference_file]
        if self.spec.runtime != "data" or self.checks_file.exists():
            needed.append(self.checks_file)
        for path in needed:
            if not path.is_file():
                raise ProblemBankError(text("error.problem_file_missing", name=self.name, path=path))


def bundled_root() -> Path:
    """The bank shipped with the grader: the source checkout, or the installed package data."""
    here = Path(__file__).resolve().parent
    checkout = here.parent
    if (checkout / "problems").is_dir() and (checkout / "reference").is_dir():
        return checkout
    return here / "bundled"


def bank_roots(extra: list[Path] | tuple[Path, ...] = ()) -> list[Path]:
    """The bundled bank first, then ``GRADER_PROBLEMS`` folders, then ``extra`` (later wins)."""
    roots = [bundled_root()]
    env = os.environ.get(PROBLEMS_ENV, "")
    roots += [Path(p) for p in env.split(os.pathsep) if p]
    roots += [Path(p) for p in extra]
    for root in roots[1:]:
        if not (root / "problems").is_dir():
            raise ProblemBankError(text("error.not_a_bank", root=root))
    return roots


class ProblemBank:
    """All problems visible from the given banks, by name."""

    def __init__(self, extra_roots: list[Path] | tuple[Path, ...] = ()):
        self.roots = bank_roots(extra_roots)
        found: dict[str, Problem] = {}
        for root in self.roots:
            for folder in sorted((root / "problems").iterdir()):
                if (folder / "spec.yaml").is_file():
                    found[folder.name] = Problem(folder.name, folder, root)
        self._problems = found

    def names(self) -> list[str]:
        return list(self._problems)

    def __iter__(self):
        return iter(self._problems.values())

    def __contains__(self, name: str) -> bool:
        return name in self._problems

    def get(self, name: str) -> Problem:
        try:
            return self._problems[name]
        except KeyError:
            raise UnknownProblem(name, self.names()) from None


def course_order(problems: Iterable[Problem]) -> list[Problem]:
    """The problems in the order of the course: by their spec's ``order`` (those without one last,
    by name), each section (``group``) together where its first problem stands; problems without a
    section come after every section. The course lives in the specs, so a private bank places its
    problems with the same two keys."""
    by_order = sorted(problems, key=lambda p: (p.spec.order is None, p.spec.order or 0, p.name))
    first: dict[str, int] = {}
    for place, problem in enumerate(by_order):
        if problem.spec.group is not None:
            first.setdefault(problem.spec.group.id, place)
    return sorted(by_order, key=lambda p: first[p.spec.group.id] if p.spec.group else len(by_order))
