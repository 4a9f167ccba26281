"""The platform formats through the real CLI, the Classroom workflow run as its steps run, and Gradescope's scripts."""

from __future__ import annotations

import base64
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
import yaml

from conftest import CORPUS
from grader import classroom_workflow
from grader.cli import cli
from grader.errors import GraderError
from grader.render import FORMATS

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = Path(__file__).resolve().parent / "schemas"
GRADESCOPE = ROOT / "integrations" / "gradescope"
WRONG = CORPUS / "self_attention" / "missing_scale.py"
BIN = Path(sys.executable).parent  # where `grade` of this environment lives


def _schema(name: str) -> dict:
    return json.loads((SCHEMAS / name).read_text(encoding="utf-8"))


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GRADER_")}
    env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '')}"
    env.update(extra)
    return env


def test_every_format_through_the_cli(runner) -> None:
    """``grade NAME --format F`` renders one graded result in each format; totals agree with json."""
    outputs = {}
    for fmt in FORMATS:
        result = runner.invoke(cli, ["self_attention", "--file", str(WRONG), "--format", fmt])
        assert result.exit_code == 1, result.output
        outputs[fmt] = result.stdout
    score = json.loads(outputs["json"])["score"]
    assert 0 < score < 10
    assert json.loads(outputs["gradescope"])["score"] == score
    assert json.loads(outputs["exercism"])["status"] == "fail"
    assert f'<property name="score" value="{score:g}" />' in outputs["junit"]
    runner_json = json.loads(base64.b64decode(outputs["classroom"].strip()))
    jsonschema.validate(runner_json, _schema("classroom_runner_v1.schema.json"))
    assert sum(t["score"] for t in runner_json["tests"]) == pytest.approx(score)


def test_classroom_format_keeps_stdout_for_the_step_output(runner) -> None:
    """stdout is exactly the base64 line; the readable, fenced log goes to stderr."""
    result = runner.invoke(cli, ["self_attention", "--file", str(WRONG), "--format", "classroom"])
    assert result.stdout.count("\n") == 1 and "::" not in result.stdout
    assert result.stderr.startswith("::stop-commands::")
    assert "Mistake: scores are not divided by sqrt(d_k)" in result.stderr


# -- grade classroom init --------------------------------------------------------------------


GIT_INSTALL = "git+https://github.com/ORG/attention-grader@v0.1.0"


def test_classroom_init_writes_the_names_the_reporter_needs(runner, tmp_path: Path) -> None:
    result = runner.invoke(cli, ["classroom", "init", str(tmp_path), "--problems", "masks,self_attention",
                                 "--install", GIT_INSTALL])  # the steps follow grade list's order
    assert result.exit_code == 0, result.output
    assert f"The workflow installs {GIT_INSTALL} (--install)." in result.output
    workflow = yaml.safe_load((tmp_path / ".github/workflows/classroom.yml").read_text())
    assert workflow["name"] == "Autograding Tests"
    assert list(workflow["jobs"]) == ["run-autograding-tests"]
    steps = workflow["jobs"]["run-autograding-tests"]["steps"]
    assert any(GIT_INSTALL in s.get("run", "") for s in steps)
    graders = [s for s in steps if "grade " in s.get("run", "") and "--format classroom" in s["run"]]
    # The reporter accepts runner ids of letters and digits only (its src/main.js).
    assert [s["id"] for s in graders] == ["selfattention", "masks"]
    assert all(s["continue-on-error"] is True and s["timeout-minutes"] for s in graders)
    reporter = steps[-1]
    assert reporter["uses"].startswith("classroom-resources/autograding-grading-reporter@")
    assert reporter["if"] == "always()"
    assert reporter["with"]["runners"] == "selfattention,masks"
    assert re.fullmatch(r"([a-zA-Z0-9]+,)*[a-zA-Z0-9]+", reporter["with"]["runners"])
    assert set(reporter["env"]) == {"SELFATTENTION_RESULTS", "MASKS_RESULTS"}
    fallback = re.fullmatch(r"\$\{\{ steps\.selfattention\.outputs\.result \|\| '([A-Za-z0-9+/=]+)' \}\}",
                            reporter["env"]["SELFATTENTION_RESULTS"])
    missing = json.loads(base64.b64decode(fallback.group(1)))  # a cancelled step still reports 0 of its points
    jsonschema.validate(missing, _schema("classroom_runner_v1.schema.json"))
    assert missing["max_score"] == 10 and sum(t["score"] for t in missing["tests"]) == 0
    assert (tmp_path / "self_attention.py").is_file()  # the starter file the step grades
    again = runner.invoke(cli, ["classroom", "init", str(tmp_path), "--problems", "self_attention"])
    assert again.exit_code == 2 and "--force" in again.output
    unknown = runner.invoke(cli, ["classroom", "init", str(tmp_path), "--force", "--problems", "nope",
                                  "--install", GIT_INSTALL])
    assert unknown.exit_code == 2 and "Unknown problem" in unknown.output


def test_classroom_init_private_bank_uses_a_secret(runner, tmp_path: Path) -> None:
    result = runner.invoke(cli, ["classroom", "init", str(tmp_path), "--problems", "self_attention",
                                 "--private-bank", "course/grader-bank", "--install", GIT_INSTALL])
    assert result.exit_code == 0, result.output
    job = yaml.safe_load((tmp_path / ".github/workflows/classroom.yml").read_text())["jobs"]["run-autograding-tests"]
    checkout = next(s for s in job["steps"] if s.get("with", {}).get("repository") == "course/grader-bank")
    assert checkout["with"]["token"] == "${{ secrets.GRADER_BANK_TOKEN }}"
    assert job["env"]["GRADER_PROBLEMS"].endswith(checkout["with"]["path"])
    assert job["env"]["GRADER_SEED"] == "${{ secrets.GRADER_SEED }}"


def test_classroom_init_refuses_an_install_a_runner_cannot_reach(runner, tmp_path: Path) -> None:
    """This checkout is installed from its folder (pip install -e .): no runner can install that."""
    result = runner.invoke(cli, ["classroom", "init", str(tmp_path), "--problems", "self_attention"])
    assert result.exit_code == 2
    assert "installed from the folder " in result.output and "pass --install" in result.output
    assert "Publishing the grader" in result.output
    assert not (tmp_path / ".github").exists()  # nothing half-written


@pytest.mark.parametrize(("recorded", "spec"), [
    (None, "attention-grader==0.1.0"),
    ({"url": "https://github.com/course/attention-grader.git",
      "vcs_info": {"vcs": "git", "commit_id": "0123456789abcdef0123", "requested_revision": "v0.1.0"}},
     "attention-grader @ git+https://github.com/course/attention-grader.git@0123456789abcdef0123"),
    ({"url": "https://example.org/dist/attention_grader-0.1.0-py3-none-any.whl", "archive_info": {}},
     "attention-grader @ https://example.org/dist/attention_grader-0.1.0-py3-none-any.whl"),
])
def test_the_default_install_is_where_this_grader_came_from(recorded, spec) -> None:
    """PEP 610's direct_url.json, as pip records it: an index, a git URL, an archive's URL."""
    assert classroom_workflow.install_source(recorded, look=False).spec == spec


def test_a_grader_installed_from_a_local_wheel_ships_the_wheel(tmp_path: Path, bank) -> None:
    wheel = tmp_path / "dist" / "attention_grader-0.1.0-py3-none-any.whl"
    wheel.parent.mkdir()
    wheel.write_bytes(b"PK wheel")
    source = classroom_workflow.install_source({"url": wheel.as_uri(), "archive_info": {}}, look=False)
    assert source.spec == "./.github/attention-grader/attention_grader-0.1.0-py3-none-any.whl"
    written, _ = classroom_workflow.write_template(tmp_path / "tpl", [bank.get("self_attention")], install=source)
    assert (tmp_path / "tpl" / source.spec).read_bytes() == b"PK wheel" and len(written) == 3
    wheel.unlink()  # gone since: nothing to copy, and a runner cannot reach the path
    with pytest.raises(GraderError, match="which no longer exists"):
        classroom_workflow.install_source({"url": wheel.as_uri(), "archive_info": {}}, look=False)


@pytest.mark.parametrize("recorded", [
    {"url": "file:///home/me/attention-grader", "dir_info": {"editable": True}},
    {"url": "file:///home/me/attention-grader", "vcs_info": {"vcs": "git", "commit_id": "abc"}},
])
def test_a_local_folder_or_repository_is_refused_with_the_reason(recorded) -> None:
    with pytest.raises(GraderError, match="installed from the folder /home/me/attention-grader, which a runner"):
        classroom_workflow.install_source(recorded, look=False)


def _js_number(value: float) -> str:
    """How JavaScript prints a number in a template string (``${x}``): 10.0 -> 10, 4.5 -> 4.5."""
    return f"{value:.0f}" if float(value).is_integer() else repr(value)


def test_the_docs_say_what_the_reporter_prints_and_what_classroom_stores(bank) -> None:
    """docs/integrations.md's example, recomputed the reporter's way (src/helpers/test-helpers.js,
    console-results.js, notify-classroom.js) from the runner document we emit for the same file."""
    from grader import engine
    from grader.render.classroom import runner_result

    result = engine.grade(bank.get("self_attention"), WRONG)
    document = runner_result([result])
    runner = classroom_workflow.runner_id("self_attention")
    tests = document["tests"]
    passed = sum(t["status"] == "pass" for t in tests)
    console_score = passed / len(tests) * document["max_score"]  # getTestScore: passed / all x max_score
    stored = sum(t["score"] for t in tests)  # NotifyClassroom: the sum of the tests' scores
    assert stored == result.score and round(console_score, 2) != round(stored, 2)  # the two differ here
    docs = (ROOT / "docs" / "integrations.md").read_text(encoding="utf-8")
    for line in (
        f"Total points for {runner}: {console_score:.2f}/{_js_number(document['max_score'])}",
        f"Grand total tests passed: {passed}/{len(tests)}",
        f"Points {_js_number(stored)}/{_js_number(document['max_score'])}",
        f"passes {passed} of the {len(tests)} checks of `self_attention` and scores "
        f"{_js_number(result.score)}/{_js_number(result.max_score)}",
        f"Classroom stores **{_js_number(stored)}/{_js_number(document['max_score'])}**",
        f"`self_attention: {_js_number(result.score)}/{_js_number(result.max_score)} points (attention-grader",
    ):
        assert line in docs, line


def test_shipped_example_workflow_is_what_init_writes(bank) -> None:
    """integrations/classroom/classroom.yml is regenerated, not hand-edited (installing the PyPI release)."""
    expected = classroom_workflow.workflow_yaml([bank.get("self_attention")], install=classroom_workflow.PYPI_INSTALL)
    shipped = (ROOT / "integrations" / "classroom" / "classroom.yml").read_text(encoding="utf-8")
    assert shipped == expected, (
        "regenerate: grade classroom init DIR --problems self_attention --install attention-grader==VERSION"
    )


def _run_step(script: str, cwd: Path) -> dict:
    """Run a grading step's shell as Actions does (bash -e, GITHUB_OUTPUT) and decode its result."""
    output = cwd / "github_output"
    output.write_text("")
    subprocess.run(["bash", "-e", "-c", script], cwd=cwd, env=_env(GITHUB_OUTPUT=str(output)), check=True,
                   capture_output=True, timeout=120)
    (line,) = output.read_text().splitlines()
    name, _, value = line.partition("=")
    assert name == "result"
    return json.loads(base64.b64decode(value))


@pytest.mark.slow
def test_workflow_step_reports_points_even_without_the_file(bank, tmp_path: Path) -> None:
    """The step's own shell: a wrong file gives its points; a deleted file gives 0 of the same maximum."""
    text = classroom_workflow.workflow_yaml([bank.get("self_attention")], install=classroom_workflow.PYPI_INSTALL)
    step = next(s for s in yaml.safe_load(text)["jobs"]["run-autograding-tests"]["steps"] if s.get("id"))
    shutil.copyfile(WRONG, tmp_path / "self_attention.py")
    graded = _run_step(step["run"], tmp_path)
    jsonschema.validate(graded, _schema("classroom_runner_v1.schema.json"))
    assert graded["status"] == "fail" and 0 < sum(t["score"] for t in graded["tests"]) < graded["max_score"]
    (tmp_path / "self_attention.py").unlink()
    missing = _run_step(step["run"], tmp_path)
    jsonschema.validate(missing, _schema("classroom_runner_v1.schema.json"))
    assert missing["status"] == "error" and missing["max_score"] == graded["max_score"]
    assert sum(t["score"] for t in missing["tests"]) == 0


# -- Gradescope ------------------------------------------------------------------------------


def _autograde(root: Path, **env: str) -> dict:
    subprocess.run(["bash", str(GRADESCOPE / "run_autograder")], env=_env(AUTOGRADER_ROOT=str(root), **env),
                   check=True, capture_output=True, timeout=300)
    document = json.loads((root / "results" / "results.json").read_text())
    jsonschema.validate(document, _schema("gradescope_results.schema.json"))
    return document


@pytest.mark.slow
def test_run_autograder_grades_the_configured_problems(tmp_path: Path) -> None:
    """Nested upload found, a missing problem graded as not attempted, extra files ignored."""
    (tmp_path / "source").mkdir()
    (tmp_path / "source" / "grader.env").write_text('PROBLEMS="self_attention"\n')
    nested = tmp_path / "submission" / "my-repo" / "src"
    nested.mkdir(parents=True)
    shutil.copyfile(WRONG, nested / "self_attention.py")
    document = _autograde(tmp_path, GRADER_VENV=sys.prefix)
    assert 0 < document["score"] < 10
    assert sum(t["max_score"] for t in document["tests"]) == 10
    (nested / "self_attention.py").unlink()
    (nested / "self_attention.py").symlink_to(ROOT / "reference" / "self_attention.py")  # not the student's work
    document = _autograde(tmp_path, GRADER_VENV=sys.prefix)
    assert document["score"] == 0 and "Not attempted" in document["output"]
    assert sum(t["max_score"] for t in document["tests"]) == 10


def test_run_autograder_always_leaves_a_results_json(tmp_path: Path) -> None:
    """Even without a working grader, Gradescope gets a valid results.json, score 0, and a message."""
    (tmp_path / "submission").mkdir()
    document = _autograde(tmp_path, GRADER_VENV=str(tmp_path / "no-venv"))
    assert document["score"] == 0 and "instructor" in document["output"]


@pytest.mark.slow
def test_make_autograder_builds_the_upload(tmp_path: Path) -> None:
    import zipfile

    from tinybank import make_bank

    bank = make_bank(tmp_path / "bank")
    out = tmp_path / "autograder.zip"
    subprocess.run(
        ["bash", str(GRADESCOPE / "make_autograder.sh"), "-o", str(out), "-p", "self_attention,add_one",
         "-b", str(bank), "-s", "77"],
        env=_env(PYTHON=sys.executable, GRADER_WHEEL_FLAGS="--no-build-isolation"), check=True,
        capture_output=True, timeout=300,
    )
    with zipfile.ZipFile(out) as archive:
        names = archive.namelist()
        modes = {i.filename: i.external_attr >> 16 for i in archive.infolist()}
        env = archive.read("grader.env").decode()
    assert {"setup.sh", "run_autograder", "grader.env", "bank/problems/add_one/spec.yaml"} <= set(names)
    assert any(n.startswith("dist/attention_grader-") and n.endswith(".whl") for n in names)
    assert modes["run_autograder"] & 0o111 and modes["setup.sh"] & 0o111
    assert 'PROBLEMS="self_attention add_one"' in env and "GRADER_SEED=77" in env
