"""The batch's pure parts: near-duplicate fingerprints, the journal, discovery, the CSV numbers."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from grader.bank import ProblemBank, course_order
from grader.batch import discover
from grader.batch.fingerprint import duplicate_groups, fingerprint
from grader.batch.journal import Journal
from grader.batch.pool import WorkerPool
from grader.batch.run import select_problems

ORIGINAL = '''import numpy as np


def softmax(x, axis=-1):
    """Stable softmax."""
    shifted = x - x.max(axis=axis, keepdims=True)  # no overflow
    e = np.exp(shifted)
    return e / e.sum(axis=axis, keepdims=True)
'''

DISGUISED = '''import numpy as npy
def softmax(values,axis=-1):
    # renamed everything, reformatted
    z=values-values.max(axis=axis,keepdims=True)
    ez = npy.exp(z)

    return ez/ez.sum(axis=axis,keepdims=True)
'''


class TestFingerprint:
    def test_renamed_and_reformatted_code_has_the_same_fingerprint(self) -> None:
        """Names, comments, docstrings and layout do not change the fingerprint."""
        assert fingerprint(ORIGINAL) == fingerprint(DISGUISED) is not None

    def test_different_code_has_a_different_fingerprint(self) -> None:
        """Changing what the code does (an attribute, a constant, an operator) changes it."""
        for changed in (ORIGINAL.replace("np.exp", "np.exp2"), ORIGINAL.replace("e / e", "e * e"),
                        ORIGINAL.replace("axis=-1", "axis=0")):
            assert fingerprint(changed) != fingerprint(ORIGINAL)

    def test_annotations_and_declared_names_are_normalised_too(self) -> None:
        """Type hints do not count; names in global/nonlocal, classes and handlers are renamed."""
        hinted = (
            "count: int = 0\n"
            "class Box:\n    pass\n"
            "def bump(step: int = 1) -> int:\n"
            "    global count\n"
            "    try:\n        count += step\n    except TypeError as err:\n        raise err\n"
            "    return count\n"
        )
        plain = (
            "total: int = 0\n"
            "class Crate:\n    pass\n"
            "def grow(by=1):\n"
            "    global total\n"
            "    try:\n        total += by\n    except TypeError as problem:\n        raise problem\n"
            "    return total\n"
        )
        assert fingerprint(hinted) == fingerprint(plain) is not None
        assert fingerprint(hinted) != fingerprint(plain.replace("total += by", "total -= by"))

    def test_unparsable_or_huge_code_has_no_fingerprint(self) -> None:
        assert fingerprint("def (") is None
        assert fingerprint("x = 1\n" * 200_000) is None

    def test_groups_ignore_the_starter_file_and_singletons(self) -> None:
        """Only groups of two or more count, and the untouched stub is never a duplicate."""
        a, b, stub = fingerprint(ORIGINAL), fingerprint("x = 2\n"), fingerprint("pass\n")
        items = [("p", "ann", a), ("p", "bob", a), ("p", "cy", b), ("p", "dee", stub), ("p", "eve", stub),
                 ("q", "ann", a), ("p", "fay", None), ("p", "gus", None)]
        assert duplicate_groups(items, {"p": {stub}}) == [("p", ["ann", "bob"])]


class TestJournal:
    def _record(self, student: str, sha: str = "h1", score: float = 1.0) -> dict:
        return {"student": student, "problem": "p", "sha256": sha, "config": "c", "result": {"score": score}}

    def test_a_torn_last_line_is_cut_and_the_rest_kept(self, tmp_path: Path) -> None:
        """A write cut short by SIGKILL is dropped on reopening; appends then start on a clean line."""
        with Journal(tmp_path) as journal:
            journal.append(self._record("a"))
            journal.append(self._record("b"))
        with open(tmp_path / "journal.jsonl", "ab") as f:
            f.write(b'{"student": "c", "prob')
        with Journal(tmp_path) as journal:
            assert journal.torn > 0
            assert journal.is_current("a", "p", "h1", "c") and not journal.is_current("c", "p", "h1", "c")
            journal.append(self._record("c"))
        lines = (tmp_path / "journal.jsonl").read_text().splitlines()
        assert [json.loads(line)["student"] for line in lines] == ["a", "b", "c"]

    def test_the_latest_entry_wins_and_a_changed_hash_is_not_current(self, tmp_path: Path) -> None:
        with Journal(tmp_path) as journal:
            journal.append(self._record("a", "h1", 1.0))
            journal.append(self._record("a", "h2", 2.0))
            assert journal.read("a", "p")["result"]["score"] == 2.0
            assert journal.is_current("a", "p", "h2", "c")
            assert not journal.is_current("a", "p", "h1", "c")
            assert not journal.is_current("a", "p", "h2", "other-config")


class TestDiscovery:
    def test_flags_and_nested_files(self, tmp_path: Path) -> None:
        """Nested files are found, the shallowest wins, and links and bad bytes are flagged."""
        (tmp_path / "nested" / "sub" / "deeper").mkdir(parents=True)
        (tmp_path / "nested" / "sub" / "a.py").write_text("x = 1\n")
        (tmp_path / "nested" / "sub" / "deeper" / "a.py").write_text("x = 2\n")
        (tmp_path / "linked").mkdir()
        (tmp_path / "linked" / "a.py").symlink_to("/etc/hostname")
        (tmp_path / "bytes").mkdir()
        (tmp_path / "bytes" / "a.py").write_bytes(b"\xff\xfe")
        (tmp_path / ".hidden").mkdir()
        (tmp_path / "a.py").write_text("stray\n")
        files = {"a.py": "p"}
        assert discover.students(tmp_path) == ["bytes", "linked", "nested"]
        nested = discover.scan_student(tmp_path, "nested", files)
        assert nested.submissions[0].path == tmp_path / "nested" / "sub" / "a.py"
        assert [f.kind for f in nested.flags] == ["ambiguous"]
        linked = discover.scan_student(tmp_path, "linked", files)
        assert linked.submissions[0].error and [f.kind for f in linked.flags] == ["symlink"]
        assert [f.kind for f in discover.scan_student(tmp_path, "bytes", files).flags] == ["not_utf8"]
        assert [f.kind for f in discover.stray_files(tmp_path, set(files))] == ["stray_file"]


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="CPU affinity is a Linux feature")
class TestWorkerPinning:
    CONFIG = {"sandbox": "none", "runtimes": []}

    def test_each_worker_gets_a_cpu_of_its_own_when_there_are_enough(self, tmp_path) -> None:
        allowed = sorted(os.sched_getaffinity(0))
        pool = WorkerPool(self.CONFIG, len(allowed), log=tmp_path / "workers.log")
        try:
            procs = [pool._spawn() for _ in allowed]
            pinned = [os.sched_getaffinity(p.popen.pid) for p in procs]
            assert all(len(cpus) == 1 for cpus in pinned)
            assert sorted(cpu for cpus in pinned for cpu in cpus) == allowed
            pool._kill(procs[0])  # a replacement takes the CPU that was freed
            assert os.sched_getaffinity(pool._spawn().popen.pid) == pinned[0]
        finally:
            pool.close()

    def test_more_workers_than_cpus_are_left_to_the_kernel(self, tmp_path) -> None:
        allowed = os.sched_getaffinity(0)
        pool = WorkerPool(self.CONFIG, len(allowed) + 1, log=tmp_path / "workers.log")
        try:
            assert os.sched_getaffinity(pool._spawn().popen.pid) == allowed
        finally:
            pool.close()


def test_a_batch_takes_the_problems_in_the_course_order_of_grade_list() -> None:
    """The gradebook's columns and the report follow the specs' order:/group:, whatever was asked."""
    bank = ProblemBank()
    every = [p.name for p in select_problems(bank, None)]
    assert every == [p.name for p in course_order(bank)] and sorted(every) == sorted(bank.names())
    assert every[:3] == ["self_attention", "multi_head_attention", "masks"]
    assert [p.name for p in select_problems(bank, ["masks", "additive_attention", "self_attention"])] == [
        "self_attention", "masks", "additive_attention"
    ]
