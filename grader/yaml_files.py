"""Read the grader's own YAML files (specs, the question bank, labelled answers) strictly.

PyYAML's safe loader keeps the last of two equal keys in a mapping without a word, so a rubric
edited by hand can lose a pattern list silently. :func:`read_yaml` refuses that, and turns every
problem (unreadable file, invalid YAML, a repeated key) into a :class:`~grader.errors.SpecError`
that names the file and the line.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from grader.errors import SpecError

#: libyaml's safe loader when PyYAML was built with it (several times faster), else the pure one.
_BASE = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_MERGE = "tag:yaml.org,2002:merge"


class _RepeatedKey(yaml.YAMLError):
    def __init__(self, key: object, mark: yaml.Mark):
        super().__init__(f"key {key!r} appears twice in one mapping")
        self.problem, self.problem_mark = str(self.args[0]), mark


class StrictLoader(_BASE):  # type: ignore[misc, valid-type]
    """The safe loader, refusing a mapping that repeats a key."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: set[object] = set()
        for key_node, _ in node.value:
            if key_node.tag == _MERGE:
                continue
            key = self.construct_object(key_node, deep=True)
            try:
                repeated = key in seen
            except TypeError:  # an unhashable key: the base constructor says so
                break
            if repeated:
                raise _RepeatedKey(key, key_node.start_mark)
            seen.add(key)
        return super().construct_mapping(node, deep)


def read_yaml(path: Path) -> Any:
    """The document in ``path``; SpecError ("FILE: line N: ...") when it cannot be read or is invalid."""
    try:
        return yaml.load(path.read_text(encoding="utf-8"), Loader=StrictLoader)
    except OSError as err:
        raise SpecError(f"{path}: cannot read ({err.strerror})") from None
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        line = f"line {mark.line + 1}: " if mark else ""
        raise SpecError(f"{path}: {line}invalid YAML ({getattr(err, 'problem', None) or err})") from None
