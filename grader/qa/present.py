"""The terminal front end of ``grade quiz``: rich panels for questions, verdicts and the summary.

Every sentence comes from :mod:`grader.qa.messages` or the bank, in the learner's language.
Input goes through ``prompt`` (``click.prompt`` in the CLI), so scripted input drives it in tests.
"""

from __future__ import annotations

from typing import Callable

from rich.console import Console
from rich.markup import escape
from rich.padding import Padding
from rich.panel import Panel
from rich.table import Table

from grader.qa.bank import Question, QuestionBank
from grader.qa.build import format_answer
from grader.qa.grading import Verdict
from grader.qa.messages import say
from grader.qa.quiz import QuizSession


def _pts(x: float) -> str:
    return f"{x:g}"


class RichQuizUI:
    """Questions one at a time on a rich console, answers through ``prompt``."""

    def __init__(self, console: Console, lang: str, prompt: Callable[[str], str | None]):
        self.console, self.lang, self.prompt = console, lang, prompt
        self.bank: QuestionBank | None = None  # set by start()

    def say(self, key: str, **params: object) -> str:
        return say(key, self.lang, **params)

    def start(self, session: QuizSession) -> None:
        self.bank = session.bank
        topics = {q.topic for q in session.questions}
        topic = ""
        if len(topics) == 1 and len(session.bank.topics) > 1:
            topic = self.say("quiz_topic", topic=session.bank.topics[topics.pop()].get(self.lang))
        line = self.say("quiz_start", count=len(session.questions), topic=topic)
        review = len(session.progress.missed([q.id for q in session.questions]))
        if review:
            line += " " + self.say("quiz_review", count=review)
        self.console.print(f"[dim]{escape(line)}[/]")

    def show_question(self, question: Question, number: int, total: int) -> None:
        assert self.bank is not None, "start() first"
        topic = self.bank.topics[question.topic].get(self.lang)
        self.console.print()
        points = self.say("quiz_points", points=_pts(question.points))
        self.console.rule(f"[bold]{number}/{total}[/] · {escape(topic)} · {points}", align="left")
        self.console.print(f"[bold]{escape(question.question.get(self.lang))}[/]")
        if question.options:
            grid = Table.grid(padding=(0, 1))
            grid.add_column(style="cyan", no_wrap=True)
            grid.add_column()
            for letter, option in question.options.items():
                grid.add_row(f"{letter}.", escape(option.get(self.lang)))
            self.console.print(Padding(grid, (0, 0, 0, 2)))
        form = self.say(f"quiz_form_{question.type}")
        if question.unit:
            form += ", " + self.say("quiz_unit", unit=question.unit)
        self.console.print(f"[dim]({escape(form)})[/]")

    def ask(self, question: Question) -> str | None:
        return self.prompt(self.say("quiz_prompt"))

    def show_unreadable(self, verdict: Verdict) -> None:
        self.console.print(f"[yellow]{escape(verdict.message(self.lang))}[/]: {escape(self.say('quiz_try_again'))}")

    def show_skipped(self, question: Question) -> None:
        self.console.print(f"[dim]{escape(self.say('quiz_skipped'))}[/]")
        self._explain(question)

    def show_verdict(self, question: Question, verdict: Verdict) -> None:
        points = f"{_pts(round(question.points * verdict.fraction, 3))}/{_pts(question.points)}"
        if verdict.passed:
            self.console.print(f"[bold green]✓ {self.say('quiz_right')}[/] {points}")
        else:
            colour, mark, word = ("yellow", "◐", "quiz_partly") if verdict.fraction > 0 else ("red", "✗", "quiz_wrong")
            self.console.print(f"[bold {colour}]{mark} {self.say(word)}[/] {points}: {escape(verdict.message(self.lang))}")
        if verdict.mistake is not None:
            assert self.bank is not None, "start() first"
            mistake = self.bank.mistakes[verdict.mistake]
            self.console.print(
                f"[bold]{self.say('quiz_mistake')}:[/] {escape(mistake.title.get(self.lang))}. "
                f"{escape(mistake.hint.get(self.lang))}"
            )
        if verdict.rubric and verdict.needs_review:
            self.console.print(f"[yellow]{escape(self.say('quiz_unsure', why=verdict.doubt_message(self.lang)))}[/]")
        self._explain(question, show_answer=not verdict.passed or question.type == "text")

    def ask_mark(self, question: Question, verdict: Verdict) -> bool | None:
        reply = self.prompt(self.say("quiz_mark_prompt"))
        if reply is None:
            return None
        marked = reply.strip().lower() in ("r", ":r", "review", "y", "yes", "复核", "是")
        if marked:
            self.console.print(f"[dim]{escape(self.say('quiz_marked_one'))}[/]")
        return marked

    def _explain(self, question: Question, show_answer: bool = True) -> None:
        lines = []
        if show_answer:
            label = "quiz_model_answer" if question.type == "text" else "quiz_answer"
            lines.append(f"[bold]{self.say(label)}:[/] {escape(format_answer(question, self.lang))}")
        lines.append(f"[bold]{self.say('quiz_why')}:[/] {escape(question.explanation.get(self.lang))}")
        lines.append(f"[dim]{self.say('quiz_source')}: {escape(question.source)}[/]")
        self.console.print(Panel("\n".join(lines), border_style="dim", expand=False))

    def finish(self, session: QuizSession) -> None:
        rows = session.by_topic()
        self.console.print()
        if not rows:
            self.console.print(self.say("quiz_nothing"))
        else:
            table = Table(title_justify="left")
            table.add_column(self.say("quiz_topic_col"))
            table.add_column(self.say("quiz_asked_col"), justify="right")
            table.add_column(self.say("quiz_score_col"), justify="right")
            for row in rows:
                label = session.bank.topics[row.topic].get(self.lang)
                table.add_row(escape(label), str(row.asked), f"{_pts(row.score)}/{_pts(row.max_score)}")
            score, max_score = sum(r.score for r in rows), sum(r.max_score for r in rows)
            table.add_row(
                f"[bold]{self.say('quiz_total')}[/]", str(sum(r.asked for r in rows)),
                f"[bold]{_pts(round(score, 6))}/{_pts(max_score)}[/]",
            )
            self.console.print(table)
        saved = self.say("quiz_saved", path=str(session.progress.path), count=session.to_review())
        self.console.print(f"[dim]{escape(saved)}[/]")
        if session.marked:
            marked = self.say("quiz_marked", count=session.marked, path=str(session.progress.path))
            self.console.print(f"[dim]{escape(marked)}[/]")

