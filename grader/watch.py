"""``grade NAME --watch``: grade a file, then again each time it is saved, with the worker kept warm.

:class:`WarmGrader` grades one problem again and again through one zygote, started before any
reference data exists in this process and kept between gradings: torch stays imported, the
problem's probes stay compiled, the reference's memoised results stay in memory, and each grading
still runs the learner's code in a runner freshly forked from that zygote. A zygote that failed is
replaced before the next grading, as a batch worker does.

:func:`saves` waits for the file to be saved (with ``watchfiles``, the library uvicorn reloads
with). It watches the file's folder, not the file, so every way editors save is seen: in place, by
writing a temporary file and renaming it over the old one, or deleting and re-creating it; a
change to a helper module the file imports (``helpers.py`` beside it) counts as a save too.

:func:`compare` says which checks newly pass or fail since the last grading of a file that loaded
(a syntax error mid-edit is shown, then compared with nothing: the next good grading is compared
with the last good one).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from grader import engine, submission as learner_files
from grader.bank import Problem
from grader.errors import GraderError, GraderFault
from grader.messages import text
from grader.results import CheckResult, ProblemResult, Status
from grader.worker import sandbox
from grader.worker.session import Zygote

#: Milliseconds watchfiles waits for more changes after one (an editor's save is several), and the
#: most it groups: a save is graded about STEP_MS after it lands.
STEP_MS = 50
DEBOUNCE_MS = 1600
#: Seconds between checks of the file's signature while no change arrives.
CHECK_S = 1.0
#: What `saves` yields.
SAVED, GONE = "saved", "gone"


class WatchUnavailable(GraderError):
    """watchfiles is not installed (it is a dependency: a broken install, or a trimmed one)."""

    def __init__(self) -> None:
        super().__init__(text("watch.no_watchfiles"))


class WarmGrader:
    """Grades ``problem`` as often as asked with one warm zygote (none for a data problem)."""

    def __init__(self, problem: Problem, *, sandbox_mode: str = "auto", seed: int | None = None,
                 timeout_s: float | None = None):
        self.problem, self.seed, self.timeout_s = problem, seed, timeout_s
        self.isolation = sandbox.resolve(sandbox_mode)
        self.zygote: Zygote | None = None
        self.zygotes_started = 0

    def _warm(self) -> Zygote | None:
        if self.problem.spec.runtime == "data":
            return None
        if self.zygote is not None and not self.zygote.alive:
            self._drop()
        if self.zygote is None:
            self.zygote = Zygote(self.problem.spec.runtime, self.isolation)
            self.zygotes_started += 1
        return self.zygote

    def grade(self, path: Path, **options: Any) -> ProblemResult:
        """``engine.grade`` on the warm zygote (``options``: ``on_check``, ``while_learner_runs``).

        Raises what ``engine.grade`` raises; after a GraderFault the next grading gets a new zygote.
        """
        zygote = self._warm()
        try:
            return engine.grade(self.problem, path, seed=self.seed, timeout_s=self.timeout_s, zygote=zygote,
                                sandbox_mode=self.isolation, **options)
        except GraderFault:
            self._drop()
            raise

    def _drop(self) -> None:
        zygote, self.zygote = self.zygote, None
        if zygote is not None:
            try:
                zygote.close()
            except Exception:  # noqa: BLE001 - it failed already; a new one replaces it
                pass

    def close(self) -> None:
        self._drop()

    def __enter__(self) -> WarmGrader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def require_watchfiles() -> Any:
    """The watchfiles module; :class:`WatchUnavailable` without it."""
    try:
        import watchfiles
    except ImportError:
        raise WatchUnavailable() from None
    return watchfiles


def helper_paths(path: Path) -> set[Path]:
    """The helper modules ``path`` imports now (absolute), whose saves count as saves of ``path``."""
    try:
        helpers = learner_files.read(path).helpers
    except GraderError:
        return set()
    return {(path.parent / rel).resolve() for rel in helpers}


def signature(path: Path) -> tuple[int, int, int] | None:
    """What changes when ``path`` is saved, however it is saved (None when it is missing)."""
    try:
        stat = path.stat()
    except OSError:
        return None
    return stat.st_mtime_ns, stat.st_size, stat.st_ino


def saves(path: Path, graded: tuple[int, int, int] | None, stop_event: Any = None) -> Iterator[str]:
    """Yield :data:`SAVED` each time ``path`` (or a helper module it imports) is written, and
    :data:`GONE` when a change leaves it missing; until ``stop_event`` is set or Ctrl-C.

    ``graded`` is the :func:`signature` of the file as last graded. Changes are seen as they land;
    once every :data:`CHECK_S` the file's signature is also compared with the one last graded, which
    catches a save made before the watch had started (and any an event missed). An empty file is
    waited out: it is what an editor that saves in place leaves between truncating and writing.
    Raises :class:`WatchUnavailable` without watchfiles.
    """
    watchfiles = require_watchfiles()
    target = path.resolve()
    folder = target.parent
    helpers = helper_paths(target)
    # the folders of helper packages, watched too (the file's folder itself is watched flat: it may be $HOME)
    watched = {folder} | {p.parent for p in helpers if p.parent != folder and p.parent.is_dir()}
    gone = False

    def relevant(change: Any, changed: str) -> bool:
        where = Path(changed)
        return where == target or where in helpers

    for changes in watchfiles.watch(
        *sorted(watched), watch_filter=relevant, debounce=DEBOUNCE_MS, step=STEP_MS, recursive=False,
        stop_event=stop_event, raise_interrupt=True, rust_timeout=int(CHECK_S * 1000), yield_on_timeout=True,
    ):
        now = signature(target)
        helper_saved = any(Path(changed) != target for _change, changed in changes)
        if now == graded and not helper_saved:  # a quiet second, or more events of a save already graded
            continue
        if now is None and not changes:
            continue
        if now is None or not target.is_file():
            if not gone:
                gone = True
                yield GONE
            continue
        if now[1] == 0:  # emptied: an editor that saves in place truncates first, then writes
            continue
        gone, graded = False, now
        helpers = helper_paths(target)
        yield SAVED


@dataclass(frozen=True)
class Changes:
    """What changed between two gradings of one file that loaded."""

    before: tuple[float, float]  # score, max
    after: tuple[float, float]
    now_pass: tuple[CheckResult, ...]
    now_fail: tuple[CheckResult, ...]

    @property
    def none(self) -> bool:
        return not self.now_pass and not self.now_fail


#: A check "fails" in these states once it was passed or not yet attempted.
_FAILED = (Status.FAIL, Status.ERROR, Status.TIMEOUT)


def compare(before: ProblemResult, after: ProblemResult) -> Changes:
    """Checks that newly pass, and checks that newly fail (were passed, or not attempted, and now fail,
    error or time out, or were passed and are now not attempted)."""
    was = {c.id: c.status for c in before.checks}
    now_pass, now_fail = [], []
    for check in after.checks:
        old = was.get(check.id)
        if old is None or old is check.status:
            continue
        if check.status is Status.PASS:
            now_pass.append(check)
        elif old is Status.PASS or (old is Status.NOT_ATTEMPTED and check.status in _FAILED):
            now_fail.append(check)
    return Changes((before.score, before.max_score), (after.score, after.max_score), tuple(now_pass), tuple(now_fail))


def loaded(result: ProblemResult) -> bool:
    """Whether the file was graded (it loaded): only such gradings are compared."""
    return result.error is None and not result.grader_error

