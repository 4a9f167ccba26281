"""``grade classroom init``: make a folder a GitHub Classroom template repository for some problems."""

from __future__ import annotations

from pathlib import Path

import click

from grader.errors import GraderError
from grader.messages import t


@click.group("classroom")
def classroom() -> None:
    """GitHub Classroom: the autograding workflow of a learner template repository."""


@classroom.command("init")
@click.argument("directory", required=False, type=click.Path(file_okay=False, path_type=Path), default=Path("."))
@click.option("--problems", "names", default=None, help="Comma-separated problems to grade (default: all).")
@click.option(
    "--install",
    default=None,
    help="What the workflow pip-installs, e.g. git+https://github.com/ORG/attention-grader@v0.1.0 "
    "(default: where this grader was installed from, when a runner can reach it).",
)
@click.option(
    "--private-bank", default=None, metavar="OWNER/REPO",
    help="Check out this private problem bank with the GRADER_BANK_TOKEN secret.",
)
@click.option("--force", is_flag=True, help="Replace an existing workflow.")
@click.pass_context
def init(
    ctx: click.Context, directory: Path, names: str | None, install: str | None, private_bank: str | None, force: bool
) -> None:
    """Write DIRECTORY/.github/workflows/classroom.yml and the starter files it grades."""
    from grader import classroom_workflow
    from grader.bank import course_order
    from grader.cli import CliError, _bank
    from grader.messages import t, text

    bank = _bank(ctx)
    try:
        wanted = [n.strip() for n in names.split(",") if n.strip()] if names else bank.names()
        problems = course_order(bank.get(name) for name in wanted)
        source = classroom_workflow.InstallSource(install, text("classroom.how_option")) if install else None
        written, source = classroom_workflow.write_template(
            directory, problems, install=source, private_bank=private_bank, force=force
        )
    except GraderError as err:
        raise CliError(str(err)) from None
    for path in written:
        click.echo(t("classroom.wrote", path=path))
    click.echo(t("classroom.installs", spec=source.spec, how=source.how))
    points = sum(p.spec.max_score for p in problems)
    click.echo(t("classroom.will_grade", names=", ".join(p.name for p in problems), points=f"{points:g}"))
