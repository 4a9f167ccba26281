"""Hostile submissions (tests/hostile/) end as expected.yaml says, under --sandbox full, user and limits.

Each case is graded through the real engine with one shared warm zygote per isolation level
(the batch path: the same worker must survive every case), and after each case:

* the score is what the learner's results earn, nothing more (expected.yaml);
* no check says ``LEAKED`` (the file raises that when its attack works);
* no file appeared outside the runner's folder (the attacks' marker files);
* no process is left behind, and the zygote still answers.

``full`` needs bubblewrap. Where it cannot run, those cases are skipped with bwrap's reason,
unless ``HOSTILE_REQUIRE_FULL=1`` (CI sets it), which turns that into a failure.

``user`` is the level of a root grader where bubblewrap cannot run (Gradescope's container): the
cases run in a container-like root (tests/container.py: Docker's capabilities, no user
namespaces) with a secret seed set, and are expected to end as under ``full``. It needs root and
bubblewrap to build that container; ``HOSTILE_REQUIRE_FULL=1`` requires it too.
"""

from __future__ import annotations

import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
import yaml

import container
from conftest import TESTS
from grader import engine
from grader.errors import GraderError
from grader.results import Status
from grader.worker import bwrap, privileges, sandbox, visible
from grader.worker.session import Zygote

HOSTILE = TESTS / "hostile"
REPO = TESTS.parent
MODES = ("full", "limits")
KEYS = {"why", "layer", "full", "checks", "lost", "status", "limits", "user", "user_layer"}
#: Where the attacks try to leave files; none of these may exist after grading.
MARKER_GLOBS = (
    "/tmp/grader-hostile-*",
    "/dev/shm/grader-hostile-*",
    "/grader-hostile-*",
    str(REPO / "grader-hostile-*"),
    str(REPO / "results.json"),
    str(REPO.parent / "results.json"),
    str(Path.home() / "grader-hostile-*"),
    str(Path.home() / "results.json"),
)


def _expectations() -> dict[str, dict]:
    return yaml.safe_load((HOSTILE / "expected.yaml").read_text(encoding="utf-8"))


def _cases():
    for name, expectation in _expectations().items():
        for mode in MODES:
            override = expectation.get("limits") if mode == "limits" else None
            if isinstance(override, str):
                continue  # not defended at this level; docs/security.md says so
            wanted = _at_full(expectation)
            if isinstance(override, dict):
                wanted = override
            yield pytest.param(mode, HOSTILE / name, wanted, id=f"{mode}/{name}")


def _at_full(expectation: dict) -> dict:
    """The keys that say how a case ends (not its description, not another level's override)."""
    return {k: v for k, v in expectation.items() if k not in ("why", "layer", "limits", "user", "user_layer")}


def _descendants(root: int) -> set[int]:
    """Every live process below ``root`` (from /proc), zombies excluded."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        if fields[0] != b"Z":
            children.setdefault(int(fields[1]), []).append(int(entry))
    found, todo = set(), [root]
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def _markers() -> set[str]:
    import glob

    return {path for pattern in MARKER_GLOBS for path in glob.glob(pattern)}


def _full_unavailable() -> str | None:
    try:
        sandbox.resolve("full")
    except GraderError as err:
        return str(err)
    return None


@pytest.fixture(name="zygotes", scope="module")
def _zygotes():
    """One warm torch zygote per level, started on first use (torch cases need no import).

    ``full`` is set up as a batch worker has it (compacted, see grader.worker.hugepages), ``limits``
    as a single ``grade`` has it, so the cases cover both."""
    started: dict[str, Zygote] = {}

    def get(mode: str) -> Zygote:
        if mode == "full":
            reason = _full_unavailable()
            if reason is not None:
                if os.environ.get("HOSTILE_REQUIRE_FULL") == "1":
                    pytest.fail(f"HOSTILE_REQUIRE_FULL=1 but {reason}")
                pytest.skip(reason)
        if mode not in started:
            started[mode] = Zygote("torch", mode, compact=mode == "full")
        return started[mode]

    yield get
    for zygote in started.values():
        zygote.close()


def test_corpus_is_big_enough_and_documented() -> None:
    """At least 30 cases, each file listed once with a reason and a layer, and vice versa."""
    expected = _expectations()
    files = {p.name for p in HOSTILE.glob("*.py")}
    assert files == set(expected), f"unlisted: {files - set(expected)}, missing: {set(expected) - files}"
    assert len(files) >= 30
    for name, expectation in expected.items():
        assert set(expectation) <= KEYS, (name, set(expectation) - KEYS)
        assert expectation.get("why") and expectation.get("layer"), name


def grade_case(zygote: Zygote, bank, path: Path) -> dict:
    """Grade one case; what the assertions need: level, score, each check, files, processes, ping."""
    before_markers = _markers()
    before_procs = _descendants(os.getpid())
    result = engine.grade(bank.get("self_attention"), path, zygote=zygote)
    new_markers = sorted(_markers() - before_markers)
    for marker in new_markers:
        os.remove(marker)
    return {
        "isolation": result.isolation,
        "score": result.score,
        "max_score": result.max_score,
        "status": result.status,
        "checks": {c.id: [c.status.value, c.score, c.max_score, c.message.en[:150]] for c in result.checks},
        "markers": new_markers,
        "leftover": sorted(_descendants(os.getpid()) - before_procs),
        "answers": "error" in zygote.request({"op": "ping"}),
    }


def assert_contained(mode: str, outcome: dict, expectation: dict) -> None:
    summary = {check: (status, message) for check, (status, _s, _m, message) in outcome["checks"].items()}
    assert outcome["isolation"] == mode
    assert not [m for _, m in summary.values() if "LEAKED" in m], summary
    if expectation.get("full"):
        assert outcome["score"] == outcome["max_score"], summary
    for check_id, status in (expectation.get("checks") or {}).items():
        assert outcome["checks"][check_id][0] == status, summary
        assert outcome["checks"][check_id][1] == 0, summary
    if "lost" in expectation:
        lost = {check for check, (_st, score, most, _m) in outcome["checks"].items() if score < most}
        assert lost == set(expectation["lost"]), summary
    if "status" in expectation:
        assert outcome["status"] == expectation["status"], summary
    assert not outcome["markers"], f"files created outside the runner's folder: {outcome['markers']}"
    assert not outcome["leftover"], "a process the learner started is still running"
    assert outcome["answers"], "the zygote no longer answers"


@pytest.mark.parametrize(("mode", "path", "expectation"), list(_cases()))
def test_hostile_submission(mode: str, path: Path, expectation: dict, zygotes, bank) -> None:
    assert_contained(mode, grade_case(zygotes(mode), bank, path), expectation)


def drive_user_level() -> None:
    """In the container: grade every case at ``user`` with one warm zygote, one JSON line each."""
    import json

    from grader.bank import ProblemBank

    os.environ["GRADER_SEED"] = "424242"  # what read_seed looks for
    assert sandbox.resolve("user") == "user"
    bank = ProblemBank()
    with Zygote("torch", "user", compact=True) as zygote:
        for name in _expectations():
            print(json.dumps({"case": name, **grade_case(zygote, bank, HOSTILE / name)}), flush=True)


@pytest.fixture(name="user_level_outcomes", scope="module")
def _user_level_outcomes() -> dict[str, dict]:
    import json

    reason = container.unavailable_reason()
    if reason is not None:
        if os.environ.get("HOSTILE_REQUIRE_FULL") == "1":
            pytest.fail(f"HOSTILE_REQUIRE_FULL=1 but the user level cannot be tested here: {reason}")
        pytest.skip(reason)
    done = container.run(
        [sys.executable, "-c", "import test_hostile; test_hostile.drive_user_level()"], cwd=str(TESTS), timeout=900
    )
    outcomes = {}
    for line in done.stdout.splitlines():
        if line.startswith("{"):
            outcome = json.loads(line)
            outcomes[outcome.pop("case")] = outcome
    assert done.returncode == 0 and len(outcomes) == len(_expectations()), done.stdout[-2000:] + done.stderr[-3000:]
    return outcomes


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(_expectations()))
def test_hostile_submission_as_root_without_namespaces(name: str, user_level_outcomes) -> None:
    """The ``user`` level (what Gradescope gets) contains every case as ``full`` does."""
    expectation = _expectations()[name]
    assert_contained("user", user_level_outcomes[name], expectation.get("user") or _at_full(expectation))


@pytest.mark.parametrize("mode", MODES)
def test_fresh_zygote_per_grade_survives_import_time_faults(mode: str, grade_file) -> None:
    """The default path (a zygote per grade) also turns import-time faults into errors."""
    if mode == "full" and (reason := _full_unavailable()) is not None:
        pytest.skip(reason)
    for name in ("os_exit_at_import.py", "fork_bomb.py"):
        result = grade_file("self_attention", HOSTILE / name, sandbox_mode=mode)
        assert result.isolation == mode
        assert result.score < result.max_score
        assert all(c.status in (Status.ERROR, Status.PASS) for c in result.checks)


def test_seed_in_the_grader_environment_does_not_reach_the_learner_under_full() -> None:
    """GRADER_SEED set for the CLI: not in the sandbox's os.environ, /proc/*/environ or memory."""
    if (reason := _full_unavailable()) is not None:
        pytest.skip(reason)
    env = {**os.environ, "GRADER_SEED": "424242"}
    done = subprocess.run(
        [sys.executable, "-m", "grader", "self_attention", "--file", str(HOSTILE / "read_seed.py"),
         "--sandbox", "full", "--format", "json"],
        capture_output=True, text=True, env=env, cwd=REPO, timeout=120,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "LEAKED" not in done.stdout
    assert '"isolation": "full"' in done.stdout


def test_zygote_environment_block_is_scrubbed() -> None:
    """The env block a forked runner inherits (/proc/self/environ) loses GRADER_* values."""
    code = (
        "from grader.worker import sandbox; sandbox.scrub_initial_environment(); "
        "print(b'424242' in open('/proc/self/environ', 'rb').read())"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env={**os.environ, "GRADER_SEED": "424242"}
    )
    assert done.stdout.strip() == "False", done.stderr


def test_resolve_levels(monkeypatch) -> None:
    assert sandbox.resolve("none") == "none"
    assert sandbox.resolve("limits") == "limits"
    assert sandbox.resolve("auto") == "limits"  # one local grade: the cheap fork path
    with pytest.raises(GraderError, match="choose auto, full, user, limits or none"):
        sandbox.resolve("docker")


def test_full_fails_clearly_and_auto_batch_degrades_with_one_warning(monkeypatch) -> None:
    """Not root: no level can replace bubblewrap's, so full is an error and a batch gets limits."""
    monkeypatch.setattr(bwrap, "unavailable_reason", lambda: "bwrap: setting up uid map: Permission denied")
    monkeypatch.setattr(privileges, "sandbox_account", lambda: None)
    monkeypatch.setattr(sandbox, "_warned", set())
    with pytest.raises(GraderError, match="only a grader running as root"):
        sandbox.resolve("user")
    with pytest.raises(GraderError, match="--sandbox full is not available on this machine: bwrap: setting up"):
        sandbox.resolve("full")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert sandbox.resolve("auto", batch=True) == "limits"
        assert sandbox.resolve("auto", batch=True) == "limits"
    degraded = [w for w in caught if issubclass(w.category, sandbox.SandboxWarning)]
    assert len(degraded) == 1 and "uid map" in str(degraded[0].message)


def test_as_root_without_bubblewrap_full_and_batches_get_the_user_level(monkeypatch) -> None:
    """Root (Gradescope's container): full gives user with one warning naming bwrap's reason, a
    batch too; where the account cannot read Python, full is an error that says both reasons."""
    account = privileges.Account("grader-learner", 999, 999)
    monkeypatch.setattr(bwrap, "unavailable_reason", lambda: "bwrap: Creating new namespace failed")
    monkeypatch.setattr(privileges, "sandbox_account", lambda: account)
    monkeypatch.setattr(privileges, "unreadable_python", lambda who: None)
    monkeypatch.setattr(sandbox, "_warned", set())
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert sandbox.resolve("full") == "user"
        assert sandbox.resolve("full") == "user"
        assert sandbox.resolve("auto", batch=True) == "user"
        assert sandbox.resolve("user") == "user"
        assert sandbox.resolve("auto") == "limits"  # one grade: the fork path (as the account)
    said = [str(w.message) for w in caught if issubclass(w.category, sandbox.SandboxWarning)]
    assert any("Creating new namespace failed" in m and "grader-learner" in m and "isolation: user" in m for m in said)
    assert len([m for m in said if "Creating new namespace failed" in m]) == 2  # full's, and the batch's
    monkeypatch.setattr(privileges, "unreadable_python", lambda who: Path("/root/.pyenv"))
    with pytest.raises(GraderError, match="Creating new namespace failed.*grader-learner cannot read /root/.pyenv"):
        sandbox.resolve("full")
    with pytest.raises(GraderError, match="--sandbox user is not available.*cannot read /root/.pyenv"):
        sandbox.resolve("user")
    assert sandbox.fork_account() is None  # limits keeps root rather than break every import


def test_a_root_grader_without_an_account_stops_with_what_to_create(monkeypatch) -> None:
    def missing() -> None:
        raise privileges.PrivilegeError("GRADER_SANDBOX_USER=ghost: no such account")

    monkeypatch.setattr(privileges, "sandbox_account", missing)
    for mode in ("limits", "none", "auto"):
        with pytest.raises(GraderError, match="must run as another user: GRADER_SANDBOX_USER=ghost"):
            sandbox.resolve(mode)


def test_readable_by_follows_the_modes_of_every_folder_above(tmp_path: Path) -> None:
    import shutil
    import tempfile

    account = privileges.Account("someone", 54321, 54321)
    top = Path(tempfile.mkdtemp(dir="/tmp" if Path("/tmp").is_dir() else None))
    try:
        bank = top / "bank"
        (bank / "reference").mkdir(parents=True)
        (bank / "reference" / "x.py").write_text("")
        for path in (top, bank, bank / "reference"):
            path.chmod(0o755)
        assert privileges.readable_by(account, bank / "reference" / "x.py")
        bank.chmod(0o700)
        assert not privileges.readable_by(account, bank / "reference" / "x.py")
        assert not privileges.readable_by(account, bank)
        assert not privileges.readable_by(account, tmp_path)  # pytest's own folder is its owner's only
    finally:
        shutil.rmtree(top)


def test_sandbox_mounts_no_bank() -> None:
    """The bwrap command line binds nothing that contains a problem bank or reference."""
    command = bwrap.command("numpy", "full", 3)
    binds = [command[i + 2] for i, arg in enumerate(command) if arg == "--ro-bind"]
    masked = {command[i + 1] for i, arg in enumerate(command) if arg == "--tmpfs"}
    for secret in visible.secret_dirs():
        for bind in binds:
            if Path(secret).is_relative_to(bind):
                assert str(secret) in masked, f"{secret} is visible through {bind}"


def test_the_user_view_carves_secrets_out_of_what_links_point_to(tmp_path: Path, monkeypatch) -> None:
    """A venv's ``lib64 -> lib`` is granted as the folder it names: the installed bank inside
    ``lib`` must be carved out through the link too (Landlock follows it)."""
    venv = tmp_path / "venv"
    bank = venv / "lib" / "site-packages" / "grader" / "bundled"
    (bank / "reference").mkdir(parents=True)
    (bank.parent / "engine.py").write_text("")
    (venv / "lib" / "site-packages" / "numpy").mkdir()
    (venv / "lib64").symlink_to("lib")
    (venv / "bin").mkdir()
    granted = [Path(p).resolve() for p in visible._without(venv, [bank])]
    assert not any(visible.inside(bank, p) or visible.inside(p, bank) for p in granted), granted
    assert (venv / "lib" / "site-packages" / "numpy") in granted and (bank.parent / "engine.py") in granted
    assert venv / "bin" in granted
