"""``grade quiz``: practise the qa interview questions one at a time in the terminal.

Parse the options, build a :class:`~grader.qa.quiz.QuizSession` over the qa problem's bank (the
one ``--problems-dir`` selects), and let :func:`grader.qa.quiz.run` drive it through the rich UI.
"""

from __future__ import annotations

from pathlib import Path

import click

from grader.errors import GraderError
from grader.i18n import LANGS, current
from grader.messages import t
from grader.qa.quiz import DEFAULT_COUNT, PROGRESS_FILE


@click.command("quiz")
@click.option("--topic", default=None, help="Only this topic (scaling, softmax, masks, multi_head, ...).")
@click.option("--count", type=int, default=DEFAULT_COUNT, show_default=True, help="How many questions.")
@click.option(
    "--lang", type=click.Choice(LANGS), default=None,
    help="Language: en, or zh (中文) (default: grade --lang, GRADER_LANG, else the locale).",
)
@click.option(
    "--progress",
    "progress_file",
    type=click.Path(dir_okay=False, path_type=Path),
    default=Path(PROGRESS_FILE),
    show_default=True,
    help="File that remembers your answers between runs (missed questions come back first).",
)
@click.option("--seed", type=int, default=None, help="Seed the order of new questions (default: random).")
@click.pass_context
def quiz(
    ctx: click.Context, topic: str | None, count: int, lang: str | None, progress_file: Path, seed: int | None
) -> None:
    """Answer interview questions one at a time, with feedback after each."""
    lang = lang or current()
    from rich.console import Console

    from grader.cli import CliError, _bank
    from grader.qa.bank import load_bank
    from grader.qa.present import RichQuizUI
    from grader.qa.quiz import Progress, QuizSession, run

    try:
        bank = load_bank(_bank(ctx).get("qa").folder)
        session = QuizSession(bank, Progress.load(progress_file), topic=topic, count=count, seed=seed)
    except GraderError as err:
        raise CliError(str(err)) from None

    def prompt(text: str) -> str | None:
        try:
            return click.prompt(text, default="", show_default=False, prompt_suffix=" › ")
        except click.Abort:  # end of input or Ctrl-C: stop, keeping what was answered
            click.echo()
            return None

    try:
        run(session, RichQuizUI(Console(highlight=False), lang, prompt))
    except OSError as err:
        raise CliError(t("error.quiz_progress", path=progress_file, reason=err.strerror)) from None
