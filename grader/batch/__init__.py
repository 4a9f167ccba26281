"""Instructor batch grading: every student x problem of a class, in parallel, resumable.

``grade batch SUBMISSIONS_DIR`` is :func:`grader.batch.run.run_batch`. The pieces, one job each:

* :mod:`~grader.batch.discover`: find student folders and their learner files; flag data problems;
* :mod:`~grader.batch.journal`: the append-only, crash-safe record of finished results (resume);
* :mod:`~grader.batch.pool` and :mod:`~grader.batch.worker`: N grading processes, each holding
  one warm zygote, talking JSON lines (never pickle) to the scheduler;
* :mod:`~grader.batch.fingerprint`: near-duplicate detection on normalised code;
* :mod:`~grader.batch.gradebook`: grades.csv, results.jsonl and per-student writers;
* :mod:`~grader.batch.report` and :mod:`~grader.batch.svg`: the self-contained report.html;
* :mod:`~grader.batch.shard` and :mod:`~grader.batch.merge`: ``--shard i/N`` and ``grade merge``;
* :mod:`~grader.batch.dask_executor` and :mod:`~grader.batch.dask_worker`: ``--scheduler``, the
  same jobs on a Dask cluster (the optional ``dask`` extra, imported only then);
* :mod:`~grader.batch.config`: what a result depends on besides the submission (its hash), which
  the client, its workers and ``grade merge`` all check.

Each module imports only modules listed after ``run`` (``tests/test_imports.py`` keeps the
package free of import circles, including imports inside functions).
"""

from __future__ import annotations

__all__ = ["BatchOptions", "BatchSummary", "run_batch"]


def __getattr__(name: str):  # lazy: importing grader.batch must stay cheap
    if name in __all__:
        from grader.batch import run

        return getattr(run, name)
    raise AttributeError(name)
