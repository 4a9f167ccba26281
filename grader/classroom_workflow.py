"""The GitHub Classroom workflow of a learner template repository: ``.github/workflows/classroom.yml``.

GitHub Classroom takes the points from the annotations its grading reporter writes, and finds
them only under exact names: the workflow ``Autograding Tests`` with exactly one job,
``run-autograding-tests``. The workflow generated here has one step (one reporter *runner*) per
problem; each step runs ``grade NAME --format classroom`` and stores the base64 result as the
step output ``result``, and the reporter step reads them all.

What the reporter needs, read from its source (classroom-resources/autograding-grading-reporter,
``src/main.js``): runner ids of letters and digits only (its error path rejects anything else,
``multi_head_attention`` included), and a result for every runner. So a problem step never stops
the job (``continue-on-error``), the reporter runs whatever happened before it (``if: always()``),
and a problem with no result (its file deleted, or its step cancelled at its time limit) reports
0 of its points through a fallback result written into the workflow: the maximum Classroom stores
never changes.

The workflow must pip-install the grader on a runner: :func:`install_source` finds what will
work there from the way this grader itself was installed (PEP 610's ``direct_url.json``), or says
why nothing will.
"""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

from grader import __version__
from grader.bank import Problem
from grader.errors import GraderError
from grader.i18n import Text
from grader.messages import text
from grader.render.classroom import encode, missing_result

WORKFLOW_NAME = "Autograding Tests"
JOB_NAME = "run-autograding-tests"
REPORTER = "classroom-resources/autograding-grading-reporter@v1"
WORKFLOW_PATH = Path(".github") / "workflows" / "classroom.yml"
#: Where a grader wheel installed from a local file is copied in the template (the runner installs it from there).
WHEEL_FOLDER = Path(".github") / "attention-grader"
DISTRIBUTION = "attention-grader"
PYPI_INSTALL = f"{DISTRIBUTION}=={__version__}"
TORCH_CPU_INDEX = "https://download.pytorch.org/whl/cpu"


@dataclass(frozen=True)
class InstallSource:
    """What the workflow pip-installs, why, and a local wheel to copy into the template (if any)."""

    spec: str
    how: Text
    wheel: Path | None = None


def _recorded_install(distribution: str = DISTRIBUTION) -> dict[str, Any] | None:
    """PEP 610's ``direct_url.json`` of the installed grader; None when pip installed it from an index.

    Raises GraderError when no pip-installed copy is found (a source tree on ``sys.path``).
    """
    for dist in metadata.distributions(name=distribution):
        if dist.read_text("INSTALLER") is None:  # an egg-info left in a source tree, not an installation
            continue
        recorded = dist.read_text("direct_url.json")
        return json.loads(recorded) if recorded else None
    raise GraderError(text("classroom.unreachable", where=text("classroom.where_unknown"), version=__version__))


def install_source(recorded: dict[str, Any] | None = None, *, look: bool = True) -> InstallSource:
    """What a GitHub runner can pip-install to get this very grader.

    From PEP 610: installed from an index, the same version from the index; from a git URL, that
    repository at the recorded commit; from an archive's URL, that URL; from a local wheel or sdist,
    the file itself (copied into the template). A local folder (``pip install .``, ``-e .``) or a
    ``file:`` repository cannot be reached from a runner: GraderError says so and what to pass.
    ``look=False`` uses ``recorded`` as given (tests) instead of reading the installation.
    """
    if look:
        recorded = _recorded_install()
    if recorded is None:
        return InstallSource(PYPI_INSTALL, text("classroom.how_index"))
    url = str(recorded.get("url", ""))
    parsed = urlparse(url)
    local = parsed.scheme == "file"
    if "vcs_info" in recorded and not local and parsed.scheme in ("http", "https"):
        vcs = recorded["vcs_info"]
        commit = str(vcs.get("commit_id", "")) or str(vcs.get("requested_revision", ""))
        spec = f"{DISTRIBUTION} @ {vcs.get('vcs', 'git')}+{url}" + (f"@{commit}" if commit else "")
        return InstallSource(spec, text("classroom.how_vcs", url=url, commit=commit[:12] or "HEAD"))
    if "archive_info" in recorded and parsed.scheme in ("http", "https"):
        return InstallSource(f"{DISTRIBUTION} @ {url}", text("classroom.how_url", url=url))
    if "archive_info" in recorded and local:
        archive = Path(unquote(parsed.path))
        if archive.is_file():
            copy = (WHEEL_FOLDER / archive.name).as_posix()
            return InstallSource(f"./{copy}", text("classroom.how_wheel", copy=copy), wheel=archive)
        where = text("classroom.where_file", path=str(archive))
    elif local:
        where = text("classroom.where_folder", path=unquote(parsed.path))
    else:
        where = Text.same(url or "?")
    raise GraderError(text("classroom.unreachable", where=where, version=__version__))


def runner_id(problem_name: str) -> str:
    """The reporter's runner id (and step id) of a problem: its letters and digits."""
    return re.sub(r"[^A-Za-z0-9]", "", problem_name)


def _runner_ids(problems: list[Problem]) -> dict[str, str]:
    ids: dict[str, str] = {}
    for problem in problems:
        runner = runner_id(problem.name)
        clash = next((name for name, other in ids.items() if other.lower() == runner.lower()), None)
        if clash is not None:
            raise GraderError(text("classroom.runner_clash", first=clash, second=problem.name, runner=runner))
        ids[problem.name] = runner
    return ids


def _q(value: str) -> str:
    """A YAML double-quoted scalar (JSON strings are valid YAML)."""
    return json.dumps(value)


def workflow_yaml(
    problems: list[Problem], *, install: str, private_bank: str | None = None, python: str = "3.11"
) -> str:
    """The workflow text for ``problems`` (one reporter runner each); ``install`` is what pip installs."""
    if not problems:
        raise GraderError(text("classroom.no_problems"))
    runners = _runner_ids(problems)
    lines = [
        f"# Generated by `grade classroom init` (attention-grader {__version__}). GitHub Classroom reads the",
        f'# points only from a workflow named "{WORKFLOW_NAME}" with one job "{JOB_NAME}": keep the names.',
        "# Scores here are feedback: the learner controls this repository and this workflow. Authoritative",
        "# grades come from `grade batch` on the instructor's machine (see docs/integrations.md).",
        f"name: {WORKFLOW_NAME}",
        "'on': [push, workflow_dispatch, repository_dispatch]",
        "permissions:",
        "  checks: write",
        "  actions: read",
        "  contents: read",
        "jobs:",
        f"  {JOB_NAME}:",
        "    runs-on: ubuntu-latest",
        "    if: github.actor != 'github-classroom[bot]'",
        "    timeout-minutes: 30",
        "    env:",
        "      # Hidden inputs use this seed when the secret is set (empty: the problems' default seed).",
        "      GRADER_SEED: ${{ secrets.GRADER_SEED }}",
    ]
    if private_bank:
        lines += [
            "      # Problems and references from the private bank override and extend the public ones.",
            "      GRADER_PROBLEMS: ${{ github.workspace }}/.grader-bank",
        ]
    lines += [
        "    steps:",
        "      - uses: actions/checkout@v5",
    ]
    if private_bank:
        lines += [
            "      - name: Check out the private problem bank",
            "        uses: actions/checkout@v5",
            "        with:",
            f"          repository: {_q(private_bank)}",
            "          token: ${{ secrets.GRADER_BANK_TOKEN }}",
            "          path: .grader-bank",
        ]
    lines += [
        "      - uses: actions/setup-python@v6",
        "        with:",
        f"          python-version: {_q(python)}",
        "      - name: Install the grader",
        f"        run: python -m pip install --extra-index-url {TORCH_CPU_INDEX} {_q(install)}",
    ]
    fallbacks = {}
    for problem in problems:
        message = text("classroom.not_graded", file=problem.spec.learner_file, name=problem.name).get()
        fallbacks[problem.name] = encode(missing_result(problem.spec.title.get(), problem.spec.max_score, message))
        lines += [
            f"      - name: {problem.name}",
            f"        id: {runners[problem.name]}",
            "        timeout-minutes: 10",
            "        continue-on-error: true  # a problem that fails or times out must not stop the others",
            "        run: |",
            f'          result="$(grade {problem.name} --format classroom)" || true',
            f'          echo "result=${{result:-{fallbacks[problem.name]}}}" >> "$GITHUB_OUTPUT"',
        ]
    lines += [
        "      - name: Autograding Reporter",
        "        if: always()  # report every problem, whatever happened in the steps before",
        f"        uses: {REPORTER}",
        "        env:",
    ]
    for problem in problems:
        runner = runners[problem.name]  # a step that never wrote its result reports 0 points (the fallback)
        lines.append(
            f"          {runner.upper()}_RESULTS: \"${{{{ steps.{runner}.outputs.result || "
            f"'{fallbacks[problem.name]}' }}}}\""
        )
    lines += [
        "        with:",
        f"          runners: {','.join(runners[p.name] for p in problems)}",
    ]
    return "\n".join(lines) + "\n"


def write_template(
    directory: Path,
    problems: list[Problem],
    *,
    install: InstallSource | None = None,
    private_bank: str | None = None,
    force: bool = False,
) -> tuple[list[Path], InstallSource]:
    """Write the workflow, the grader's wheel when it installs from one, and any missing starter
    files into ``directory``; return what was written and what the workflow installs
    (``install``, else :func:`install_source`)."""
    workflow = directory / WORKFLOW_PATH
    if workflow.exists() and not force:
        raise GraderError(text("classroom.exists", workflow=workflow))
    install = install or install_source()
    text_ = workflow_yaml(problems, install=install.spec, private_bank=private_bank)
    written = []
    try:
        workflow.parent.mkdir(parents=True, exist_ok=True)
        workflow.write_text(text_, encoding="utf-8")
        written.append(workflow)
        if install.wheel is not None:
            copy = directory / WHEEL_FOLDER / install.wheel.name
            copy.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(install.wheel, copy)
            written.append(copy)
        for problem in problems:
            stub = directory / problem.spec.learner_file
            if not stub.exists():
                stub.write_bytes(problem.stub_file.read_bytes())
                written.append(stub)
    except OSError as err:
        raise GraderError(text("classroom.cannot_write", directory=directory, reason=err.strerror)) from None
    return written, install
