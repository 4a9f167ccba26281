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
from grader.batch import discover, shard
from grader.batch.fingerprint import duplicate_groups, fingerprint
from grader.batch.gradebook import STUDENT_WRITERS, Gradebook, result_from_dict
from grader.batch.journal import Journal
from grader.batch.pool import Executor, Job, WorkerPool
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
    shard: tuple[int, int] | None = None  # (i, N): grade only shard i of N (grader.batch.shard)
    scheduler: str | None = None  # a Dask scheduler's address: grade on that cluster, not here


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


def problem_files(problem: Problem) -> tuple[Path, ...]:
    """The files a problem's results depend on."""
    return (problem.folder / "spec.yaml", problem.checks_file, problem.reference_file,
            problem.folder / "probes.py", problem.stub_file)


def config_hash(problem: Problem, seed: int, isolation: str) -> str:
    """What a result depends on besides the submission: grader, seed, isolation, the problem's files."""
    h = hashlib.sha256(f"{__version__}|{seed}|{isolation}|{problem.name}".encode())
    for path in problem_files(problem):
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

    if options.resume:
        _check_same_shard(out, options.shard)
    learner_files = {p.spec.learner_file: p.name for p in problems}
    names = discover.students(options.submissions)
    if options.shard is not None:
        names = shard.select(names, options.shard)
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
        pool = _executor(options, _worker_config(options, jobs, by_name, isolation, configs), total) if jobs else None
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
        if pool is not None:
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
        summary = write_outputs(options, problems, students, flags, journal, configs)
        if options.shard is not None:
            shard.write(out, _manifest(options, problems, seeds, isolation, configs, students, flags))
            summary.files.append(shard.FILE_NAME)
    finally:
        journal.close()
    summary.graded = total
    summary.seconds = round(time.monotonic() - started, 2)
    summary.worker_restarts = restarts
    return summary


def _worker_config(options: BatchOptions, jobs: list[Job], by_name: dict[str, Problem], isolation: str,
                   configs: dict[str, str]) -> dict[str, Any]:
    """What every grading worker is started with (JSON): its zygote's runtime, the sandbox, the bank."""
    runtimes = {by_name[j.problem].spec.runtime for j in jobs}
    runtime = "torch" if "torch" in runtimes else "numpy" if "numpy" in runtimes else "data"
    return {"runtime": runtime, "runtimes": sorted(runtimes), "sandbox": options.sandbox, "isolation": isolation,
            "configs": configs,
            "problems_dir": [str(Path(p).resolve()) for p in options.problems_dir]}


def _executor(options: BatchOptions, config: dict[str, Any], count: int) -> Executor:
    """Where the jobs run: this machine's worker pool, or a Dask cluster (``--scheduler``)."""
    if options.scheduler:
        from grader.batch.dask_executor import DaskExecutor  # the optional extra; imported only here

        return DaskExecutor(options.scheduler, config)
    return WorkerPool(config, min(options.jobs or os.cpu_count() or 1, count), log=options.out / "workers.log")


def _check_same_shard(out: Path, wanted: tuple[int, int] | None) -> None:
    """A resumed batch must grade the same shard as before (or, unsharded, none)."""
    if not (out / shard.FILE_NAME).is_file():
        if wanted is not None and (out / "journal.jsonl").is_file():
            raise GraderError(f"{out} holds an unsharded batch; resume it without --shard")
        return
    had = tuple(shard.read(out).get("shard", ()))
    if had != wanted:
        raise GraderError(f"{out} holds shard {had[0]}/{had[1]}; resume it with --shard {had[0]}/{had[1]}")


def _manifest(options: BatchOptions, problems: list[Problem], seeds: dict[str, int], isolation: str,
              configs: dict[str, str], students: list[discover.Student], flags: list[discover.Flag]) -> dict[str, Any]:
    """What ``grade merge`` needs from a shard besides its journal (see grader.batch.shard)."""
    return {
        "shard": list(options.shard or (1, 1)),
        "grader_version": __version__,
        "submissions": options.submissions.name,
        "problems": [p.name for p in problems],
        "seeds": seeds,
        "isolation": isolation,
        "bank": shard.bank_hash((p.name, problem_files(p)) for p in problems),
        "configs": configs,
        "class_flags": [{"kind": f.kind, "message": f.message} for f in flags if not f.student],
        "students": [
            {"name": s.name,
             "submissions": [{"problem": sub.problem, "sha256": sub.sha256} for sub in s.submissions],
             "flags": [{"problem": f.problem, "kind": f.kind, "message": f.message} for f in s.flags]}
            for s in students
        ],
    }


def _budget(problem: Problem) -> float:
    spec = problem.spec
    return spec.limits.timeout_s * (len(spec.checks) + 1) + BUDGET_MARGIN_S


def _journal(journal: Journal, sub: discover.Submission, config: str, data: dict[str, Any], fp: str | None) -> None:
    journal.append({"student": sub.student, "problem": sub.problem, "sha256": sub.sha256, "config": config,
                    "fingerprint": fp, "result": data})


def write_outputs(
    options: BatchOptions,
    problems: list[Problem],
    students: list[discover.Student],
    flags: list[discover.Flag],
    journal: Journal,
    configs: dict[str, str],
) -> BatchSummary:
    """grades.csv, results.jsonl, report.html and per-student files from the journal (also used by merge)."""
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
    files = ["grades.csv", "results.jsonl", "report.html"] + [
        "students/" if name == "json" else f"{name}/" for name in options.per_student
    ]
    return BatchSummary(len(students), count, 0, len(flags), round(mean, 2), 0.0, out, files)
