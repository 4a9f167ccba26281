"""``grade batch`` (grade a class, here, on a shard, or on a Dask cluster) and ``grade merge``: parse, call, render."""

from __future__ import annotations

from pathlib import Path

import click

from grader.cli import SANDBOX_MODES
from grader.errors import GraderError
from grader.messages import t


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
@click.option("--overrides", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="An instructor's grades (CSV: question, student, points, comment; review.csv filled in works) "
                   "that replace the grader's; kept in --out and applied on every --resume.")
@click.option("--sandbox", type=click.Choice(SANDBOX_MODES), default="auto", show_default=True,
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
          seed: int | None, resume: bool, overrides: Path | None, sandbox: str, per_student: tuple[str, ...],
          shard_text: str | None, scheduler: str | None) -> None:
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
            overrides=overrides,
        )
        with BarProgress() as progress:
            summary = run_batch(options, progress)
    except BatchInterrupted as err:
        click.echo(t("batch.interrupted", reason=str(err)), err=True)
        ctx.exit(130)
    except GraderError as err:
        raise CliError(str(err)) from None
    files = ", ".join(str(summary.out / f) for f in summary.files)
    click.echo(t(
        "batch.summary", students=summary.students, results=summary.results, graded=summary.graded,
        seconds=summary.seconds, mean=summary.mean_percent, flags=summary.flags,
        errors=grader_errors_text(summary.grader_errors), files=files,
    ))
    if summary.grader_errors:
        ctx.exit(GRADER_ERROR_EXIT)


#: Exit status of a batch that finished with grader errors (results that are no grade).
GRADER_ERROR_EXIT = 3


def grader_errors_text(failed: list[tuple[str, str]]) -> str:
    """``; 2 grader errors (no grade, run again with --resume): alice/masks, bob/qa`` or ""."""
    if not failed:
        return ""
    shown = ", ".join(f"{student}/{problem}" for student, problem in failed[:5])
    more = t("batch.and_more", n=len(failed) - 5) if len(failed) > 5 else ""
    key = "batch.grader_error_one" if len(failed) == 1 else "batch.grader_error_many"
    return t(key, n=len(failed), shown=shown, more=more)


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
    click.echo(t(
        "batch.merge_summary", shards=len(shards), students=summary.students, results=summary.results,
        mean=summary.mean_percent, flags=summary.flags, errors=grader_errors_text(summary.grader_errors), files=files,
    ))
    if summary.grader_errors:
        ctx.exit(GRADER_ERROR_EXIT)
