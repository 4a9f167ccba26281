"""`grade NAME --watch` driven as a learner drives it: a real process, the file saved in the ways
editors save it (in place, by renaming a temporary file over it, deleted then re-created), a
syntax error mid-edit, the lines that say what changed, one warm zygote and a fresh runner per
grading, Chinese, and Ctrl-C (exit 130, one line, no traceback)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import CORPUS
from grader import history
from grader.results import CheckResult, ProblemResult, Status
from grader.watch import CHECK_S, compare

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
from measure import Lines  # noqa: E402  (a process's output line by line, as bench_watch.py reads it)

REFERENCE = (ROOT / "reference" / "self_attention.py").read_text(encoding="utf-8")
MISSING_SCALE = (CORPUS / "self_attention" / "missing_scale.py").read_text(encoding="utf-8")
NAN_ROWS = (CORPUS / "self_attention" / "nan_on_fully_masked.py").read_text(encoding="utf-8")
GRADE = [sys.executable, "-c", "from grader.cli import main; main()"]
WATCHING = "Watching self_attention.py"
#: How long one grading may take on a loaded machine before the test gives up (not a timing assertion).
LIMIT_S = 180.0


class Watch:
    """A `grade ... --watch` process; what it prints handed out up to a matching line."""

    def __init__(self, folder: Path, *args: str, env: dict[str, str] | None = None):
        clean = {k: v for k, v in os.environ.items()
                 if k not in ("COLUMNS", "GRADER_LANG", "CI", "GITHUB_ACTIONS", history.ENV)}
        self.proc = subprocess.Popen(
            [*GRADE, "self_attention", "--watch", "--sandbox", "none", *args], cwd=folder,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8",
            env={**clean, "LANG": "C.UTF-8", "COLUMNS": "200", **(env or {})},
        )
        self.lines = Lines(self.proc, "grade self_attention --watch")

    def until(self, pattern: str) -> str:
        """Everything printed from here up to the first line matching ``pattern``, that line included."""
        return self.lines.until(pattern, LIMIT_S)[0]

    def interrupt(self) -> tuple[int, str]:
        self.proc.send_signal(signal.SIGINT)
        try:
            _, err = self.proc.communicate(timeout=60)
        finally:
            self.proc.kill()
        return self.proc.returncode, err


@pytest.fixture(name="watching")
def _watching():
    started: list[Watch] = []

    def start(folder: Path, *args: str, env: dict[str, str] | None = None) -> Watch:
        started.append(Watch(folder, *args, env=env))
        return started[-1]

    yield start
    for watch in started:
        if watch.proc.poll() is None:
            watch.proc.kill()
            watch.proc.wait()


def _replace(path: Path, source: str) -> None:
    """Save as many editors do: write a temporary file beside it, rename it over the old one."""
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(source, encoding="utf-8")
    os.replace(tmp, path)


def _one_line(block: str) -> str:
    return " ".join(block.split())


@pytest.mark.slow
def test_watch_regrades_on_every_save_and_says_what_changed(tmp_path, watching) -> None:
    path = tmp_path / "self_attention.py"
    path.write_text(MISSING_SCALE, encoding="utf-8")
    watch = watching(tmp_path)
    first = watch.until(WATCHING)
    assert "Score: 4/10 (7 fail)" in first and "Since the last grading" not in first

    _replace(path, REFERENCE)  # an atomic save: a new file renamed over the old one
    fixed = watch.until(WATCHING)
    assert "self_attention.py saved: grading it again" in fixed and "All checks pass: 10/10" in fixed
    assert "Since the last grading: 4 → 10/10" in fixed
    passes = re.findall(r"^  \+ now passes: (.+)$", fixed, re.M)
    assert len(passes) == 7 and "fully-masked rows give zeros, not NaN" in passes
    assert "now fails" not in fixed

    path.write_text("def softmax(x:\n", encoding="utf-8")  # saved mid-edit, in place
    broken = watch.until(WATCHING)
    assert "Could not grade: SyntaxError in self_attention.py, line 1" in broken
    assert "Fix line 1 of self_attention.py, then save it again." in broken
    assert "Not compared: the file could not be graded" in broken

    path.unlink()  # deleted, then re-created
    assert "self_attention.py is gone (deleted or renamed); waiting for it to be saved again" in watch.until("is gone")
    path.write_text(NAN_ROWS, encoding="utf-8")
    again = watch.until(WATCHING)  # compared with the last grading that loaded (10/10), not the syntax error
    assert "Score: 9/10 (1 fail)" in again and "Since the last grading: 10 → 9/10" in again
    assert re.findall(r"^  - now fails: (.+)$", again, re.M) == [
        "fully-masked rows give zeros, not NaN (mistake: a fully-masked row gives NaN)"]
    assert "now passes" not in again

    path.write_text(NAN_ROWS + "\n# a comment\n", encoding="utf-8")
    same = watch.until(WATCHING)
    assert "Since the last grading: no check changed (9/10)" in same

    path.write_text("", encoding="utf-8")  # emptied, as a save in place does before it writes
    time.sleep(2 * CHECK_S)  # long enough for the watch to see it (not a timing assertion)
    path.write_text(REFERENCE, encoding="utf-8")
    refilled = watch.until(WATCHING)  # the empty file was waited out, not graded
    assert refilled.count("saved: grading it again") == 1 and "Since the last grading: 9 → 10/10" in refilled

    code, err = watch.interrupt()
    assert code == 130 and err.strip() == "grade: interrupted (Ctrl-C)" and "Traceback" not in err
    scores = [e.score for e in history.History.load(tmp_path).entries]
    assert scores == [4.0, 10.0, 9.0, 9.0, 10.0]  # every grading but the syntax error


@pytest.mark.slow
def test_one_warm_zygote_forks_a_fresh_runner_per_grading_and_helpers_count_as_saves(tmp_path, watching) -> None:
    """The runner's parent (the zygote) stays; the runner is new each time; saving a helper module
    the file imports grades it again; a zygote that died is replaced."""
    (tmp_path / "helpers.py").write_text("SCALE = 1\n", encoding="utf-8")
    footer = "\nimport os, helpers\nprint(f'PIDS {os.getppid()} {os.getpid()}')\n"  # shown with -v
    path = tmp_path / "self_attention.py"
    path.write_text(REFERENCE + footer, encoding="utf-8")
    watch = watching(tmp_path, "-v")
    blocks = [watch.until(WATCHING)]
    _replace(path, REFERENCE + footer + "\n# saved again\n")
    blocks.append(watch.until(WATCHING))
    (tmp_path / "helpers.py").write_text("SCALE = 2\n", encoding="utf-8")
    blocks.append(watch.until(WATCHING))
    assert all("All checks pass: 10/10" in block for block in blocks)
    runs = [tuple(map(int, re.search(r"PIDS (\d+) (\d+)", block).groups())) for block in blocks]
    zygotes, runners = {parent for parent, _ in runs}, [pid for _, pid in runs]
    assert len(zygotes) == 1 and watch.proc.pid not in zygotes, runs
    assert len(set(runners)) == 3, runs

    os.kill(runs[0][0], signal.SIGKILL)  # the zygote dies between gradings: the next grading starts another
    _replace(path, REFERENCE + footer)
    revived = watch.until(WATCHING)
    assert "All checks pass: 10/10" in revived
    assert int(re.search(r"PIDS (\d+) ", revived).group(1)) not in zygotes | {watch.proc.pid}
    assert watch.interrupt()[0] == 130


@pytest.mark.slow
def test_watch_speaks_chinese(tmp_path, watching) -> None:
    path = tmp_path / "self_attention.py"
    path.write_text(REFERENCE, encoding="utf-8")
    watch = watching(tmp_path, "--lang", "zh")
    assert "正在监视 self_attention.py：保存后会重新评分" in watch.until("正在监视")
    _replace(path, NAN_ROWS)
    changed = _one_line(watch.until("正在监视"))
    assert "self_attention.py 已保存：重新评分" in changed and "与上次评分相比：10 → 9/10" in changed
    assert "- 现在未通过：整行被屏蔽时得到全 0，而不是 NaN（错因：整行被屏蔽时得到 NaN）" in changed
    code, err = watch.interrupt()
    assert code == 130 and err.strip() == "grade：已中断（Ctrl-C）"


def test_watch_prints_tables_only_and_says_when_watchfiles_is_missing(tmp_path) -> None:
    (tmp_path / "self_attention.py").write_text(REFERENCE, encoding="utf-8")
    json_run = subprocess.run([*GRADE, "self_attention", "--watch", "--format", "json"], cwd=tmp_path,
                              capture_output=True, text=True, timeout=LIMIT_S)
    assert json_run.returncode == 2
    assert json_run.stderr.strip() == "Error: --watch prints the table: leave out --format json"
    no_watchfiles = subprocess.run(
        [sys.executable, "-c", "import sys; sys.modules['watchfiles'] = None; from grader.cli import main; main()",
         "self_attention", "--watch", "--sandbox", "none"],
        cwd=tmp_path, capture_output=True, text=True, timeout=LIMIT_S,
    )
    assert no_watchfiles.returncode == 2 and no_watchfiles.stdout == ""  # said before any grading
    assert no_watchfiles.stderr.strip() == "Error: --watch needs the watchfiles package: pip install watchfiles"


def _result(*statuses: Status) -> ProblemResult:
    checks = [CheckResult(f"c{i}", f"check {i}", s, 1.0 if s is Status.PASS else 0.0, 1.0)
              for i, s in enumerate(statuses)]
    return ProblemResult("p", checks, 0, "0")


def test_compare_names_checks_that_newly_pass_or_fail() -> None:
    P, F, E, T, N = Status.PASS, Status.FAIL, Status.ERROR, Status.TIMEOUT, Status.NOT_ATTEMPTED
    before = _result(P, F, N, N, P, F, P, E)
    after = _result(F, P, F, N, P, E, N, T)
    changes = compare(before, after)
    assert [c.id for c in changes.now_pass] == ["c1"]
    assert [c.id for c in changes.now_fail] == ["c0", "c2", "c6"]  # fail->error and error->timeout are no news
    assert (changes.before, changes.after) == ((3.0, 8.0), (2.0, 8.0)) and not changes.none
    assert compare(after, after).none
