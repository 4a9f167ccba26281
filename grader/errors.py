"""The grader's typed errors. Each message names the file, key or argument and what to do.

The CLI turns these into one-line ``click.ClickException`` messages with exit code 2; nothing else
in the library prints or exits.
"""

from __future__ import annotations


class GraderError(Exception):
    """A usage or configuration problem the user can fix (exit code 2).

    The message is a :class:`~grader.i18n.Text` (or a plain string, the same in every language);
    ``str(err)`` gives it in the current language.
    """

    def __init__(self, message: object = ""):
        super().__init__(message)
        self.text = message

    def __str__(self) -> str:
        from grader.i18n import Text

        return self.text.get() if isinstance(self.text, Text) else str(self.text)


class SpecError(GraderError):
    """A problem's ``spec.yaml`` (or another data file of the bank) is invalid."""


class UnknownProblem(GraderError):
    """No problem of that name is in the bank."""

    def __init__(self, name: str, known: list[str]):
        import difflib

        from grader.i18n import SENTENCE_GAP
        from grader.messages import text

        self.name, self.known = name, known
        close = difflib.get_close_matches(name, known, n=1)
        message = text("error.unknown_problem", name=name)
        if close:
            message = message.join(text("error.did_you_mean", name=close[0]), sep=SENTENCE_GAP)
        super().__init__(message.join(text("error.see_list"), sep=SENTENCE_GAP))


class SubmissionError(GraderError):
    """The learner's file is missing or unreadable; ``line`` is the line to fix, when one is known."""

    def __init__(self, message: object, line: int | None = None):
        super().__init__(message)
        self.line = line


class ProblemBankError(GraderError):
    """A problem folder is incomplete (no stub, no checks, no reference)."""


class GraderFault(Exception):
    """The grader's own machinery failed while grading (its worker process exited, hung or broke
    the protocol): there is no verdict on the learner's file, so there must be no score either.

    Not a :class:`GraderError`: nothing the user typed is wrong. ``grade`` reports it in one line
    with exit code 3; ``grade batch`` records a grader error that ``--resume`` grades again.
    ``why`` says what failed (a Text); ``str(err)`` is the whole sentence in the current language.
    """

    def __init__(self, file: str, why: object):
        from grader.messages import text

        self.file, self.why = file, why
        self.text = text("fault.grading", file=file, why=why)
        super().__init__(self.text.en)

    def __str__(self) -> str:
        return self.text.get()
