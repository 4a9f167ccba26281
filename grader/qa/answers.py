"""Read one answer as the learner typed it: a letter, a set of letters, a number, a vector.

Answers arrive as raw text (or a list of raw texts from a YAML sequence), never YAML-typed, so
``no``, ``1e-3`` and ``1,050,624`` reach these parsers exactly as written. Input is normalised
with NFKC first, so full-width digits, letters and punctuation typed with a Chinese input method
(``１，０５０，６２４``, ``Ｂ``) read the same as ASCII. Each parser raises :class:`Unreadable`
with a message key (see :mod:`grader.qa.messages`) when it cannot read the answer.
"""

from __future__ import annotations

import math
import re
import unicodedata
from fractions import Fraction

Raw = str | list[str]


class Unreadable(ValueError):
    """The answer is not in a form the question accepts; ``key`` and ``params`` build the message."""

    def __init__(self, key: str, **params: object):
        super().__init__(key)
        self.key, self.params = key, params


def normalise(text: str) -> str:
    """NFKC (full-width to ASCII), unify minus signs and multiplication signs, strip."""
    text = unicodedata.normalize("NFKC", text)
    return text.replace("−", "-").replace("–", "-").replace("·", "*").replace("×", "*").strip()


def is_blank(raw: Raw | None) -> bool:
    """No answer: nothing, an empty string, or an empty list."""
    if raw is None:
        return True
    if isinstance(raw, list):
        return all(is_blank(item) for item in raw)
    return not raw.strip()


# ------------------------------------------------------------------------------------ numbers

_DIGITS = r"(?:\d+(?:\.\d*)?|\.\d+)"
_GROUPED = re.compile(r"^[+-]?\d{1,3}(?:([,_ ])\d{3})(?:\1\d{3})*(?:\.\d+)?$")  # 1,050,624 / 1_050_624 / 1 050 624
_PLAIN = re.compile(rf"^[+-]?{_DIGITS}(?:e[+-]?\d+)?$", re.IGNORECASE)  # 64, -0.5, 6.988e-4, 1E9
_FRACTION = re.compile(rf"^([+-]?{_DIGITS})\s*/\s*({_DIGITS})$")  # 3/4, 1 / 8
_POWER = re.compile(rf"^(?:([+-]?{_DIGITS})\s*\*\s*)?10\s*(?:\^|\*\*)\s*\(?([+-]?\d+)\)?$")  # 2.23*10^20, 10^-3
_APPROX = re.compile(r"^(?:≈|~|about|approx\.?|approximately|约|大约)\s*", re.IGNORECASE)


def parse_number(raw: Raw, unit: str | None = None) -> float:
    """A finite number from ``64``, ``1e-3``, ``1,050,624``, ``3/4``, ``2.23 × 10^20`` or ``≈ 22.6``.

    A trailing ``unit`` (e.g. ``GiB``) is allowed when the question names one.
    """
    if isinstance(raw, list):
        raise Unreadable("number_not_list")
    text = normalise(raw)
    text = _APPROX.sub("", text)
    if unit and text.lower().endswith(unit.lower()):
        text = text[: -len(unit)].strip()
    value = _number(text)
    if value is None:
        if re.fullmatch(r"[+-]?\d+,\d{1,2}", text):
            raise Unreadable("decimal_comma", raw=raw.strip())
        raise Unreadable("not_a_number", raw=raw.strip())
    if not math.isfinite(value):
        raise Unreadable("not_finite", raw=raw.strip())
    return value


def _number(text: str) -> float | None:
    if _GROUPED.match(text):
        return float(re.sub(r"[,_ ]", "", text))
    if _PLAIN.match(text):
        return float(text)
    if match := _FRACTION.match(text):
        numerator, denominator = Fraction(match[1]), Fraction(match[2])
        return None if denominator == 0 else float(numerator / denominator)
    if match := _POWER.match(text):
        mantissa = float(match[1]) if match[1] else 1.0
        return mantissa * 10.0 ** int(match[2])
    return None


def vector_items(raw: Raw) -> list[str]:
    """The entries of a vector answer as typed: a YAML list's items, or ``[0.28, 0.58, 0.14]`` split."""
    if isinstance(raw, list):
        return raw
    text = normalise(raw).strip("[]() ")
    if not text:
        raise Unreadable("not_a_vector", raw=raw.strip())
    return re.split(r"\s*[,;]\s*|\s+", text) if re.search(r"[,;]", text) else text.split()


def decimals_given(raw: str) -> int | None:
    """How many decimals a plain decimal number was written with (``0.73`` -> 2), if it has at least
    two significant digits; None for any other form (``1``, ``0.7``, ``7e-4``, ``3/4``)."""
    match = re.fullmatch(r"[+-]?(\d*)\.(\d+)", _APPROX.sub("", normalise(raw)))
    if match is None or len((match[1] + match[2]).lstrip("0")) < 2:
        return None
    return len(match[2])


def parse_vector(raw: Raw) -> list[float]:
    """Numbers from a YAML list, ``[0.28, 0.58, 0.14]``, ``0.28, 0.58, 0.14`` or ``0.28 0.58 0.14``."""
    items = vector_items(raw)
    values = []
    for item in items:
        try:
            values.append(parse_number(item))
        except Unreadable:
            raise Unreadable("not_a_vector", raw=str(raw).strip()) from None
    return values


# ------------------------------------------------------------------------------------ letters



def parse_letters(raw: Raw, options: list[str], *, single: bool) -> list[str]:
    """Option letters from ``B``, ``(b)``, ``B.``, ``[A, C]``, ``A C`` or ``AC`` (sorted, unique)."""
    items = raw if isinstance(raw, list) else [raw]
    letters: list[str] = []
    for item in items:
        text = normalise(item)
        words = re.sub(r"[\s,;/&+()\[\].、，。\"']+", " ", text).split()
        for word in words:
            if word.lower() in ("and", "or", "option", "options", "和", "与", "选"):
                continue
            if not re.fullmatch(r"[A-Za-z]+", word) or (len(word) > 1 and single):
                raise Unreadable("not_letters", raw=str(raw).strip(), options=", ".join(options))
            letters += [ch.upper() for ch in word]
    unknown = sorted(set(letters) - set(options))
    if unknown:
        raise Unreadable("unknown_letter", letter=unknown[0], options=", ".join(options))
    if single and len(set(letters)) != 1:
        raise Unreadable("one_letter", options=", ".join(options))
    return sorted(set(letters))
