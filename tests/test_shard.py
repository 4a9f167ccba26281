"""grade batch --shard i/N and grade merge: the same gradebook as one batch; mismatched shards refused."""

from __future__ import annotations

import shutil
import sys
from collections import Counter
from pathlib import Path

import pytest

from conftest import TESTS, batch_results
from grader.batch import run as batch_run
from grader.batch import shard
from grader.batch.merge import merge_shards
from grader.batch.run import BatchOptions, run_batch
from grader.cli import cli
from grader.errors import GraderError

sys.path.insert(0, str(TESTS.parent / "benchmarks"))
from make_class import make_class  # noqa: E402

pytestmark = pytest.mark.slow

PROBLEMS = ["self_attention", "qa"]  # fast: a numpy problem and a data problem


def test_shard_numbers_parse_or_say_how_to_write_them() -> None:
    assert shard.parse("3/8") == (3, 8)
    assert shard.parse("1/1") == (1, 1)
    for bad in ("0/4", "5/4", "2", "a/b", "1/0", "-1/4"):
        with pytest.raises(GraderError, match="i/N|between 1 and N"):
            shard.parse(bad)


def test_every_student_is_in_exactly_one_shard_and_the_split_is_stable() -> None:
    """The split depends on the name alone: pinned values, a partition, roughly even shares."""
    assert (shard.shard_of("alice", 4), shard.shard_of("student0007", 256)) == PINNED
    names = [f"student{i:05d}" for i in range(4000)]
    parts = [shard.select(names, (i, 8)) for i in range(1, 9)]
    assert sorted(n for part in parts for n in part) == names
    sizes = Counter({i: len(p) for i, p in enumerate(parts)})
    assert min(sizes.values()) > 4000 / 8 * 0.85 and max(sizes.values()) < 4000 / 8 * 1.15
    assert shard.select(names + ["late_joiner"], (3, 8))[: len(parts[2])] == parts[2]  # a new student moves no one


#: shard_of("alice", 4), shard_of("student0007", 256): a change here re-splits every running class.
PINNED = (4, 238)


@pytest.fixture(name="graded", scope="module")
def _graded(tmp_path_factory) -> dict[str, Path]:
    """A class graded once locally and once as two shards."""
    root = tmp_path_factory.mktemp("shard")
    make_class(root / "subs", 10, seed=5, problems=PROBLEMS)
    outs = {"subs": root / "subs", "local": root / "local", "root": root}
    run_batch(BatchOptions(root / "subs", outs["local"], problems=PROBLEMS, jobs=2))
    for i in (1, 2):
        outs[f"s{i}"] = root / f"s{i}"
        run_batch(BatchOptions(root / "subs", outs[f"s{i}"], problems=PROBLEMS, jobs=1, shard=(i, 2)))
    return outs


def test_two_shards_merged_equal_one_batch(graded, runner) -> None:
    """grades.csv is byte-for-byte the same; every student x problem result is the same."""
    merged = graded["root"] / "merged"
    result = runner.invoke(cli, ["merge", str(graded["s1"]), str(graded["s2"]), "--out", str(merged),
                                 "--per-student", "json"])
    assert result.exit_code == 0, result.output
    assert "2 shards, 13 students" in result.stdout
    shard1 = {r for r, _ in batch_results(graded["s1"])}
    shard2 = {r for r, _ in batch_results(graded["s2"])}
    assert shard1 and shard2 and not shard1 & shard2
    assert (merged / "grades.csv").read_bytes() == (graded["local"] / "grades.csv").read_bytes()
    assert batch_results(merged) == batch_results(graded["local"])
    html = (merged / "report.html").read_text(encoding="utf-8")
    assert "the folder is empty" in html and "not UTF-8" in html
    assert len(list((merged / "students").glob("*.json"))) == 13


def _shard_again(graded, name: str, i: int = 2, n: int = 2, **options) -> Path:
    out = graded["root"] / name
    run_batch(BatchOptions(graded["subs"], out, problems=PROBLEMS, jobs=1, shard=(i, n), **options))
    return out


def _private_bank(root: Path) -> Path:
    """A private bank overriding self_attention with one changed line in its checks."""
    bank = root / "bank"
    shutil.copytree(TESTS.parent / "problems" / "self_attention", bank / "problems" / "self_attention")
    (bank / "reference").mkdir()
    shutil.copy(TESTS.parent / "reference" / "self_attention.py", bank / "reference")
    checks = bank / "problems" / "self_attention" / "checks.py"
    checks.write_text(checks.read_text(encoding="utf-8") + "\n# edited by the instructor\n", encoding="utf-8")
    return bank


@pytest.mark.parametrize("kind", ["seed", "bank", "version"])
def test_merge_refuses_shards_graded_differently(graded, kind, runner, monkeypatch) -> None:
    """Another seed, other problem files or another grader version: a one-line error, nothing written."""
    if kind == "seed":
        other = _shard_again(graded, "other-seed", seed=12345)
    elif kind == "bank":
        other = _shard_again(graded, "other-bank", problems_dir=(_private_bank(graded["root"]),))
    else:
        with monkeypatch.context() as patched:
            patched.setattr(batch_run, "__version__", "0.0.1-other")
            other = _shard_again(graded, "other-version")
    out = graded["root"] / f"merged-{kind}"
    result = runner.invoke(cli, ["merge", str(graded["s1"]), str(other), "--out", str(out)])
    assert result.exit_code == 2
    label = {"seed": "seeds", "bank": "problem bank", "version": "grader version"}[kind]
    assert f"different {label}" in result.output
    assert len(result.output.strip().splitlines()) == 1
    assert not (out / "journal.jsonl").exists() and not (out / "grades.csv").exists()


def test_merge_refuses_a_missing_repeated_or_unfinished_shard(graded, runner) -> None:
    s1, root = str(graded["s1"]), graded["root"]
    other_n = _shard_again(graded, "three", i=2, n=3)
    unfinished = root / "unfinished"
    unfinished.mkdir()
    (unfinished / "journal.jsonl").write_text("", encoding="utf-8")
    cases = {
        (s1,): "shard 2 of 2 missing",
        (s1, s1): "are both shard 1/2",
        (s1, str(other_n)): "shards of one batch share N",
        (s1, str(unfinished)): "not a finished shard",
    }
    for folders, message in cases.items():
        result = runner.invoke(cli, ["merge", *folders, "--out", str(root / "never")])
        assert result.exit_code == 2, folders
        assert message in result.output, (folders, result.output)
        assert len(result.output.strip().splitlines()) == 1


def test_merge_needs_the_shards_problems_on_the_merging_machine(graded) -> None:
    bank = graded["root"] / "bank" if (graded["root"] / "bank").exists() else _private_bank(graded["root"])
    with pytest.raises(GraderError, match="other problem files than this machine's bank"):
        merge_shards([graded["s1"], graded["s2"]], graded["root"] / "merged-here", problems_dir=(bank,))


def test_merge_refuses_a_shard_whose_journal_lacks_a_result(graded) -> None:
    broken = graded["root"] / "broken"
    shutil.copytree(graded["s2"], broken)
    lines = (broken / "journal.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
    (broken / "journal.jsonl").write_text("".join(lines[:-1]), encoding="utf-8")
    with pytest.raises(GraderError, match="no current result for .*--resume"):
        merge_shards([graded["s1"], broken], graded["root"] / "merged-broken")
    assert not (graded["root"] / "merged-broken" / "journal.jsonl").exists()


def test_a_shard_resumes_only_as_the_same_shard(graded) -> None:
    """--resume with another --shard (or none) would mix two subsets in one folder: refused."""
    with pytest.raises(GraderError, match="holds shard 1/2; resume it with --shard 1/2"):
        run_batch(BatchOptions(graded["subs"], graded["s1"], problems=PROBLEMS, shard=(2, 2), resume=True))
    with pytest.raises(GraderError, match="holds shard 1/2"):
        run_batch(BatchOptions(graded["subs"], graded["s1"], problems=PROBLEMS, resume=True))
    again = run_batch(BatchOptions(graded["subs"], graded["s1"], problems=PROBLEMS, shard=(1, 2), resume=True))
    assert again.graded == 0


def test_bad_shard_option_is_a_one_line_error(graded, runner) -> None:
    result = runner.invoke(cli, ["batch", str(graded["subs"]), "--shard", "3/2", "--out", str(graded["root"] / "x")])
    assert result.exit_code == 2
    assert "--shard 3/2: i must be between 1 and N" in result.output


WORKFLOW = TESTS.parent / "integrations" / "github-actions" / "grade-sharded.yml"


def _step(job: dict, name: str) -> str:
    return next(s["run"] for s in job["steps"] if s.get("name") == name)


def test_the_example_matrix_workflow_grades_and_merges_like_one_batch(graded, tmp_path) -> None:
    """The workflow's plan, shard and merge commands, run as its jobs run them (artifacts moved by hand)."""
    import os
    import subprocess

    import yaml

    jobs = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))["jobs"]
    assert jobs["grade"]["strategy"]["matrix"]["shard"] == "${{ fromJSON(needs.plan.outputs.shards) }}"
    env = {k: v for k, v in os.environ.items() if not k.startswith("GRADER_")}
    env.update(PATH=f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}", SUBMISSIONS=str(graded["subs"]),
               PROBLEMS=",".join(PROBLEMS), SANDBOX="auto", SHARD_COUNT="2", GITHUB_OUTPUT=str(tmp_path / "output"))

    def run(script: str, **extra: str) -> subprocess.CompletedProcess:
        return subprocess.run(["bash", "-e", "-c", script], cwd=tmp_path, env={**env, **extra}, capture_output=True,
                              text=True)

    plan = jobs["plan"]["steps"][0]["run"]
    assert run(plan).returncode == 0
    assert (tmp_path / "output").read_text() == "shards=[1, 2]\n"
    assert run(plan, SHARD_COUNT="257").returncode != 0  # a workflow run has at most 256 matrix jobs
    for i in ("1", "2"):
        done = run(_step(jobs["grade"], "Grade one shard"), SHARD_INDEX=i)
        assert done.returncode == 0, done.stderr
        (tmp_path / "shards").mkdir(exist_ok=True)
        (tmp_path / f"shard-{i}").rename(tmp_path / "shards" / f"shard-{i}")  # upload + download-artifact
    merged = run(_step(jobs["merge"], "Merge the shards"))
    assert merged.returncode == 0, merged.stderr
    out = tmp_path / "class-results"
    assert (out / "grades.csv").read_bytes() == (graded["local"] / "grades.csv").read_bytes()
    assert batch_results(out) == batch_results(graded["local"])
    assert len(list((out / "students").glob("*.json"))) == 13
