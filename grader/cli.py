"""The ``grade`` command: parse, call one library function, render. Nothing else lives here.

``grade NAME`` (the problem's name *is* the command) grades ``./NAME.py``; the other commands
are ``all``, ``list``, ``show`` and ``init``. Library errors become one-line messages with exit
code 2; a graded run exits 0 at full marks and 1 otherwise; a failure of the grader itself (no
verdict) exits 3; Ctrl-C exits 130 with one line.

The language (``--lang`` on the group or on any command, ``GRADER_LANG``, the locale) is resolved
before click parses anything, so even ``--help`` speaks it (see :mod:`grader.i18n`).
"""

from __future__ import annotations

import os
import sys
import warnings
from pathlib import Path
from typing import Any

import click

from grader import __version__, i18n
from grader.errors import GraderError, GraderFault, UnknownProblem
from grader.messages import t, text

FORMATS = ("table", "json")
#: Formats of graded results (grader.render.FORMATS): table, json, gradescope, classroom, junit, exercism.
GRADE_FORMATS = ("table", "json", "gradescope", "classroom", "junit", "exercism")
#: The --sandbox modes (grader.worker.sandbox.MODES, spelled out so that --help loads no sandbox code).
SANDBOX_MODES = ("auto", "full", "user", "limits", "none")


class CliError(click.ClickException):
    """A one-line error with exit code 2 (usage or configuration)."""

    exit_code = 2


class FaultError(click.ClickException):
    """The grader itself failed (no verdict on the learner's code): one line, exit code 3."""

    exit_code = 3



def _bank(ctx: click.Context):
    from grader.bank import ProblemBank

    root = ctx.find_root()
    if "bank" not in root.meta:
        try:
            root.meta["bank"] = ProblemBank(tuple(root.params.get("problems_dir") or ()))
        except GraderError as err:
            raise CliError(str(err)) from None
    return root.meta["bank"]


def _set_lang(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
    if value:
        i18n.use(value)


def _lang_option() -> click.Option:
    return click.Option(
        ["--lang"], type=click.Choice(i18n.LANGS), expose_value=False, is_eager=True, callback=_set_lang,
        help="Language of the output: en or zh (default: GRADER_LANG, else the locale, else en).",
    )


def _lang_in(args: list[str]) -> str | None:
    """The value of the last ``--lang X`` / ``--lang=X`` in ``args`` (before a ``--``), if any."""
    found = None
    for i, arg in enumerate(args):
        if arg == "--":
            break
        if arg == "--lang" and i + 1 < len(args):
            found = args[i + 1]
        elif arg.startswith("--lang="):
            found = arg.split("=", 1)[1]
    return found


def _resolve_lang(args: list[str]) -> None:
    """Speak the language asked for before click renders anything (help included)."""
    explicit = _lang_in(args)
    try:
        lang = i18n.resolve(explicit if explicit in i18n.LANGS else None)
    except ValueError:
        value = os.environ.get(i18n.LANG_ENV, "")
        raise CliError(
            t("cli.bad_lang_env", i18n.DEFAULT, name=i18n.LANG_ENV, value=value, choices=", ".join(i18n.LANGS))
        ) from None
    i18n.use(lang)
    if lang != i18n.DEFAULT:
        from grader import cli_help

        cli_help.patch_click()


def _localise(command: click.Command) -> None:
    """Help in the chosen language (English help is the id; grader/cli_help.py translates it)."""
    if i18n.current() != i18n.DEFAULT or "_english_help" in command.__dict__:
        from grader import cli_help

        cli_help.localise(command)
        if isinstance(command, click.Group):
            for sub in command.commands.values():
                cli_help.localise(sub)


def _emit(text: str) -> None:
    click.echo(text)


def _emit_results(results: list, fmt: str, verbose: bool, instructor: bool, combined: bool = False) -> None:
    """Render graded results on stdout, and the format's log, if any, on stderr (classroom)."""
    from grader.render import log_text, render

    shown = {"verbose": verbose, "instructor": instructor}
    try:
        text, log = render(results, fmt, combined=combined, **shown), log_text(results, fmt, **shown)
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
    fn = click.option(
        "--instructor", is_flag=True,
        help="Also show what graders hide from learners: hidden checks' inputs, messages and output, "
        "and the qa answers with their explanations.",
    )(fn)
    fn = click.option(
        "-v", "--verbose", is_flag=True, help="Show timings, the seed and your code's output (of visible checks)."
    )(fn)
    fn = click.option(
        "--no-history", is_flag=True,
        help="Do not add this grading to .grade-history.jsonl (also GRADER_HISTORY=off).",
    )(fn)
    return fn


def _record(results: list, folder: Path, fmt: str, no_history: bool) -> None:
    """Add local gradings to the folder's history (grader.history says when not); a failure is a warning."""
    from grader import history

    warning = history.record_where_kept(results, folder, fmt, no_history)
    if warning:
        click.echo(warning, err=True)


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


def _live_status(fmt: str) -> Any:
    """The "which check is running" line on a terminal (grader.render.live), or None."""
    from grader.render.live import CheckStatus

    return CheckStatus() if CheckStatus.wanted(fmt) else None


def _when_running(fmt: str, status: Any) -> Any:
    """What to start once the worker exists: the renderer's import, and the status line."""
    if fmt != "table":
        return None

    def start() -> None:
        _prefetch_renderer()
        if status is not None:
            status.start()

    return start


def _learner_path(learner_file: str) -> Path:
    """``./NAME.py``, else the notebook ``./NAME.ipynb`` when only that is here."""
    from grader.submission import find

    return find(Path("."), learner_file) or Path(learner_file)


def _grade_problem_command(name: str, learner_file: str) -> click.Command:
    help_text = text("cli.problem_help", file=learner_file, name=name)

    @click.command(name=name, help=help_text.en)
    @click.option(
        "--file", "file", type=click.Path(dir_okay=False, path_type=Path), default=None, help="Grade this file instead."
    )
    @click.option("--watch", is_flag=True, help="Grade again each time the file is saved, until Ctrl-C.")
    @_grade_options
    @click.pass_context
    def command(
        ctx: click.Context, file: Path | None, watch: bool, fmt: str, seed: int | None, sandbox: str,
        timeout_s: float | None, verbose: bool, instructor: bool, no_history: bool,
    ) -> None:
        from grader import engine

        problem = _bank(ctx).get(name)
        try:
            path = file or _learner_path(problem.spec.learner_file)
            if not path.exists():
                if file is None:
                    raise CliError(t("cli.no_file", path=path, name=name))
                raise CliError(t("cli.no_such_path", path=path))
            if watch:
                if fmt != "table":
                    raise CliError(t("watch.needs_table", fmt=fmt))
                from grader.commands import watch as watching

                watching.run(problem, path, seed=seed, sandbox=sandbox, timeout_s=timeout_s, verbose=verbose,
                             instructor=instructor, no_history=no_history)
                return  # (only Ctrl-C ends a watch: GradeGroup.invoke exits 130)
            status = _live_status(fmt)
            try:
                result = engine.grade(
                    problem, path, seed=seed, sandbox_mode=sandbox, timeout_s=timeout_s,
                    while_learner_runs=_when_running(fmt, status), on_check=status and status.on_check,
                )
            finally:
                if status is not None:
                    status.stop()
        except GraderError as err:
            raise CliError(str(err)) from None
        except GraderFault as err:
            raise FaultError(str(err)) from None
        _emit_results([result], fmt, verbose, instructor)
        _record([result], path.parent, fmt, no_history)
        _fast_exit_allowed()
        ctx.exit(0 if result.status == "pass" else 1)

    command.help_in_every_language = help_text
    return command


#: Sub-commands that live in their own modules, imported only when used ("name": "module:attr").
LAZY_COMMANDS = {
    "batch": "grader.commands.batch:batch",
    "merge": "grader.commands.batch:merge",
    "quiz": "grader.commands.quiz:quiz",
    "validate": "grader.commands.validate:validate",
    "progress": "grader.commands.progress:progress",
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

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        _resolve_lang(args)
        _localise(self)
        return super().parse_args(ctx, args)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        command = self._find_command(ctx, cmd_name)
        if command is not None and not any(p.name == "lang" for p in command.params):
            command.params.append(_lang_option())  # every command speaks the chosen language
        if command is not None:
            _localise(command)
        return command

    def _find_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        builtin = super().get_command(ctx, cmd_name)
        if builtin is not None:
            return builtin
        if cmd_name in LAZY_COMMANDS:
            return _lazy(cmd_name)
        if cmd_name in _bank(ctx):
            return _grade_problem_command(cmd_name, _bank(ctx).get(cmd_name).spec.learner_file)
        return None

    def invoke(self, ctx: click.Context) -> Any:
        """Run the command; Ctrl-C ends it with one line and exit code 130 (click would say
        "Aborted!" and exit 1, which means "graded, not full")."""
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            click.echo("\n" + t("cli.interrupted"), err=True)
            raise click.exceptions.Exit(130) from None

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
        from grader.bank import course_order

        try:
            problems = [(p.name, p.spec.title.get()) for p in course_order(_bank(ctx))]
        except (GraderError, click.ClickException):
            return
        with formatter.section(t("cli.problems_section")):
            formatter.write_dl(problems)


@click.group(cls=GradeGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", prog_name="grade")
@click.option(
    "--lang", type=click.Choice(i18n.LANGS), expose_value=False, is_eager=True, callback=_set_lang,
    help="Language of the output: en or zh (default: GRADER_LANG, else the locale, else en). "
    "Also accepted after the command.",
)
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
    click.echo(t("cli.warning", message=str(message)), err=True)


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
@click.option("--notebook", is_flag=True, help="Write a Jupyter/Colab notebook NAME.ipynb instead.")
@click.option("--install", default=None, metavar="SPEC",
              help="With --notebook: what its install cell pip-installs (default: where this grader came from).")
@click.pass_context
def init_command(ctx: click.Context, name: str, directory: Path, force: bool, notebook: bool,
                 install: str | None) -> None:
    """Copy a problem's starter file into DIRECTORY (default: here), commented in the chosen language."""
    install_spec = None
    try:
        problem = _bank(ctx).get(name)
        if notebook:
            from grader.notebook import starter

            target, install_spec = starter.notebook_path(problem, directory), starter.colab_install(install)
        else:
            target = directory / problem.spec.learner_file
        if target.exists() and not force:
            raise CliError(t("cli.init_exists", target=target))
        directory.mkdir(parents=True, exist_ok=True)
        if notebook:
            starter.write(problem, target, i18n.current(), install_spec)
        else:
            import shutil

            shutil.copyfile(problem.stub_for(i18n.current()), target)
    except GraderError as err:
        raise CliError(str(err)) from None
    except OSError as err:
        raise CliError(t("cli.init_cannot_write", directory=directory, reason=err.strerror)) from None
    if notebook:
        click.echo(t("cli.init_wrote_notebook", target=target))
        if install_spec is None:
            click.echo(t("cli.warning", message=t("notebook.install_unknown", target=target, version=__version__)),
                       err=True)
        return
    command = name + (f" --file {target}" if directory != Path(".") else "")
    click.echo(t("cli.init_wrote", target=target, command=command))


@cli.command("all")
@click.option(
    "--dir", "directory", type=click.Path(file_okay=False, path_type=Path), default=Path("."), help="Folder to look in."
)
@_grade_options
@click.pass_context
def all_command(
    ctx: click.Context, directory: Path, fmt: str, seed: int | None, sandbox: str, timeout_s: float | None,
    verbose: bool, instructor: bool, no_history: bool,
) -> None:
    """Grade every problem whose learner file is in the folder."""
    from grader import engine
    from grader.bank import course_order

    bank = _bank(ctx)
    status = _live_status(fmt)
    try:
        results = engine.grade_all(
            course_order(bank), directory, seed=seed, sandbox_mode=sandbox, timeout_s=timeout_s,
            while_learner_runs=_when_running(fmt, status), on_check=status and status.on_check,
        )
    except GraderError as err:
        raise CliError(str(err)) from None
    except GraderFault as err:
        raise FaultError(str(err)) from None
    finally:
        if status is not None:
            status.stop()
    if not results:
        raise CliError(t("cli.no_learner_files", directory=directory))
    _emit_results(results, fmt, verbose, instructor, combined=True)
    _record(results, directory, fmt, no_history)
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
    except KeyboardInterrupt:  # before or after a command runs (GradeGroup.invoke handles it during one)
        click.echo("\n" + t("cli.interrupted"), err=True)
        sys.exit(130)
    except SystemExit as done:
        if not _FAST_EXIT:
            raise
        code = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
