"""Check a problem bank before learners see it (``grade validate``).

For each problem: its ``spec.yaml`` loads (errors name the file and the key); the stub, checks
and reference exist; ``checks.py`` registers exactly the spec's checks and only declared
mistakes; the reference scores full marks; the untouched stub is ``not_attempted``; every declared
mistake is the diagnosis some wrong solution of the problem's corpus really gets
(``tests/corpus/<id>/expected.yaml`` beside the bank); and two runs with one seed give the same
result (no flaky checks). A check that cannot run is reported ``skipped``, never ``ok``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import yaml

from grader import engine, figures as figures_module, static
from grader.bank import Problem, ProblemBank, course_order
from grader.errors import GraderError
from grader.i18n import LANGS, Text, as_text, join, texts_in
from grader.messages import text
from grader.results import ProblemResult, Status
from grader.worker import sandbox
from grader.worker.session import Zygote
from grader.yaml_files import StrictLoader

OK, FAIL, SKIPPED = "ok", "fail", "skipped"


@dataclass(frozen=True)
class Finding:
    """The outcome of one validation step for one problem."""

    problem: str
    step: str  # spec, course, files, checks, reference, stub, mistakes, determinism
    outcome: str  # ok, fail, skipped
    detail: Text = field(default_factory=lambda: Text("", ""))  # a plain string reads the same in every language

    def __post_init__(self) -> None:
        object.__setattr__(self, "detail", as_text(self.detail))


def corpus_file(root: Path, name: str) -> Path | None:
    """The problem's ``expected.yaml``: ``<root>/tests/corpus/<name>/`` or ``<root>/corpus/<name>/``."""
    for candidate in (root / "tests" / "corpus" / name, root / "corpus" / name):
        if (candidate / "expected.yaml").is_file():
            return candidate / "expected.yaml"
    return None


def _comparable(result: ProblemResult) -> dict[str, Any]:
    data = result.to_dict(None)
    data.pop("duration_ms", None)
    for check in data["checks"]:
        check.pop("duration_ms", None)
    return data


def _differences(first: ProblemResult, second: ProblemResult) -> Text:
    a, b = _comparable(first), _comparable(second)
    changed = [x["id"] for x, y in zip(a["checks"], b["checks"]) if x != y]
    if changed:
        return text("validate.checks_differ", checks=", ".join(changed))
    return text("validate.results_differ")


class _Validator:
    def __init__(
        self, problem: Problem, root: Path, seed: int | None, report: Callable[[Finding], None], bank: ProblemBank
    ):
        self.problem, self.root, self.seed, self.report, self.bank = problem, root, seed, report, bank
        self.zygote: Zygote | None = None
        self.step, self.graded = "reference", ""

    def finding(self, step: str, outcome: str, detail: Text | str = "") -> None:
        self.report(Finding(self.problem.name, step, outcome, detail))

    def grade(self, path: Path, step: str) -> ProblemResult:
        self.step, self.graded = step, path.name
        return engine.grade(self.problem, path, seed=self.seed, zygote=self.zygote)

    def run(self) -> None:
        problem = self.problem
        try:
            spec = problem.spec
        except GraderError as err:
            self.finding("spec", FAIL, as_text(err.text))
            return
        self.finding("spec", OK, text("validate.spec_ok", checks=len(spec.checks), points=f"{spec.max_score:g}",
                                      mistakes=len(spec.mistakes)))
        self.check_course()
        try:
            problem.require_files()
        except GraderError as err:
            self.finding("files", FAIL, as_text(err.text))
            return
        self.finding("files", OK)
        self.check_languages()
        if not self.check_registry():
            return
        if spec.runtime != "data":  # one warm worker for all the runs of this problem
            self.zygote = Zygote(spec.runtime, sandbox.resolve("auto"))
        try:
            self.grade_runs()
        except Exception as err:  # noqa: BLE001 - a bug in the author's checks or reference, not the learner's
            self.finding(self.step, FAIL, text("validate.grading_raised", file=self.graded, error=f"{type(err).__name__}: {err}"))
        finally:
            if self.zygote is not None:
                self.zygote.close()

    def check_course(self) -> None:
        """Its place in the course: a section must have one heading, the same in each of its problems."""
        spec = self.problem.spec
        if spec.group is None:
            self.finding("course", OK, text("validate.course_unplaced") if spec.order is None
                         else text("validate.course_order", order=spec.order))
            return
        for other in self.bank:
            try:
                group = other.spec.group
            except GraderError:
                continue  # its own spec step reports it
            if group is not None and group.id == spec.group.id and group.title != spec.group.title:
                self.finding("course", FAIL, text("validate.course_heading_differs", group=group.id, other=other.name))
                return
        self.finding("course", OK, text("validate.course_ok", order=spec.order, group=spec.group.id))

    def grade_runs(self) -> None:
        problem = self.problem
        reference = self.grade(problem.reference_file, "reference")
        lost = [
            Text(*(f"{c.id} ({c.status.value}: {c.message.get(lang)[:100]})" for lang in LANGS))
            for c in reference.checks if c.score < c.max_score
        ]
        if lost:
            self.finding("reference", FAIL, text("validate.reference_loses", checks=join(lost, text("sep.clauses"))))
        else:
            self.finding("reference", OK, text("validate.full_marks"))
        stub = self.grade(problem.stub_file, "stub")
        attempted = [f"{c.id} ({c.status.value})" for c in stub.checks if c.status is not Status.NOT_ATTEMPTED]
        if attempted or stub.score:
            self.finding("stub", FAIL, text("validate.stub_attempted", checks=", ".join(attempted)))
        else:
            self.finding("stub", OK, text("validate.stub_ok"))
        self.check_figures()
        wrong = self.check_mistakes()
        self.check_determinism(reference, wrong)

    def check_figures(self) -> None:
        """Each figure draws on the reference, through the runner exactly as in-process (so a right
        answer is never drawn as differing), and is named by a check or shown by grade show."""
        spec = self.problem.spec
        if not spec.figures:
            self.finding("figures", OK, text("validate.no_figures"))
            return
        self.step, self.graded = "figures", self.problem.reference_file.name
        result = engine.grade(self.problem, self.problem.reference_file, seed=self.seed, zygote=self.zygote,
                              all_figures=True)
        drawn = {c.figure.id: c.figure for c in result.checks if c.figure is not None}
        named = {c.figure for c in spec.checks if c.figure is not None}
        problems = []
        for figure in spec.figures:
            if figure.id not in named and not figure.show:
                problems.append(text("validate.figure_unused", id=figure.id))
            elif figure.id in named and figure.id not in drawn:
                problems.append(text("validate.figure_not_drawn", id=figure.id))
            elif figure.id in drawn and drawn[figure.id].panels[0].values != drawn[figure.id].panels[1].values:
                problems.append(text("validate.figure_sides_differ", id=figure.id))
        if figures_only_shown := [f for f in spec.figures if f.show and f.id not in drawn]:
            registry, reference = engine.load_registry(self.problem), engine.load_reference(self.problem)
            for figure in figures_only_shown:
                try:
                    figures_module.reference_only(figure, registry, reference, engine.load_probes(self.problem))
                except Exception as err:  # noqa: BLE001 - the author's figure function
                    problems.append(text("validate.figure_raised", id=figure.id, error=f"{type(err).__name__}: {err}"))
        if problems:
            self.finding("figures", FAIL, join(problems, text("sep.clauses")))
        else:
            self.finding("figures", OK, text("validate.figures_ok", n=len(spec.figures)))

    def check_languages(self) -> None:
        """Every text in every language (docs/i18n.md), and a stub per language with the same code."""
        problem, problems, pending = self.problem, [], []
        untranslated = [where for where, value in texts_in(problem.spec) if value.untranslated]
        if untranslated:
            pending.append(text("validate.untranslated", n=len(untranslated), first=untranslated[0]))
        english = problem.stub_file.read_text(encoding="utf-8")
        for lang in LANGS[1:]:
            stub = problem.folder / lang / problem.spec.learner_file
            if not stub.is_file():
                pending.append(text("validate.no_stub", lang=lang, path=stub))
            elif problem.spec.runtime != "data" and not static.is_untouched_stub(stub.read_text(encoding="utf-8"), english):
                problems.append(text("validate.stub_code_differs", stub=stub, english=problem.stub_file))
        if problems:
            self.finding("languages", FAIL, join(problems, text("sep.clauses")))
        elif pending:
            self.finding("languages", SKIPPED, join(pending, text("sep.clauses")))
        else:
            self.finding("languages", OK, ", ".join(LANGS))

    def check_registry(self) -> bool:
        spec = self.problem.spec
        try:
            registry = engine.load_registry(self.problem)
        except GraderError as err:
            self.finding("checks", FAIL, as_text(err.text))
            return False
        except Exception as err:  # noqa: BLE001 - an author's checks.py may raise anything on import
            self.finding("checks", FAIL, text("validate.import_raised", file=self.problem.checks_file,
                                              error=f"{type(err).__name__}: {err}"))
            return False
        needed = {c.id for c in spec.checks if c.kind == "test"}
        problems = []
        if needed - set(registry.tests):
            problems.append(text("validate.no_test_for", ids=", ".join(sorted(needed - set(registry.tests)))))
        if set(registry.tests) - needed:
            problems.append(text("validate.tests_not_in_spec", ids=", ".join(sorted(set(registry.tests) - needed))))
        undeclared = registry.mistake_ids() - {m.id for m in spec.mistakes}
        if undeclared:
            problems.append(text("validate.undeclared_mistakes", ids=", ".join(sorted(undeclared))))
        said = (*registry.probe_problems, "probe_unknown") if registry.probe_problems else ()
        unsaid = [kind for kind in said if kind not in spec.messages]  # ctx.probe_problem says each
        if unsaid:
            problems.append(text("validate.probe_problems_unsaid", ids=", ".join(unsaid)))
        figures = {f.id for f in spec.figures}
        if figures - set(registry.figures):
            problems.append(text("validate.no_figure_for", ids=", ".join(sorted(figures - set(registry.figures)))))
        if set(registry.figures) - figures:
            problems.append(text("validate.figures_not_in_spec", ids=", ".join(sorted(set(registry.figures) - figures))))
        if problems:
            self.finding("checks", FAIL, text("validate.in_file", file=self.problem.checks_file,
                                              problems=join(problems, text("sep.clauses"))))
            return False
        self.finding("checks", OK, text("validate.checks_ok", tests=len(registry.tests),
                                        hypotheses=len(registry.mistake_ids())))
        return True

    def check_mistakes(self) -> Path | None:
        """Grade each corpus file that expects a diagnosis; return one wrong file for the determinism run."""
        declared = [m.id for m in self.problem.spec.mistakes]
        expected_file = corpus_file(self.root, self.problem.name)
        if expected_file is None:
            if declared:
                self.finding("mistakes", SKIPPED, text("validate.no_corpus", name=self.problem.name))
            else:
                self.finding("mistakes", OK, text("validate.no_mistakes"))
            return None
        try:
            entries = yaml.load(expected_file.read_text(encoding="utf-8"), Loader=StrictLoader) or {}
        except yaml.YAMLError as err:
            self.finding("mistakes", FAIL, text("validate.invalid_yaml", file=expected_file, error=str(err)))
            return None
        reached, problems, wrong = set(), [], None
        for file_name, expectation in entries.items():
            mistake = (expectation or {}).get("diagnosis")
            if mistake is None:
                continue
            path = expected_file.parent / file_name
            if mistake not in declared:
                problems.append(text("validate.expects_undeclared", file=file_name, mistake=repr(mistake)))
                continue
            if not path.is_file():
                problems.append(text("validate.listed_missing", file=file_name, listing=expected_file.name))
                continue
            result = self.grade(path, "mistakes")
            got = {c.diagnosis.id for c in result.checks if c.diagnosis}
            if mistake in got and result.score < result.max_score:
                reached.add(mistake)
                wrong = wrong or path
            else:
                problems.append(text("validate.not_diagnosed", file=file_name, mistake=repr(mistake),
                                     got=str(sorted(got)) if got else text("report.none")))
        unreached = [m for m in declared if m not in reached]
        if unreached:
            problems.append(text("validate.unreached", ids=", ".join(unreached)))
        if problems:
            self.finding("mistakes", FAIL, join(problems, text("sep.clauses")))
        else:
            self.finding("mistakes", OK, text("validate.all_reached", n=len(declared), folder=expected_file.parent))
        return wrong

    def check_determinism(self, reference: ProblemResult, wrong: Path | None) -> None:
        pairs = [(self.problem.reference_file, reference)]
        if wrong is not None:
            pairs.append((wrong, self.grade(wrong, "determinism")))
        for path, first in pairs:
            second = self.grade(path, "determinism")
            if _comparable(first) != _comparable(second):
                self.finding("determinism", FAIL, text("validate.in_file", file=path.name,
                                                       problems=_differences(first, second)))
                return
        self.finding("determinism", OK, text("validate.same_results", files=", ".join(p.name for p, _ in pairs)))


def _stray_folders(root: Path) -> list[Finding]:
    """Problem folders the bank would silently ignore (no spec.yaml)."""
    found = []
    folder = root / "problems"
    for child in sorted(folder.iterdir()) if folder.is_dir() else []:
        if child.is_dir() and not child.name.startswith((".", "_")) and not (child / "spec.yaml").exists():
            found.append(Finding(child.name, "spec", FAIL, text("validate.no_spec", folder=child)))
    return found


def _in_course_order(bank: ProblemBank) -> list[Problem]:
    """The bank's problems in ``grade list``'s order; those whose spec does not load come last, by name
    (their spec step reports why)."""
    loadable, broken = [], []
    for problem in bank:
        try:
            problem.spec  # noqa: B018 - loading is the test
        except GraderError:
            broken.append(problem)
        else:
            loadable.append(problem)
    return course_order(loadable) + broken


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
            raise GraderError(text("validate.not_a_bank", directory=directory))
        extra_roots = (*extra_roots, directory)
    bank = ProblemBank(extra_roots)
    roots = [directory] if directory is not None else bank.roots
    for root in roots if only is None else []:
        for finding in _stray_folders(root):
            record(finding)
    for problem in _in_course_order(bank):
        root = problem.folder.parent.parent
        if directory is not None and root.resolve() != directory:
            continue
        if only is not None and problem.name != only:
            continue
        _Validator(problem, root, seed, record, bank).run()
    return findings
