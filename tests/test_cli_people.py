"""The CLI as people use it (issue 21): a real terminal's width, a line that says which check is
running, Ctrl-C, `grade all`'s overview, rounded scores, the hint that -v shows prints, and
`grade batch` pointed at the wrong folder or stopped with Ctrl-C."""

from __future__ import annotations

import json
import os
import pty
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import CORPUS
from grader.bank import ProblemBank
from grader.cli import cli
from grader.render.feedback import points
from grader.render.terminal import UNATTACHED, width
from grader.results import CheckResult, ProblemResult, Status

BANK = ProblemBank()
CORRECT = BANK.get("self_attention").reference_file.read_text(encoding="utf-8")
#: A correct file whose softmax never returns: only the softmax check waits for its deadline.
SLOW = (Path(__file__).parent / "hostile" / "sleep_forever.py").read_text(encoding="utf-8")
GRADE = [sys.executable, "-c", "from grader.cli import main; main()"]


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "GRADER_LANG")}
    return {**env, "LANG": "C.UTF-8", **extra}


def _until(predicate, limit_s: float = 120.0) -> None:
    """Wait for ``predicate`` (a condition of the program under test, not a timing assertion)."""
    end = time.monotonic() + limit_s
    while not predicate():
        assert time.monotonic() < end, "the program never got there"
        time.sleep(0.05)


# ------------------------------------------------------------------------------- width


def _set_size(fd: int, columns: int) -> None:
    import fcntl
    import struct
    import termios

    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 50, columns, 0, 0))


def test_width_asks_the_terminal_and_columns_wins() -> None:
    assert width({"COLUMNS": "72"}) == 72
    assert width({"COLUMNS": "5"}) == 40  # narrower than a table can be drawn
    code = "from grader.render.terminal import width; print(width())"
    primary, secondary = pty.openpty()
    _set_size(secondary, 67)
    done = subprocess.run([sys.executable, "-c", code], stdin=secondary, stdout=subprocess.PIPE,
                          stderr=secondary, env=_env(), check=True)
    os.close(secondary)
    os.close(primary)
    assert done.stdout.decode().strip() == "67"  # stdout is a pipe; the terminal is asked through stderr/stdin
    piped = subprocess.run([sys.executable, "-c", code], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, env=_env(), check=True)
    assert piped.stdout.decode().strip() == str(UNATTACHED)


@pytest.mark.parametrize("columns", [60, 80])
def test_tables_fit_narrow_terminals(runner, tmp_path, monkeypatch, columns: int) -> None:
    """`grade NAME`, `grade list` and `grade show` fit 60 and 80 columns, names and titles uncut."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "self_attention.py").write_text(
        (CORPUS / "self_attention" / "missing_scale.py").read_text(encoding="utf-8"), encoding="utf-8"
    )
    from rich.cells import cell_len

    env = {"COLUMNS": str(columns)}
    for args in (["self_attention"], ["list"], ["show", "multi_head_attention"], ["list", "--lang", "zh"],
                 ["self_attention", "--lang", "zh"]):
        out = runner.invoke(cli, args, env=env).output
        assert max(cell_len(line.rstrip()) for line in out.splitlines()) <= columns, (args, out)
        if args[0] != "show":  # (the prompt itself writes head_1, …, head_h)
            assert "…" not in out, (args, out)
    listing = " ".join(runner.invoke(cli, ["list"], env=env).output.split())
    assert "multi_head_attention" in listing and "positional_encoding" in listing and "grade init NAME" in listing


# ------------------------------------------------------------------------------- while grading


def _read_pty(primary: int, proc: subprocess.Popen) -> str:
    chunks = []
    while True:
        ready, _, _ = select.select([primary], [], [], 0.2)
        if ready:
            try:
                data = os.read(primary, 65536)
            except OSError:
                break
            if not data:
                break
            chunks.append(data)
        elif proc.poll() is not None:
            break
    return b"".join(chunks).decode("utf-8", "replace")


def test_a_terminal_is_told_which_check_is_running(tmp_path) -> None:
    """On a terminal, a slow check shows a status line (then it is erased); piped output has none."""
    path = tmp_path / "self_attention.py"
    path.write_text(SLOW, encoding="utf-8")
    args = [*GRADE, "self_attention", "--file", str(path), "--timeout", "3"]
    primary, secondary = pty.openpty()
    _set_size(secondary, 80)
    proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=secondary, env=_env())
    os.close(secondary)
    shown = _read_pty(primary, proc)
    stdout = proc.stdout.read().decode()
    proc.wait()
    os.close(primary)
    assert "self_attention: check 1/13 (" in shown and "s of 3 s): softmax" in shown
    assert shown.rstrip().endswith("\x1b[2K")  # erased before the results
    assert "TIMEOUT" in stdout and "check 1/" not in stdout
    piped = subprocess.run(args, capture_output=True, env=_env(), check=False)
    assert b"check 1/" not in piped.stderr + piped.stdout


def test_ctrl_c_exits_130_with_one_line(tmp_path) -> None:
    marker = tmp_path / "started"
    path = tmp_path / "self_attention.py"
    path.write_text(f"open({str(marker)!r}, 'w').close()\n" + SLOW, encoding="utf-8")
    proc = subprocess.Popen([*GRADE, "self_attention", "--file", str(path), "--sandbox", "none"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_env())
    _until(marker.exists)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert err.decode().strip() == "grade: interrupted (Ctrl-C)" and out == b""


# ------------------------------------------------------------------------------- reading results


def test_grade_all_starts_with_one_row_per_problem(runner, tmp_path) -> None:
    (tmp_path / "self_attention.py").write_text(CORRECT, encoding="utf-8")
    (tmp_path / "masks.py").write_text(BANK.get("masks").stub_file.read_text(encoding="utf-8"), encoding="utf-8")
    out = runner.invoke(cli, ["all", "--dir", str(tmp_path)], env={"COLUMNS": "100"}).output
    overview = out[: out.index("┃ Status")]
    assert "Problems: 10/19.5" in overview
    assert "self_attention" in overview and "all checks pass" in overview and "not attempted" in overview
    assert out.rstrip().endswith("Total: 10/19.5")
    assert overview.index("self_attention") < overview.index("masks")  # grade list's order, not the alphabet


def test_scores_are_rounded_for_people_and_exact_for_machines() -> None:
    assert [points(v) for v in (10.333333, 64.998, 0.5, 7.25, 10.0)] == ["10.33", "64.99", "0.5", "7.25", "10"]
    third = 1 / 3
    checks = [CheckResult(f"c{i}", "t", Status.PASS, third, third) for i in range(31)]
    result = ProblemResult("qa", checks, 0, "x")
    from grader.render import render

    assert "10.33/10.33" in render([result], "table") and "10.3333" not in render([result], "table")
    assert json.loads(render([result], "json"))["score"] == pytest.approx(31 / 3, abs=1e-5)


def test_hidden_prints_are_announced_with_the_way_to_see_them(runner, tmp_path) -> None:
    path = tmp_path / "self_attention.py"
    path.write_text(CORRECT.replace("def softmax(", "print('debug')\n\n\ndef softmax(", 1), encoding="utf-8")
    assert "print('debug')" in path.read_text(encoding="utf-8")  # printed when the file is imported
    quiet = runner.invoke(cli, ["self_attention", "--file", str(path)], env={"COLUMNS": "200"}).output
    assert "Your code printed something during" in quiet and "grade again with -v to see it" in quiet
    loud = runner.invoke(cli, ["self_attention", "--file", str(path), "-v"], env={"COLUMNS": "200"}).output
    assert "debug" in loud and "grade again with -v" not in loud


# ------------------------------------------------------------------------------- grade batch


def test_batch_pointed_at_one_learners_folder_says_what_layout_it_expects(runner, tmp_path) -> None:
    (tmp_path / "self_attention.py").write_text(CORRECT, encoding="utf-8")
    (tmp_path / "notes").mkdir()
    result = runner.invoke(cli, ["batch", str(tmp_path), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2 and result.output.count("\n") == 1
    assert "looks like one learner's folder" in result.output and "/<student>/" in result.output
    assert f"grade all --dir {tmp_path}" in result.output
    empty = tmp_path / "empty"
    empty.mkdir()
    result = runner.invoke(cli, ["batch", str(empty), "--out", str(tmp_path / "out2")])
    assert result.exit_code == 2 and "holds no student folders" in result.output


def test_grades_csv_opens_in_excel_with_chinese_names(tmp_path) -> None:
    from grader.batch.run import BatchOptions, run_batch

    (tmp_path / "subs" / "张伟").mkdir(parents=True)
    (tmp_path / "subs" / "张伟" / "self_attention.py").write_text(CORRECT, encoding="utf-8")
    run_batch(BatchOptions(tmp_path / "subs", tmp_path / "out", problems=["self_attention"], jobs=1))
    data = (tmp_path / "out" / "grades.csv").read_bytes()
    assert data.startswith(b"\xef\xbb\xbfstudent,") and "张伟,10".encode() in data


@pytest.mark.slow
def test_ctrl_c_stops_a_batch_at_once_and_resume_finishes_it(tmp_path) -> None:
    """The batch says it is stopping, ends its workers without waiting, exits 130; --resume completes."""
    subs = tmp_path / "subs"
    for i in range(6):
        (subs / f"s{i}").mkdir(parents=True)
        (subs / f"s{i}" / "self_attention.py").write_text(CORRECT if i == 0 else SLOW, encoding="utf-8")
    out = tmp_path / "out"
    args = [*GRADE, "batch", str(subs), "--problems", "self_attention", "--out", str(out), "--jobs", "2"]
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_env())
    journal = out / "journal.jsonl"
    _until(lambda: journal.exists() and journal.stat().st_size > 0)  # s0 is graded; slow ones are running
    proc.send_signal(signal.SIGINT)
    _out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    text = err.decode()
    assert "Stopping: ending the grading processes" in text
    assert f"Interrupted: 1 of 6 results are saved in {out}; run the same command with --resume" in text
    resumed = subprocess.run([*args, "--resume"], capture_output=True, env=_env(), timeout=600)
    assert resumed.returncode == 0, resumed.stderr.decode()
    assert b"(5 graded now)" in resumed.stdout
