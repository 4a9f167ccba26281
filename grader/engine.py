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
from pathlib import Path
from types import ModuleType
from typing import Any, Callable

from grader import __version__, static, torch_startup
from grader.bank import Problem
from grader.checks import CheckContext, CheckRegistry, LearnerRaised, MissingEntryPoint
from grader.compare import CheckFailed
from grader.errors import ProblemBankError, SubmissionError
from grader.results import CheckResult, Diagnosis, ProblemResult, Status
from grader.spec import CheckSpec, ProblemSpec
from grader.worker import protocol, sandbox
from grader.worker.session import OutputFlood, RunnerDied, RunnerProcess, RunnerTimeout, Zygote

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
            raise SubmissionError(f"{SEED_ENV}={env!r} is not an integer; set it to a whole number") from None
    return spec.seed


def read_submission(path: Path) -> str:
    """The learner's file as text, or a SubmissionError that says what to do."""
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SubmissionError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise SubmissionError(f"{path}: is a folder, not a file") from None
    except UnicodeDecodeError as err:
        raise SubmissionError(f"{path}: not UTF-8 text (byte {err.start}); save it as UTF-8") from None
    except OSError as err:
        raise SubmissionError(f"{path}: cannot read ({err.strerror})") from None


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
    module = load_module(problem.checks_file, f"grader_bank.{problem.name}.checks")
    registry = getattr(module, "checks", None)
    if not isinstance(registry, CheckRegistry):
        raise ProblemBankError(f"{problem.checks_file}: must define `checks = CheckRegistry()`")
    return registry


def load_reference(problem: Problem) -> ModuleType:
    return load_module(problem.reference_file, f"grader_bank.{problem.name}.reference")


class _LearnerSession:
    """The runner for one submission, respawned after a timeout or crash."""

    def __init__(self, zygote: Zygote, source: str, filename: str, probes: str | None, limits: dict[str, Any]):
        self.zygote, self.source, self.filename = zygote, source, filename
        self.probes, self.limits = probes, limits
        self.runner: RunnerProcess | None = None
        self.load_failure: tuple[Status, str] | None = None
        self.timeout_s = float(limits["timeout_s"])

    def ensure_runner(self) -> RunnerProcess | None:
        """A live runner with the learner's module imported, or None (see ``load_failure``)."""
        if self.load_failure is not None:
            return None
        if self.runner is not None and self.runner.alive:
            return self.runner
        runner = self.zygote.spawn(self.source, self.filename, self.probes, self.limits)
        try:
            reply = runner.wait_ready(time.monotonic() + self.timeout_s)
        except RunnerTimeout:
            self.load_failure = (
                Status.TIMEOUT,
                f"importing {self.filename} did not finish within {self.timeout_s:g} s "
                "(is there a loop or a blocking call at module level?)",
            )
            return None
        except (RunnerDied, OutputFlood) as err:
            self.load_failure = (Status.ERROR, f"while importing {self.filename}, the process {err}")
            return None
        if not reply.header.get("ok"):
            error = LearnerRaised(f"importing {self.filename}", reply.header.get("error", {}))
            runner.kill()
            self.load_failure = (Status.ERROR, error.sentence())
            return None
        self.runner = runner
        return runner

    def transport(self, deadline: float) -> Callable[[dict[str, Any], str], Any]:
        def send(request: dict[str, Any], entry: str) -> Any:
            runner = self.ensure_runner()
            if runner is None:
                raise _LoadFailed()
            encoder = protocol.Encoder()
            header = {
                k: encoder.encode(v) if k in ("args", "kwargs", "target", "calls") else v for k, v in request.items()
            }
            reply = runner.call(header, encoder.blobs, deadline)
            if reply.header.get("ok"):
                return protocol.decode(reply.header.get("value"), reply.blobs)
            if "missing" in reply.header:
                raise MissingEntryPoint(str(reply.header["missing"])[:100])
            raise LearnerRaised(entry, reply.header.get("error", {}))

        return send

    def output(self) -> str:
        return self.runner.take_output() if self.runner is not None else ""

    def close(self) -> None:
        if self.runner is not None:
            self.runner.kill()


class _LoadFailed(Exception):
    """The learner's module could not be imported; the session says why."""


def grade(
    problem: Problem,
    submission: Path,
    *,
    seed: int | None = None,
    sandbox_mode: str = "auto",
    zygote: Zygote | None = None,
    timeout_s: float | None = None,
    while_learner_runs: Callable[[], None] | None = None,
) -> ProblemResult:
    """Grade ``submission`` (a learner file) against ``problem``; never raises for learner faults.

    Pass a running ``zygote`` to grade many submissions with one warm worker (batch grading);
    otherwise one is started and stopped here. ``timeout_s`` overrides the spec's per-check limit.
    ``while_learner_runs`` is called once the worker exists, when this process will fork no
    more: a caller may start a thread there (the CLI imports its renderer while checks run).
    """
    started = time.monotonic()
    spec = problem.spec
    problem.require_files()
    seed = resolve_seed(seed, spec)
    source = read_submission(submission)
    result = ProblemResult(spec.id, [], seed, __version__, submission=str(submission))
    isolation = sandbox.resolve(sandbox_mode) if zygote is None else zygote.isolation
    result.isolation = isolation

    if spec.runtime == "data":  # the learner file is answers; its reference is data, not code
        _run_data_checks(spec, load_registry(problem), None, source, seed, result)
    elif static.is_untouched_stub(source, problem.stub_file.read_text(encoding="utf-8")):
        for check in spec.checks:
            result.checks.append(
                _result(check, Status.NOT_ATTEMPTED, f"{spec.learner_file} is still the stub: write your solution")
            )
    elif (problem_text := static.syntax_error(source, spec.learner_file)) is not None:
        result.error = problem_text
        for check in spec.checks:
            result.checks.append(_result(check, Status.ERROR, problem_text))
    else:
        own_zygote = zygote is None
        zygote = zygote or Zygote(spec.runtime, isolation)  # forked before any reference data exists
        if while_learner_runs is not None:
            while_learner_runs()
        try:
            registry, reference = load_registry(problem), load_reference(problem)
            limits = _limits(spec, timeout_s)
            _run_code_checks(problem, registry, reference, source, seed, zygote, limits, result)
        finally:
            if own_zygote:
                zygote.close()
    result.duration_ms = int((time.monotonic() - started) * 1000)
    return result


def _limits(spec: ProblemSpec, timeout_s: float | None) -> dict[str, Any]:
    timeout = spec.limits.timeout_s if timeout_s is None else timeout_s
    if timeout <= 0:
        raise SubmissionError(f"timeout must be positive, got {timeout:g} s")
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
    source: str,
    seed: int,
    zygote: Zygote,
    limits: dict[str, Any],
    result: ProblemResult,
) -> None:
    spec = problem.spec
    probes_file = problem.folder / "probes.py"
    probes = probes_file.read_text(encoding="utf-8") if probes_file.exists() else None
    session = _LearnerSession(zygote, source, spec.learner_file, probes, limits)
    try:
        for check in spec.checks:
            if check.kind == "from_scratch":
                result.checks.append(_result(check, Status.SKIPPED, ""))  # judged below
                continue
            fn = registry.tests.get(check.id)
            if fn is None:
                raise ProblemBankError(f"{problem.checks_file}: no @checks.test({check.id!r}) function")
            result.checks.append(_run_one(check, fn, spec, registry, reference, seed, session))
        if session.load_failure is not None and session.load_failure[0] is Status.ERROR:
            result.error = session.load_failure[1]
    finally:
        session.close()
    attempted = any(c.status is not Status.NOT_ATTEMPTED for c in result.checks if c.status is not Status.SKIPPED)
    for i, check in enumerate(spec.checks):
        if check.kind == "from_scratch":
            result.checks[i] = _from_scratch(check, spec, source, attempted, session.load_failure)


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
        check_id=check.id, seed=seed, reference=reference, registry=registry, transport=session.transport(deadline)
    )
    try:
        fn(ctx)
        outcome = _result(check, Status.PASS, "")
    except CheckFailed as failed:
        outcome = _failed(check, spec, failed)
    except _LoadFailed:
        status, message = session.load_failure or (Status.ERROR, "the learner's file could not be loaded")
        outcome = _result(check, status, message)
    except LearnerRaised as raised:
        if raised.is_a("NotImplementedError"):
            outcome = _result(check, Status.NOT_ATTEMPTED, f"{raised.entry} is not implemented yet")
        else:
            outcome = _result(check, Status.ERROR, raised.sentence())
    except MissingEntryPoint as missing:
        outcome = _result(
            check, Status.ERROR, f"{spec.learner_file} does not define `{missing}`: is it misspelled or missing?"
        )
    except RunnerTimeout:
        outcome = _result(check, Status.TIMEOUT, f"did not finish within {session.timeout_s:g} s")
    except (RunnerDied, OutputFlood) as err:
        outcome = _result(check, Status.ERROR, f"the learner's process {err}")
    except protocol.ProtocolError as err:
        session.close()
        outcome = _result(check, Status.ERROR, f"returned data the grader cannot read ({err})")
    except (ProblemBankError, SubmissionError):
        raise
    except Exception as err:  # noqa: BLE001 - check code choked on an answer; never a traceback
        outcome = _result(
            check, Status.ERROR,
            f"the grader could not judge this answer ({type(err).__name__}: {str(err)[:200]}); "
            "if your output has the documented types and shapes, please report this",
        )
    outcome.output = session.output()
    outcome.duration_ms = int((time.monotonic() - started) * 1000)
    return outcome


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
            transport=no_code, submission_text=source,
        )
        try:
            fn(ctx)
            outcome = _result(check, Status.PASS, "")
        except CheckFailed as failed:
            outcome = _failed(check, spec, failed)
        except NotAttempted as skipped:
            outcome = _result(check, Status.NOT_ATTEMPTED, str(skipped))
        except SubmissionError as malformed:  # the data file cannot be read (e.g. invalid YAML, line named)
            outcome = _result(check, Status.ERROR, str(malformed))
            result.error = str(malformed)
        outcome.duration_ms = int((time.monotonic() - started) * 1000)
        result.checks.append(outcome)


class NotAttempted(Exception):
    """Raised by data-problem checks for an answer left empty."""


def _from_scratch(
    check: CheckSpec, spec: ProblemSpec, source: str, attempted: bool, load_failure: tuple[Status, str] | None
) -> CheckResult:
    if not attempted:
        return _result(check, Status.NOT_ATTEMPTED, "nothing implemented yet")
    if load_failure is not None:
        return _result(check, load_failure[0], load_failure[1])
    uses = static.forbidden_uses(source, spec.forbidden)
    if not uses:
        return _result(check, Status.PASS, "")
    listed = ", ".join(f"{u.name} (line {u.line})" for u in uses[:3])
    return _result(check, Status.FAIL, f"uses {listed}: this problem asks you to write it from scratch")


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
    if diagnosis is not None:
        outcome.hint = diagnosis.hint
    return outcome


def _result(check: CheckSpec, status: Status, message: str, *, score: float | None = None) -> CheckResult:
    if score is None:
        score = check.points if status is Status.PASS else 0.0
    return CheckResult(
        id=check.id,
        title=check.title,
        status=status,
        score=score,
        max_score=check.points,
        visibility=check.visibility,
        message=message,
        hint=None if status in (Status.PASS, Status.NOT_ATTEMPTED) else check.hint,
    )


def grade_all(
    problems: list[Problem],
    folder: Path,
    *,
    seed: int | None = None,
    sandbox_mode: str = "auto",
    timeout_s: float | None = None,
) -> list[ProblemResult]:
    """Grade every problem whose learner file is in ``folder``, sharing one warm worker."""
    present = [p for p in problems if (folder / p.spec.learner_file).is_file()]
    if not present:
        return []
    runtimes = {p.spec.runtime for p in present}
    runtime = "torch" if "torch" in runtimes else "numpy" if "numpy" in runtimes else "data"
    isolation = sandbox.resolve(sandbox_mode)
    with Zygote(runtime, isolation) as zygote:
        return [
            grade(p, folder / p.spec.learner_file, seed=seed, zygote=zygote, timeout_s=timeout_s) for p in present
        ]
