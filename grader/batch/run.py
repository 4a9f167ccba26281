"""``grade batch``: discover the class, grade what the journal lacks, write the gradebook and report.

:func:`run_batch` is the one library call behind the command. It never prints; progress goes to
an optional :class:`Progress` callback object, and problems with the setup raise GraderError.
"""

from __future__ import annotations

import hashlib
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from grader import __version__, engine
from grader.bank import Problem, ProblemBank
from grader.batch import discover
from grader.batch.fingerprint import duplicate_groups, fingerprint
from grader.batch.gradebook import STUDENT_WRITERS, Gradebook, result_from_dict
from grader.batch.journal import Journal
from grader.batch.pool import Job, WorkerPool
from grader.batch.report import Report
from grader.errors import GraderError
from grader.results import CheckResult, ProblemResult, Status
from grader.worker import sandbox

#: Seconds added to a job's budget on top of the engine's per-check limits (worker-level backstop).
BUDGET_MARGIN_S = 30.0


class BatchInterrupted(GraderError):
    """Ctrl-C during a batch: what finished is journaled; ``--resume`` continues."""


class Progress(Protocol):
    def start(self, total: int, done: int) -> None: ...
    def advance(self, student: str, problem: str) -> None: ...


@dataclass
class BatchOptions:
    submissions: Path
    out: Path
    problems: list[str] | None = None  # None: every problem in the bank
    jobs: int | None = None  # None: the core count
    seed: int | None = None
    resume: bool = False
    sandbox: str = "auto"
    problems_dir: tuple[Path, ...] = ()
    per_student: tuple[str, ...] = ()


@dataclass
class BatchSummary:
    students: int
    results: int  # student x problem results in the gradebook
    graded: int  # graded in this run (the rest came from the journal)
    flags: int
    mean_percent: float
    seconds: float
    out: Path
    files: list[str] = field(default_factory=list)
    worker_restarts: int = 0


def select_problems(bank: ProblemBank, names: list[str] | None) -> list[Problem]:
    problems = [bank.get(n) for n in names] if names else list(bank)
    if not problems:
        raise GraderError("no problems to grade: the bank is empty")
    for problem in problems:
        problem.require_files()
    files: dict[str, str] = {}
    for problem in problems:
        other = files.setdefault(problem.spec.learner_file, problem.name)
        if other != problem.name:
            raise GraderError(
                f"problems {other!r} and {problem.name!r} share the learner file {problem.spec.learner_file}; "
                "grade them in separate batches (--problems)"
            )
    return problems


def config_hash(problem: Problem, seed: int, isolation: str) -> str:
    """What a result depends on besides the submission: grader, seed, isolation, the problem's files."""
    h = hashlib.sha256(f"{__version__}|{seed}|{isolation}|{problem.name}".encode())
    for path in (problem.folder / "spec.yaml", problem.checks_file, problem.reference_file,
                 problem.folder / "probes.py", problem.stub_file):
        if path.is_file():
            h.update(path.name.encode() + b"\0" + path.read_bytes())
    return h.hexdigest()[:20]


def error_result(problem: Problem, seed: int, isolation: str, message: str) -> ProblemResult:
    """A result for a file that could not be graded at all: every check an error, 0 points."""
    checks = [
        CheckResult(c.id, c.title, Status.ERROR, 0.0, c.points, c.visibility, message) for c in problem.spec.checks
    ]
    return ProblemResult(problem.name, checks, seed, __version__, isolation=isolation, error=message)


def run_batch(options: BatchOptions, progress: Progress | None = None) -> BatchSummary:
    started = time.monotonic()
    bank = ProblemBank(options.problems_dir)
    problems = select_problems(bank, options.problems)
    by_name = {p.name: p for p in problems}
    isolation = sandbox.resolve(options.sandbox, batch=True)
    seeds = {p.name: engine.resolve_seed(options.seed, p.spec) for p in problems}
    configs = {p.name: config_hash(p, seeds[p.name], isolation) for p in problems}
    for name in options.per_student:
        if name not in STUDENT_WRITERS:
            raise GraderError(f"--per-student {name}: choose one of {', '.join(sorted(STUDENT_WRITERS))}")

    out = options.out
    if (out / "journal.jsonl").exists() and not options.resume:
        raise GraderError(f"{out} already holds a batch: pass --resume to continue it, or choose another --out")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise GraderError(f"{out}: cannot create the output folder ({err.strerror})") from None

    learner_files = {p.spec.learner_file: p.name for p in problems}
    names = discover.students(options.submissions)
    flags: list[discover.Flag] = discover.stray_files(options.submissions, set(learner_files))
    students: list[discover.Student] = []
    jobs: list[Job] = []
    job_keys: dict[int, tuple[str, str, str]] = {}
    journal = Journal(out)
    try:
        for name in names:
            student = discover.scan_student(options.submissions, name, learner_files)
            students.append(student)
            flags.extend(student.flags)
            for sub in student.submissions:
                problem = by_name[sub.problem]
                if journal.is_current(name, sub.problem, sub.sha256, configs[sub.problem]):
                    continue
                if sub.error is not None:  # unreadable, not UTF-8, a link: an error result, no worker needed
                    result = error_result(problem, seeds[sub.problem], isolation, sub.error)
                    _journal(journal, sub, configs[sub.problem], result.to_dict(), None)
                    continue
                job = Job(len(jobs), sub.problem, str(sub.path.resolve()), seeds[sub.problem], _budget(problem))
                jobs.append(job)
                job_keys[job.id] = (name, sub.problem, sub.sha256)
        total = len(jobs)
        if progress is not None:
            progress.start(total, 0)

        def on_reply(job: Job, reply: dict[str, Any]) -> None:
            student, problem, sha = job_keys.pop(job.id)
            if "result" in reply:
                data, fp = reply["result"], reply.get("fingerprint")
            else:
                message = f"the grader could not grade this file: {reply.get('error', 'unknown failure')}"
                data, fp = error_result(by_name[problem], seeds[problem], isolation, message).to_dict(), None
            journal.append({"student": student, "problem": problem, "sha256": sha,
                            "config": configs[problem], "fingerprint": fp, "result": data})
            if progress is not None:
                progress.advance(student, problem)

        restarts = 0
        if jobs:
            runtimes = {by_name[j.problem].spec.runtime for j in jobs}
            runtime = "torch" if "torch" in runtimes else "numpy" if "numpy" in runtimes else "data"
            config = {"runtime": runtime, "sandbox": options.sandbox,
                      "problems_dir": [str(Path(p).resolve()) for p in options.problems_dir]}
            n_workers = min(options.jobs or os.cpu_count() or 1, len(jobs))
            pool = WorkerPool(config, n_workers, log=out / "workers.log")
            try:
                pool.run(iter(jobs), on_reply)
            except KeyboardInterrupt:
                done = total - len(job_keys)
                raise BatchInterrupted(
                    f"interrupted after {done} of {total} results; they are saved in {out}. "
                    "Run the same command with --resume to grade the rest"
                ) from None
            finally:
                pool.close()
                restarts = pool.restarts
        del jobs
        summary = _write_outputs(options, problems, students, flags, journal, configs)
    finally:
        journal.close()
    summary.graded = total
    summary.seconds = round(time.monotonic() - started, 2)
    summary.worker_restarts = restarts
    return summary


def _budget(problem: Problem) -> float:
    spec = problem.spec
    return spec.limits.timeout_s * (len(spec.checks) + 1) + BUDGET_MARGIN_S


def _journal(journal: Journal, sub: discover.Submission, config: str, data: dict[str, Any], fp: str | None) -> None:
    journal.append({"student": sub.student, "problem": sub.problem, "sha256": sub.sha256, "config": config,
                    "fingerprint": fp, "result": data})


def _write_outputs(
    options: BatchOptions,
    problems: list[Problem],
    students: list[discover.Student],
    flags: list[discover.Flag],
    journal: Journal,
    configs: dict[str, str],
) -> BatchSummary:
    out = options.out
    columns = [(p.name, p.spec.max_score) for p in problems]
    gradebook = Gradebook(out, columns)
    report = Report(out, columns)
    writers = [STUDENT_WRITERS[n] for n in options.per_student]
    prints: list[tuple[str, str, str | None]] = []
    count = 0
    percents = 0.0
    for student in students:
        results: dict[str, ProblemResult] = {}
        for sub in student.submissions:
            record = journal.read(student.name, sub.problem)
            if record is None or record["sha256"] != sub.sha256 or record["config"] != configs[sub.problem]:
                continue  # not graded yet (cannot happen after a complete run)
            results[sub.problem] = result_from_dict(record["result"])
            prints.append((sub.problem, student.name, record.get("fingerprint")))
        notes = [f.message if not f.problem else f"{f.problem}: {f.message}" for f in student.flags]
        got, percent, status = gradebook.add(student.name, results, notes)
        report.add(student.name, results, got, percent, status, notes)
        for writer in writers:
            writer(student.name, list(results.values()), out)
        count += len(results)
        percents += percent
    gradebook.close()
    stubs = {}
    for p in problems:
        stub_print = fingerprint(p.stub_file.read_text(encoding="utf-8"))
        stubs[p.name] = {stub_print} if stub_print else set()
    groups = duplicate_groups(prints, stubs)
    del prints
    mean = percents / len(students) if students else 0.0
    meta = [("grader", __version__), ("problems", ", ".join(p.name for p in problems)),
            ("results", str(count)), ("near-duplicate groups", str(len(groups)))]
    report.write(
        title=f"Batch report: {options.submissions.name}",
        meta=meta,
        flags=[(f.student, f.problem, f.message) for f in flags],
        duplicates=groups,
    )
    files = ["grades.csv", "results.jsonl", "report.html"] + (["students/"] if writers else [])
    return BatchSummary(len(students), count, 0, len(flags), round(mean, 2), 0.0, out, files)
