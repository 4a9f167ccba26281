"""``grade validate [DIR]``: check a problem bank (or one problem) before learners see it."""

from __future__ import annotations

from pathlib import Path

import click

from grader.errors import GraderError

_STYLE = {"ok": ("ok", "green"), "fail": ("FAIL", "red"), "skipped": ("skipped", "yellow")}


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
    from rich.console import Console
    from rich.markup import escape

    from grader import validate as library
    from grader.cli import CliError

    console = Console(highlight=False, soft_wrap=True)

    def show(finding: library.Finding) -> None:
        detail = f"  {escape(finding.detail)}" if finding.detail else ""
        label, colour = _STYLE[finding.outcome]
        console.print(f"[{colour}]{label:<8}[/] {finding.problem:<22} {finding.step:<12}{detail}")

    extra = tuple(ctx.find_root().params.get("problems_dir") or ())
    try:
        findings = library.validate(directory, extra_roots=extra, seed=seed, report=show)
    except GraderError as err:
        raise CliError(str(err)) from None
    problems = sorted({f.problem for f in findings})
    failed = sorted({f.problem for f in findings if f.outcome == "fail"})
    skipped = sum(1 for f in findings if f.outcome == "skipped")
    if not problems:
        raise CliError(f"{directory or 'the bank'}: no problems to validate")
    note = f"; {skipped} step(s) skipped" if skipped else ""
    if failed:
        console.print(f"[bold red]{len(failed)} of {len(problems)} problems fail validation[/]: {', '.join(failed)}{note}")
        ctx.exit(1)
    console.print(f"[bold green]All {len(problems)} problems are valid[/]{note}")
