"""A file that defines none of a problem's entry points earns nothing: every check `not_attempted`.

Over every problem of the bank (new problems are covered for free): an empty file, a file of
imports only, and the untouched stub score 0 with every check `not_attempted`, and nothing that
inspects code (the `from_scratch` scan) passes on code that is not there.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from grader import engine
from grader.bank import ProblemBank
from grader.results import ProblemResult, Status

BANK = ProblemBank()
PROBLEMS = sorted(BANK.names())
REFERENCE = Path(__file__).resolve().parents[1] / "reference"


def _nothing_written(problem_name: str) -> dict[str, str]:
    """What a learner who has written nothing may hand in, by kind."""
    problem = BANK.get(problem_name)
    if problem.spec.learner_file.endswith(".py"):
        imports = "import numpy as np\n" if problem.spec.runtime == "numpy" else "import torch\nfrom torch import nn\n"
        return {"empty": "", "imports only": f'"""My answer."""\n{imports}', "comments only": "# TODO\n"}
    return {"empty": "", "comments only": "# my answers\n"}


CASES = [(name, kind) for name in PROBLEMS for kind in [*_nothing_written(name), "stub"]]


def _assert_nothing_earned(result: ProblemResult) -> None:
    assert result.score == 0
    assert [c.id for c in result.checks if c.status is not Status.NOT_ATTEMPTED] == []
    assert result.not_attempted and result.error is None


@pytest.mark.parametrize(("problem_name", "kind"), CASES, ids=[f"{n}-{k}" for n, k in CASES])
def test_a_file_with_nothing_written_earns_nothing(problem_name: str, kind: str, tmp_path: Path) -> None:
    problem = BANK.get(problem_name)
    path = tmp_path / problem.spec.learner_file
    if kind == "stub":
        path.write_text(problem.stub_file.read_text(encoding="utf-8"), encoding="utf-8")
    else:
        path.write_text(_nothing_written(problem_name)[kind], encoding="utf-8")
    result = engine.grade(problem, path)
    _assert_nothing_earned(result)
    if kind != "stub" and problem.spec.entry_points:
        names = ", ".join(problem.spec.entry_points)
        assert result.checks[0].message.en == f"{problem.spec.learner_file} defines none of {names} yet"


def test_every_problem_with_code_has_its_entry_points_in_the_stub() -> None:
    """What "defines none" compares with: the stub defines every entry point (else it would be flagged)."""
    from grader import static

    for name in PROBLEMS:
        problem = BANK.get(name)
        if problem.spec.learner_file.endswith(".py"):
            stub = problem.stub_file.read_text(encoding="utf-8")
            assert static.missing_entry_points(stub, problem.spec.entry_points) == [], name


def test_from_scratch_waits_for_every_function_it_inspects(tmp_path: Path) -> None:
    """One function written and right: its checks pass, the scan of all three is not judged yet."""
    reference = (REFERENCE / "self_attention.py").read_text(encoding="utf-8")
    softmax_only = reference.split("def scaled_dot_product_attention")[0]
    path = tmp_path / "self_attention.py"
    path.write_text(softmax_only, encoding="utf-8")
    result = engine.grade(BANK.get("self_attention"), path)
    by_id = {c.id: c for c in result.checks}
    assert by_id["softmax"].status is Status.PASS
    assert by_id["from_scratch"].status is Status.NOT_ATTEMPTED and by_id["from_scratch"].score == 0
    assert by_id["from_scratch"].message.en == (
        "judged once self_attention.py defines scaled_dot_product_attention, self_attention"
    )
    assert by_id["shapes"].status is Status.ERROR  # a missing function is still an error where it is called

