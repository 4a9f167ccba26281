"""Read a learner's ``qa.yaml``: question id -> raw answer, with errors that name the line.

Values are kept as the learner typed them (scalars as text, sequences as lists of text), never
YAML-typed: ``no`` stays ``"no"`` and ``1,050,624`` stays a string for :mod:`grader.qa.answers`.
An empty value, ``~`` or ``null`` means "not answered yet".
"""

from __future__ import annotations

import difflib
from functools import lru_cache

import yaml

from grader.errors import SubmissionError
from grader.qa.answers import Raw

FILE_NAME = "qa.yaml"
_NULL = "tag:yaml.org,2002:null"


@lru_cache(maxsize=16)
def read_answers(text: str, known_ids: tuple[str, ...], file_name: str = FILE_NAME) -> dict[str, Raw | None]:
    """Parse ``text``; raise SubmissionError("qa.yaml, line N: ...") for anything malformed.

    ``known_ids`` are the bank's question ids: an unknown key is an error (a typo would otherwise
    silently leave a question unanswered).
    """

    def error(line: int | None, message: str) -> SubmissionError:
        where = f"{file_name}, line {line}" if line else file_name
        return SubmissionError(f"{where}: {message}")

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
        return {}
    if not isinstance(root, yaml.MappingNode):
        raise error(root.start_mark.line + 1, "expected lines of the form `question_id: answer`")
    answers: dict[str, Raw | None] = {}
    first_line: dict[str, int] = {}
    for key_node, value_node in root.value:
        line = key_node.start_mark.line + 1
        if not isinstance(key_node, yaml.ScalarNode):
            raise error(line, "a key must be a question id")
        key = key_node.value
        if key not in known_ids:
            close = difflib.get_close_matches(key, known_ids, n=1)
            hint = f'; did you mean "{close[0]}"?' if close else "; keep the ids that grade init wrote"
            raise error(line, f'unknown question id "{key}"{hint}')
        if key in first_line:
            raise error(line, f'"{key}" is answered twice (first on line {first_line[key]})')
        first_line[key] = line
        answers[key] = _raw(value_node, key, error)
    return answers


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
