"""Line breaking for Chinese in rich: a break is allowed between two Chinese characters.

rich measures wide characters correctly but wraps only at spaces, so a run of Chinese (which has
no spaces) is one long "word": it is pushed whole onto the next line, leaving a short line
behind, or cut. :func:`install` makes rich's word splitter treat each Chinese character as a word
of its own, keeping closing punctuation (，。）...) with the character before it and opening
punctuation (（《...) with the one after, as Chinese typesetting does. Text without Chinese
splits exactly as before.
"""

from __future__ import annotations

import re
from typing import Iterable

_OPEN = "（《「『【〈〔"
_CLOSE = "，。、；：？！）》」』】〉〕"
#: CJK ideographs, kana, hangul, and full-width forms: each may stand alone on a line.
_WIDE = "\u2e80-\u2fff\u3040-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef"
_WORD = re.compile(
    rf"\s*(?:[{_OPEN}]*(?:[{_WIDE}]|[^\s{_WIDE}{_OPEN}{_CLOSE}]+)[{_CLOSE}]*|[{_OPEN}{_CLOSE}]+)\s*"
)


def words(text: str) -> Iterable[tuple[int, int, str]]:
    """rich's ``_wrap.words`` with a break allowed around each Chinese character."""
    position = 0
    match = _WORD.match(text, position)
    while match is not None and match.end() > position:
        position = match.end()
        yield match.start(), position, match.group(0)
        match = _WORD.match(text, position)


def install() -> None:
    """Use :func:`words` in rich's wrapping (idempotent; a rich without ``_wrap.words`` is left alone)."""
    from rich import _wrap

    if getattr(_wrap, "words", None) not in (None, words):
        _wrap.words = words
