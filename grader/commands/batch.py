"""``grade batch`` (grade a class, here, on a shard, or on a Dask cluster) and ``grade merge``: parse, call, render."""

from __future__ import annotations

from pathlib import Path

import click

from grader.errors import GraderError


def _problem_list(_ctx: click.Context, _param: click.Parameter, value: str | None) -> list[str] | None:
    if not value:
        return None
    return [name.strip() for name in value.split(",") if name.strip()]


@click.command("batch")
@click.argument("submissions", type=click.Path(file_okay=False, path_type=Path))
@click.option("--problems", callback=_problem_list, help="Grade only these problems (comma-separated names).")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None,
              help="Parallel grading processes (default: the core count).")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("batch-results"),
              show_default=True, help="Folder for grades.csv, results.jsonl, report.html and the journal.")
@click.option("--seed", type=int, default=None, help="Seed of the hidden inputs (default: GRADER_SEED, else the problem's).")
@click.option("--resume", is_flag=True, help="Continue a batch in --out: grade only what is missing or changed.")
@click.option("--sandbox", type=click.Choice(("auto", "full", "limits", "none")), default="auto", show_default=True,
              help="Isolation of the learners' code.")
@click.option("--format", "--per-student", "per_student", multiple=True, metavar="FORMAT",
              help="Also write one file per student in this format: json, gradescope, classroom, junit or "
                   "exercism (repeatable).")
@click.option("--shard", "shard_text", metavar="i/N",
              help="Grade only shard i of N (a stable split by student name); then `grade merge` the N --out folders.")
@click.option("--scheduler", metavar="tcp://HOST:PORT",
              help='Grade on this Dask cluster instead of here (pip install "attention-grader[dask]"); '
                   "the cluster's workers replace --jobs.")
@click.pass_context
def batch(ctx: click.Context, submissions: Path, problems: list[str] | None, jobs: int | None, out: Path,
          seed: int | None, resume: bool, sandbox: str, per_student: tuple[str, ...], shard_text: str | None,
          scheduler: str | None) -> None:
    """Grade a class: every student folder in SUBMISSIONS x every problem.

    \b
    SUBMISSIONS holds one folder per student (a GitHub Classroom clone or an LMS download).
    Writes grades.csv, results.jsonl and report.html into --out. Interrupted? Run it again
    with --resume: finished results are kept, changed submissions are regraded.
    """
    from grader.batch import shard
    from grader.batch.progress import BarProgress
    from grader.batch.run import BatchInterrupted, BatchOptions, run_batch
    from grader.cli import CliError

    root = ctx.find_root()
    try:
        options = BatchOptions(
            submissions=submissions, out=out, problems=problems, jobs=jobs, seed=seed, resume=resume,
            sandbox=sandbox, problems_dir=tuple(root.params.get("problems_dir") or ()), per_student=per_student,
            shard=shard.parse(shard_text) if shard_text is not None else None, scheduler=scheduler,
        )
        with BarProgress() as progress:
            summary = run_batch(options, progress)
    except BatchInterrupted as err:
        click.echo(f"Interrupted: {err}", err=True)
        ctx.exit(130)
    except GraderError as err:
        raise CliError(str(err)) from None
    files = ", ".join(str(summary.out / f) for f in summary.files)
    click.echo(
        f"{summary.students} students, {summary.results} results ({summary.graded} graded now) in "
        f"{summary.seconds:.1f} s; mean {summary.mean_percent:.1f}%; {summary.flags} data problems flagged. "
        f"Wrote {files}"
    )


@click.command("merge")
@click.argument("shards", nargs=-1, required=True, type=click.Path(file_okay=False, path_type=Path))
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="A new folder for the merged grades.csv, results.jsonl, report.html and journal.")
@click.option("--format", "--per-student", "per_student", multiple=True, metavar="FORMAT",
              help="Also write one file per student in this format: json, gradescope, classroom, junit or "
                   "exercism (repeatable).")
@click.pass_context
def merge(ctx: click.Context, shards: tuple[Path, ...], out: Path, per_student: tuple[str, ...]) -> None:
    """Combine the --out folders of `grade batch --shard i/N` (all N of them) into one gradebook.

    \b
    Refuses shards made with different seeds, problems, problem-bank content, sandbox or grader
    version, a missing or repeated shard, and a shard with a missing result.
    """
    from grader.batch.merge import merge_shards
    from grader.cli import CliError

    root = ctx.find_root()
    try:
        summary = merge_shards(list(shards), out, per_student, tuple(root.params.get("problems_dir") or ()))
    except GraderError as err:
        raise CliError(str(err)) from None
    files = ", ".join(str(summary.out / f) for f in summary.files)
    click.echo(
        f"{len(shards)} shards, {summary.students} students, {summary.results} results; "
        f"mean {summary.mean_percent:.1f}%; {summary.flags} data problems flagged. Wrote {files}"
    )
