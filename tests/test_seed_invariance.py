"""One mistake, one verdict, whatever the seed.

Every named mistake of the corpus (``diagnosis:`` in tests/corpus/*/expected.yaml) is graded on
20 seeds, and each check must end the same way on all of them: the same status and the same named
mistake, with the expected diagnosis present every time. A check whose inputs let a mistake pass on
some seeds and fail on others gives a learner a grade by luck (issue 19: the missing scale passed
or failed ``large_logits`` depending on the seed).

About 1,400 gradings, batched through the batch's own warm worker pool (grader.batch.pool), two
workers: about a minute here.
"""

from __future__ import annotations

import os
from collections import defaultdict
from pathlib import Path

import pytest
import yaml

from conftest import CORPUS
from grader.bank import ProblemBank
from grader.batch.pool import Job, WorkerPool
from grader.worker import sandbox

SEEDS = range(20)


def corpus_mistakes() -> list[tuple[str, Path, str]]:
    """(problem, file, expected mistake id) for every named mistake of the corpus."""
    found = []
    for expected_file in sorted(CORPUS.glob("*/expected.yaml")):
        for name, expectation in (yaml.safe_load(expected_file.read_text(encoding="utf-8")) or {}).items():
            if expectation and "diagnosis" in expectation:
                found.append((expected_file.parent.name, expected_file.parent / name, expectation["diagnosis"]))
    return found


@pytest.mark.slow
def test_every_corpus_mistake_gets_the_same_verdict_on_every_seed(tmp_path: Path) -> None:
    cases = corpus_mistakes()
    assert len(cases) > 50  # the corpus was found
    bank = ProblemBank()
    runtimes = sorted({bank.get(problem).spec.runtime for problem, _, _ in cases})
    isolation = sandbox.resolve("auto", batch=True)
    config = {"runtime": "torch", "runtimes": runtimes, "sandbox": isolation, "isolation": isolation,
              "configs": {}, "problems_dir": []}
    jobs = [Job(len(cases) * seed + i, problem, str(path), seed, 120.0)
            for seed in SEEDS for i, (problem, path, _) in enumerate(cases)]
    replies: dict[int, dict] = {}
    pool = WorkerPool(config, min(2, os.cpu_count() or 1), log=tmp_path / "workers.log")
    try:
        pool.run(iter(jobs), lambda job, reply: replies.__setitem__(job.id, reply))
    finally:
        pool.close()
    assert len(replies) == len(jobs)

    problems: list[str] = []
    for i, (problem, path, mistake) in enumerate(cases):
        verdicts: dict[str, dict[tuple[str, str | None], list[int]]] = defaultdict(lambda: defaultdict(list))
        for seed in SEEDS:
            reply = replies[len(cases) * seed + i]
            assert "result" in reply, f"{problem}/{path.name} seed {seed}: {reply.get('error')}"
            result = reply["result"]
            if mistake not in {c["diagnosis"]["id"] for c in result["checks"] if c["diagnosis"]}:
                problems.append(f"{problem}/{path.name}, seed {seed}: {mistake} is not diagnosed")
            for check in result["checks"]:
                named = check["diagnosis"]["id"] if check["diagnosis"] else None
                verdicts[check["id"]][(check["status"], named)].append(seed)
        for check_id, seen in verdicts.items():
            if len(seen) > 1:
                ways = "; ".join(f"{status} ({named or 'no mistake named'}) on seeds {seeds[:5]}"
                                 for (status, named), seeds in seen.items())
                problems.append(f"{problem}/{path.name}: check {check_id} varies with the seed: {ways}")
    assert not problems, "\n".join(problems)
