"""grade batch: same results as grading alone, resumable, students isolated, files that agree."""

from __future__ import annotations

import csv
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import TESTS, without_timings
from grader import engine
from grader.bank import ProblemBank, course_order
from grader.batch.run import BatchOptions, run_batch

sys.path.insert(0, str(TESTS.parent / "benchmarks"))
from make_class import make_class  # noqa: E402

pytestmark = pytest.mark.slow

FAST = "self_attention"  # the exemplar: numpy runtime, quick to grade


def _jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _csv(path: Path) -> list[list[str]]:
    with open(path, newline="", encoding="utf-8-sig") as f:
        return list(csv.reader(f))


@pytest.fixture(name="small_class", scope="module")
def _small_class(tmp_path_factory) -> tuple[Path, Path, dict]:
    """A 6-student class over every problem in the bank (with broken folders), batch-graded once."""
    root = tmp_path_factory.mktemp("class")
    manifest = make_class(root / "subs", 6, seed=3)
    out = root / "out"
    summary = run_batch(BatchOptions(root / "subs", out, jobs=2))
    assert summary.students == 9  # 6 generated + empty, no-files and latin-1 folders
    return root / "subs", out, manifest


def test_batch_gives_the_same_results_as_grading_each_student_alone(small_class) -> None:
    """Every student x problem in results.jsonl equals grading that student's folder on its own."""
    subs, out, manifest = small_class
    batch = {(r["student"], r["problem"]): without_timings(r, drop=("student",)) for r in _jsonl(out / "results.jsonl")}
    bank = ProblemBank()
    expected_keys = {(s, p) for s, got in manifest["students"].items() for p in got}
    assert set(batch) == expected_keys
    for student, got in manifest["students"].items():
        if not got or student == "zz_latin1":
            continue
        folder = subs / student
        if not any((folder / bank.get(p).spec.learner_file).exists() for p in got):
            folder = folder / "submission"  # the LMS-style nested folder
        isolation = {r["isolation"] for (s, _), r in batch.items() if s == student}.pop()
        for alone in engine.grade_all(list(bank), folder, sandbox_mode=isolation):
            assert batch[(student, alone.problem)] == without_timings(alone.to_dict(), drop=("student",)), (student, alone.problem)


def test_csv_and_jsonl_parse_and_agree(small_class) -> None:
    """grades.csv has a max-points row and one row per student whose scores match results.jsonl."""
    _subs, out, manifest = small_class
    rows = _csv(out / "grades.csv")
    header, maxima, students = rows[0], rows[1], rows[2:]
    bank = ProblemBank()
    problems = [p.name for p in course_order(bank.get(n) for n in manifest["problems"])]  # grade list's order
    assert problems[:2] == ["self_attention", "multi_head_attention"]
    assert header == ["student", *problems, "total", "percent", "status", "notes"]
    assert maxima[0] == "max_points"
    assert [float(x) for x in maxima[1 : 1 + len(problems)]] == [bank.get(p).spec.max_score for p in problems]
    assert sorted(r[0] for r in students) == sorted(manifest["students"])
    scores = {(r["student"], r["problem"]): r["score"] for r in _jsonl(out / "results.jsonl")}
    max_total = float(maxima[1 + len(problems)])
    for row in students:
        cells = dict(zip(header, row))
        per_problem = [float(cells[p]) for p in problems]
        for p, value in zip(problems, per_problem):
            assert value == pytest.approx(scores.get((row[0], p), 0.0))
        assert float(cells["total"]) == pytest.approx(sum(per_problem))
        assert float(cells["percent"]) == pytest.approx(100 * sum(per_problem) / max_total, abs=0.01)
        expected = manifest["students"][row[0]]
        assert cells["status"] == ("complete" if len(expected) == len(problems) else "incomplete" if expected else "missing")


def test_data_problems_are_flagged_without_stopping(small_class) -> None:
    """Empty folders, folders without learner files and non-UTF-8 files are noted; the file scores 0."""
    _subs, out, _manifest = small_class
    rows = {r[0]: r for r in _csv(out / "grades.csv")[2:]}
    assert "the folder is empty" in rows["zz_empty"][-1]
    assert "no learner files" in rows["zz_no_files"][-1]
    assert "not UTF-8" in rows["zz_latin1"][-1]
    latin = [r for r in _jsonl(out / "results.jsonl") if r["student"] == "zz_latin1"]
    assert len(latin) == 1 and latin[0]["status"] == "error" and latin[0]["score"] == 0
    html = (out / "report.html").read_text(encoding="utf-8")
    assert "the folder is empty" in html and "not UTF-8" in html


def test_report_has_every_section_and_links_each_student(small_class) -> None:
    """report.html is self-contained and links every student to their per-check detail."""
    _subs, out, manifest = small_class
    html = (out / "report.html").read_text(encoding="utf-8")
    for anchor in ("distribution", "checks", "diagnoses", "slowest", "duplicates", "data", "students", "details"):
        assert f'id="{anchor}"' in html
    assert "http://" not in html.replace('xmlns="http://www.w3.org/2000/svg"', "") and "https://" not in html
    assert html.count("<svg") >= 1 + len(manifest["problems"])
    for i in range(len(manifest["students"])):
        assert f'href="#s{i}"' in html and f'id="s{i}"' in html


def _one_problem_class(root: Path, n: int, source: Path) -> Path:
    subs = root / "subs"
    for i in range(n):
        (subs / f"s{i:02d}").mkdir(parents=True)
        (subs / f"s{i:02d}" / "self_attention.py").write_text(source.read_text() + f"\n# {i}\n", encoding="utf-8")
    return subs


N_KILLED = 40


def test_resume_after_sigkill_loses_and_duplicates_nothing(tmp_path) -> None:
    """Kill the batch mid-run; --resume grades only what is missing, and each result appears once."""
    bank = ProblemBank()
    subs = _one_problem_class(tmp_path, N_KILLED, bank.get(FAST).reference_file)
    out = tmp_path / "out"
    command = [sys.executable, "-m", "grader", "batch", str(subs), "--out", str(out), "--problems", FAST, "--jobs", "2"]
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    journal = out / "journal.jsonl"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        if journal.exists() and journal.read_bytes().count(b"\n") >= 4:
            break
        time.sleep(0.02)
    assert proc.poll() is None, "the batch finished before it could be killed; make the class bigger"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    done_before = {json.loads(line)["student"] for line in journal.read_text().splitlines() if line.endswith("}")}
    assert 4 <= len(done_before) < N_KILLED
    summary = run_batch(BatchOptions(subs, out, problems=[FAST], jobs=2, resume=True))
    assert summary.graded <= N_KILLED - len(done_before) + 1  # at most one torn line is regraded
    lines = _jsonl(journal)
    assert len(lines) == len({line["student"] for line in lines}) == N_KILLED  # nothing graded twice
    results = _jsonl(out / "results.jsonl")
    assert sorted(r["student"] for r in results) == [f"s{i:02d}" for i in range(N_KILLED)]
    assert all(r["score"] == r["max_score"] for r in results)


def test_resume_regrades_only_a_changed_submission(tmp_path) -> None:
    """A submission whose content changed since the journal entry is graded again; the rest are kept."""
    bank = ProblemBank()
    subs = _one_problem_class(tmp_path, 3, bank.get(FAST).reference_file)
    out = tmp_path / "out"
    run_batch(BatchOptions(subs, out, problems=[FAST], jobs=1))
    with pytest.raises(Exception, match="--resume"):
        run_batch(BatchOptions(subs, out, problems=[FAST], jobs=1))
    (subs / "s01" / "self_attention.py").write_text("def softmax(x, axis=-1):\n    return x\n", encoding="utf-8")
    summary = run_batch(BatchOptions(subs, out, problems=[FAST], jobs=1, resume=True))
    assert summary.graded == 1
    scores = {r["student"]: r["score"] for r in _jsonl(out / "results.jsonl")}
    assert scores["s00"] == scores["s02"] == bank.get(FAST).spec.max_score
    assert scores["s01"] < scores["s00"]


HOSTILE = {
    "kills_zygote": "import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\n",
    "kills_worker": (
        "import os, signal\n"
        "ppid = int(open(f'/proc/{os.getppid()}/status').read().split('PPid:')[1].split()[0])\n"
        "os.kill(ppid, signal.SIGKILL)\n"
    ),
    "floods_output": "import sys\nwhile True:\n    sys.stdout.write('x' * 65536)\n",
    "eats_memory": "blocks = []\nwhile True:\n    blocks.append(bytearray(2**26))\n",
    "exits": "import os\nos._exit(0)\n",
    "crashes": "import ctypes\nctypes.string_at(0)\n",
}


def test_a_hostile_student_does_not_change_another_students_row(tmp_path) -> None:
    """Students whose code kills the grader's processes, floods or crashes cost only their own row."""
    bank = ProblemBank()
    subs = _one_problem_class(tmp_path, 4, bank.get(FAST).reference_file)
    for name, source in HOSTILE.items():
        (subs / f"x_{name}").mkdir()
        (subs / f"x_{name}" / "self_attention.py").write_text(source, encoding="utf-8")
    out = tmp_path / "out"
    summary = run_batch(BatchOptions(subs, out, problems=[FAST], jobs=2))
    assert summary.students == 4 + len(HOSTILE)
    results = {r["student"]: r for r in _jsonl(out / "results.jsonl")}
    full = bank.get(FAST).spec.max_score
    for i in range(4):
        assert results[f"s{i:02d}"]["score"] == full
    for name in HOSTILE:
        assert results[f"x_{name}"]["score"] == 0, name
    rows = {r[0]: r for r in _csv(out / "grades.csv")[2:]}
    assert all(float(rows[f"s{i:02d}"][1]) == full for i in range(4))


def test_learner_text_is_escaped_in_the_report(tmp_path) -> None:
    """A folder name or error message holding HTML cannot inject markup into report.html."""
    subs = tmp_path / "subs"
    evil = subs / "<img src=x onerror=alert(1)>"
    evil.mkdir(parents=True)
    (evil / "self_attention.py").write_text("raise ValueError('<script>alert(2)</script>')\n", encoding="utf-8")
    out = tmp_path / "out"
    run_batch(BatchOptions(subs, out, problems=[FAST], jobs=1))
    html = (out / "report.html").read_text(encoding="utf-8")
    assert "<img src=x" not in html and "<script>" not in html
    assert "&lt;img src=x onerror=alert(1)&gt;" in html


def test_cli_batch_writes_the_files_and_a_summary_line(tmp_path, runner) -> None:
    """grade batch prints one summary line on stdout; a bad problem name is a one-line error (exit 2)."""
    from grader.cli import cli

    bank = ProblemBank()
    subs = _one_problem_class(tmp_path, 2, bank.get(FAST).reference_file)
    out = tmp_path / "out"
    result = runner.invoke(cli, ["batch", str(subs), "--out", str(out), "--problems", FAST, "--jobs", "1",
                                 "--per-student", "json"])
    assert result.exit_code == 0, result.output
    assert "2 students, 2 results" in result.stdout
    for name in ("grades.csv", "results.jsonl", "report.html", "students/s00.json"):
        assert (out / name).is_file()
    bad = runner.invoke(cli, ["batch", str(subs), "--out", str(tmp_path / "o2"), "--problems", "self_atention"])
    assert bad.exit_code == 2
    assert 'Unknown problem "self_atention"' in bad.output


def test_batch_writes_one_platform_file_per_student(tmp_path) -> None:
    """--format junit/gradescope/exercism/classroom writes each student's file, rendered from the same results."""
    import xml.etree.ElementTree as ET

    bank = ProblemBank()
    subs = _one_problem_class(tmp_path, 2, bank.get(FAST).reference_file)
    out = tmp_path / "out"
    formats = ("junit", "gradescope", "exercism", "classroom")
    run_batch(BatchOptions(subs, out, jobs=1, per_student=formats))
    rows = {r["student"]: r for r in _jsonl(out / "results.jsonl")}
    for student, row in rows.items():
        suite = ET.parse(out / "junit" / student / "junit.xml").getroot()
        assert len(suite.findall(".//testcase")) == len(row["checks"])
        gradescope = json.loads((out / "gradescope" / student / "results.json").read_text())
        assert gradescope["score"] == row["score"]
        exercism = json.loads((out / "exercism" / student / "results.json").read_text())
        assert exercism["version"] == 3 and exercism["status"] == "pass"
        classroom = json.loads((out / "classroom" / student / "classroom.json").read_text())
        assert sum(t["score"] for t in classroom["tests"]) == row["score"]
