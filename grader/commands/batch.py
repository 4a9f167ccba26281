"""``grade batch`` (grade a class) and, later, ``grade merge`` (issue 9): parse, call, render."""

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
@click.option("--per-student", "per_student", multiple=True, metavar="FORMAT",
              help="Also write one file per student in this format (json).")
@click.pass_context
def batch(ctx: click.Context, submissions: Path, problems: list[str] | None, jobs: int | None, out: Path,
          seed: int | None, resume: bool, sandbox: str, per_student: tuple[str, ...]) -> None:
    """Grade a class: every student folder in SUBMISSIONS x every problem.

    \b
    SUBMISSIONS holds one folder per student (a GitHub Classroom clone or an LMS download).
    Writes grades.csv, results.jsonl and report.html into --out. Interrupted? Run it again
    with --resume: finished results are kept, changed submissions are regraded.
    """
    from grader.batch.progress import BarProgress
    from grader.batch.run import BatchInterrupted, BatchOptions, run_batch
    from grader.cli import CliError

    root = ctx.find_root()
    options = BatchOptions(
        submissions=submissions, out=out, problems=problems, jobs=jobs, seed=seed, resume=resume,
        sandbox=sandbox, problems_dir=tuple(root.params.get("problems_dir") or ()), per_student=per_student,
    )
    try:
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


#: ``grade merge`` (combining sharded batch outputs) is issue 9; the CLI hides it until it exists.
merge: click.Command | None = None
