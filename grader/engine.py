"""Grade one submission of one problem: run each check, turn what happened into a ProblemResult.

The engine knows nothing about any particular problem. It reads the spec, loads the problem's
``checks.py`` and reference in this (trusted) process, starts a zygote *before* either exists in
memory, and lets each check call the learner's code through a runner process. A check that times
out or crashes costs that check; the next check gets a fresh runner.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, Callable

from grader import __version__, figures, static, submission as learner_files, torch_startup
from grader.bank import Problem
from grader.checks import CheckContext, CheckRegistry, LearnerRaised, MissingEntryPoint
from grader.compare import CheckFailed
from grader.errors import GraderFault, ProblemBankError, SubmissionError
from grader.i18n import Text, as_text, join
from grader.messages import text
from grader.results import CheckResult, Diagnosis, Figure, ProblemResult, Status
from grader.spec import CheckSpec, ProblemSpec
from grader.worker import protocol, sandbox
from grader.worker.session import OutputFlood, RunnerDied, RunnerProcess, RunnerTimeout, WorkerLost, Zygote

#: Environment variable that sets the seed of hidden inputs (instructors keep it secret).
SEED_ENV = "GRADER_SEED"

def resolve_seed(seed: int | None, spec: ProblemSpec) -> int:
    """``--seed`` first, then ``GRADER_SEED``, then the problem's default."""
    if seed is not None:
        return seed
    env = os.environ.get(SEED_ENV, "").strip()
    if env:
        try:
            return int(env)
        except ValueError:
            raise SubmissionError(text("error.seed_env", name=SEED_ENV, value=env)) from None
    return spec.seed


_MODULE_CACHE: dict[tuple[str, float], ModuleType] = {}


def load_module(path: Path, name: str) -> ModuleType:
    """Import a trusted bank file (checks or reference) by path, once per content version."""
    key = (str(path), path.stat().st_mtime)
    if key not in _MODULE_CACHE:
        spec = importlib.util.spec_from_file_location(name, path)
        if spec is None or spec.loader is None:
            raise ProblemBankError(f"{path}: cannot be imported")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module  # dataclasses and pickling look modules up by name
        try:
            spec.loader.exec_module(module)
        except BaseException:
            sys.modules.pop(name, None)
            raise
        _MODULE_CACHE[key] = module
    return _MODULE_CACHE[key]


def load_registry(problem: Problem) -> CheckRegistry:
    if problem.spec.runtime == "torch":
        import torch  # noqa: F401  (checks import it anyway; the stand-in below needs it loaded)

        torch_startup.defer_dynamo_import()
        torch_startup.check_plain_bools_without_sympy()
    module = load_module(problem.checks_file, f"grader_bank.{problem.name}.checks")
    registry = getattr(module, "checks", None)
    if not isinstance(registry, CheckRegistry):
        raise ProblemBankError(f"{problem.checks_file}: must define `checks = CheckRegistry()`")
    return registry


def load_reference(problem: Problem) -> ModuleType:
    return load_module(problem.reference_file, f"grader_bank.{problem.name}.reference")


def load_probes(problem: Problem) -> ModuleType | None:
    """The problem's probes.py as a trusted module (figures run it on the reference), or None."""
    path = problem.folder / "probes.py"
    return load_module(path, f"grader_bank.{problem.name}.probes") if path.is_file() else None


@dataclass(frozen=True)
class _LoadFailure:
    """Why the learner's module could not be imported: status for the checks, message, line to fix."""

    status: Status
    message: Text
    line: int | None = None


class _LearnerSession:
    """The runner for one submission, respawned after a timeout or crash."""

    def __init__(self, zygote: Zygote, files: learner_files.LearnerFiles, probes: str | None, limits: dict[str, Any]):
        self.zygote, self.source, self.filename, self.helpers = zygote, files.source, files.name, files.helpers
        self.files, self.label = files, files.label
        self.where_line: int | None = None  # the graded source's line of the last exception described
        self.probes, self.limits = probes, limits
        self.runner: RunnerProcess | None = None
        self.load_failure: _LoadFailure | None = None
        self.called: set[str] = set()  # what the current check called: entry points, methods, probes
        self.timeout_s = float(limits["timeout_s"])

    def ensure_runner(self) -> RunnerProcess | None:
        """A live runner with the learner's module imported, or None (see ``load_failure``)."""
        if self.load_failure is not None:
            return None
        if self.runner is not None and self.runner.alive:
            return self.runner
        runner = self.zygote.spawn(self.source, self.filename, self.probes, self.limits, self.helpers)
        try:
            reply = runner.wait_ready(time.monotonic() + self.timeout_s)
        except RunnerTimeout:
            self.load_failure = _LoadFailure(
                Status.TIMEOUT, text("engine.import_timeout", file=self.label, seconds=self.timeout_s)
            )
            return None
        except (RunnerDied, OutputFlood) as err:
            self.load_failure = _LoadFailure(
                Status.ERROR, text("engine.import_died", file=self.label, reason=err.text)
            )
            return None
        if not reply.header.get("ok"):
            error = LearnerRaised(
                text("engine.importing", file=self.label), self.located(reply.header.get("error", {}))
            )
            runner.kill()
            line = self.where_line
            self.load_failure = _LoadFailure(Status.ERROR, error.sentence(), self.files.line_of_file(line))
            return None
        self.runner = runner
        return runner

    def transport(self, deadline: float) -> Callable[[dict[str, Any], str], Any]:
        def send(request: dict[str, Any], entry: str) -> Any:
            runner = self.ensure_runner()
            if runner is None:
                raise _LoadFailed()
            batch = request.get("calls") if request.get("op") == "calls" else None
            self.called.update([str(c[0]) for c in batch] if batch else [entry])
            encoder = protocol.Encoder()
            header = {
                k: encoder.encode(v) if k in ("args", "kwargs", "target", "calls") else v for k, v in request.items()
            }
            reply = runner.call(header, encoder.blobs, deadline)
            if reply.header.get("ok"):
                return protocol.decode(reply.header.get("value"), reply.blobs)
            if "missing" in reply.header:
                raise MissingEntryPoint(str(reply.header["missing"])[:100])
            raise LearnerRaised(entry, self.located(reply.header.get("error", {})))

        return send

    def located(self, error: dict[str, Any]) -> dict[str, Any]:
        """The runner's description of an exception, its place named as the learner knows it
        (a notebook's cell and line; ``where_line`` keeps the line of the graded source)."""
        where = error.get("where") if isinstance(error, dict) else None
        line = where.get("line") if isinstance(where, dict) else None
        ours = type(line) is int and where.get("file") == self.filename  # not a helper module's line
        self.where_line = line if ours else None
        if not ours:
            return error
        place, line = self.files.locate(line)
        return {**error, "where": {**where, "file": place, "line": line}}

    def output(self) -> str:
        return self.runner.take_output() if self.runner is not None else ""

    def close(self) -> None:
        if self.runner is not None:
            self.runner.kill()


class _LoadFailed(Exception):
    """The learner's module could not be imported; the session says why."""


def grade(
    problem: Problem,
    submission: Path | learner_files.LearnerFiles,
    *,
    seed: int | None = None,
    sandbox_mode: str = "auto",
    zygote: Zygote | None = None,
    timeout_s: float | None = None,
    while_learner_runs: Callable[[], None] | None = None,
    on_check: Callable[[ProblemSpec, int, float], None] | None = None,
    all_figures: bool = False,
) -> ProblemResult:
    """Grade ``submission`` (a learner file, or learner files already read: a notebook cell)
    against ``problem``; never raises for learner faults.

    Pass a running ``zygote`` to grade many submissions with one warm worker (batch grading);
    otherwise one is started and stopped here. ``timeout_s`` overrides the spec's per-check limit.
    ``while_learner_runs`` is called once the worker exists, when this process will fork no
    more: a caller may start a thread there (the CLI imports its renderer while checks run).
    ``on_check(spec, index, limit_s)`` is called as each check starts (a progress line).
    A check that fails gets its figure (``figure:`` in the spec); ``all_figures`` draws them for
    every check that names one (``grade validate`` compares the reference's two sides).

    Raises SubmissionError for a file that cannot be read (missing, too large, not UTF-8) and
    GraderFault when the zygote fails during the grading (the grading is then void: no result).
    """
    started = time.monotonic()
    spec = problem.spec
    problem.require_files()
    seed = resolve_seed(seed, spec)
    if isinstance(submission, learner_files.LearnerFiles):
        files, submission = submission, submission.path
    else:
        files = learner_files.read(submission, problem=spec.id)
    source = files.source
    result = ProblemResult(spec.id, [], seed, __version__, submission=str(submission), notes=list(files.notes))
    isolation = sandbox.resolve(sandbox_mode) if zygote is None else zygote.isolation
    result.isolation = isolation

    if spec.runtime == "data":  # the learner file is answers; its reference is data, not code
        _run_data_checks(spec, load_registry(problem), None, source, seed, result)
    elif static.is_untouched_stub(source, problem.stub_file.read_text(encoding="utf-8")):
        for check in spec.checks:
            result.checks.append(
                _result(check, Status.NOT_ATTEMPTED, text("engine.stub_untouched", file=files.label))
            )
    elif (broken := static.syntax_error(source, files.name, files)) is not None:
        result.checks.extend(_not_run(check, Status.ERROR) for check in spec.checks)
        result.error, result.error_line = broken.message, broken.line
    elif spec.entry_points and len(missing := static.missing_entry_points(source, spec.entry_points)) == len(
        spec.entry_points
    ):  # an empty file, or imports only: nothing to run, nothing to judge
        message = text("engine.defines_none", file=files.label, names=join(missing, text("sep.items")))
        result.checks.extend(_result(check, Status.NOT_ATTEMPTED, message) for check in spec.checks)
    else:
        own_zygote = zygote is None
        zygote = zygote or Zygote(spec.runtime, isolation)  # forked before any reference data exists
        if while_learner_runs is not None:
            while_learner_runs()
        try:
            registry, reference = load_registry(problem), load_reference(problem)
            limits = _limits(spec, timeout_s)
            _run_code_checks(
                problem, registry, reference, files, seed, zygote, limits, result, on_check, all_figures
            )
            if zygote.lost is not None:  # e.g. a runner that died with its zygote: nothing here is a verdict
                raise WorkerLost(zygote.lost)
        except WorkerLost as lost:
            raise GraderFault(files.label, lost.text) from None
        finally:
            if own_zygote:
                zygote.close()
    result.duration_ms = int((time.monotonic() - started) * 1000)
    return result


def _limits(spec: ProblemSpec, timeout_s: float | None) -> dict[str, Any]:
    timeout = spec.limits.timeout_s if timeout_s is None else timeout_s
    if timeout <= 0:
        raise SubmissionError(text("error.timeout_positive", seconds=timeout))
    n_checks = len(spec.checks) + 1
    return {
        "timeout_s": timeout,
        "memory_mb": spec.limits.memory_mb,
        "output_kb": spec.limits.output_kb,
        "cpu_s": int(timeout * n_checks) + 5,
    }


def _run_code_checks(
    problem: Problem,
    registry: CheckRegistry,
    reference: ModuleType,
    files: learner_files.LearnerFiles,
    seed: int,
    zygote: Zygote,
    limits: dict[str, Any],
    result: ProblemResult,
    on_check: Callable[[ProblemSpec, int, float], None] | None = None,
    all_figures: bool = False,
) -> None:
    spec = problem.spec
    probes_file = problem.folder / "probes.py"
    probes = probes_file.read_text(encoding="utf-8") if probes_file.exists() else None
    session = _LearnerSession(zygote, files, probes, limits)
    drawn: dict[str, Figure | None] = {}
    try:
        for index, check in enumerate(spec.checks):
            if on_check is not None:
                on_check(spec, index, session.timeout_s)
            if check.kind == "from_scratch":
                result.checks.append(_result(check, Status.SKIPPED, ""))  # judged below
                continue
            fn = registry.tests.get(check.id)
            if fn is None:
                raise ProblemBankError(f"{problem.checks_file}: no @checks.test({check.id!r}) function")
            if session.load_failure is not None:  # the file does not import: said once, below
                result.checks.append(_not_run(check, session.load_failure.status))
                continue
            outcome = _run_one(check, fn, spec, registry, reference, seed, session)
            if check.figure is not None and (outcome.status is Status.FAIL or all_figures):
                outcome.figure = _figure(problem, check.figure, registry, reference, session, drawn)
            result.checks.append(outcome)
        if session.load_failure is not None:
            result.error, result.error_line = session.load_failure.message, session.load_failure.line
    finally:
        session.close()
    attempted = any(c.status is not Status.NOT_ATTEMPTED for c in result.checks if c.status is not Status.SKIPPED)
    for i, check in enumerate(spec.checks):
        if check.kind == "from_scratch":
            result.checks[i] = _from_scratch(check, spec, files, attempted, session.load_failure)


def _run_one(
    check: CheckSpec,
    fn: Callable[[CheckContext], None],
    spec: ProblemSpec,
    registry: CheckRegistry,
    reference: ModuleType,
    seed: int,
    session: _LearnerSession,
) -> CheckResult:
    started = time.monotonic()
    deadline = started + session.timeout_s
    ctx = CheckContext(
        check_id=check.id, seed=seed, reference=reference, registry=registry, transport=session.transport(deadline),
        messages=spec.messages,
    )
    session.called.clear()
    try:
        fn(ctx)
        outcome = _result(check, Status.PASS, "")
    except CheckFailed as failed:
        outcome = _failed(check, spec, failed)
    except _LoadFailed:
        outcome = _not_run(check, session.load_failure.status if session.load_failure else Status.ERROR)
    except LearnerRaised as raised:
        if raised.is_a("NotImplementedError"):
            outcome = _result(check, Status.NOT_ATTEMPTED, text("engine.not_implemented", entry=raised.entry))
        else:
            outcome = _result(check, Status.ERROR, raised.sentence(detail=check.visibility != "hidden"))
            if outcome.message != raised.sentence():  # a hidden check's exception text could carry its inputs
                outcome.reveal = raised.sentence()
    except MissingEntryPoint as missing:
        outcome = _result(check, Status.ERROR, text("engine.missing_entry", file=session.label, name=str(missing)))
    except WorkerLost:
        raise  # the grader's machinery failed: the whole grading is void (see grade)
    except RunnerTimeout:
        outcome = _result(check, Status.TIMEOUT, text("engine.timeout", seconds=session.timeout_s))
    except (RunnerDied, OutputFlood) as err:
        outcome = _result(check, Status.ERROR, text("engine.process_died", reason=err.text))
    except protocol.ProtocolError as err:
        session.close()
        outcome = _result(check, Status.ERROR, text("engine.unreadable_reply", detail=str(err)))
    except (ProblemBankError, SubmissionError):
        raise
    except Exception as err:  # noqa: BLE001 - check code choked on an answer; never a traceback
        detail = f"{type(err).__name__}: {str(err)[:200]}"
        outcome = _result(check, Status.ERROR, text("engine.could_not_judge", detail=detail))
    outcome.output = session.output()
    outcome.secrets = tuple(ctx.secrets)
    outcome.duration_ms = int((time.monotonic() - started) * 1000)
    outcome.task = _task(spec, session.called)
    return outcome


def _figure(
    problem: Problem,
    figure_id: str,
    registry: CheckRegistry,
    reference: ModuleType,
    session: _LearnerSession,
    drawn: dict[str, Figure | None],
) -> Figure | None:
    """Figure ``figure_id`` on its public example (once per grading), or None when the learner's side
    cannot be drawn (it raised, timed out, returned no matrix): a picture never changes a verdict."""
    if figure_id not in drawn:
        drawn[figure_id] = None
        ctx = CheckContext(
            check_id=f"figure:{figure_id}", seed=0, reference=reference, registry=registry,
            transport=session.transport(time.monotonic() + session.timeout_s), messages=problem.spec.messages,
        )
        try:
            drawn[figure_id] = figures.draw(
                problem.spec.figure(figure_id), registry, reference, load_probes(problem), ctx
            )
        except WorkerLost:
            raise
        except protocol.ProtocolError:  # the runner's reply was unreadable: start the next check afresh
            session.close()
        except Exception:  # noqa: BLE001 - the learner's side could not be drawn: no picture
            pass
        session.output()  # what the learner printed meanwhile belongs to no check
    return drawn[figure_id]


def _task(spec: ProblemSpec, called: set[str]) -> int | None:
    """The entry point a check exercised, numbered from 1 in the spec's order: the check's *task*.

    None unless that is exactly one entry point; in a problem with a single entry point (a module
    driven through probes) every check that reached the learner's code is its task's.
    """
    if len(spec.entry_points) == 1:
        return 1 if called else None
    exercised = [i for i, name in enumerate(spec.entry_points, start=1) if name in called]
    return exercised[0] if len(exercised) == 1 else None


def _run_data_checks(
    spec: ProblemSpec, registry: CheckRegistry, reference: None, source: str, seed: int, result: ProblemResult
) -> None:
    """Problems whose learner file is data (answers): checks read it; no learner code runs."""

    def no_code(request: dict[str, Any], entry: str) -> Any:
        raise ProblemBankError(f"problem {spec.id!r} has runtime 'data' and cannot call learner code")

    for check in spec.checks:
        fn = registry.tests.get(check.id)
        if fn is None:
            raise ProblemBankError(f"problem {spec.id!r}: no @checks.test({check.id!r}) function")
        started = time.monotonic()
        ctx = CheckContext(
            check_id=check.id, seed=seed, reference=reference, registry=registry,
            transport=no_code, submission_text=source, messages=spec.messages,
        )
        try:
            fn(ctx)
            outcome = _result(check, Status.PASS, "")
        except CheckFailed as failed:
            outcome = _failed(check, spec, failed)
        except NotAttempted as skipped:
            outcome = _result(check, Status.NOT_ATTEMPTED, skipped.text)
        except AnswerError as bad:
            outcome = _result(check, Status.ERROR, bad.text)
        except SubmissionError as malformed:  # the data file cannot be read (e.g. invalid YAML, line named)
            outcome = _not_run(check, Status.ERROR)
            result.error, result.error_line = as_text(malformed.text), malformed.line
        outcome.review = ctx.reviewed
        outcome.secrets = tuple(ctx.secrets)
        outcome.duration_ms = int((time.monotonic() - started) * 1000)
        result.checks.append(outcome)


class AnswerError(Exception):
    """Raised by a data-problem check whose answer cannot be graded as written (e.g. two different
    answers to one question): that check is an error with this message; the others are graded."""

    def __init__(self, message: Text | str):
        self.text = as_text(message)
        super().__init__(self.text.en)


class NotAttempted(Exception):
    """Raised by data-problem checks for an answer left empty (default message: no answer yet)."""

    def __init__(self, message: Text | str | None = None):
        self.text = text("engine.no_answer") if message is None else as_text(message)
        super().__init__(self.text.en)


def _from_scratch(
    check: CheckSpec, spec: ProblemSpec, files: learner_files.LearnerFiles, attempted: bool,
    load_failure: _LoadFailure | None,
) -> CheckResult:
    """The forbidden-call scan, which judges the learner's functions: only once they all exist."""
    if not attempted:
        return _result(check, Status.NOT_ATTEMPTED, text("engine.nothing_implemented"))
    if load_failure is not None:
        return _not_run(check, load_failure.status)
    if missing := static.missing_entry_points(files.source, spec.entry_points):
        names = join(missing, text("sep.items"))
        return _result(check, Status.NOT_ATTEMPTED, text("engine.scan_waits", file=files.label, names=names))
    uses = static.forbidden_uses(files.source, spec.forbidden)
    if not uses:
        return _result(check, Status.PASS, "")
    listed = join([_use(files, u) for u in uses[:3]], text("sep.items"))
    return _result(check, Status.FAIL, text("engine.not_from_scratch", uses=listed))


def _use(files: learner_files.LearnerFiles, use: static.Violation) -> Text:
    """``np.einsum (line 12)``; in a notebook ``np.einsum (cell 4, line 2)``."""
    place, line = files.locate(use.line)
    if place == files.label:
        return text("engine.forbidden_use", name=use.name, line=line)
    return text("engine.forbidden_use_at", name=use.name, place=place, line=line)


def _failed(check: CheckSpec, spec: ProblemSpec, failed: CheckFailed) -> CheckResult:
    diagnosis = None
    if failed.diagnosis is not None:
        mistake = spec.mistake(failed.diagnosis)
        if mistake is None:
            raise ProblemBankError(
                f"problem {spec.id!r}: check {check.id!r} diagnosed {failed.diagnosis!r}, "
                "which is not in the spec's mistakes"
            )
        diagnosis = Diagnosis(mistake.id, mistake.title, mistake.hint)
    fraction = min(max(failed.fraction, 0.0), 1.0)
    outcome = _result(check, Status.FAIL, failed.message, score=round(check.points * fraction, 6))
    outcome.diagnosis = diagnosis
    outcome.reveal = failed.reveal
    if diagnosis is not None:
        outcome.hint = diagnosis.hint
    return outcome


def _result(check: CheckSpec, status: Status, message: Text | str, *, score: float | None = None) -> CheckResult:
    if score is None:
        score = check.points if status is Status.PASS else 0.0
    return CheckResult(
        id=check.id,
        title=check.title,
        status=status,
        score=score,
        max_score=check.points,
        visibility=check.visibility,
        message=as_text(message),
        hint=None if status in (Status.PASS, Status.NOT_ATTEMPTED) else check.hint,
    )


def _not_run(check: CheckSpec, status: Status) -> CheckResult:
    """A check that could not run because the file did not load: the result's ``error`` says why, once."""
    outcome = _result(check, status, "")
    outcome.hint = None
    return outcome


def grade_all(
    problems: list[Problem],
    folder: Path,
    *,
    seed: int | None = None,
    sandbox_mode: str = "auto",
    timeout_s: float | None = None,
    while_learner_runs: Callable[[], None] | None = None,
    on_check: Callable[[ProblemSpec, int, float], None] | None = None,
) -> list[ProblemResult]:
    """Grade every problem whose learner file (``NAME.py``, else ``NAME.ipynb``) is in ``folder``,
    sharing one warm worker.

    ``while_learner_runs`` and ``on_check`` are as for :func:`grade` (the first is called once).
    """
    found = {p.name: learner_files.find(folder, p.spec.learner_file) for p in problems}
    present = [p for p in problems if found[p.name] is not None]
    if not present:
        return []
    runtimes = {p.spec.runtime for p in present}
    runtime = "torch" if "torch" in runtimes else "numpy" if "numpy" in runtimes else "data"
    isolation = sandbox.resolve(sandbox_mode)
    with Zygote(runtime, isolation) as zygote:
        if while_learner_runs is not None:
            while_learner_runs()
        return [
            grade(p, found[p.name], seed=seed, zygote=zygote, timeout_s=timeout_s, on_check=on_check)
            for p in present
        ]
