"""spec.yaml validation: every mistake in a manifest is one error naming the file and the key."""

from __future__ import annotations

import pytest
import yaml

from grader.errors import SpecError
from grader.spec import load_spec

VALID = {
    "id": "demo",
    "title": "Demo",
    "summary": "Do it.",
    "learner_file": "demo.py",
    "entry_points": ["f"],
    "checks": [{"id": "one", "title": "One"}],
}


def write(tmp_path, data) -> object:
    folder = tmp_path / data.get("id", "demo") if isinstance(data, dict) else tmp_path / "demo"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "spec.yaml"
    path.write_text(yaml.safe_dump(data) if isinstance(data, dict) else data)
    return path


def test_minimal_spec_loads_with_defaults(tmp_path) -> None:
    spec = load_spec(write(tmp_path, VALID))
    assert spec.limits.timeout_s == 10 and spec.checks[0].points == 1 and spec.checks[0].visibility == "visible"
    assert spec.max_score == 1


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"colour": "red"}, "colour: unknown key (allowed here: id, title, summary"),
        ({"checks": [{"id": "one", "title": "One", "pionts": 2}]}, "checks[0].pionts: unknown key"),
        ({"checks": [{"id": "one", "title": "One", "points": "ten"}]}, "checks[0].points: expected a number, got 'ten'"),
        ({"checks": [{"id": "one", "title": "One", "visibility": "secret"}]},
         "checks[0].visibility: expected one of 'visible', 'hidden', got 'secret'"),
        ({"limits": {"timeout_s": "fast"}}, "limits.timeout_s: expected a number, got 'fast'"),
        ({"limits": {"timeout_s": -1}}, "limits: limits must be positive"),
        ({"entry_points": "f"}, "entry_points: expected a list, got 'f'"),
        ({"seed": 1.5}, "seed: expected an integer, got 1.5"),
        ({"checks": []}, "a problem needs at least one check"),
        ({"checks": [{"id": "one", "title": "A"}, {"id": "one", "title": "B"}]}, "duplicate check id 'one'"),
        ({"checks": [{"id": "x", "title": "X", "kind": "from_scratch"}]}, "a from_scratch check needs a non-empty forbidden list"),
        ({"runtime": "jax"}, "runtime: expected one of 'numpy', 'torch', 'data', got 'jax'"),
    ],
)
def test_invalid_specs_name_the_key(tmp_path, change, message) -> None:
    path = write(tmp_path, {**VALID, **change})
    with pytest.raises(SpecError) as err:
        load_spec(path)
    assert str(err.value).startswith(f"{path}: ")
    assert message in str(err.value)


def test_missing_key(tmp_path) -> None:
    data = dict(VALID)
    del data["learner_file"]
    path = write(tmp_path, data)
    with pytest.raises(SpecError, match=r"learner_file: required key is missing"):
        load_spec(path)


def test_id_must_match_the_folder(tmp_path) -> None:
    path = write(tmp_path, VALID)
    renamed = path.parent.parent / "other"
    path.parent.rename(renamed)
    with pytest.raises(SpecError, match=r"id: 'demo' must match its folder name 'other'"):
        load_spec(renamed / "spec.yaml")


def test_reserved_names_are_refused(tmp_path) -> None:
    path = write(tmp_path, {**VALID, "id": "list"})
    with pytest.raises(SpecError, match="is a grade sub-command"):
        load_spec(path)


def test_yaml_syntax_error_names_the_line(tmp_path) -> None:
    path = write(tmp_path, "id: demo\ntitle: [unclosed\n")
    with pytest.raises(SpecError, match=r"line \d+: invalid YAML"):
        load_spec(path)
