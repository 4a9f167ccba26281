"""Check a problem bank before learners see it (``grade validate``).

For each problem: its ``spec.yaml`` loads (errors name the file and the key); the stub, checks
and reference exist; ``checks.py`` registers exactly the spec's checks and only declared
mistakes; the reference scores full marks; the untouched stub is ``not_attempted``; every declared
mistake is the diagnosis some wrong solution of the problem's corpus really gets
(``tests/corpus/<id>/expected.yaml`` beside the bank); and two runs with one seed give the same
result (no flaky checks). A check that cannot run is reported ``skipped``, never ``ok``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import yaml

from grader import engine
from grader.bank import Problem, ProblemBank
from grader.errors import GraderError
from grader.results import ProblemResult, Status
from grader.worker import sandbox
from grader.worker.session import Zygote

OK, FAIL, SKIPPED = "ok", "fail", "skipped"


@dataclass(frozen=True)
class Finding:
    """The outcome of one validation step for one problem."""

    problem: str
    step: str  # spec, files, checks, reference, stub, mistakes, determinism
    outcome: str  # ok, fail, skipped
    detail: str = ""


def corpus_file(root: Path, name: str) -> Path | None:
    """The problem's ``expected.yaml``: ``<root>/tests/corpus/<name>/`` or ``<root>/corpus/<name>/``."""
    for candidate in (root / "tests" / "corpus" / name, root / "corpus" / name):
        if (candidate / "expected.yaml").is_file():
            return candidate / "expected.yaml"
    return None


def _comparable(result: ProblemResult) -> dict[str, Any]:
    data = result.to_dict()
    data.pop("duration_ms", None)
    for check in data["checks"]:
        check.pop("duration_ms", None)
    return data


def _differences(first: ProblemResult, second: ProblemResult) -> str:
    a, b = _comparable(first), _comparable(second)
    changed = [x["id"] for x, y in zip(a["checks"], b["checks"]) if x != y]
    if changed:
        return "checks " + ", ".join(changed) + " differ between two runs with one seed"
    return "the results differ between two runs with one seed"


class _Validator:
    def __init__(self, problem: Problem, root: Path, seed: int | None, report: Callable[[Finding], None]):
        self.problem, self.root, self.seed, self.report = problem, root, seed, report
        self.zygote: Zygote | None = None
        self.step, self.graded = "reference", ""

    def finding(self, step: str, outcome: str, detail: str = "") -> None:
        self.report(Finding(self.problem.name, step, outcome, detail))

    def grade(self, path: Path, step: str) -> ProblemResult:
        self.step, self.graded = step, path.name
        return engine.grade(self.problem, path, seed=self.seed, zygote=self.zygote)

    def run(self) -> None:
        problem = self.problem
        try:
            spec = problem.spec
        except GraderError as err:
            self.finding("spec", FAIL, str(err))
            return
        self.finding("spec", OK, f"{len(spec.checks)} checks, {spec.max_score:g} points, {len(spec.mistakes)} mistakes")
        try:
            problem.require_files()
        except GraderError as err:
            self.finding("files", FAIL, str(err))
            return
        self.finding("files", OK)
        if not self.check_registry():
            return
        if spec.runtime != "data":  # one warm worker for all the runs of this problem
            self.zygote = Zygote(spec.runtime, sandbox.resolve("auto"))
        try:
            self.grade_runs()
        except Exception as err:  # noqa: BLE001 - a bug in the author's checks or reference, not the learner's
            self.finding(self.step, FAIL, f"grading {self.graded} raised {type(err).__name__}: {err}")
        finally:
            if self.zygote is not None:
                self.zygote.close()

    def grade_runs(self) -> None:
        problem = self.problem
        reference = self.grade(problem.reference_file, "reference")
        lost = [f"{c.id} ({c.status.value}: {c.message[:100]})" for c in reference.checks if c.score < c.max_score]
        self.finding("reference", FAIL if lost else OK, "loses points in " + "; ".join(lost) if lost else "full marks")
        stub = self.grade(problem.stub_file, "stub")
        attempted = [f"{c.id} ({c.status.value})" for c in stub.checks if c.status is not Status.NOT_ATTEMPTED]
        self.finding(
            "stub", FAIL if attempted or stub.score else OK,
            "not not_attempted: " + ", ".join(attempted) if attempted else "not_attempted, 0 points",
        )
        wrong = self.check_mistakes()
        self.check_determinism(reference, wrong)

    def check_registry(self) -> bool:
        spec = self.problem.spec
        try:
            registry = engine.load_registry(self.problem)
        except GraderError as err:
            self.finding("checks", FAIL, str(err))
            return False
        except Exception as err:  # noqa: BLE001 - an author's checks.py may raise anything on import
            self.finding("checks", FAIL, f"{self.problem.checks_file}: importing it raised {type(err).__name__}: {err}")
            return False
        needed = {c.id for c in spec.checks if c.kind == "test"}
        problems = []
        if needed - set(registry.tests):
            problems.append("no @checks.test for " + ", ".join(sorted(needed - set(registry.tests))))
        if set(registry.tests) - needed:
            problems.append("tests not in the spec: " + ", ".join(sorted(set(registry.tests) - needed)))
        undeclared = registry.mistake_ids() - {m.id for m in spec.mistakes}
        if undeclared:
            problems.append("hypotheses for undeclared mistakes: " + ", ".join(sorted(undeclared)))
        if problems:
            self.finding("checks", FAIL, f"{self.problem.checks_file}: " + "; ".join(problems))
            return False
        self.finding("checks", OK, f"{len(registry.tests)} tests, {len(registry.mistake_ids())} mistake hypotheses")
        return True

    def check_mistakes(self) -> Path | None:
        """Grade each corpus file that expects a diagnosis; return one wrong file for the determinism run."""
        declared = [m.id for m in self.problem.spec.mistakes]
        expected_file = corpus_file(self.root, self.problem.name)
        if expected_file is None:
            if declared:
                self.finding("mistakes", SKIPPED, f"no tests/corpus/{self.problem.name}/expected.yaml beside the bank")
            else:
                self.finding("mistakes", OK, "no mistakes declared")
            return None
        try:
            entries = yaml.safe_load(expected_file.read_text(encoding="utf-8")) or {}
        except yaml.YAMLError as err:
            self.finding("mistakes", FAIL, f"{expected_file}: invalid YAML ({err})")
            return None
        reached, problems, wrong = set(), [], None
        for file_name, expectation in entries.items():
            mistake = (expectation or {}).get("diagnosis")
            if mistake is None:
                continue
            path = expected_file.parent / file_name
            if mistake not in declared:
                problems.append(f"{file_name} expects {mistake!r}, which the spec does not declare")
                continue
            if not path.is_file():
                problems.append(f"{file_name} is listed in {expected_file.name} but missing")
                continue
            result = self.grade(path, "mistakes")
            got = {c.diagnosis.id for c in result.checks if c.diagnosis}
            if mistake in got and result.score < result.max_score:
                reached.add(mistake)
                wrong = wrong or path
            else:
                problems.append(f"{file_name} is not diagnosed {mistake!r} (got {sorted(got) or 'none'})")
        unreached = [m for m in declared if m not in reached]
        if unreached:
            problems.append("no corpus file reaches " + ", ".join(unreached))
        if problems:
            self.finding("mistakes", FAIL, "; ".join(problems))
        else:
            self.finding("mistakes", OK, f"all {len(declared)} reached by {expected_file.parent}")
        return wrong

    def check_determinism(self, reference: ProblemResult, wrong: Path | None) -> None:
        pairs = [(self.problem.reference_file, reference)]
        if wrong is not None:
            pairs.append((wrong, self.grade(wrong, "determinism")))
        for path, first in pairs:
            second = self.grade(path, "determinism")
            if _comparable(first) != _comparable(second):
                self.finding("determinism", FAIL, f"{path.name}: {_differences(first, second)}")
                return
        self.finding("determinism", OK, "same results for " + " and ".join(p.name for p, _ in pairs))


def _stray_folders(root: Path) -> list[Finding]:
    """Problem folders the bank would silently ignore (no spec.yaml)."""
    found = []
    folder = root / "problems"
    for child in sorted(folder.iterdir()) if folder.is_dir() else []:
        if child.is_dir() and not child.name.startswith((".", "_")) and not (child / "spec.yaml").exists():
            found.append(Finding(child.name, "spec", FAIL, f"{child}: no spec.yaml, so the bank ignores this folder"))
    return found


def validate(
    directory: Path | None = None,
    *,
    extra_roots: tuple[Path, ...] = (),
    seed: int | None = None,
    report: Callable[[Finding], None] | None = None,
) -> list[Finding]:
    """Validate every problem of the bank at ``directory`` (a bank root or one problem folder).

    Without ``directory``, every problem visible from the bundled bank and ``extra_roots`` (and
    ``GRADER_PROBLEMS``) is validated. ``report`` is called with each finding as it is made.
    """
    findings: list[Finding] = []

    def record(finding: Finding) -> None:
        findings.append(finding)
        if report is not None:
            report(finding)

    only: str | None = None
    if directory is not None:
        directory = Path(directory).resolve()
        if (directory / "spec.yaml").is_file():
            only, directory = directory.name, directory.parent.parent
        elif not (directory / "problems").is_dir():
            raise GraderError(f"{directory}: not a problem bank (no problems/ folder) nor a problem (no spec.yaml)")
        extra_roots = (*extra_roots, directory)
    bank = ProblemBank(extra_roots)
    roots = [directory] if directory is not None else bank.roots
    for root in roots if only is None else []:
        for finding in _stray_folders(root):
            record(finding)
    for problem in bank:
        root = problem.folder.parent.parent
        if directory is not None and root.resolve() != directory:
            continue
        if only is not None and problem.name != only:
            continue
        _Validator(problem, root, seed, record).run()
    return findings
