"""``grade validate`` and private problem banks, on a tiny bank written for each test (tests/tinybank.py)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from grader.bank import PROBLEMS_ENV
from grader.cli import cli
from grader.validate import validate
from tinybank import make_bank

ROOT = Path(__file__).resolve().parent.parent


def _outcomes(findings) -> dict[str, str]:
    return {f.step: f.outcome for f in findings if f.problem == "add_one"}


@pytest.fixture(name="tiny")
def _tiny(tmp_path: Path) -> Path:
    return make_bank(tmp_path / "bank")


def test_valid_bank_passes_every_step(runner, tiny: Path) -> None:
    result = runner.invoke(cli, ["validate", str(tiny)])
    assert result.exit_code == 0, result.output
    for step in ("spec", "files", "languages", "checks", "reference", "stub", "mistakes", "determinism"):
        assert f"ok       add_one                {step}" in result.output
    assert "All 1 problems are valid" in result.output


def test_schema_error_names_the_file_and_the_key(runner, tiny: Path) -> None:
    spec = tiny / "problems/add_one/spec.yaml"
    spec.write_text(spec.read_text().replace("points: 2", "pointz: 2"))
    result = runner.invoke(cli, ["validate", str(tiny)])
    assert result.exit_code == 1
    assert str(spec) in result.output and "pointz" in result.output


def test_wrong_reference_and_missing_check_fail(tiny: Path) -> None:
    # checks compare with the reference itself, so a broken reference shows as an error, not a wrong value
    (tiny / "reference/add_one.py").write_text("def add_one(x):\n    assert x.ndim == 2\n    return x + 1\n")
    assert _outcomes(validate(tiny))["reference"] == "fail"
    checks = tiny / "problems/add_one/checks.py"
    checks.write_text(checks.read_text().replace('@checks.test("dtype")', '@checks.test("dtypes")'))
    findings = validate(tiny)
    assert _outcomes(findings)["checks"] == "fail"
    assert any("no @checks.test for dtype" in f.detail.en for f in findings)


def test_a_probe_problem_without_its_message_fails(tiny: Path) -> None:
    """Each kind a registry's probe_problems names, and probe_unknown, must be a message of the spec."""
    checks = tiny / "problems/add_one/checks.py"
    checks.write_text(checks.read_text().replace("checks = CheckRegistry()", 'checks = CheckRegistry(probe_problems=("odd",))'))
    findings = validate(tiny)
    assert _outcomes(findings)["checks"] == "fail"
    assert any("probe problems without a message under messages: in spec.yaml: odd, probe_unknown" in f.detail.en
               for f in findings)


def test_mistake_not_reached_by_the_corpus_fails(tiny: Path) -> None:
    spec = tiny / "problems/add_one/spec.yaml"
    spec.write_text(spec.read_text() + "  - id: subtracts_one\n    title: {en: subtracts, zh: 减了一}\n    hint: {en: Add., zh: 应该加。}\n")
    findings = validate(tiny)
    assert _outcomes(findings)["mistakes"] == "fail"
    assert any("no corpus file reaches subtracts_one" in f.detail.en for f in findings)
    (tiny / "tests/corpus/add_one/adds_two.py").write_text("def add_one(x):\n    return x + 1\n")
    assert any("adds_two.py is not diagnosed 'adds_two'" in f.detail.en for f in validate(tiny))


def test_without_a_corpus_the_mistake_step_is_skipped_not_ok(runner, tmp_path: Path) -> None:
    bank = make_bank(tmp_path / "bank", corpus=False)
    assert _outcomes(validate(bank))["mistakes"] == "skipped"
    result = runner.invoke(cli, ["validate", str(bank / "problems/add_one")])
    assert result.exit_code == 0 and "1 step(s) skipped" in result.output


def test_a_translated_stub_with_other_code_fails_and_a_plain_string_is_pending(tiny: Path) -> None:
    """The Chinese stub may differ from the English one only in comments and docstrings."""
    stub = tiny / "problems/add_one/zh/add_one.py"
    stub.write_text(stub.read_text(encoding="utf-8").replace('raise NotImplementedError("write add_one")', "return x"),
                    encoding="utf-8")
    findings = validate(tiny)
    assert _outcomes(findings)["languages"] == "fail"
    assert any("its code differs" in f.detail.en for f in findings if f.step == "languages")
    stub.unlink()
    spec = tiny / "problems/add_one/spec.yaml"
    spec.write_text(spec.read_text(encoding="utf-8").replace("{en: Add one to every element, zh: 每个元素加一}",
                                                             "Add one to every element"), encoding="utf-8")
    findings = validate(tiny)
    assert _outcomes(findings)["languages"] == "skipped"
    detail = next(f.detail.en for f in findings if f.step == "languages")
    assert "1 texts are plain strings" in detail and "no stub commented in zh" in detail


def test_flaky_check_fails_determinism(tiny: Path) -> None:
    checks = tiny / "problems/add_one/checks.py"
    checks.write_text(checks.read_text().replace("x = ctx.rng.standard_normal((3, 4))",
                                                 "x = np.random.default_rng().standard_normal((3, 4))"))
    findings = validate(tiny)
    assert _outcomes(findings)["determinism"] == "fail"
    assert any("values differ between two runs" in f.detail.en for f in findings if f.step == "determinism")


def test_not_a_bank_is_a_usage_error(runner, tmp_path: Path) -> None:
    result = runner.invoke(cli, ["validate", str(tmp_path)])
    assert result.exit_code == 2 and "not a problem bank" in result.output


# -- private banks ---------------------------------------------------------------------------


def _listed(runner, *args: str, env: dict | None = None) -> dict[str, dict]:
    result = runner.invoke(cli, [*args, "list", "--format", "json"], env=env)
    assert result.exit_code == 0, result.output
    return {row["name"]: row for row in json.loads(result.stdout)}


def test_private_bank_adds_a_problem(runner, tiny: Path, monkeypatch) -> None:
    monkeypatch.delenv(PROBLEMS_ENV, raising=False)
    public = _listed(runner)
    assert "add_one" not in public
    with_flag = _listed(runner, "--problems-dir", str(tiny))
    with_env = _listed(runner, env={PROBLEMS_ENV: str(tiny)})
    assert set(with_flag) == set(with_env) == set(public) | {"add_one"}
    graded = runner.invoke(cli, ["--problems-dir", str(tiny), "add_one", "--file", str(tiny / "reference/add_one.py"),
                                 "--format", "json"])
    assert graded.exit_code == 0 and json.loads(graded.stdout)["score"] == 3


def test_private_bank_overrides_a_public_problem(runner, tmp_path: Path, monkeypatch) -> None:
    """A private self_attention (other title, other reference) replaces the public one."""
    monkeypatch.delenv(PROBLEMS_ENV, raising=False)
    private = tmp_path / "private"
    shutil.copytree(ROOT / "problems/self_attention", private / "problems/self_attention")
    (private / "reference").mkdir()
    spec = private / "problems/self_attention/spec.yaml"
    spec.write_text(spec.read_text().replace("en: Scaled dot-product", "en: PRIVATE Scaled dot-product", 1))
    # the private reference forgets the scale: the public reference no longer scores full marks here
    wrong = (ROOT / "tests/corpus/self_attention/missing_scale.py").read_text()
    (private / "reference/self_attention.py").write_text(wrong)
    listed = _listed(runner, "--problems-dir", str(private))
    assert listed["self_attention"]["title"].startswith("PRIVATE")
    public_reference = str(ROOT / "reference/self_attention.py")
    graded = runner.invoke(cli, ["--problems-dir", str(private), "self_attention", "--file", public_reference,
                                 "--format", "json"])
    assert graded.exit_code == 1 and json.loads(graded.stdout)["score"] < 10


def test_bank_without_problems_folder_is_refused(runner, tmp_path: Path) -> None:
    result = runner.invoke(cli, ["--problems-dir", str(tmp_path), "list"])
    assert result.exit_code == 2 and "no problems/ folder" in result.output


# -- the course: order and sections ----------------------------------------------------------

MODERN = 'group: {id: modern, title: {en: "Modern: inference and long context", zh: "现代：推理与长上下文"}}\n'


def _place(tiny: Path, lines: str) -> None:
    spec = tiny / "problems/add_one/spec.yaml"
    spec.write_text(spec.read_text(encoding="utf-8").replace("difficulty: easy\n", f"difficulty: easy\n{lines}"),
                    encoding="utf-8")


def test_a_private_problem_joins_a_section_where_its_order_puts_it(runner, tiny: Path, monkeypatch) -> None:
    monkeypatch.delenv(PROBLEMS_ENV, raising=False)
    _place(tiny, "order: 105\n" + MODERN)
    rows = json.loads(runner.invoke(cli, ["--problems-dir", str(tiny), "list", "--format", "json"]).stdout)
    names = [r["name"] for r in rows]
    assert names.index("grouped_query_attention") < names.index("add_one") < names.index("rotary_embedding")
    row = rows[names.index("add_one")]
    assert (row["group"], row["group_title"], row["order"]) == ("modern", "Modern: inference and long context", 105)
    assert _outcomes(validate(tiny))["course"] == "ok"


def test_an_unplaced_problem_comes_last_under_other_problems(runner, tiny: Path, monkeypatch) -> None:
    monkeypatch.delenv(PROBLEMS_ENV, raising=False)
    rows = json.loads(runner.invoke(cli, ["--problems-dir", str(tiny), "list", "--format", "json"]).stdout)
    assert rows[-1]["name"] == "add_one" and rows[-1]["group"] is None and rows[-1]["order"] is None
    for lang, heading in (("en", "Other problems"), ("zh", "其他题目")):
        table = runner.invoke(cli, ["--problems-dir", str(tiny), "list", "--lang", lang], env={"COLUMNS": "120"}).output
        assert table.index(heading) < table.index("add_one"), table


def test_a_section_heading_spelled_differently_fails_validation(tiny: Path) -> None:
    _place(tiny, MODERN.replace("long context", "long contexts"))
    findings = validate(tiny)
    assert _outcomes(findings)["course"] == "fail"
    detail = next(f.detail.en for f in findings if f.step == "course" and f.problem == "add_one")
    assert "section modern has another heading in" in detail


def test_problems_are_validated_in_the_course_order_of_grade_list(tiny: Path, monkeypatch) -> None:
    monkeypatch.delenv(PROBLEMS_ENV, raising=False)
    # "a_add_one" comes first by name but, unplaced, last in the course; add_one sits in the modern section.
    shutil.copytree(tiny / "problems/add_one", tiny / "problems/a_add_one")
    spec = tiny / "problems/a_add_one/spec.yaml"
    spec.write_text(spec.read_text(encoding="utf-8").replace("id: add_one", "id: a_add_one"), encoding="utf-8")
    shutil.copy(tiny / "reference/add_one.py", tiny / "reference/a_add_one.py")
    _place(tiny, "order: 105\n" + MODERN)
    problems = list(dict.fromkeys(f.problem for f in validate(tiny)))
    assert problems == ["add_one", "a_add_one"]
