"""The ``grade`` command: parse, call one library function, render. Nothing else lives here.

``grade NAME`` (the problem's name *is* the command) grades ``./NAME.py``; the other commands
are ``all``, ``list``, ``show`` and ``init``. Library errors become one-line messages with exit
code 2; a graded run exits 0 at full marks and 1 otherwise.
"""

from __future__ import annotations

import os
import sys
import warnings
from pathlib import Path
from typing import Any

import click

from grader import __version__
from grader.errors import GraderError, UnknownProblem

FORMATS = ("table", "json")
#: Formats of graded results (grader.render.FORMATS): table, json, gradescope, classroom, junit, exercism.
GRADE_FORMATS = ("table", "json", "gradescope", "classroom", "junit", "exercism")
SANDBOX_MODES = ("auto", "full", "limits", "none")


class CliError(click.ClickException):
    """A one-line error with exit code 2 (usage or configuration)."""

    exit_code = 2


def _bank(ctx: click.Context):
    from grader.bank import ProblemBank

    root = ctx.find_root()
    if "bank" not in root.meta:
        try:
            root.meta["bank"] = ProblemBank(tuple(root.params.get("problems_dir") or ()))
        except GraderError as err:
            raise CliError(str(err)) from None
    return root.meta["bank"]


def _emit(text: str) -> None:
    click.echo(text)


def _emit_results(results: list, fmt: str, verbose: bool, combined: bool = False) -> None:
    """Render graded results on stdout, and the format's log, if any, on stderr (classroom)."""
    from grader.render import log_text, render

    try:
        text, log = render(results, fmt, verbose=verbose, combined=combined), log_text(results, fmt, verbose=verbose)
    except GraderError as err:
        raise CliError(str(err)) from None
    _emit(text)
    if log is not None:
        click.echo(log, err=True)


def _grade_options(fn: Any) -> Any:
    """Options shared by ``grade NAME`` and ``grade all``."""
    fn = click.option(
        "--format", "fmt", type=click.Choice(GRADE_FORMATS), default="table", show_default=True, help="Output format."
    )(fn)
    fn = click.option(
        "--seed", type=int, default=None, help="Seed of the hidden inputs (default: GRADER_SEED, else the problem's)."
    )(fn)
    fn = click.option(
        "--sandbox",
        type=click.Choice(SANDBOX_MODES),
        default="auto",
        show_default=True,
        help="Isolation of the learner's code.",
    )(fn)
    fn = click.option(
        "--timeout", "timeout_s", type=click.FloatRange(min=0, min_open=True), default=None,
        help="Seconds per check (default: the problem's limit).",
    )(fn)
    fn = click.option("-v", "--verbose", is_flag=True, help="Show messages of hidden checks, timings and output.")(fn)
    return fn


def _fast_exit_allowed() -> None:
    global _FAST_EXIT
    _FAST_EXIT = True


def _prefetch_renderer() -> None:
    """Import rich in a thread while the checks run (they mostly wait on the learner's process)."""
    import threading

    def load() -> None:
        import rich.console  # noqa: F401
        import rich.table  # noqa: F401

    threading.Thread(target=load, name="prefetch-rich", daemon=True).start()


def _grade_problem_command(name: str, learner_file: str) -> click.Command:
    @click.command(name=name, help=f"Grade ./{learner_file} (your answer to the {name} problem).")
    @click.option(
        "--file", "file", type=click.Path(dir_okay=False, path_type=Path), default=None, help="Grade this file instead."
    )
    @_grade_options
    @click.pass_context
    def command(
        ctx: click.Context, file: Path | None, fmt: str, seed: int | None, sandbox: str, timeout_s: float | None,
        verbose: bool,
    ) -> None:
        from grader import engine

        problem = _bank(ctx).get(name)
        try:
            path = file or Path(problem.spec.learner_file)
            if not path.exists():
                hint = (
                    f'Run "grade init {name}" to create it, or pass --file PATH.'
                    if file is None
                    else "Check the path."
                )
                raise CliError(f"{path}: no such file. {hint}")
            result = engine.grade(
                problem, path, seed=seed, sandbox_mode=sandbox, timeout_s=timeout_s,
                while_learner_runs=_prefetch_renderer if fmt == "table" else None,
            )
        except GraderError as err:
            raise CliError(str(err)) from None
        _emit_results([result], fmt, verbose)
        _fast_exit_allowed()
        ctx.exit(0 if result.status == "pass" else 1)

    return command


#: Sub-commands that live in their own modules, imported only when used ("name": "module:attr").
LAZY_COMMANDS = {
    "batch": "grader.commands.batch:batch",
    "merge": "grader.commands.batch:merge",
    "quiz": "grader.commands.quiz:quiz",
    "validate": "grader.commands.validate:validate",
    "classroom": "grader.commands.classroom:classroom",
}


def _lazy(name: str) -> click.Command:
    import importlib

    module_name, attr = LAZY_COMMANDS[name].split(":")
    return getattr(importlib.import_module(module_name), attr)


class GradeGroup(click.Group):
    """A group whose unknown sub-commands are looked up as problem names."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(super().list_commands(ctx)) | set(LAZY_COMMANDS))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        builtin = super().get_command(ctx, cmd_name)
        if builtin is not None:
            return builtin
        if cmd_name in LAZY_COMMANDS:
            return _lazy(cmd_name)
        if cmd_name in _bank(ctx):
            return _grade_problem_command(cmd_name, _bank(ctx).get(cmd_name).spec.learner_file)
        return None

    def resolve_command(self, ctx: click.Context, args: list[str]) -> tuple[Any, Any, list[str]]:
        name = args[0]
        command = self.get_command(ctx, name)
        if command is None:
            if name.startswith("-"):
                return super().resolve_command(ctx, args)
            bank = _bank(ctx)
            raise CliError(str(UnknownProblem(name, bank.names() + self.list_commands(ctx))))
        return name, command, args[1:]

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        super().format_commands(ctx, formatter)
        try:
            problems = [(p.name, p.spec.title) for p in _bank(ctx)]
        except (GraderError, click.ClickException):
            return
        with formatter.section("Problems (grade NAME grades its file here, e.g. ./self_attention.py)"):
            formatter.write_dl(problems)


@click.group(cls=GradeGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", prog_name="grade")
@click.option(
    "--problems-dir",
    "problems_dir",
    multiple=True,
    type=click.Path(file_okay=False, path_type=Path),
    help="A private problem bank (holding problems/ and reference/) that adds or overrides problems. "
    "Also GRADER_PROBLEMS.",
)
def cli(problems_dir: tuple[Path, ...]) -> None:
    """Grade interview-practice exercises on transformer attention.

    \b
    grade list                  the problems, and which of their files are here
    grade show self_attention   the prompt
    grade init self_attention   copy the starter file here
    grade self_attention        grade ./self_attention.py
    """
    warnings.showwarning = _one_line_warning


def _one_line_warning(message: Any, category: type, filename: str, lineno: int, file: Any = None,
                      line: Any = None) -> None:
    """Library warnings (e.g. a weaker sandbox than asked for) as one line on stderr."""
    click.echo(f"grade: warning: {message}", err=True)


@cli.command("list")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="table", show_default=True)
@click.pass_context
def list_command(ctx: click.Context, fmt: str) -> None:
    """List the problems, their points, and whether their learner file is here."""
    from grader import catalog

    try:
        rows = catalog.list_problems(_bank(ctx), Path.cwd())
    except GraderError as err:
        raise CliError(str(err)) from None
    _emit(catalog.render_list(rows, fmt))


@cli.command("show")
@click.argument("name")
@click.pass_context
def show_command(ctx: click.Context, name: str) -> None:
    """Show a problem's prompt and its checks."""
    from grader import catalog

    try:
        problem = _bank(ctx).get(name)
        _emit(catalog.render_prompt(problem))
    except GraderError as err:
        raise CliError(str(err)) from None


@cli.command("init")
@click.argument("name")
@click.argument("directory", required=False, type=click.Path(file_okay=False, path_type=Path), default=Path("."))
@click.option("--force", is_flag=True, help="Overwrite an existing file.")
@click.pass_context
def init_command(ctx: click.Context, name: str, directory: Path, force: bool) -> None:
    """Copy a problem's starter file into DIRECTORY (default: here)."""
    try:
        problem = _bank(ctx).get(name)
        target = directory / problem.spec.learner_file
        if target.exists() and not force:
            raise CliError(f"{target} already exists; pass --force to overwrite it (your work would be lost)")
        directory.mkdir(parents=True, exist_ok=True)
        import shutil

        shutil.copyfile(problem.stub_file, target)
    except GraderError as err:
        raise CliError(str(err)) from None
    except OSError as err:
        raise CliError(f"{directory}: cannot write the starter file ({err.strerror})") from None
    click.echo(f"Wrote {target}. Edit it, then run: grade {name}" + (f" --file {target}" if directory != Path(".") else ""))


@cli.command("all")
@click.option(
    "--dir", "directory", type=click.Path(file_okay=False, path_type=Path), default=Path("."), help="Folder to look in."
)
@_grade_options
@click.pass_context
def all_command(
    ctx: click.Context, directory: Path, fmt: str, seed: int | None, sandbox: str, timeout_s: float | None,
    verbose: bool,
) -> None:
    """Grade every problem whose learner file is in the folder."""
    from grader import engine

    bank = _bank(ctx)
    try:
        results = engine.grade_all(list(bank), directory, seed=seed, sandbox_mode=sandbox, timeout_s=timeout_s)
    except GraderError as err:
        raise CliError(str(err)) from None
    if not results:
        raise CliError(f"{directory}: no learner files here. Start one with: grade init NAME (see grade list)")
    _emit_results(results, fmt, verbose, combined=True)
    _fast_exit_allowed()
    ctx.exit(0 if all(r.status == "pass" for r in results) else 1)


#: Set by the grading commands: their process has nothing left to clean up once it has printed.
_FAST_EXIT = False


def main() -> None:
    """Console-script entry point.

    After a grading command, exit with ``os._exit`` once output is flushed: the interpreter's
    teardown of numpy and rich costs about 35 ms (a seventh of a whole ``grade self_attention``),
    and every worker process has already been stopped and reaped by then.
    """
    try:
        cli(prog_name="grade")
    except SystemExit as done:
        if not _FAST_EXIT:
            raise
        code = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
