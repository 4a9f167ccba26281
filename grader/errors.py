"""The grader's typed errors. Each message names the file, key or argument and what to do.

The CLI turns these into one-line ``click.ClickException`` messages with exit code 2; nothing else
in the library prints or exits.
"""

from __future__ import annotations


class GraderError(Exception):
    """A usage or configuration problem the user can fix (exit code 2)."""


class SpecError(GraderError):
    """A problem's ``spec.yaml`` (or another data file of the bank) is invalid."""


class UnknownProblem(GraderError):
    """No problem of that name is in the bank."""

    def __init__(self, name: str, known: list[str]):
        import difflib

        self.name, self.known = name, known
        close = difflib.get_close_matches(name, known, n=1)
        hint = f' Did you mean "{close[0]}"?' if close else ""
        super().__init__(f'Unknown problem "{name}".{hint} Run "grade list" to see them all.')


class SubmissionError(GraderError):
    """The learner's file is missing or unreadable."""


class ProblemBankError(GraderError):
    """A problem folder is incomplete (no stub, no checks, no reference)."""
