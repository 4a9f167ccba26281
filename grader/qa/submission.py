"""Read a learner's ``qa.yaml``: question id -> raw answer, with errors that name the line.

Values are kept as the learner typed them (scalars as text, sequences as lists of text), never
YAML-typed: ``no`` stays ``"no"`` and ``1,050,624`` stays a string for :mod:`grader.qa.answers`.
An empty value, ``~`` or ``null`` means "not answered yet".

A file that is not YAML, or not a mapping, cannot be read at all (one error, naming the line).
A line that does not answer a question as written costs at most that one question, and its
message names the line (:class:`AnswerFile` ``problems``):

* an id written twice with two different answers: that question is an error (one answer,
  given twice, or one blank line and one answer, is simply that answer);
* an unknown id: its answer is not graded; the message goes to the question it most likely
  meant (the closest id, else the nearest unanswered question above it, else below it), which is
  then not attempted. If that question is answered anyway, nothing was lost and nothing is said,
  unless the unknown line is a near-miss of it with a different answer (then it is two answers).
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from functools import lru_cache

import yaml

from grader.errors import SubmissionError
from grader.i18n import LANGS, Text
from grader.qa.answers import Raw, is_blank
from grader.qa.messages import say

FILE_NAME = "qa.yaml"
_NULL = "tag:yaml.org,2002:null"


@dataclass(frozen=True)
class AnswerFile:
    """The answers of a qa.yaml, and what is wrong with single lines of it."""

    answers: dict[str, Raw | None]
    #: question id -> (is_error, message): an error (two answers), or not attempted (its answer was
    #: written under an id that does not exist).
    problems: dict[str, tuple[bool, Text]] = field(default_factory=dict)


def read_answers(text: str, known_ids: tuple[str, ...], file_name: str = FILE_NAME) -> dict[str, Raw | None]:
    """The answers only (see :func:`read_answer_file`)."""
    return read_answer_file(text, known_ids, file_name).answers


@lru_cache(maxsize=16)
def read_answer_file(text: str, known_ids: tuple[str, ...], file_name: str = FILE_NAME) -> AnswerFile:
    """Parse ``text``; raise SubmissionError("qa.yaml, line N: ...") when it is not a YAML mapping.

    ``known_ids`` are the bank's question ids, in the order of the file ``grade init`` writes.
    """

    def error(line: int | None, message: str) -> SubmissionError:
        where = f"{file_name}, line {line}" if line else file_name
        return SubmissionError(f"{where}: {message}", line)

    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        problem = getattr(err, "problem", None) or str(err)
        advice = ""
        if "mapping values are not allowed" in problem or "could not find expected ':'" in problem:
            advice = ' (a text answer that contains ": " must be in quotes: why: "...")'
        raise error(mark.line + 1 if mark else None, f"not valid YAML: {problem}{advice}") from None
    if root is None or (isinstance(root, yaml.ScalarNode) and root.tag == _NULL):
        return AnswerFile({})
    if not isinstance(root, yaml.MappingNode):
        raise error(root.start_mark.line + 1, "expected lines of the form `question_id: answer`")
    lines: list[tuple[str, int, Raw | None]] = []  # (key, line, answer) in file order
    for key_node, value_node in root.value:
        line = key_node.start_mark.line + 1
        if not isinstance(key_node, yaml.ScalarNode):
            raise error(line, "a key must be a question id")
        lines.append((key_node.value, line, _raw(value_node, key_node.value, error)))
    return _sort_out(lines, known_ids, file_name)


def _sort_out(lines: list[tuple[str, int, Raw | None]], known_ids: tuple[str, ...], file_name: str) -> AnswerFile:
    """Answers by question id, and the lines that do not answer a question as written."""

    def message(name: str, **params: object) -> Text:
        return Text(*(say(name, lang, file=file_name, **params) for lang in LANGS))

    answers: dict[str, Raw | None] = {}
    where: dict[str, int] = {}  # the line of each question's answer
    problems: dict[str, tuple[bool, Text]] = {}
    for key, line, raw in lines:
        if key not in known_ids:
            continue
        if is_blank(raw):
            answers.setdefault(key, None)
        elif is_blank(answers.get(key)) or answers[key] == raw:
            answers[key], where[key] = raw, line
        else:
            problems[key] = (True, message("file_answered_twice", first=where[key], second=line, id=key))
    for position, (key, line, raw) in enumerate(lines):
        if key in known_ids or is_blank(raw):
            continue
        close = difflib.get_close_matches(key, known_ids, n=1)
        target = close[0] if close else _nearest_unanswered(lines, position, known_ids, answers)
        if target is None or target in problems:
            continue
        if is_blank(answers.get(target)):
            key_name = "file_unknown_id" if close else "file_stray_line"
            problems[target] = (False, message(key_name, line=line, written=key, id=target))
        elif close and answers[target] != raw:
            problems[target] = (True, message("file_answered_twice", first=where[target], second=line, id=target))
    for key in problems:
        answers[key] = None
    return AnswerFile(answers, problems)


def _nearest_unanswered(
    lines: list[tuple[str, int, Raw | None]], position: int, known_ids: tuple[str, ...], answers: dict[str, Raw | None]
) -> str | None:
    """The question a stray line most likely answers: the nearest unanswered id above it, else below."""
    above = [k for k, _, _ in lines[:position] if k in known_ids]
    below = [k for k, _, _ in lines[position + 1 :] if k in known_ids]
    for key in (*reversed(above), *below):
        if is_blank(answers.get(key)):
            return key
    return None


def _raw(node: yaml.Node, key: str, error) -> Raw | None:
    if isinstance(node, yaml.ScalarNode):
        return None if node.tag == _NULL else node.value
    if isinstance(node, yaml.SequenceNode):
        items = []
        for item in node.value:
            if not isinstance(item, yaml.ScalarNode):
                raise error(item.start_mark.line + 1, f"{key}: a list answer holds plain values, not lists or mappings")
            items.append("" if item.tag == _NULL else item.value)
        return items
    raise error(
        node.start_mark.line + 1,
        f'{key}: the answer is a mapping; a text answer that contains ": " must be in quotes',
    )
