"""Figures: the learner's weights or mask beside the reference's, on a public example.

A failed check that names a figure carries it; a passing one does not. What is drawn does not
depend on the grading seed (the example is public), survives the batch journal, and is drawn in
the terminal (Unicode, or ASCII under NO_COLOR), as SVG for HTML, and not at all in the platform
formats. ``grade show masks`` draws the reference's patterns.
"""

from __future__ import annotations

import json
import textwrap
import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path

import pytest

from conftest import CORPUS
from grader.batch.gradebook import result_from_dict
from grader.cli import cli
from grader.render import render
from grader.render.heatmap import differing, figure_svg, plain_lines, text_lines, use_unicode
from grader.results import Status

WRONG_CAUSAL = CORPUS / "masks" / "causal_off_by_one.py"


@pytest.fixture(scope="module")
def wrong_causal(bank):
    from grader import engine

    return engine.grade(bank.get("masks"), WRONG_CAUSAL)


def _figure(result, check_id):
    return next(c for c in result.checks if c.id == check_id).figure


def test_a_failed_check_carries_yours_beside_the_expected(wrong_causal) -> None:
    figure = _figure(wrong_causal, "causal_mask")
    assert figure is not None and figure.id == "causal" and figure.kind == "mask"
    yours, expected = (p.values for p in figure.panels)
    assert [p.label.en for p in figure.panels] == ["yours", "expected"]
    assert len(expected) == 6 and all(len(row) == 6 for row in expected)
    assert expected == tuple(tuple(1.0 if j <= i else 0.0 for j in range(6)) for i in range(6))
    assert yours == tuple(tuple(1.0 if j < i else 0.0 for j in range(6)) for i in range(6))  # the diagonal masked
    assert all(any(row) for row in differing(figure))


def test_passing_checks_and_the_reference_draw_nothing(wrong_causal, grade_file, bank) -> None:
    assert all(c.figure is None for c in wrong_causal.checks if c.status is Status.PASS)
    reference = grade_file("masks", bank.get("masks").reference_file)
    assert reference.score == reference.max_score
    assert all(c.figure is None for c in reference.checks)


def test_the_example_is_public_the_same_for_every_seed(grade_file) -> None:
    first, second = (grade_file("masks", CORPUS / "masks" / "mask_after_softmax.py", seed=s) for s in (1, 987654))
    drawn = [(c.id, c.figure) for c in first.checks if c.figure is not None]
    assert drawn, "mask_after_softmax fails a check that names the softmax figure"
    assert drawn == [(c.id, c.figure) for c in second.checks if c.figure is not None]


def test_a_learner_side_that_raises_gives_no_figure_and_the_same_verdict(grade_file, tmp_path: Path) -> None:
    source = (CORPUS / "masks" / "causal_off_by_one.py").read_text(encoding="utf-8")
    path = tmp_path / "masks.py"
    path.write_text(source + textwrap.dedent("""
        _wrong = causal_mask

        def causal_mask(L_q, L_k=None, *, device=None):
            if L_q == 6 and L_k is None and device is None:
                raise RuntimeError("only the picture asks for this one")
            return _wrong(L_q, L_k, device=device)
    """), encoding="utf-8")
    result = grade_file("masks", path)
    check = next(c for c in result.checks if c.id == "causal_mask")
    assert check.status is Status.FAIL and check.diagnosis.id == "causal_off_by_one"
    assert check.figure is None


def test_figures_survive_the_journal(wrong_causal) -> None:
    data = json.loads(json.dumps(wrong_causal.to_dict(None), allow_nan=False))
    again = result_from_dict(data)
    assert [c.figure for c in again.checks] == [c.figure for c in wrong_causal.checks]


def test_terminal_heatmap_in_unicode_and_in_ascii(wrong_causal) -> None:
    figure = _figure(wrong_causal, "causal_mask")
    fancy = plain_lines(figure, unicode=True, checks=["causal_mask"])
    assert any("██" in line for line in fancy) and any(line.endswith("≠") for line in fancy)
    ascii_lines = plain_lines(figure, checks=["causal_mask"])
    assert all(line.isascii() for line in ascii_lines)
    grid = [line for line in ascii_lines if line[:1].isdigit()]
    assert len(grid) == 6 and all(line.endswith("!=") for line in grid)
    assert grid[0].startswith("0  . . . . . .    0 ## . . . . .")  # yours: the diagonal blocked


def test_ascii_under_no_color_or_a_non_utf8_terminal() -> None:
    assert use_unicode("utf-8", {})
    assert not use_unicode("utf-8", {"NO_COLOR": "1"})
    assert not use_unicode("ascii", {})
    assert not use_unicode("ISO-8859-1", {})


def test_narrow_terminals_stack_the_grids_and_verbose_adds_numbers(wrong_causal) -> None:
    figure = _figure(wrong_causal, "causal_mask")
    narrow = plain_lines(figure, width=30)
    assert max(len(line) for line in narrow if line[:1].isdigit() or line.startswith("  ")) <= 30
    numbers = plain_lines(figure, verbose=True)
    assert "numbers, yours:" in numbers and "numbers, expected:" in numbers
    assert "    1     0     0     0     0     0" in numbers


def test_chinese_labels(wrong_causal) -> None:
    lines = plain_lines(_figure(wrong_causal, "causal_mask"), unicode=True, lang="zh")
    assert "你的结果" in lines[2] and "参考答案" in lines[2]
    assert lines[1] == "行：查询 i；列：键 j"


def test_svg_is_well_formed_with_a_cell_per_value_and_the_differences_outlined(wrong_causal) -> None:
    figure = _figure(wrong_causal, "causal_mask")
    svg = figure_svg(figure)
    root = ET.fromstring(svg)
    cells = [e for e in root.iter("{http://www.w3.org/2000/svg}rect") if e.get("class") == "cell"]
    assert len(cells) == 2 * 36
    outlined = [c for c in cells if c.get("stroke") == "#d62728"]
    assert len(outlined) == 6  # the diagonal of yours
    assert figure._repr_html_() == svg


def test_a_mask_legend_says_red_for_nan_only_where_a_cell_is_one(wrong_causal) -> None:
    """A True/False mask cannot hold NaN; a float mask the learner returned can, and shows it red."""
    figure = _figure(wrong_causal, "causal_mask")
    assert figure.kind == "mask"
    values = figure.panels[0].values
    yours = replace(figure.panels[0], values=((None, *values[0][1:]), *values[1:]))
    for lang, red in (("en", "red: NaN"), ("zh", "红色：NaN")):
        plain = figure_svg(figure, lang)
        assert red not in _svg_text(plain) and "#e15759" not in plain
        with_nan = figure_svg(replace(figure, panels=(yours, figure.panels[1])), lang)
        assert red in _svg_text(with_nan) and with_nan.count('fill="#e15759"') == 1


def test_a_mask_drawn_in_the_terminal_explains_its_nan_cells_only_when_it_has_one(wrong_causal) -> None:
    figure = _figure(wrong_causal, "causal_mask")
    values = figure.panels[0].values
    yours = replace(figure.panels[0], values=((None, *values[0][1:]), *values[1:]))
    for lang, words in (("en", "not a number (NaN)"), ("zh", "不是数（NaN）")):
        assert not any(words in line for line in plain_lines(figure, lang=lang))
        drawn = plain_lines(replace(figure, panels=(yours, figure.panels[1])), lang=lang)
        assert any(words in line for line in drawn), drawn


def _svg_text(svg: str) -> str:
    """The SVG's words, its wrapped lines joined by spaces."""
    root = ET.fromstring(svg)
    return " ".join(e.text or "" for e in root.iter("{http://www.w3.org/2000/svg}text"))


def test_the_table_draws_it_and_the_platform_formats_do_not(wrong_causal, monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    table = render([wrong_causal], "table")
    assert "Picture (causal_mask): causal_mask(6), a public example" in table
    assert "rows: query i; columns: key j" in table
    for fmt in ("gradescope", "classroom", "junit", "exercism"):
        out = render([wrong_causal], fmt)
        assert "██" not in out and "##" not in out.replace("###", "") and "Picture" not in out, fmt
    data = json.loads(render([wrong_causal], "json"))
    check = next(c for c in data["checks"] if c["id"] == "causal_mask")
    assert check["figure"]["panels"][1]["label"] == "expected"


def test_text_lines_styles_only_with_colour(wrong_causal) -> None:
    figure = _figure(wrong_causal, "causal_mask")
    assert any(style for line in text_lines(figure) for _, style in line)
    assert not any(style for line in text_lines(figure, colour=False) for _, style in line)


def test_grade_show_masks_draws_the_expected_patterns(runner) -> None:
    result = runner.invoke(cli, ["show", "masks"], env={"COLUMNS": "80", "NO_COLOR": "1"})
    assert result.exit_code == 0, result.output
    assert "Expected: causal_mask(6)" in result.output
    lines = result.output.splitlines()
    start = lines.index("Expected: causal_mask(6)")
    grid = lines[start + 4 : start + 10]
    assert grid == [f"{i} " + "".join("##" if j <= i else " ." for j in range(6)) for i in range(6)]
    assert "yours" not in result.output
