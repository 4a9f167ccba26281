"""Dask throughput: ``grade batch --scheduler`` on a 2-worker LocalCluster against ``grade batch --jobs 2``.

    python benchmarks/bench_dask.py [--students 200] [--problems a,b] [--workers 2] [--seed 0]

Makes the synthetic class (benchmarks/make_class.py; every problem in the bank unless
``--problems``), then, on this one machine:

1. grades it with the local pool (``--jobs W``);
2. starts ``distributed.LocalCluster(W workers, 1 thread each, processes, loopback)`` (start-up
   time printed on its own: a real cluster is already running when a batch is sent to it) and
   grades the same class through it (``--scheduler``), each worker's grading process starting on
   its first task as the local pool's do;
3. sends the same jobs through the same executor with a task that only echoes its JSON (no
   grading): its wall time per submission is the Dask round trip, i.e. the scheduling overhead;
   and, for comparison, as many bare tasks in one ``client.map`` (Dask's own floor).

Prints the results' equality (grades.csv byte for byte), both throughputs and their ratio, the
worker-seconds per result (wall x workers / results: what a projection multiplies), and the
overhead per submission. Both batches must grade every submission alike, or the benchmark stops
without a ratio (benchmarks/measure.py). Needs the dask extra (``pip install ".[dask]"``). Timings vary with
the machine's load; compare the two rows of one run, not runs on different machines.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT))
from make_class import make_class  # noqa: E402
from measure import require  # noqa: E402

import grader  # noqa: E402, F401  (single-threaded numpy/torch before anything imports them)
from grader.bank import ProblemBank  # noqa: E402
from grader.batch import discover  # noqa: E402
from grader.batch.pool import Job  # noqa: E402
from grader.batch.run import BatchOptions, run_batch  # noqa: E402


def timed_batch(options: BatchOptions) -> tuple[float, int]:
    """(wall s, results) of one batch."""
    started = time.perf_counter()
    summary = run_batch(options)
    return time.perf_counter() - started, summary.results


def echo_jobs(subs: Path, problems: list[str] | None) -> list[Job]:
    bank = ProblemBank()
    chosen = [bank.get(p) for p in problems] if problems else list(bank)
    learner_files = {p.spec.learner_file: p.name for p in chosen}
    jobs: list[Job] = []
    for name in discover.students(subs):
        for sub in discover.scan_student(subs, name, learner_files).submissions:
            if sub.error is None:
                jobs.append(Job(len(jobs), sub.problem, str(sub.path), 0, 60.0))
    return jobs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=200)
    parser.add_argument("--problems", default="", help="comma-separated problem names (default: all)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    import distributed

    from grader.batch import dask_worker
    from grader.batch.dask_executor import DaskExecutor

    problems = [p for p in args.problems.split(",") if p] or None
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        subs = tmp_path / "class"
        manifest = make_class(subs, args.students, seed=args.seed, problems=problems, broken=False)
        expected = sum(len(got) for got in manifest["students"].values())
        local_wall, results = timed_batch(
            BatchOptions(subs, tmp_path / "local", problems=problems, jobs=args.workers))
        require(results == expected, f"grade batch --jobs graded {results} of the class's {expected} submissions")

        started = time.perf_counter()
        cluster = distributed.LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                                           host="127.0.0.1", dashboard_address="127.0.0.1:0", silence_logs=40)
        client = distributed.Client(cluster, set_as_default=False)
        client.wait_for_workers(args.workers)
        cluster_s = time.perf_counter() - started
        try:
            dask_wall, dask_results = timed_batch(
                BatchOptions(subs, tmp_path / "dask", problems=problems, scheduler=cluster.scheduler_address))

            jobs = echo_jobs(subs, problems)
            executor = DaskExecutor(cluster.scheduler_address, {"isolation": "limits"}, task="echo")
            echoed: list[int] = []
            echo_started = time.perf_counter()
            executor.run(iter(jobs), lambda job, reply: echoed.append(job.id))
            echo_wall = time.perf_counter() - echo_started
            executor.close()
            require(len(echoed) == len(jobs), f"the echo task answered {len(echoed)} of {len(jobs)} jobs")

            ids = [json.dumps({"id": i}) for i in range(len(jobs))]  # bare tasks: tiny payloads, one map
            bare_started = time.perf_counter()
            bare = client.gather(client.map(dask_worker.echo, ["{}"] * len(ids), ids, pure=False))
            bare_wall = time.perf_counter() - bare_started
            require(len(bare) == len(ids), f"{len(bare)} of {len(ids)} bare tasks answered")
        finally:
            client.close()
            cluster.close()

        same = (tmp_path / "local" / "grades.csv").read_bytes() == (tmp_path / "dask" / "grades.csv").read_bytes()
        require(dask_results == results and same,
                f"the Dask batch differs from the local one ({dask_results} results against {results}, "
                f"grades.csv identical: {same})")
        print(f"class: {args.students} students, {results} results ({dask_results} on Dask), "
              f"problems: {args.problems or 'all'}, {args.workers} workers, seed {args.seed}, {os.cpu_count()} cores")
        print(f"grades.csv identical: {same}")
        w = args.workers
        print(f"local --jobs {w}   : {local_wall:7.2f} s wall  {results / local_wall:7.1f} results/s  "
              f"{1000 * local_wall * w / results:6.1f} worker-ms/result")
        print(f"dask LocalCluster : {dask_wall:7.2f} s wall  {dask_results / dask_wall:7.1f} results/s  "
              f"{1000 * dask_wall * w / dask_results:6.1f} worker-ms/result  "
              f"(cluster start-up {cluster_s:.2f} s, not counted)")
        print(f"throughput ratio (dask / local): {local_wall / dask_wall:.2f}")
        print(f"scheduling overhead (echo task, same jobs): {1000 * echo_wall / len(jobs):.2f} ms wall/submission "
              f"over {len(jobs)} submissions")
        print(f"bare Dask tasks (one client.map of {len(ids)} echo tasks): {1000 * bare_wall / len(ids):.2f} ms wall/task")
        print(f"extra wall per result on dask: {1000 * (dask_wall - local_wall) / results:+.2f} ms")


if __name__ == "__main__":
    main()
