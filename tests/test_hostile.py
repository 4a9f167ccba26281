"""Hostile submissions (tests/hostile/) end as expected.yaml says, under --sandbox full and limits.

Each case is graded through the real engine with one shared warm zygote per isolation level
(the batch path: the same worker must survive every case), and after each case:

* the score is what the learner's results earn, nothing more (expected.yaml);
* no check says ``LEAKED`` (the file raises that when its attack works);
* no file appeared outside the runner's folder (the attacks' marker files);
* no process is left behind, and the zygote still answers.

``full`` needs bubblewrap. Where it cannot run, those cases are skipped with bwrap's reason,
unless ``HOSTILE_REQUIRE_FULL=1`` (CI sets it), which turns that into a failure.
"""

from __future__ import annotations

import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
import yaml

from conftest import TESTS
from grader import engine
from grader.errors import GraderError
from grader.results import Status
from grader.worker import bwrap, sandbox
from grader.worker.session import Zygote

HOSTILE = TESTS / "hostile"
REPO = TESTS.parent
MODES = ("full", "limits")
KEYS = {"why", "layer", "full", "checks", "lost", "status", "limits"}
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
            wanted = {k: v for k, v in expectation.items() if k not in ("why", "layer", "limits")}
            if isinstance(override, dict):
                wanted = override
            yield pytest.param(mode, HOSTILE / name, wanted, id=f"{mode}/{name}")


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


@pytest.mark.parametrize(("mode", "path", "expectation"), list(_cases()))
def test_hostile_submission(mode: str, path: Path, expectation: dict, zygotes, bank) -> None:
    zygote = zygotes(mode)
    before_markers = _markers()
    before_procs = _descendants(os.getpid())
    result = engine.grade(bank.get("self_attention"), path, zygote=zygote)
    summary = {c.id: (c.status.value, c.message[:150]) for c in result.checks}

    assert result.isolation == mode
    assert not [m for _, m in summary.values() if "LEAKED" in m], summary
    if expectation.get("full"):
        assert result.score == result.max_score, summary
    for check_id, status in (expectation.get("checks") or {}).items():
        check = next(c for c in result.checks if c.id == check_id)
        assert check.status is Status(status), summary
        assert check.score == 0, summary
    if "lost" in expectation:
        assert {c.id for c in result.checks if c.score < c.max_score} == set(expectation["lost"]), summary
    if "status" in expectation:
        assert result.status == expectation["status"], summary

    new_markers = _markers() - before_markers
    for marker in new_markers:
        os.remove(marker)
    assert not new_markers, f"files created outside the runner's folder: {sorted(new_markers)}"
    assert _descendants(os.getpid()) <= before_procs, "a process the learner started is still running"
    assert "error" in zygote.request({"op": "ping"}), "the zygote no longer answers"


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
    with pytest.raises(GraderError, match="choose auto, full, limits or none"):
        sandbox.resolve("docker")


def test_full_fails_clearly_and_auto_batch_degrades_with_one_warning(monkeypatch) -> None:
    monkeypatch.setattr(bwrap, "unavailable_reason", lambda: "bwrap: setting up uid map: Permission denied")
    monkeypatch.setattr(sandbox, "_warned", set())
    with pytest.raises(GraderError, match="--sandbox full is not available on this machine: bwrap: setting up"):
        sandbox.resolve("full")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert sandbox.resolve("auto", batch=True) == "limits"
        assert sandbox.resolve("auto", batch=True) == "limits"
    degraded = [w for w in caught if issubclass(w.category, sandbox.SandboxWarning)]
    assert len(degraded) == 1 and "uid map" in str(degraded[0].message)


def test_sandbox_mounts_no_bank() -> None:
    """The bwrap command line binds nothing that contains a problem bank or reference."""
    command = bwrap.command("numpy", "full", 3)
    binds = [command[i + 2] for i, arg in enumerate(command) if arg == "--ro-bind"]
    masked = {command[i + 1] for i, arg in enumerate(command) if arg == "--tmpfs"}
    for secret in bwrap.secret_dirs():
        for bind in binds:
            if Path(secret).is_relative_to(bind):
                assert str(secret) in masked, f"{secret} is visible through {bind}"
