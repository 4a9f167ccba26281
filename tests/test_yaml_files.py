"""grader/yaml_files.py: the grader's own YAML is read strictly, and every failure names the file and line."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.errors import SpecError
from grader.spec import load_spec
from grader.yaml_files import read_yaml


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_a_repeated_key_is_refused_with_its_file_and_line(tmp_path: Path) -> None:
    rubric = _write(tmp_path / "q.yaml", "- id: q1\n  concepts:\n    - id: a\n      en: ['x']\n      zh: ['y']\n      en: ['z']\n")
    with pytest.raises(SpecError) as caught:
        read_yaml(rubric)
    assert str(caught.value) == f"{rubric}: line 6: invalid YAML (key 'en' appears twice in one mapping)"


def test_equal_keys_in_different_mappings_and_merge_keys_are_fine(tmp_path: Path) -> None:
    ok = _write(tmp_path / "ok.yaml", "base: &b {en: x}\na: {en: x, zh: y}\nb: {en: x}\nc:\n  <<: *b\n  zh: y\n")
    assert read_yaml(ok) == {"base": {"en": "x"}, "a": {"en": "x", "zh": "y"}, "b": {"en": "x"},
                             "c": {"en": "x", "zh": "y"}}


@pytest.mark.parametrize(("text", "said"), [("a: [1\n", "line 2: invalid YAML"), ("a: 1\na: 2\n", "line 2: invalid YAML")])
def test_a_spec_with_bad_yaml_is_one_line_naming_the_file(tmp_path: Path, text: str, said: str) -> None:
    spec = _write(tmp_path / "masks" / "spec.yaml", text)
    with pytest.raises(SpecError, match=said) as caught:
        load_spec(spec)
    assert str(caught.value).startswith(f"{spec}: ") and "\n" not in str(caught.value)


def test_an_unreadable_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(SpecError, match="cannot read"):
        read_yaml(tmp_path / "missing.yaml")
