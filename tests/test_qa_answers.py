"""Reading answers as typed: numbers, vectors and option letters, including the awkward forms."""

from __future__ import annotations

import pytest

from grader.qa.answers import Unreadable, is_blank, parse_letters, parse_number, parse_vector


@pytest.mark.parametrize(
    ("raw", "value"),
    [
        ("64", 64.0),
        ("-3", -3.0),
        ("0.5", 0.5),
        (".5", 0.5),
        ("1e-3", 1e-3),
        ("6.988E-4", 6.988e-4),
        ("1,050,624", 1050624.0),
        ("1_050_624", 1050624.0),
        ("1 050 624", 1050624.0),
        ("1,050,624.5", 1050624.5),
        ("3/4", 0.75),
        ("1 / 8", 0.125),
        ("2.23 × 10^20", 2.23e20),
        ("2.23*10**20", 2.23e20),
        ("10^-3", 1e-3),
        ("≈ 22.627", 22.627),
        ("about 64", 64.0),
        ("１，０５０，６２４", 1050624.0),  # full-width, as a Chinese input method types it
        ("−2", -2.0),  # a typographic minus sign
        ("  64  ", 64.0),
    ],
)
def test_numbers_in_every_accepted_form(raw: str, value: float) -> None:
    """Each accepted spelling reads as the same number."""
    assert parse_number(raw) == pytest.approx(value, rel=1e-12)


def test_a_number_may_carry_the_unit_the_question_asks_for() -> None:
    """'2 GiB' reads as 2 when the question asks for GiB, and not otherwise."""
    assert parse_number("2 GiB", unit="GiB") == 2.0
    assert parse_number("2gib", unit="GiB") == 2.0
    with pytest.raises(Unreadable):
        parse_number("2 GiB")


@pytest.mark.parametrize(
    ("raw", "key"),
    [
        ("sixty-four", "not_a_number"),
        ("1,05,0624", "not_a_number"),  # misplaced grouping commas
        ("1,5", "decimal_comma"),
        ("1/0", "not_a_number"),
        ("inf", "not_a_number"),
        ("1e999", "not_finite"),
        ("", "not_a_number"),
    ],
)
def test_unreadable_numbers_say_why(raw: str, key: str) -> None:
    """An unreadable number raises with a message key, never a wrong value."""
    with pytest.raises(Unreadable) as caught:
        parse_number(raw)
    assert caught.value.key == key


def test_a_list_is_not_a_number() -> None:
    with pytest.raises(Unreadable) as caught:
        parse_number(["1", "2"])
    assert caught.value.key == "number_not_list"


@pytest.mark.parametrize(
    "raw",
    ["[0.28, 0.58, 0.14]", "0.28, 0.58, 0.14", "0.28 0.58 0.14", "(0.28; 0.58; 0.14)", ["0.28", "0.58", "0.14"],
     "[７/25, 0.58, 0.14]"],
)
def test_vectors(raw) -> None:
    """A YAML list and the usual written forms all give the same numbers."""
    assert parse_vector(raw) == pytest.approx([0.28, 0.58, 0.14])


@pytest.mark.parametrize("raw", ["[]", "0.2, x", "[0.2, [0.3]]"])
def test_unreadable_vectors(raw: str) -> None:
    with pytest.raises(Unreadable):
        parse_vector(raw)


@pytest.mark.parametrize(
    ("raw", "letters"),
    [("B", ["B"]), ("b", ["B"]), ("(B)", ["B"]), ("B.", ["B"]), ("Ｂ", ["B"]), ("option B", ["B"])],
)
def test_one_letter(raw: str, letters: list[str]) -> None:
    assert parse_letters(raw, ["A", "B", "C", "D"], single=True) == letters


@pytest.mark.parametrize(
    ("raw", "letters"),
    [("A C", ["A", "C"]), ("c, a", ["A", "C"]), ("AC", ["A", "C"]), ("[A, C]", ["A", "C"]), (["C", "A"], ["A", "C"]),
     ("A、C", ["A", "C"]), ("A and C", ["A", "C"]), ("A, A", ["A"])],
)
def test_several_letters(raw, letters: list[str]) -> None:
    assert parse_letters(raw, ["A", "B", "C", "D"], single=False) == letters


@pytest.mark.parametrize(("raw", "key"), [("E", "unknown_letter"), ("AB", "not_letters"), ("A C", "one_letter"),
                                          ("42", "not_letters"), ("", "one_letter")])
def test_bad_single_letters(raw: str, key: str) -> None:
    with pytest.raises(Unreadable) as caught:
        parse_letters(raw, ["A", "B", "C", "D"], single=True)
    assert caught.value.key == key


def test_blank_answers() -> None:
    """Nothing, spaces and empty lists are 'not answered'; '0' is an answer."""
    assert is_blank(None) and is_blank("  ") and is_blank([]) and is_blank(["", " "])
    assert not is_blank("0") and not is_blank(["0"])
