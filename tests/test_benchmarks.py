"""Benchmarks cannot lie: a measured command that fails stops the benchmark before any ratio.

``benchmarks/measure.py`` is the one helper every benchmark times its commands with; these tests
drive it directly, then run two benchmarks with a baseline that cannot work (cheap: the failure
comes first) and require exit status 1, the reason, and no ratio.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
from measure import PREFIX, Lines, Stopped, require, run  # noqa: E402

PY = sys.executable


def test_a_command_that_works_is_timed_and_its_output_kept() -> None:
    done = run([PY, "-c", "print('42 passed in 0.1s')"], what="the probe", expect=r"\d+ passed")
    assert done.returncode == 0 and done.stdout.strip() == "42 passed in 0.1s"
    assert done.wall_s > 0 and done.cpu_s > 0


@pytest.mark.parametrize(
    ("code", "kwargs", "reason"),
    [
        ("import no_such_module_for_a_benchmark", {}, "exited with 1, expected 0: "),
        ("import sys; sys.exit(3)", {"ok": (0, 1)}, "exited with 3, expected 0 or 1"),
        ("print('no tests ran')", {"expect": r"\d+ passed"}, r"printed no line matching /\d+ passed/: no tests ran"),
        ("print('x')", {"expect": lambda done: "said x"}, "said x"),
        ("import time; time.sleep(30)", {"timeout": 0.5}, "did not finish within 0.5 s"),
    ],
)
def test_a_command_that_fails_or_says_the_wrong_thing_stops_the_benchmark(code, kwargs, reason) -> None:
    with pytest.raises(Stopped) as stopped:
        run([PY, "-c", code], what="the baseline", **kwargs)
    message = str(stopped.value)
    assert message.startswith(f"{PREFIX} the baseline (")
    assert reason in message
    assert "no_such_module" not in code or "ModuleNotFoundError: No module named" in message
    assert isinstance(stopped.value, SystemExit)  # the benchmark ends with status 1, no traceback


def test_require_stops_in_process_work() -> None:
    require(True, "never said")
    with pytest.raises(Stopped, match="graded 3 of 4"):
        require(False, "grade batch graded 3 of 4 submissions")


def test_lines_of_a_running_process_stop_the_benchmark_when_it_ends_or_hangs() -> None:
    printing = subprocess.Popen([PY, "-c", "print('a'); print('b: ready'); print('c')"], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
    lines = Lines(printing, "the probe")
    assert lines.until("ready", 60)[0] == "a\nb: ready\n"
    with pytest.raises(Stopped, match=r"the probe exited with 0 before a line /never/: c"):
        lines.until("never", 60)
    hanging = subprocess.Popen([PY, "-c", "import time; time.sleep(60)"], stdout=subprocess.PIPE, text=True)
    with pytest.raises(Stopped, match=r"the watch printed no line /x/ within 0.2 s"):
        Lines(hanging, "the watch").until("x", 0.2)
    assert hanging.wait(timeout=10) != 0  # killed, not left behind


def _benchmark(args: list[str], env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([PY, *args], cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env={**os.environ, **(env or {})})


def test_bench_grade_with_a_baseline_that_fails_prints_no_ratio() -> None:
    done = _benchmark(["benchmarks/bench_grade.py", "--repeat", "1", "--baseline", "import no_such_module_here"])
    assert done.returncode == 1
    assert PREFIX in done.stderr and "No module named 'no_such_module_here'" in done.stderr
    assert "ratio" not in done.stdout


def test_bench_batch_without_pytest_prints_no_ratio(tmp_path: Path) -> None:
    """The bug this fixes: the baseline's processes died at once and were timed ("ratio 0.1x")."""
    (tmp_path / "pytest.py").write_text('raise ModuleNotFoundError("No module named pytest")\n', encoding="utf-8")
    done = _benchmark(
        ["benchmarks/bench_batch.py", "--students", "1", "--baseline-sample", "1", "--memory", "",
         "--problems", "self_attention"],
        env={"PYTHONPATH": str(tmp_path)},
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert PREFIX in done.stderr and "hidden tests (no pytest summary)" in done.stderr
    assert "No module named pytest" in done.stderr
    assert "ratio" not in done.stdout


def test_bench_watch_with_a_cold_grade_that_fails_prints_no_ratio() -> None:
    """The baseline is a cold grade at full marks: a wrong submission stops it before any watch starts."""
    wrong = ROOT / "tests" / "corpus" / "self_attention" / "missing_scale.py"
    done = _benchmark(["benchmarks/bench_watch.py", "--repeat", "1", "--problem", "self_attention",
                       "--file", str(wrong), "--sandbox", "none"])
    assert done.returncode == 1, done.stdout + done.stderr
    assert PREFIX in done.stderr and "a cold grade self_attention (full marks expected)" in done.stderr
    assert "exited with 1, expected 0" in done.stderr
    assert "ratio" not in done.stdout
