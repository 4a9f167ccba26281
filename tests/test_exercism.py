"""Exercism's test runner interface, for real: ``integrations/exercism/bin/run.sh SLUG INPUT_DIR OUTPUT_DIR``.

The script is run as Exercism runs it (bash, a read-only input folder with a trailing slash, a
writable output folder): it writes a results.json of version 3 that validates, exits 0 whenever it
graded (a wrong answer and a file that does not load included), and exits non-zero only when the
runner itself cannot work. Every test has ``test_code`` and, where it exercised exactly one
function, ``task_id``; Python's and numpy's warnings stay out of the learner's ``output``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from conftest import CORPUS
from grader.render.exercism import without_warnings

ROOT = Path(__file__).resolve().parent.parent
RUN = ROOT / "integrations" / "exercism" / "bin" / "run.sh"
SCHEMA = json.loads((ROOT / "tests" / "schemas" / "exercism_results_v3.schema.json").read_text(encoding="utf-8"))


def run_sh(tmp_path: Path, slug: str, files: dict[str, str]) -> tuple[subprocess.CompletedProcess, Path]:
    solution, output = tmp_path / "solution", tmp_path / "output"
    solution.mkdir(parents=True)
    for name, text in files.items():
        (solution / name).write_text(text, encoding="utf-8")
    solution.chmod(0o555)  # read-only, as the interface says: the runner writes nothing there
    env = {k: v for k, v in os.environ.items() if not k.startswith("GRADER_")}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    try:
        done = subprocess.run(["bash", str(RUN), slug, f"{solution}/", f"{output}/"], env=env, capture_output=True,
                              text=True, timeout=300, cwd=tmp_path)
    finally:
        solution.chmod(0o755)
    assert sorted(p.name for p in solution.iterdir()) == sorted(files)
    return done, output / "results.json"


def _results(path: Path) -> dict:
    document = json.loads(path.read_text(encoding="utf-8"))
    jsonschema.validate(document, SCHEMA)
    assert document["version"] == 3
    return document


def test_a_wrong_answer_exits_0_with_test_code_and_task_ids(tmp_path: Path) -> None:
    done, results = run_sh(tmp_path, "self-attention", {"self_attention.py": (CORPUS / "self_attention" /
                                                                             "missing_scale.py").read_text()})
    assert done.returncode == 0, done.stderr
    document = _results(results)
    assert document["status"] == "fail"
    tests = document["tests"]
    assert all(t["test_code"].startswith("grade self_attention  # check ") for t in tests)
    by_name = {t["name"]: t for t in tests}
    assert by_name["softmax: values on any axis, stable for large inputs"]["task_id"] == 1  # softmax
    assert by_name["shapes when L_q, L_k, d_k, d_v all differ"]["task_id"] == 2  # scaled_dot_product_attention
    assert by_name["self_attention wires X, W_q, W_k, W_v"]["task_id"] == 3  # self_attention
    assert "task_id" not in by_name["written from scratch (numpy only)"]  # a static scan: no one function


def test_full_marks_and_a_file_that_does_not_load_both_exit_0(tmp_path: Path) -> None:
    reference = (ROOT / "reference" / "self_attention.py").read_text(encoding="utf-8")
    done, results = run_sh(tmp_path / "a", "self-attention", {"self_attention.py": reference})
    assert done.returncode == 0 and _results(results)["status"] == "pass"
    done, results = run_sh(tmp_path / "b", "self-attention", {"self_attention.py": "def softmax(x:\n"})
    assert done.returncode == 0, done.stderr
    document = _results(results)
    assert document["status"] == "error" and document["tests"] == []
    assert "SyntaxError in self_attention.py, line 1" in document["message"]
    assert "Fix line 1 of self_attention.py, then submit again." in document["message"]


@pytest.mark.parametrize(("args", "said"), [(["no-such-exercise"], "Unknown problem"), ([], "usage: bin/run.sh")])
def test_only_a_runner_that_cannot_work_exits_non_zero(tmp_path: Path, args: list[str], said: str) -> None:
    if args:
        done, results = run_sh(tmp_path, args[0], {"no_such_exercise.py": "x = 1\n"})
    else:
        done = subprocess.run(["bash", str(RUN), "self-attention"], capture_output=True, text=True, timeout=60)
        results = tmp_path / "results.json"
    assert done.returncode != 0 and said in done.stderr
    assert not results.exists()


def test_numpy_warnings_stay_out_of_the_learners_output(tmp_path: Path) -> None:
    unstable = (CORPUS / "self_attention" / "unstable_softmax.py").read_text(encoding="utf-8")
    head = "def softmax(x: np.ndarray, axis: int = -1) -> np.ndarray:\n"
    chatty = unstable.replace(head, head + "    print('my debug line')\n")
    assert chatty != unstable
    done, results = run_sh(tmp_path, "self-attention", {"self_attention.py": chatty})
    assert done.returncode == 0, done.stderr
    outputs = [t["output"] for t in _results(results)["tests"] if "output" in t]
    assert outputs and all("my debug line" in o for o in outputs)
    assert not [o for o in outputs if "Warning" in o or "grade: warning" in o]


def test_without_warnings_keeps_what_the_learner_printed() -> None:
    text = ("before\nsolution.py:7: RuntimeWarning: overflow encountered in exp\n  e = np.exp(x)\n"
            "middle\nsolution.py:9: RuntimeWarning: invalid value encountered in divide\nafter")
    assert without_warnings(text) == "before\nmiddle\nafter"
    assert without_warnings("I print: Warning: mine, no file:line") == "I print: Warning: mine, no file:line"


def test_run_sh_is_executable() -> None:
    assert os.access(RUN, os.X_OK) and shutil.which("bash")
