"""Words of canonical text: Latin words (stemmed) and single Chinese characters, pairs of characters,
and the content words of a question's own text."""

from __future__ import annotations

import re
from functools import lru_cache

from grader.qa.normal_form import canonical


_PLURAL = re.compile(r"(?<!s)s$")
# "encode", "encoding", "encoded"; "position", "positional": one word for the echo test.
_SUFFIX = re.compile(r"(?:ings?|ed|e|al|ally)$")
_TOKEN = re.compile(r"[a-z0-9_^()/\u0370-\u03ff]+|[\u3400-\u9fff]")
_STOPWORDS = frozenset(
    "a an the is are be been was were it its this that these those of to in on for by with and or so as at "
    "we you i do does did why what how which because since then than there their them they can will would "
    "not no yes very just also into from about use using used via".split()
    # a contract's boilerplate ("Whereas the Party hereby states that ...")
    + "whereas hereby herein hereinafter notwithstanding aforesaid aforementioned thereof wherein foregoing party parties shall".split()
) | frozenset("的了是在和与为就也都而及把被让使它这那个一么吗呢吧啊要会能可以因所什怎如何已其")


def _stem(token: str) -> str:
    """The token without a plural -s, and without -ing, -ed, -e, -al when four letters are left."""
    if len(token) <= 3 or not token.isalpha() or token in _STOPWORDS:
        return token
    token = _PLURAL.sub("", token)
    bare = _SUFFIX.sub("", token)
    return bare if len(bare) >= 4 else token


def tokens(text: str) -> set[str]:
    """Latin words (plural -s dropped) and formulas, and single CJK characters, of canonical text."""
    return {_stem(t.strip("()")) for t in _TOKEN.findall(text)} - {""}


# A directional complement after a verb ("缓存起来", "存下来") adds no content: "KV 缓存把 KV 缓存起来" is an echo.
_COMPLEMENT_ZH = re.compile(r"(?<=[\u3400-\u9fff])(?:起来|下来)")


def content(text: str) -> set[str]:
    return tokens(_COMPLEMENT_ZH.sub(" ", text)) - _STOPWORDS


@lru_cache(maxsize=4)
def vocabulary(texts: tuple[str, ...]) -> frozenset[str]:
    """The content words of ``texts`` in normal form (a bank's own words, from :attr:`Question.domain`)."""
    return frozenset(content(canonical("\n".join(texts))))  # one pass over all (a third faster than one each)


#: Pictographs and dingbats (not ✓ ✗, which mark a claim true or false in notes).
EMOJI_CHARS = "\U0001F000-\U0001FAFF\u2600-\u26FF\u2700-\u2712\u2719-\u27BF\u203C\u2049"
#: A Chinese character.
CJK = re.compile(r"[\u3400-\u9fff]")


@lru_cache(maxsize=256)
def words_of(known: str) -> frozenset[str]:
    return frozenset(content(known))


def cjk_pairs(text: str) -> set[str]:
    """The pairs of adjacent Chinese characters in ``text`` (Chinese read two characters at a time)."""
    return {text[i:i + 2] for i in range(len(text) - 1) if CJK.match(text[i]) and CJK.match(text[i + 1])}


def mostly_off(said: set[str], known: str) -> bool:
    """Whether fewer than half of the words ``said`` are the question's (``known``)."""
    return len(said & words_of(known)) * 2 < len(said)
