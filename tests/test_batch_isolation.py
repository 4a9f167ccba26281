"""No submission can change another's grade (issue 21).

A class with poisoned submissions (5 MB and 50 MB files, an output flood, a crash, a memory hog,
a file that kills its grading process) beside correct copies: every copy gets full marks and
exactly what ``grade`` gives alone; a failure of the grader itself is a grader error (no score,
listed, exit 3) that ``--resume`` grades again. And a property: for seeded random classes, a
batch's results equal single runs, file by file.
"""

from __future__ import annotations

import csv
import json
import os
import random
import signal
import time
from pathlib import Path

import pytest

from conftest import CORPUS, TESTS, without_timings
from grader import engine, submission
from grader.bank import ProblemBank
from grader.batch.run import BatchOptions, run_batch
from grader.cli import cli
from grader.errors import GraderFault, SubmissionError

pytestmark = pytest.mark.slow

PROBLEM = "self_attention"
BANK = ProblemBank()
CORRECT = BANK.get(PROBLEM).reference_file.read_text(encoding="utf-8")
#: Correct solutions whose softmax misbehaves (tests/hostile: only the softmax check may lose points).
HOSTILE = TESTS / "hostile"
POISON = {
    "flood": (HOSTILE / "output_flood.py").read_text(encoding="utf-8"),
    "crash": (HOSTILE / "segfault_ctypes.py").read_text(encoding="utf-8"),
    "hog": (HOSTILE / "numpy_memory_bomb.py").read_text(encoding="utf-8"),
}
#: Kills the process that forked it (its zygote): only possible without the seccomp layer.
KILL_ZYGOTE = POISON["flood"].split("\ndef softmax")[0] + (
    "\ndef softmax(x, axis=-1):\n    import os, signal\n\n    os.kill(os.getppid(), signal.SIGKILL)\n"
    "    return _softmax(x, axis)\n"
)


def _padded(size: int) -> str:
    line = "# " + "x" * 97 + "\n"
    return CORRECT + line * (size // len(line) + 1)


def _write(folder: Path, text: str, name: str = "self_attention.py") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def _jsonl(out: Path) -> dict[str, dict]:
    lines = (out / "results.jsonl").read_text(encoding="utf-8").splitlines()
    return {r["student"]: r for r in map(json.loads, lines)}


def _rows(out: Path) -> dict[str, list[str]]:
    with open(out / "grades.csv", newline="", encoding="utf-8-sig") as f:
        return {row[0]: row for row in list(csv.reader(f))[2:]}


def _poisoned_class(root: Path, poisons: list[str], *, kill_zygote: bool) -> Path:
    """Poisoned students sort first (graded first, on the same worker as the copies after them)."""
    subs = root / "subs"
    _write(subs / "a_big5", _padded(5 * 2**20))
    _write(subs / "a_big50", _padded(50 * 2**20))
    for name in poisons:
        _write(subs / f"a_{name}", POISON[name])
    if kill_zygote:
        _write(subs / "a_kill_zygote", KILL_ZYGOTE)
    for i in range(3):
        _write(subs / f"z_copy{i}", CORRECT)
    return subs


@pytest.mark.parametrize("sandbox", ["limits", "none"])
def test_a_poisoned_class_gives_the_copies_full_marks(tmp_path, runner, sandbox) -> None:
    """One worker grades every student in turn; what the poisoned ones do reaches nobody else."""
    kill_zygote = sandbox == "none"  # with seccomp (limits, full) the learner cannot signal its zygote
    # without rlimits (none) a memory hog would really take the memory
    poisons = [name for name in POISON if sandbox == "limits" or name != "hog"]
    subs = _poisoned_class(tmp_path, poisons, kill_zygote=kill_zygote)
    out = tmp_path / "out"
    result = runner.invoke(cli, ["batch", str(subs), "--problems", PROBLEM, "--out", str(out), "--jobs", "1",
                                 "--sandbox", sandbox])
    results, rows = _jsonl(out), _rows(out)
    full = BANK.get(PROBLEM).spec.max_score

    for i in range(3):  # the copies: full marks, exactly what grading alone gives
        alone = engine.grade(BANK.get(PROBLEM), subs / f"z_copy{i}" / "self_attention.py", sandbox_mode=sandbox)
        assert results[f"z_copy{i}"]["score"] == full
        assert without_timings(results[f"z_copy{i}"], drop=("student",)) == without_timings(alone.to_dict())
        assert rows[f"z_copy{i}"][1:5] == ["10", "10", "100", "complete"]

    for name in ("a_big5", "a_big50"):  # refused with a per-student message naming the limit
        assert results[name]["status"] == "error" and "grader_error" not in results[name]
        assert "the grader reads learner files up to 1 MiB" in results[name]["error"]
        assert rows[name][1] == "0" and "up to 1 MiB" in rows[name][-1]
    for name in poisons:  # only their softmax check is lost
        checks = {c["id"]: c for c in results[f"a_{name}"]["checks"]}
        assert checks["softmax"]["status"] == "error", name
        assert [c for c, v in checks.items() if v["score"] < v["max_score"]] == ["softmax"], name

    if kill_zygote:  # the grader's own process died: a grader error, not a score, on every output
        failed = results["a_kill_zygote"]
        assert failed["grader_error"] is True and failed["score"] is None and failed["status"] == "error"
        assert rows["a_kill_zygote"][1:5] == ["", "", "", "error"] and "--resume" in rows["a_kill_zygote"][-1]
        assert result.exit_code == 3, result.output
        assert "1 grader error" in result.output and "a_kill_zygote/self_attention" in result.output
        html = (out / "report.html").read_text(encoding="utf-8")
        assert "Grader errors: not grades" in html and "a_kill_zygote" in html
        with pytest.raises(GraderFault):  # grading it alone gives no verdict either
            engine.grade(BANK.get(PROBLEM), subs / "a_kill_zygote" / "self_attention.py", sandbox_mode="none")
    else:
        assert result.exit_code == 0, result.output
        assert "grader error" not in result.output


def test_resume_grades_grader_errors_again_and_keeps_the_rest(tmp_path, runner) -> None:
    """A grader error is never kept by --resume; once the cause is gone it becomes a grade."""
    subs = tmp_path / "subs"
    _write(subs / "a_kill", KILL_ZYGOTE)
    _write(subs / "b_copy", CORRECT)
    out = tmp_path / "out"
    args = ["batch", str(subs), "--problems", PROBLEM, "--out", str(out), "--jobs", "1", "--sandbox", "none"]
    assert runner.invoke(cli, args).exit_code == 3
    journal = (out / "journal.jsonl").read_text(encoding="utf-8").splitlines()
    assert [json.loads(line).get("grader_error", False) for line in journal] == [True, False]

    again = runner.invoke(cli, [*args, "--resume"])  # still failing: graded again, still an error
    assert again.exit_code == 3 and "(1 graded now)" in again.output
    _write(subs / "a_kill", CORRECT)  # the cause is gone
    fixed = runner.invoke(cli, [*args, "--resume"])
    assert fixed.exit_code == 0 and "(1 graded now)" in fixed.output, fixed.output
    assert _jsonl(out)["a_kill"]["score"] == 10 and _rows(out)["a_kill"][4] == "complete"


def test_a_dead_zygote_is_replaced_before_the_next_job(tmp_path) -> None:
    """The batch worker checks its zygote between jobs and starts a fresh one if it died."""
    from grader.batch.worker import Worker

    worker = Worker({"sandbox": "limits", "runtimes": ["numpy"]})
    try:
        path = _write(tmp_path / "s", CORRECT)
        first = worker.grade({"id": 1, "problem": PROBLEM, "path": str(path), "seed": None})
        os.kill(worker.zygotes["numpy"].pid, signal.SIGKILL)
        second = worker.grade({"id": 2, "problem": PROBLEM, "path": str(path), "seed": None})
    finally:
        worker.close()
    assert first["result"]["score"] == second["result"]["score"] == 10


def test_large_files_are_refused_by_grade_with_the_limit(tmp_path) -> None:
    path = _write(tmp_path, _padded(5 * 2**20))
    with pytest.raises(SubmissionError, match=r"is 5.0 MiB; the grader reads learner files up to 1 MiB"):
        engine.grade(BANK.get(PROBLEM), path)


def test_a_file_over_the_old_4_mib_frame_cap_crosses_to_the_runner() -> None:
    """The protocol sends the source as a blob: size is limited by the grader's rule, not by JSON caps."""
    from conftest import call_entry
    from grader.worker.session import Zygote

    source = "def answer():\n    return 42\n" + ("# padding\n" * 600_000)
    assert len(source) > 4 * 2**20
    limits = {"timeout_s": 20, "memory_mb": 1024, "output_kb": 64, "cpu_s": 60}
    with Zygote("numpy", "limits") as zygote:
        runner = zygote.spawn(source, "big.py", None, limits)
        try:
            assert runner.wait_ready(time.monotonic() + 20).header["ok"]
            assert call_entry(runner, "answer") == 42
        finally:
            runner.kill()
        assert zygote.alive


# --------------------------------------------------------------------------- the property


def _pool(root: Path) -> dict[str, tuple[str, dict[str, str]]]:
    """Kinds of submission -> (the learner file's text, helper files beside it)."""
    pool: dict[str, tuple[str, dict[str, str]]] = {}
    for path in sorted((CORPUS / PROBLEM).glob("*.py")):
        if path.stem not in ("fault_infinite_loop", "fault_sleep", "fault_memory_hog"):  # slow or, unsandboxed, big
            pool[path.stem] = (path.read_text(encoding="utf-8"), {})
    for name, source in POISON.items():
        pool[f"poison_{name}"] = (source, {})
    pool["bom"] = ("\ufeff" + CORRECT, {})
    pool["too_large"] = (_padded(submission.MAX_FILE_BYTES), {})
    pool["helper_module"] = (
        CORRECT + "\nfrom attention_helpers import stable_softmax as softmax\n",
        {"attention_helpers.py": "import numpy as np\n\n\ndef stable_softmax(x, axis=-1):\n"
                                 "    e = np.exp(x - np.max(x, axis=axis, keepdims=True))\n"
                                 "    return e / e.sum(axis=axis, keepdims=True)\n"},
    )
    return pool


@pytest.mark.parametrize("seed", [21, 2021])
def test_a_batch_equals_single_runs_file_by_file(tmp_path, seed) -> None:
    """Seeded random classes drawn from the corpus and the poisons: batch result == `grade` alone."""
    rng = random.Random(seed)
    pool = _pool(tmp_path)
    kinds = sorted(pool)
    subs = tmp_path / "subs"
    chosen = {}
    for i in range(14):
        kind = rng.choice(kinds)
        student = f"{rng.randrange(10**6):06d}_{kind}"
        text, helpers = pool[kind]
        path = _write(subs / student, "")
        path.write_bytes(text.encode("utf-8"))
        for name, helper in helpers.items():
            _write(subs / student, helper, name)
        chosen[student] = path
    out = tmp_path / "out"
    summary = run_batch(BatchOptions(subs, out, problems=[PROBLEM], jobs=2))
    assert summary.grader_errors == []
    results = _jsonl(out)
    isolation = {r["isolation"] for r in results.values()}.pop()
    for student, path in chosen.items():
        try:
            alone = without_timings(engine.grade(BANK.get(PROBLEM), path, sandbox_mode=isolation).to_dict())
        except SubmissionError as refused:  # too large: refused alone, an error result in the batch
            assert results[student]["status"] == "error" and results[student]["error"].endswith(str(refused)[-60:])
            continue
        assert without_timings(results[student], drop=("student",)) == alone, student
