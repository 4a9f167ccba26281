"""``grade batch``: discover the class, grade what the journal lacks, write the gradebook and report.

:func:`run_batch` is the one library call behind the command. It never prints; progress goes to
an optional :class:`Progress` callback object, and problems with the setup raise GraderError.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from grader import __version__, engine
from grader.bank import Problem, ProblemBank, course_order
from grader.batch import discover, review, shard
from grader.batch.config import config_hash, problem_files
from grader.batch.fingerprint import duplicate_groups, fingerprint
from grader.batch.gradebook import STUDENT_WRITERS, Gradebook, result_from_dict
from grader.batch.journal import Journal
from grader.batch.pool import Executor, Job, WorkerPool
from grader.batch.report import Report
from grader.errors import GraderError
from grader.i18n import Text, as_text
from grader.messages import t, text
from grader.results import CheckResult, ProblemResult, Status
from grader.worker import sandbox

#: Seconds added to a job's budget on top of the engine's per-check limits (worker-level backstop).
BUDGET_MARGIN_S = 30.0


class BatchInterrupted(GraderError):
    """Ctrl-C during a batch: what finished is journaled; ``--resume`` continues."""


class Progress(Protocol):
    def start(self, total: int, done: int) -> None: ...
    def advance(self, student: str, problem: str) -> None: ...
    def stopping(self, done: int, total: int) -> None: ...


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
    overrides: Path | None = None  # an instructor's grades (grader.batch.review), kept in out/overrides.csv


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
    #: (student, problem) whose result is a grader error: no grade; ``--resume`` grades them again.
    grader_errors: list[tuple[str, str]] = field(default_factory=list)


def select_problems(bank: ProblemBank, names: list[str] | None) -> list[Problem]:
    problems = course_order([bank.get(n) for n in names] if names else bank)
    if not problems:
        raise GraderError(text("batch.empty_bank"))
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


def error_result(
    problem: Problem, seed: int, isolation: str, message: Text | str, *, grader: bool = False
) -> ProblemResult:
    """A result for a file that could not be graded at all: every check an error; ``message`` is said
    once, as the result's error (as the engine does for a file that does not import).

    ``grader=False``: the file's fault (unreadable, not UTF-8, too large): 0 points.
    ``grader=True``: the grader's fault: a grader error, which is no grade at all.
    """
    message = as_text(message)
    checks = [CheckResult(c.id, c.title, Status.ERROR, 0.0, c.points, c.visibility) for c in problem.spec.checks]
    return ProblemResult(problem.name, checks, seed, __version__, isolation=isolation, error=message,
                         grader_error=grader)


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
            raise GraderError(text("batch.bad_per_student", name=name, choices=", ".join(sorted(STUDENT_WRITERS))))

    out = options.out
    if (out / "journal.jsonl").exists() and not options.resume:
        raise GraderError(text("batch.out_exists", out=out))
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise GraderError(text("batch.cannot_create_out", out=out, reason=err.strerror)) from None
    if options.overrides is not None:
        review.load_overrides(options.overrides)  # a malformed file stops the batch before any grading

    if options.resume:
        _check_same_shard(out, options.shard)
    learner_files = discover.learner_names(problems)
    names = discover.students(options.submissions)
    discover.require_class_layout(options.submissions, names, set(learner_files))
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
                    _journal(journal, sub, configs[sub.problem], result.to_dict(None), None)
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
            record: dict[str, Any] = {"student": student, "problem": problem, "sha256": sha, "config": configs[problem]}
            if "result" in reply:
                data, fp = reply["result"], reply.get("fingerprint")
            else:  # the grader failed (a learner's fault is always a result): no grade, regraded by --resume
                grader_fault = bool(reply.get("grader_error", True))
                message = Text.from_json(reply.get("error", "unknown failure"))
                if grader_fault:
                    message = text("batch.grader_failed", detail=message)
                result = error_result(by_name[problem], seeds[problem], isolation, message, grader=grader_fault)
                data, fp = result.to_dict(None), None
                if grader_fault:
                    record["grader_error"] = True
            journal.append({**record, "fingerprint": fp, "result": data})
            if progress is not None:
                progress.advance(student, problem)

        restarts = 0
        if pool is not None:
            try:
                pool.run(iter(jobs), on_reply)
            except KeyboardInterrupt:
                done = total - len(job_keys)
                if progress is not None:
                    progress.stopping(done, total)
                _stop_now(pool)  # the journal holds every finished result already
                raise BatchInterrupted(text("batch.interrupted_after", done=done, total=total, out=out)) from None
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


def _stop_now(pool: Executor) -> None:
    """Stop the workers at once (a second Ctrl-C while they stop changes nothing)."""
    import signal

    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        stop = getattr(pool, "stop", None)
        if stop is not None:
            stop()
    finally:
        signal.signal(signal.SIGINT, previous)


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
            raise GraderError(text("batch.unsharded", out=out))
        return
    had = tuple(shard.read(out).get("shard", ()))
    if had != wanted:
        raise GraderError(text("batch.other_shard", out=out, shard=f"{had[0]}/{had[1]}"))


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
        "class_flags": [{"kind": f.kind, "message": f.message.to_json()} for f in flags if not f.student],
        "students": [
            {"name": s.name,
             "submissions": [{"problem": sub.problem, "sha256": sub.sha256} for sub in s.submissions],
             "flags": [{"problem": f.problem, "kind": f.kind, "message": f.message.to_json()} for f in s.flags]}
            for s in students
        ],
    }


def _budget(problem: Problem) -> float:
    spec = problem.spec
    return spec.limits.timeout_s * (len(spec.checks) + 1) + BUDGET_MARGIN_S


def _journal(journal: Journal, sub: discover.Submission, config: str, data: dict[str, Any], fp: str | None) -> None:
    journal.append({"student": sub.student, "problem": sub.problem, "sha256": sub.sha256, "config": config,
                    "fingerprint": fp, "result": data})


def _results(
    student: discover.Student, journal: Journal, configs: dict[str, str]
) -> dict[str, tuple[ProblemResult, str | None]]:
    """A student's journaled results for their current files, by problem, with each fingerprint."""
    results = {}
    for sub in student.submissions:
        record = journal.read(student.name, sub.problem)
        if record is None or record["sha256"] != sub.sha256 or record["config"] != configs[sub.problem]:
            continue  # not graded yet (cannot happen after a complete run)
        results[sub.problem] = (result_from_dict(record["result"]), record.get("fingerprint"))
    return results


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
    overrides_file, overrides = review.read(out, options.overrides)
    unknown = sorted(set(overrides) - {s.name for s in students})
    if unknown:
        row = overrides[unknown[0]][0]
        raise review.OverridesError(f"{overrides_file}, line {row.line}: no student {unknown[0]!r} in this batch")
    for student in students:  # every row applies cleanly before any file is written
        if student.name in overrides:
            results = {name: result for name, (result, _) in _results(student, journal, configs).items()}
            review.apply(overrides[student.name], results, overrides_file or out)
    gradebook = Gradebook(out, columns)
    to_review = review.ReviewFile(out)
    report = Report(out, columns)
    writers = [STUDENT_WRITERS[n] for n in options.per_student]
    prints: list[tuple[str, str, str | None]] = []
    count = 0
    percents = 0.0
    graded_students = 0
    grader_errors: list[tuple[str, str]] = []
    for student in students:
        graded = _results(student, journal, configs)
        results: dict[str, ProblemResult] = {name: result for name, (result, _) in graded.items()}
        prints += [(name, student.name, fp) for name, (_, fp) in graded.items()]
        review.apply(overrides.get(student.name, []), results, overrides_file or out)
        unsure = review.to_review(student.name, results)
        to_review.add(unsure)
        report.add_review(unsure)
        notes = [f.message.get() if not f.problem else f"{f.problem}: {f.message.get()}" for f in student.flags]
        got, percent, status = gradebook.add(student.name, results, notes)
        report.add(student.name, results, got, percent, status, notes)
        failed = [(student.name, name) for name, result in results.items() if result.grader_error]
        grader_errors += failed
        for writer in writers if not failed else ():  # no platform file holds a made-up total
            writer(student.name, list(results.values()), out)
        count += len(results)
        if percent is not None:
            percents += percent
            graded_students += 1
    gradebook.close()
    to_review.close()
    if options.overrides is not None:
        review.keep(options.overrides, out)
    stubs = {}
    for p in problems:
        stub_print = fingerprint(p.stub_file.read_text(encoding="utf-8"))
        stubs[p.name] = {stub_print} if stub_print else set()
    groups = duplicate_groups(prints, stubs)
    del prints
    mean = percents / graded_students if graded_students else 0.0
    meta = [(t("report.meta_grader"), __version__), (t("report.meta_problems"), ", ".join(p.name for p in problems)),
            (t("report.meta_results"), str(count)), (t("report.meta_duplicates"), str(len(groups)))]
    report.write(
        title=t("report.title", name=options.submissions.name),
        meta=meta,
        flags=[(f.student, f.problem, f.message.get()) for f in flags],
        duplicates=groups,
    )
    files = ["grades.csv", "results.jsonl", "report.html", review.REVIEW_FILE] + [
        "students/" if name == "json" else f"{name}/" for name in options.per_student
    ]
    return BatchSummary(len(students), count, 0, len(flags), round(mean, 2), 0.0, out, files,
                        grader_errors=grader_errors)
