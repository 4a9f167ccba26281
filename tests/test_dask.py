"""grade batch --scheduler: a 2-worker Dask LocalCluster gives a local batch's results, loses nothing
when a worker is killed, reuses one warm grading process per worker, and only JSON text comes back."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from conftest import TESTS, batch_results
from grader.batch import run as batch_run
from grader.batch.pool import Job
from grader.batch.run import BatchOptions, run_batch
from grader.errors import GraderError

distributed = pytest.importorskip("distributed", reason='the dask extra is not installed: pip install ".[dask]"')
from grader.batch import dask_worker  # noqa: E402  (imports distributed)
from grader.batch.dask_executor import validate  # noqa: E402

sys.path.insert(0, str(TESTS.parent / "benchmarks"))
from make_class import make_class  # noqa: E402

pytestmark = pytest.mark.slow

PROBLEMS = ["self_attention", "qa"]  # fast: a numpy problem and a data problem


def _cluster() -> distributed.LocalCluster:
    return distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                    dashboard_address="127.0.0.1:0", silence_logs=40)


@pytest.fixture(name="cluster", scope="module")
def _cluster_fixture():
    with _cluster() as cluster, distributed.Client(cluster, set_as_default=False) as client:
        yield cluster, client


@pytest.fixture(name="classes", scope="module")
def _classes(tmp_path_factory) -> dict[str, Path]:
    """A small class graded locally once (the expected results)."""
    root = tmp_path_factory.mktemp("dask")
    make_class(root / "subs", 12, seed=7, problems=PROBLEMS)
    run_batch(BatchOptions(root / "subs", root / "local", problems=PROBLEMS, jobs=2))
    return {"root": root, "subs": root / "subs", "local": root / "local"}


def test_a_dask_batch_equals_a_local_batch_and_reuses_one_warm_grader_per_worker(cluster, classes) -> None:
    _cluster, client = cluster
    before = client.run(dask_worker.stats)
    out = classes["root"] / "dask"
    summary = run_batch(BatchOptions(classes["subs"], out, problems=PROBLEMS, scheduler=_cluster.scheduler_address))
    assert summary.graded == 21 and summary.worker_restarts == 0
    assert (out / "grades.csv").read_bytes() == (classes["local"] / "grades.csv").read_bytes()
    assert batch_results(out) == batch_results(classes["local"])
    after = client.run(dask_worker.stats)
    assert set(after) == set(before) and len(after) == 2
    graded = sum(after[w]["graded"] - before[w]["graded"] for w in after)
    assert graded == summary.graded
    for worker, stats in after.items():
        assert stats["started"] == 1, stats  # one grading process per Dask worker, reused for every job
        assert stats["graded"] > 1 and stats["pid"] > 0


def test_a_worker_killed_mid_run_loses_nothing(tmp_path) -> None:
    """SIGKILL one Dask worker while it grades: its tasks are retried and every result is the local one."""
    subs = tmp_path / "subs"
    reference = (TESTS.parent / "reference" / "self_attention.py").read_text(encoding="utf-8")
    wrong = (TESTS / "corpus" / "self_attention" / "missing_scale.py").read_text(encoding="utf-8")
    for i in range(40):
        (subs / f"s{i:02d}").mkdir(parents=True)
        text = (reference if i % 3 else wrong) + f"\n# {i}\n"
        (subs / f"s{i:02d}" / "self_attention.py").write_text(text, encoding="utf-8")
    run_batch(BatchOptions(subs, tmp_path / "local", problems=["self_attention"], jobs=2))
    out = tmp_path / "dask"
    with _cluster() as cluster, distributed.Client(cluster, set_as_default=False) as client:
        client.wait_for_workers(2)
        pids = client.run(os.getpid)
        failure: list[BaseException] = []

        def batch() -> None:
            try:
                run_batch(BatchOptions(subs, out, problems=["self_attention"], scheduler=cluster.scheduler_address))
            except BaseException as err:  # noqa: BLE001 - reported by the main thread
                failure.append(err)

        thread = threading.Thread(target=batch)
        thread.start()
        journal = out / "journal.jsonl"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and thread.is_alive():
            if journal.exists() and journal.read_bytes().count(b"\n") >= 6:
                break
            time.sleep(0.01)
        assert thread.is_alive(), "the batch finished before a worker could be killed; make the class bigger"
        victim = sorted(pids)[0]
        children = client.run(dask_worker.stats)
        os.kill(pids[victim], signal.SIGKILL)
        thread.join(120)
        assert not thread.is_alive() and not failure, failure
        rescheduled = [e for e in cluster.scheduler.transition_log if e[1:3] == ("processing", "released")]
        assert rescheduled, "no task was running on the killed worker"
        assert (out / "grades.csv").read_bytes() == (tmp_path / "local" / "grades.csv").read_bytes()
        assert batch_results(out) == batch_results(tmp_path / "local")
    # The cluster is closed: no grading process (or its zygote) outlives its Dask worker.
    gone = [stats["pid"] for stats in children.values() if stats["pid"]]
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and any(_alive(pid) for pid in gone):
        time.sleep(0.1)
    assert not any(_alive(pid) for pid in gone)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] != "Z"


def test_a_worker_with_another_grader_or_bank_stops_the_batch(cluster, classes, monkeypatch) -> None:
    """The client's configuration hash differs from what the worker computes: one clear error."""
    _cluster, _client = cluster
    real = batch_run.config_hash
    monkeypatch.setattr(batch_run, "config_hash", lambda p, seed, iso: real(p, seed + 1, iso))
    with pytest.raises(GraderError, match="different grader version or problem bank for "):
        run_batch(BatchOptions(classes["subs"], classes["root"] / "mismatch", problems=PROBLEMS,
                               scheduler=_cluster.scheduler_address))


def test_only_well_formed_json_replies_for_the_job_are_accepted() -> None:
    job = Job(7, "self_attention", "/x/self_attention.py", 0, 60.0)
    good = {"problem": "self_attention", "score": 1.0, "max_score": 1.0, "status": "pass", "seed": 0,
            "grader_version": "0.1.0", "duration_ms": 3, "isolation": "full",
            "checks": [{"id": "c", "title": "C", "status": "pass", "score": 1.0, "max_score": 1.0}]}
    ok = validate(json.dumps({"id": 7, "result": good, "fingerprint": "ab12", "restarts": 1}), job)
    assert ok == {"id": 7, "result": good, "fingerprint": "ab12", "restarts": 1}
    bad = [
        b"\x80\x04not json",  # bytes (a pickle) instead of text
        "not json",
        json.dumps({"id": 8, "result": good}),  # another job's reply
        json.dumps({"id": 7, "result": {**good, "problem": "qa"}}),
        json.dumps({"id": 7, "result": {**good, "checks": [{"id": "c"}]}}),
        json.dumps({"id": 7, "result": good, "fingerprint": ["x"]}),
        json.dumps([7]),
    ]
    for text in bad:
        reply = validate(text, job)
        assert set(reply) <= {"id", "error", "restarts"} and reply["id"] == 7, text
    assert validate(json.dumps({"id": 7, "error": "boom"}), job)["error"] == "boom"
    with pytest.raises(GraderError, match="cannot grade"):
        validate(json.dumps({"id": 7, "fatal": "the Dask worker on h cannot grade qa"}), job)


def test_a_plain_install_never_imports_dask_and_says_how_to_get_it(tmp_path) -> None:
    """The CLI and the batch modules work without Dask; --scheduler then names the extra to install."""
    code = (
        "import sys\n"
        "import grader.cli, grader.commands.batch, grader.batch.run, grader.batch.merge, grader.batch.shard\n"
        "assert not [m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed')]\n"
        "sys.modules['distributed'] = None  # as if not installed\n"
        "from grader.batch.dask_executor import DaskExecutor\n"
        "try:\n"
        "    DaskExecutor('tcp://127.0.0.1:1', {'isolation': 'limits'})\n"
        "except Exception as err:\n"
        "    print(type(err).__name__, err)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    expected = 'GraderError grading on a Dask cluster needs the dask extra: pip install "attention-grader[dask]"'
    assert expected in result.stdout


def test_a_dask_batch_without_a_sandbox_is_refused(classes) -> None:
    """Learner code with network access could reach the scheduler: --sandbox none is refused."""
    with pytest.raises(GraderError, match="--scheduler needs a sandbox"):
        run_batch(BatchOptions(classes["subs"], classes["root"] / "nosandbox", problems=PROBLEMS, sandbox="none",
                               scheduler="tcp://127.0.0.1:1"))


def test_hostile_students_get_the_same_rows_on_dask_as_locally(cluster, tmp_path) -> None:
    """Code that kills the grader's processes, floods, crashes or exits: the same results as a local batch."""
    from test_batch import HOSTILE

    _cluster, _client = cluster
    subs = tmp_path / "subs"
    reference = (TESTS.parent / "reference" / "self_attention.py").read_text(encoding="utf-8")
    for i in range(3):
        (subs / f"s{i}").mkdir(parents=True)
        (subs / f"s{i}" / "self_attention.py").write_text(reference, encoding="utf-8")
    for name, source in HOSTILE.items():
        (subs / f"x_{name}").mkdir()
        (subs / f"x_{name}" / "self_attention.py").write_text(source, encoding="utf-8")
    run_batch(BatchOptions(subs, tmp_path / "local", problems=["self_attention"], jobs=2))
    run_batch(BatchOptions(subs, tmp_path / "dask", problems=["self_attention"], scheduler=_cluster.scheduler_address))
    local, dask = batch_results(tmp_path / "local"), batch_results(tmp_path / "dask")
    assert dask == local
    assert all(local[(f"x_{name}", "self_attention")]["score"] == 0 for name in HOSTILE)


def test_the_task_replaces_a_grading_process_that_overruns_and_reports_like_the_local_pool(bank) -> None:
    """In-process: a zero budget overruns twice (two fresh processes), then a normal job is graded."""
    from grader.batch.config import config_hash
    from grader.worker import sandbox

    problem = bank.get("self_attention")
    isolation = sandbox.resolve("auto", batch=True)
    config = json.dumps({"runtime": "numpy", "sandbox": isolation, "isolation": isolation, "problems_dir": [],
                         "configs": {"self_attention": config_hash(problem, 0, isolation)}}, sort_keys=True)
    text = problem.reference_file.read_text(encoding="utf-8")

    def job(i: int, budget: float) -> str:
        return json.dumps({"id": i, "problem": "self_attention", "filename": "self_attention.py", "text": text,
                           "seed": 0, "budget_s": budget})

    try:
        started = dask_worker.stats()["started"]
        late = json.loads(dask_worker.grade_submission(config, job(1, 0.0)))
        assert late == {"id": 1, "error": "the grading worker went past its time budget twice on this submission",
                        "restarts": 2}
        graded = json.loads(dask_worker.grade_submission(config, job(2, 60.0)))
        assert graded["result"]["score"] == problem.spec.max_score and graded["restarts"] == 0
        assert dask_worker.stats()["started"] - started == 3
    finally:
        dask_worker.close()
    assert dask_worker.stats()["pid"] == 0
