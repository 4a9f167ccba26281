"""``grade validate [DIR]``: check a problem bank (or one problem) before learners see it."""

from __future__ import annotations

from pathlib import Path

import click

from grader.errors import GraderError

_COLOURS = {"ok": "green", "fail": "red", "skipped": "yellow"}


@click.command("validate")
@click.argument("directory", required=False, type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--seed", type=int, default=None, help="Seed of the hidden inputs (default: GRADER_SEED, else each problem's).")
@click.pass_context
def validate(ctx: click.Context, directory: Path | None, seed: int | None) -> None:
    """Check every problem of the bank at DIRECTORY (default: all banks in use).

    \b
    Each spec loads; the reference scores full marks; the stub is not_attempted;
    every declared mistake is diagnosed on a wrong solution of tests/corpus/<id>/;
    two runs with one seed agree. Exit code 1 when anything fails.
    """
    from rich.cells import cell_len
    from rich.console import Console
    from rich.markup import escape

    from grader.messages import t

    from grader import validate as library
    from grader.cli import CliError

    console = Console(highlight=False, soft_wrap=True)

    def show(finding: library.Finding) -> None:
        detail = f"  {escape(finding.detail.get())}" if finding.detail.get() else ""
        label, colour = t(f"validate.{finding.outcome}"), _COLOURS[finding.outcome]
        console.print(f"[{colour}]{escape(label)}{' ' * max(1, 9 - cell_len(label))}[/]"
                      f"{finding.problem:<22} {finding.step:<12}{detail}")

    extra = tuple(ctx.find_root().params.get("problems_dir") or ())
    try:
        findings = library.validate(directory, extra_roots=extra, seed=seed, report=show)
    except GraderError as err:
        raise CliError(str(err)) from None
    problems = sorted({f.problem for f in findings})
    failed = sorted({f.problem for f in findings if f.outcome == "fail"})
    skipped = sum(1 for f in findings if f.outcome == "skipped")
    if not problems:
        raise CliError(t("validate.nothing", what=directory or t("validate.the_bank")))
    note = escape(t("validate.steps_skipped", n=skipped)) if skipped else ""
    if failed:
        headline = escape(t("validate.failed", failed=len(failed), total=len(problems)))
        console.print(f"[bold red]{headline}[/]: {', '.join(failed)}{note}")
        ctx.exit(1)
    console.print(f"[bold green]{escape(t('validate.all_valid', total=len(problems)))}[/]{note}")
