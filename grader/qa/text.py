"""Judge a free-text answer by the claims it makes, not by the words it contains.

A question's rubric (``concepts``) lists the ideas a full answer states. Each idea has phrasings
(regular expressions, English and Chinese, matched against any answer) written as *claims*:
"the variance grows with d_k", not "variance". A phrasing counts only when

* the answer **asserts** it: an odd number of negations just before it ("the softmax does not
  saturate") takes it back; for an idea marked ``danger`` (what the fix prevents), a negation that
  serves a purpose ("so that the softmax does not saturate", "防止……") states the same danger;
* it says something the question did not: a span made only of the question's words, in a clause
  with no new words, is an echo; so is one that only respells them with the lexicon's synonyms
  ("缩小 KV 缓存" for "减小 KV 缓存"), unless the clause follows from a claim ("…，所以缓存就变小了").

An idea's ``against`` phrasings assert its opposite ("the scale makes the gradients larger"); a
question's named ``mistakes`` are misconceptions. Each one plainly asserted cancels one right
idea and caps the score below half. An answer that only lists topic words ("variance gradient saturation") or only
repeats the question scores 0. Every judgement carries a confidence: the grader says when it is
unsure (a negated claim, correct and wrong claims mixed, much it did not recognise), so that an
instructor can review it. An answer with no wrong claim that misses one idea but says much more on
the subject in words no phrasing read gets full points on trust, and is sent to review.

Before matching, formulas are written one way (``√dk``, ``d_k 的平方根``, ``sqrt(d_k)`` all become
``sqrt(d_k)``; ``n²`` becomes ``n^2``; ``Kᵀ`` becomes ``k^t``; ``−`` becomes ``-``); LaTeX in notes
(``$\\frac{1}{\\sqrt{d_k}}$``) is read as the same formula, and a Markdown table row by row, its column
header as the subject.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field, replace
from functools import lru_cache

from grader.i18n import Text
from grader.qa.bank import Concept, Question, compiled_pattern
from grader.qa.dialects import standard_words
from grader.qa.traditional import SIMPLIFIED, TRADITIONAL
from grader.results import REVIEW_BELOW  # noqa: F401  (re-exported: grading and the benchmark use it)

#: The most a text answer scores when it also asserts a misconception or an inverted claim.
WRONG_CAP = 0.25

# ------------------------------------------------------------------------------- normal form

_BEFORE_NFKC = str.maketrans({"²": "^2", "ᵀ": "^t", "√": "sqrt", "∞": "inf", "\u2212": "-"})
# Traditional characters read as simplified ("點積的變異數" → "点积的变异数"): one Chinese rubric reads both.
_AFTER = str.maketrans(TRADITIONAL, SIMPLIFIED) | str.maketrans(
    {"\u2013": "-", "\u2014": "-", "\u2019": "'", "\u2018": "'", "，": ",", "；": ";", "：": ":"})
_REWRITES = [
    # Spoken English's 'em is them ("has to look at 'em again"); its double negative is one ("there ain't no RNN").
    (re.compile(r"(?<![\w'])'em\b"), "them"),
    # ... and its other elisions ("more'n W", "'stead of n²", "'cause", "rollin' buffer").
    (re.compile(r"\bmore'n\b"), "more than"), (re.compile(r"(?<![\w'])'stead\b"), "instead"),
    (re.compile(r"(?<![\w'])'cause\b"), "because"), (re.compile(r"\b([a-z]{2,}in)'(?=\s|[,.;:!?]|$)"), r"\1g"),
    # "Cos" opening a sentence is "because", never the cosine ("cos(mθ)", "cos θ").
    (re.compile(r"(?:^|(?<=[.;!?]\s))(?:cos|coz|cuz)\b(?!\s*[(\[θ^/_])(?=\s+[a-z])"), "because"),
    # ... and so does a bare "Cause" before its clause ("Cause it's rotary, so ..."), never "cause of".
    (re.compile(r"(?:^|(?<=[.;!?]\s))cause(?=\s+(?:it|it's|they|they're|we|you)\b)"), "because"),
    (re.compile(r"\bain'?t\s+no\b"), "is no"), (re.compile(r"\bain'?t\b"), "isn't"),
    # ... and its "it don't" ("attention don't care about order").
    (re.compile(r"\b(it|attention|softmax|the model|the transformer|this|that|he|she)\s+don'?t\b"), r"\1 doesn't"),
    # Python's None inside an index ("x[:, None]") adds an axis; it negates nothing.
    (re.compile(r"\[[^\[\]]*\bnone\b[^\[\]]*\]"), lambda m: re.sub(r"\bnone\b", "newaxis", m.group(0))),
    # A negation typed without its apostrophe ("you dont recompute them", "it doesnt subtract the mean").
    (re.compile(r"\b(do|does|did|ca|wo|is|are|was|were|should|would|could|have|has|had|need)nt\b"), r"\1n't"),
    (re.compile(r"\bd_?\{?k\}?(?![a-z0-9])"), "d_k"),
    (re.compile(r"sqrt\s*\(?\s*d_k\s*\)?"), "sqrt(d_k)"),
    (re.compile(r"(the\s+)?square[- ]root\s+of\s+(the\s+)?d_k|\broot\s+(of\s+)?d_k"), "sqrt(d_k)"),
    (re.compile(r"(the\s+)?(square[- ])?root\s+of\s+(the\s+)?((head|key|query|per-head)\s+)?(width|dimension(ality)?|dim|size)\b"), "sqrt(d_k)"),
    (re.compile(r"d_k\s*的?\s*(算术)?(平方根|开平方|开方|开根号?)"), "sqrt(d_k)"),
    (re.compile(r"根号\s*下?\s*d_k"), "sqrt(d_k)"),
    (re.compile(r"d_k\s*(\*\*|\^)\s*\(?(0?\.5|1\s*/\s*2)\)?"), "sqrt(d_k)"),
    (re.compile(r"\bn\s*(\*\*|\^)\s*2|\bn\s+squared|n\s*的平方"), "n^2"),
    (re.compile(r"(negative|minus)\s+infinity|-\s*infinity|\binfinitely negative\b|负无穷(大)?"), "-inf"),
    (re.compile(r"10\s*\^\s*9|1\s*e\s*\+?\s*9|\ba billion\b|十亿"), "1e9"),
    (re.compile(r"\b(negative|minus)\s+1e9|负\s*1e9"), "-1e9"),
    (re.compile(r"\be\s*(\^\s*\(?0\)?|0\b|to the (power of )?(zero|0)( power)?)|\bexp(onential)?\s+of\s+(zero|0)\b"
                r"|\be\s*的\s*(零|0)\s*次方"), "exp(0)"),
    (re.compile(r"\bnot[- ]a[- ]number\b|非数"), "nan"),
    # "往后每个 q 都得用" is "以后" (later on); "往后看" (look back) is not.
    (re.compile(r"往后(?=的?(?:每|所有|各|都|还|再|也|就|一直))"), "以后"),
    (re.compile(r"\b(zero|nothing) (over|divided by) (zero|nothing)\b|\bdivid\w* (zero|nothing) by (zero|nothing)\b|零除以零|0\s*除以\s*0"), "0/0"),
    (re.compile(r"\s*(->|=>|⇒|⟶|⟹)\s*"), " → "),
    # A question's A-not-A ("能不能看到后面的词", "会不会溢出") asks; its 不 negates nothing ("是不是" is left: "代价是不是
    # exact softmax" says "is not").
    (re.compile(r"([能会可有要需])[不没]\1"), r"是否\1"),
]


# LaTeX as learners type it in notes ("$\\frac{QK^\\top}{\\sqrt{d_k}}$", "\\mathrm{softmax}", "\\mathcal{O}(n^2)"):
# the same formula in plain symbols.
_LATEX_SYMBOLS = {
    "theta": "θ", "omega": "ω", "mu": "μ", "sigma": "σ", "gamma": "γ", "beta": "β", "alpha": "α", "lambda": "λ",
    "epsilon": "ε", "varepsilon": "ε", "phi": "φ", "varphi": "φ", "pi": "π", "cdot": "·", "times": "×",
    "top": "t", "intercal": "t", "le": "≤", "leq": "≤", "ge": "≥", "geq": "≥", "infty": "∞", "to": "→",
    "rightarrow": "→", "Rightarrow": "⇒", "implies": "⇒", "approx": "≈", "sim": "~", "propto": "∝", "sum": "Σ",
    "in": "∈", "neq": "≠", "ne": "≠", "ldots": "...", "dots": "...", "cdots": "...", "quad": " ", "qquad": " ",
    "left": "", "right": "", "big": "", "Big": "", "bigl": "", "bigr": "",
    "ell": "l", "div": "÷", "gets": "←", "leftarrow": "←",
}
_LATEX_WRAPPER = re.compile(r"\\(?:mathrm|text|textbf|textit|mathbf|mathit|mathcal|mathbb|operatorname|boldsymbol|bm|emph)\s*\{([^{}]*)\}")
_LATEX_FRAC = re.compile(r"\\[dt]?frac\s*\{([^{}]*)\}\s*\{([^{}]*)\}")
_LATEX_SQRT = re.compile(r"\\sqrt\s*\{([^{}]*)\}")
_LATEX_COMMAND = re.compile(r"\\([a-zA-Z]+)")
_LATEX_SCRIPT = re.compile(r"([\^_])\{([^{}\s]{1,12})\}")


def _operand(term: str) -> str:
    """A fraction's numerator or denominator, in parentheses unless it is one term ("1", "sqrt(d_k)")."""
    return term if re.fullmatch(r"[\w.^]+(\([^()]*\))?", term.strip()) else f"({term})"


def _plain_latex(text: str) -> str:
    """LaTeX commands written as the symbols they stand for; text without a backslash is returned as is."""
    if "\\" not in text and "$" not in text:
        return text
    text = text.replace("$", " ").replace("\\,", " ").replace("\\;", " ").replace("\\!", "").replace("\\\\", " ")
    for _ in range(4):  # innermost first: \frac{\sqrt{a}}{b}
        text = _LATEX_WRAPPER.sub(r"\1", text)
        text = _LATEX_SQRT.sub(r"sqrt(\1)", text)
        text = _LATEX_FRAC.sub(lambda m: f"{_operand(m.group(1))}/{_operand(m.group(2))}", text)
    text = _LATEX_COMMAND.sub(lambda m: _LATEX_SYMBOLS.get(m.group(1), m.group(1)), text)
    return _LATEX_SCRIPT.sub(r"\1\2", text)


_TABLE_ROW = re.compile(r"^\s*\|(.*)\|\s*$")
_TABLE_RULE = re.compile(r"^[\s|:\-]+$")
# A cell that holds a formula's bars ("−m·|i−j|"): when a row splits into more cells than its header has,
# only a bar with spaces on both sides, else one with a space on either side, separates cells.
_SPACED_BARS = (re.compile(r"\s\|\s"), re.compile(r"\s\|\s?|\|\s"))


def _linear_tables(text: str) -> str:
    """A Markdown table read row by row: "| 目标 | MLM | 下一个词 |" under "| | BERT | GPT |" becomes
    "BERT 目标: MLM. GPT 目标: 下一个词." (its columns name the subjects; a list of cells relates nothing).
    A row with nothing beside its first cell, and a table with no row under its header, keep their words."""
    if text.count("|") < 4 or "\n" not in text:
        return text
    out: list[str] = []
    header: list[str] | None = None
    rows = 0

    def close() -> None:
        if header is not None and not rows:
            out.append(" ".join(cell for cell in header if cell))

    for line in text.split("\n"):
        row = _TABLE_ROW.match(line)
        if not row:
            close()
            header, rows = None, 0
            out.append(line)
            continue
        if _TABLE_RULE.match(line):
            continue
        cells = [c.strip() for c in row.group(1).split("|")]
        if header is not None and len(cells) > len(header):
            cells = next((split for split in ([c.strip() for c in bar.split(row.group(1))] for bar in _SPACED_BARS)
                          if len(split) == len(header)), cells)
        if header is None:
            header = cells
            continue
        rows += 1
        label, stop = cells[0], "。" if re.search(r"[\u3400-\u9fff]", line) else "."
        said = [f"{(header[j] + ' ' + label).strip()}: {cell}{stop}"
                for j, cell in enumerate(cells[1:], start=1) if cell and j < len(header)]
        out.append(" ".join(said) if said else f"{(header[0] + ' ' + label).strip()}{stop}")
    close()
    return "\n".join(out)


def canonical(text: str) -> str:
    """NFKC, lower case, one spelling for formulas and dashes, single spaces; traditional characters as
    simplified, dialects and code-switched words in standard words (:mod:`grader.qa.dialects`)."""
    text = _plain_latex(_linear_tables(text))
    text = standard_words(unicodedata.normalize("NFKC", text.translate(_BEFORE_NFKC)).lower().translate(_AFTER))
    for pattern, replacement in _REWRITES:
        text = pattern.sub(replacement, text)
    # A line of code, a comment or a bullet ends a statement even without punctuation; wrapped prose goes on.
    text = _LINE_BREAK.sub(lambda m: "; " if _ends_statement(m) else " ", text.strip())
    return re.sub(r"\s+", " ", text).strip()


_LINE_BREAK = re.compile(r"[ \t]*\n\s*")
#: What starts a new statement on a new line: a comment, a bullet, a numbered point, an assignment.
_STATEMENT_START = re.compile(r"(?:#|//|[-*•]\s|\d+[.)/]\s|[a-z_][\w.]*(?:\[[^\]]*\])?\s*[-+*/@]?=(?!=))")


def _ends_statement(line_break: re.Match[str]) -> bool:
    text, start = line_break.string, line_break.start()
    last = text[start - 1] if start else ""
    if last in _GOES_ON:
        return False
    line_start = text.rfind("\n", 0, start) + 1
    line_start += len(text[line_start:start]) - len(text[line_start:start].lstrip())
    return bool(_STATEMENT_START.match(text, line_break.end()) or _STATEMENT_START.match(text, line_start)) or last in ")]"


#: A line that ends with one of these goes on, or has its own punctuation.
_GOES_ON = frozenset(".;:,!?。；：，！？、([{+-*/=<>→|")


# ------------------------------------------------------------------------------- words

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


# ------------------------------------------------------------------------------- clauses and polarity

#: Pictographs and dingbats (not ✓ ✗, which mark a claim true or false in notes).
_EMOJI_CHARS = "\U0001F000-\U0001FAFF\u2600-\u26FF\u2700-\u2712\u2719-\u27BF\u203C\u2049"

# A clause ends at punctuation or an arrow, or before a linking word; the linking word starts the next clause
# ("k and v", "keys and values" name one thing).
_CLAUSE_END = re.compile(
    f"[{_EMOJI_CHARS}]|"  # an emoji ends a clause
    r"[.;!?。！？,:、()（）→]|(?<=\s)\|(?=\s)|(?<=[a-z]{3}\s)-{1,2}(?=\s)|(?=\b(?:but|however|whereas|while|although|though|so|because|since|otherwise|"
    r"which|that way)\b)|(?<!\bk )(?<!\bkeys )(?=\band\b(?! v\b| values\b))|(?=但是|但|而且|而|所以|因为|因此|否则|不然|从而|于是|这样)"
)
_NEGATION_EN = re.compile(
    r"\b(?:not|no|never|none|neither|nor|cannot|hardly)\b|n't\b|\binstead of\b|\brather than\b|\bnothing to do with\b"
)
_NEGATION_ZH = re.compile(
    r"(?<!差)不(?!同|仅|断|变|但|管|过|少|只|必[要然]|久|论|停|然|就)|没有?|未(?!来|知)|并非|非(?!常|线性)|无(?!法|关|穷|论|限|数|疑)|(?<![分区告特级类个差性派识鉴辨判离])别(?!的|人)"
)
_FRAME = re.compile(
    r"\b(?:so|to|in order to|prevent\w*|avoid\w*|stop\w*|keep\w*|lest|otherwise|else|ensur\w*|make sure|"
    r"that way|with|(?:not|without|never) lett?\w*|(?:don|doesn|didn|won|wouldn|shouldn|can)'?t let\w*)\b|防止|避免|以免|以防|否则|不然|保证|确保|为了|以便|免得|使得?|让|这样"
)


# A belief reported in order to reject it ("a common mix-up is to think X", "很多人以为 X") is not
# asserted, up to the word that turns to the truth ("actually", "其实").
_REPORTED = re.compile(
    r"\b(?:(?:many|some|most|others)(?: (?:people|learners|candidates|engineers|students))?|people|one might|you might|it'?s tempting to|"
    r"a (?:common|classic|frequent|typical) (?:mistake|misconception|mix-?up|confusion|myth|error|trap)\w*(?: is)?(?: to)?)"
    r"\s+(?:(?:often|sometimes|usually|commonly|still|will|may|might|would)\s+)?(?:think|believe|assume|say|claim|guess|expect)\w*"
    r"|\b(?:a (?:common|classic) (?:mistake|misconception|mix-?up|myth))\b|\bit is a myth\b|\bcontrary to (?:(?:popular|common|widespread|the usual) (?:belief|opinion|wisdom)|what )"
    r"|\bit'?s (?:often|commonly|sometimes) (?:said|claimed|believed|thought)\b|\bthe naive (?:answer|view|explanation|guess) is\b"
    r"|\b(?:it'?s|it is|this is|that'?s) not (?:that|because)\b|\bnot because\b|"
    r"\b(?:it'?s|it is) (?:wrong|incorrect|misleading|a mistake|not (?:enough|sufficient|right|correct|accurate)) to (?:say|think|claim|believe)\b|"
    r"(?:很多|不少|有些|有的|一些|有|常有)人(?:以为|认为|觉得|误以为|说)|误以为|你说\s*['\"“「]|\byou (?:say|said|claim|claimed)\s*['\"“]|(?:有一?种|一种)(?:说法|误解)(?:是|认为)?|常见的(?:误解|错误|误区)|容易(?:误以为|以为|搞混)|"
    r"(?:并?不是|并非)(?:因为|说)"
    # ... or once held by the writer ("我原来以为它省的是 FLOPs", "I used to think it saved FLOPs")
    r"|(?:我)?(?:原来|以前|原先|本来|之前|起初|一开始|当初)(?:还|也)?(?:以为|认为|觉得)|原以为"
    r"|\bi\s+(?:used\s+to|first|once|originally|initially)\s+(?:think|thought|believe|believed|assume|assumed)\b"
)
_TURN = re.compile(
    r"\b(?:actually|in fact|in reality|really|instead|rather|but|however|it (?:does|is|was)n'?t|not so|wrong|false)\b|"
    r"其实|实际上|事实上|恰恰相反|相反|但|然而|而是|并非如此|不是这样|错|不对"
    r"|\s-{1,2}\s|--"  # a dash: "it's not that X — Y"
)


def _reported(text: str, position: int) -> bool:
    """Whether ``position`` lies in a belief the answer reports in order to reject it."""
    start = _sentence_start(text, position, limit=200)
    frames = list(_REPORTED.finditer(text, start, position))
    # A colon after the reported belief ("it's not that X: Y") turns to the truth.
    return bool(frames) and not _TURN.search(text, frames[-1].end(), position) \
        and ":" not in text[frames[-1].end() + 3:position]


_GUESS = re.compile(r"\b(?:maybe|perhaps|possibly)\b|也许|或许|说不定")
_QUESTION_END = re.compile(r"[?？]")


def _guessed(text: str, position: int) -> bool:
    """Whether ``position`` lies in a sentence that guesses and ends in a question mark ("maybe X?")."""
    start = _sentence_start(text, position, limit=200)
    end = _SENTENCE_END.search(text, position)
    return bool(end and _QUESTION_END.match(text, end.start()) and _GUESS.search(text, start, position))


def _clause_start(text: str, position: int) -> int:
    start = 0
    for boundary in _CLAUSE_END.finditer(text, 0, position):
        start = boundary.end() if boundary.end() <= position else start
    return start


# "都没有" / "也不用" closing the clause right after a topic takes the topic back: "BERT 嘛因果掩码都没有（…）".
_DENIED_AFTER_ZH = re.compile(r"[\u3400-\u9fff]{0,4}?\s*(?:都|也)(?:是)?\s*(?:没有?|不(?:用|要|加|需要|存|做))\s*(?=[(（,，.。;；!！]|$)")
# "跟 X 没得关系" / "与 X 无关": X is named only to be set aside ("放前面是为了省计算，跟训练稳定没得关系").
_WITH = r"(?:跟|和|与|同)"
_UNRELATED = r"\s*(?:都|也|并|根本|完全|压根儿?|一点儿?)?\s*(?:(?:没(?:得|有)?|无)\s*(?:啥|什么|多大|半毛钱|一毛钱)?\s*(?:关系|关联|联系)|无关|不相干|扯不上)"
_WITH_ZH = re.compile(_WITH + r"\s*$")
_NOTHING_TO_DO_WITH = r"\bnothin[g']?\s+to\s+do\s+with\s+"
_UNRELATED_BEFORE_EN = re.compile(_NOTHING_TO_DO_WITH + r"(?:the\s+)?$")
_UNRELATED_AFTER_ZH = re.compile(_UNRELATED)


def _negations(text: str) -> int:
    return len(_NEGATION_EN.findall(text)) + len(_NEGATION_ZH.findall(text))


_LAST_4_WORDS = re.compile(r"(\S+\s+){0,4}\S*$")
_LAST_8_WORDS = re.compile(r"(\S+\s+){0,8}\S*$")
_OR = re.compile(r"\b(?:or|nor)\b")
_NOT_THE_KIND = re.compile(r"(?:不是|并非|而非)[^，,。；;:：!?！？]{1,6}的$")


def _negations_before(prefix: str) -> int:
    """Negations that govern what follows: in the last four words, or (Chinese) the last four characters;
    across an "or" (或), the last eight words (ten characters)."""
    window = _LAST_4_WORDS.search(prefix).group(0)
    # A negation reaches across "or" ("not a low-rank or sparse approximation", "不是低秩或稀疏的近似").
    if _OR.search(window):
        window = _LAST_8_WORDS.search(prefix).group(0)
    chars = prefix[-10:] if "或" in prefix[-4:] else prefix[-4:]
    # "不是 X 的" reaches over its modifier to the noun ("不是糊弄的近似", "并非什么低秩的近似").
    if _NOT_THE_KIND.search(prefix[-10:]):
        chars = prefix[-10:]
    return len(_NEGATION_EN.findall(window)) + len(_NEGATION_ZH.findall(chars))


@lru_cache(maxsize=4096)
def _compiled(pattern: str) -> tuple[re.Pattern[str], int]:
    """The pattern, and how many negations it spells out itself (they do not count against it)."""
    bare = re.sub(r"\\[a-zA-Z]|\[[^\]]*\]", " ", pattern)
    # "instead\s+of", "rather\s+than": a negation spelled over a gap is spelled too.
    bare = re.sub(r"\s+", " ", re.sub(r"[+*?]|\{\d*,?\d*\}", "", bare.replace("|", " ")))
    return compiled_pattern(pattern), min(1, _negations(bare))


# What the answer says it does not understand or has forgotten ("具体 rescale 的细节还没看懂", "the
# rescaling I don't remember") is named, not claimed.
_IGNORED = re.compile(
    r"[^，,。；;:：]{0,12}?(?:我|i\s+)?(?:还|也|都)?(?:没(?:有)?(?:看|搞|弄|想|整|闹|摸)?(?:懂|明白|清楚|透)|不(?:太)?(?:懂|明白)|(?:搞|整|闹)不(?:懂|明白)|忘了|记不(?:清|得|住)|不记得)"
    r"|\s*(?:[\w'-]+\s+){0,4}?(?:i\s+)?(?:don't|do not|can't|cannot|didn't|did not)\s+(?:remember|recall|understand|get)\b"
    r"|\s*(?:[\w'-]+\s+){0,4}?i\s+(?:forgot|forget|never understood)\b"
    # ... or leaves it for later, as a storyteller does ("至于解码为何受限于带宽，且听下回分解").
    r"|\s*(?:欲知(?:详情|后事)[^，,。；;]{0,6}[，,]?\s*)?(?:且听)?下回分解|\s*(?:暂且|此处)?按下不表|\s*(?:that'?s|that is)\s+(?:a story\s+)?for another (?:day|time)\b"
)

# What the answer asks to be added ("建议补充与 Post-LN 的对比", "the authors should discuss X"), as a reviewer
# does, is named as missing, not claimed.
_SUGGESTED = re.compile(
    r"\s*(?:但|不过|另外|此外|最好)?\s*(?:建议|请|烦请|希望)(?:作者)?(?:进一步)?(?:补充|增加|加入|补上|说明|讨论|给出|明确|阐述|补一下)"
    r"|\s*(?:but\s+|also\s+)?(?:(?:the\s+)?authors?\s+|you\s+)(?:should|could|might want to|need to|must)\s+(?:also\s+)?(?:add|discuss|explain|include|compare|clarify|elaborate)\b"
    r"|\s*(?:but\s+|also\s+)?(?:please|consider)\s+(?:add(?:ing)?|discuss(?:ing)?|explain(?:ing)?|includ(?:e|ing)|compar(?:e|ing)|clarify(?:ing)?)\b"
)

# ... also fronted as a question of its own ("how the sum gets rescaled, I don't remember").
_ASKED_HOW = re.compile(r"\s*(?:but\s+|and\s+)?(?:exactly\s+)?(?:how|why)\b|\s*(?:但|不过|至于)?(?:具体)?[^，,。；;]{0,12}?(?:怎么|如何|为什么|为啥|为何)")


@dataclass(frozen=True)
class Match:
    """Where a phrasing matched, and whether the answer asserts it there."""

    start: int
    end: int
    negated: bool  # an odd number of negations takes the claim back
    framed: bool  # ... but as a purpose or a warning ("so that X does not happen")
    echo: bool  # only the question's words, in a clause with nothing new


def find(patterns: list[str], answer: str, asked: set[str], renamed: frozenset[str] = frozenset()) -> list[Match]:
    """Every match of ``patterns`` in the canonical ``answer``, with its polarity.

    ``asked`` holds the question's words, ``renamed`` the answer's other spellings of them (its lexicon
    terms): a clause made of those is an echo too, unless it is said to follow from what comes before.
    """
    matches = []
    for pattern in patterns:
        regex, spelled = _compiled(pattern)
        for m in regex.finditer(answer):
            start, end = m.span()
            if end == start:
                continue
            clause_start = _clause_start(answer, start)
            # Negations count in the clause that holds the claim's end: the span's last clause, and
            # the words just before the span when the span is one clause.
            span = answer[start:end]
            inner = [b.end() for b in _CLAUSE_END.finditer(span) if b.end() < len(span)]
            before = _negations_before(answer[max(clause_start, start - 60):start]) if not inner else 0
            # A pattern that spells a negation itself ("no recurrence") owns those inside its span
            # ("既没有循环也没有卷积" is one claim, not a double negation).
            inside = 0 if spelled else _negations(span[inner[-1] if inner else 0:])
            negated = (before + inside) % 2 == 1
            # A Chinese topic denied after it ("因果掩码都没有", "连 padding 之外的掩码也不用") is not had.
            if _DENIED_AFTER_ZH.match(answer, end):
                negated = not negated
            framed = negated and bool(_FRAME.search(answer[_sentence_start(answer, start):start]))
            clause_end = _clause_end(answer, end)
            # Set aside ("跟溢出没多大关系", "got nothing to do with gradients"), a danger is not one the thing prevents.
            unrelated = (_WITH_ZH.search(answer, max(0, start - 2), start) and _UNRELATED_AFTER_ZH.match(answer, end)) or \
                _UNRELATED_BEFORE_EN.search(answer, max(0, start - 30), start)
            if unrelated or _reported(answer, start) or _IGNORED.match(answer, end, clause_end) or _SUGGESTED.match(answer, clause_start) or (
                    _ASKED_HOW.match(answer, clause_start) and _IGNORED.match(answer, clause_end + 1, _clause_end(answer, clause_end + 1))):
                negated, framed = True, False
            said, clause = content(answer[start:end]), _claimed(answer[clause_start:clause_end])
            echo = not (said - asked) and not (clause - asked) or (
                not (said - asked - renamed) and not (clause - asked - renamed)
                and not _consequence(answer, clause_start, clause_end, asked | renamed))
            matches.append(Match(start, end, negated, framed, echo))
    return matches


# An adverb ("cleverly", "basically", "巧妙地", "其实") or a vague amount ("一些") beside the question's words says nothing new:
# "MQA cleverly shrinks the KV cache" is an echo (an adverb the phrasing itself names, "simultaneously",
# still counts).
_ADVERB = re.compile(r"[a-z]{3,}ly")
# The verbs of a purpose ("来减小……", "用于加速……"): what a means is used for.
_PURPOSE_ZH = r"(?:减小|缩小|降低|减少|节省|压缩|加快|加速|提高|避免|防止|实现)"
_ADVERB_ZH = re.compile(r"(?:本律师|本人|笔者|我方)?(?:请求|恳请)?(?:法庭|法院|贵院)(?:认定|确认)|(?:依据|根据|按照?)题意|如题所述|确已|其实|当然|就是|基本上|本质上|实际上|确实|显然|非常|一些|一点儿?|话说|列位看官|看官|诸位|(?<=[a-z\s])里面|"
                        r"(?:巧妙|大大|显著|有效|明显|简单|自然而然|聪明)地?|"
                        r"通过|借助|利用|采用|的?(?:一种)?(?:方式|方法|办法|做法|手段|机制|技术)来?|"
                        # "通过改变注意力的方式": changing "the way" of something names no change.
                        r"(?:改变|改动|修改|调整)(?:一下)?(?=[^，,。；;]{0,12}的?(?:方式|方法|做法|算法))|"
                        # "用 X 来减小……", "是用来减小……的", "用于减小": only link a means to its purpose.
                        r"(?:用来|用于|来)(?=\s*" + _PURPOSE_ZH + ")|"
                        r"用(?=[^，,。；;]{1,20}?来\s*" + _PURPOSE_ZH + ")")
# "by means of the multi-query approach": naming the question's method as a way or a means is no claim either.
# ... and a light verb ("caching the K and V makes generation faster" says what the question says).
_MEANS_EN = re.compile(r"\b(?:by means of|by way of|by using|through|via|approach(?:es)?|methods?|techniques?|mechanisms?|ways?|means|"
                       r"makes?|made|making)\b")


def _claimed(text: str) -> set[str]:
    """The content words of ``text`` that could make a claim: adverbs left out."""
    return {word for word in content(_MEANS_EN.sub(" ", _ADVERB_ZH.sub(" ", text))) if not _ADVERB.fullmatch(word)}


# "..., so the cache shrinks", "……，缓存就变小了": the question's words, said as what follows from a claim before.
_CONSEQUENCE = re.compile(r"\b(?:so|thus|hence|therefore|which means)\b|所以|因此|于是|从而|就")


def _consequence(answer: str, clause_start: int, clause_end: int, known: set[str] | frozenset[str]) -> bool:
    """Whether the clause draws its point ("so the cache is smaller") from something new said before it in
    the sentence (not from the question's own words: "MQA and GQA shrink the cache, so it is smaller")."""
    sentence = _sentence_start(answer, clause_start, limit=400)
    # (The clitic of "it's", "that's" is no word said.)
    return bool(_CONSEQUENCE.search(answer, clause_start, clause_end)) and bool(content(answer[sentence:clause_start]) - known - {"s"})


_SENTENCE_END = re.compile(r"[.;!?](\s|$)|[。！？;]")


def _sentence_start(text: str, position: int, limit: int = 80) -> int:
    ends = [m.end() for m in _SENTENCE_END.finditer(text, 0, position)]
    return max([0, *ends, position - limit])


def _clause_end(text: str, position: int) -> int:
    boundary = _CLAUSE_END.search(text, position)
    return boundary.start() if boundary else len(text)


def asserted(matches: list[Match], *, allow_frame: bool) -> list[Match]:
    return [m for m in matches if not m.echo and (not m.negated or (allow_frame and m.framed))]


# ------------------------------------------------------------------------------- keyword lists

# Items set apart by commas, slashes (not one inside a term: "8d/3", "k/v"), "and", or shouted one by one
# ("双向！掩码！BERT！"), or said one by one as sentences ("Kernel. Feature map. RNN. Linear. Logbook of sums.").
_ITEM_SPLIT = re.compile(r"\s*[,;、|+&!•]\s*|\s+·\s+|\s*/\s*(?!\w)|(?<!\w)\s*/\s*|\s+/\s+|\s+and\s+")
_ONE_BY_ONE = re.compile(r"(?<=[a-z])\.\s+(?=[a-z])")
_CJK = re.compile(r"[\u3400-\u9fff]")
_RELATION_EN = re.compile(
    r"\b(a|an|the|with|without|is|are|was|were|be|been|it|its|this|that|so|to|of|in|on|for|by|with|because|since|when|if|then|than|which|"
    r"as|at|from|into|can|will|would|could|should|may|might|must|do|does|did|has|have|had|gets?|makes?|becomes?|"
    r"causes?|leads?|means|grows?|increases?|decreases?|explodes?|saturates?|vanish(es)?|shrinks?|cancels?|"
    r"stays?|keeps?|prevents?|avoids?|needs?|uses?|shares?|stores?|reuses?|reads?|sees?|looks?|attends?|predicts?|"
    r"depends?|larger|bigger|smaller|higher|lower|more|less|fewer|too|very|only|never|always|not|no)\b"
    r"|[→=<>≈∝~]|n't"
)
_RELATION_ZH = re.compile(
    r"会|使|让|导致|因为|所以|变|太|过|越|很|更|不|没|能|把|被|随|则|就|是|为|需|要|只|仅|得|造成|引起|防止|避免|算|比|存|看|用|有|按|从|降到|升到|增到|减到|防|减少|减小|降低|增加|增大|提高|节省|保持"
)
# Nouns that hold a relating character (显存 holds 存; 不变性, an abstract noun in -性, holds 不) and
# 不同 ("different", not a negation), 平移不变 (shift-invariant, a property): topic words, not relations.
_NOUNS_ZH = re.compile(r"平移不变|显存|缓存|内存|存储|访存|复用|计算|算力|算法|算术|运算|过程|有效|比例|不同|能力|[\u3400-\u9fff]{1,3}性")
# In Chinese words set apart by spaces, "平移不变" (shift-invariant) names a property like 不变性 does.
_PROPERTY_ZH = re.compile(r"(?<=[\u3400-\u9fff]{2})不变$")
_FORMULA = re.compile(r"[\w^()/.*·+\- ]{1,24}=[\w^()/.*·+\- ]{1,20}")
_OF = re.compile(r"\bof\b")
_LINKING_EN = re.compile(r"\b(?:a|an|the|on|in|at|for|with|to|from|by)\b")
_COMPARATIVE_EN = re.compile(r"\b(larger|bigger|smaller|higher|lower|more|less|fewer|very)\b")


def _definition(item: str) -> bool:
    """"h=8", "θ_i = 10000^(-2i/d)": a name given a value. "BERT = no causal mask" is a claim."""
    return bool(_FORMULA.fullmatch(item)) and not _RELATION_EN.search(item.split("=", 1)[1])


def _spaced_terms(item: str) -> bool:
    words = item.split()
    return (bool(_CJK.search(item)) and 2 <= len(words) <= 5 and not any(_CJK.fullmatch(w) for w in words)
            and not _RELATION_ZH.search(_NOUNS_ZH.sub("", item)))


# Papers whose titles make a claim ("Transformers are RNNs"): named in a list, each is one topic word.
_PAPER_TITLE = re.compile(r"\b(?:transformers are rnns|attention is all you need|train short,? test long)\b")


@lru_cache(maxsize=256)
def _words_of(known: str) -> frozenset[str]:
    return frozenset(content(known))


def _cjk_pairs(text: str) -> set[str]:
    """The pairs of adjacent Chinese characters in ``text`` (Chinese read two characters at a time)."""
    return {text[i:i + 2] for i in range(len(text) - 1) if _CJK.match(text[i]) and _CJK.match(text[i + 1])}


def _mostly_off(said: set[str], known: str) -> bool:
    """Whether fewer than half of the words ``said`` are the question's (``known``)."""
    return len(said & _words_of(known)) * 2 < len(said)


_POINTS_AT_NAME = re.compile(r"\s*(?:→|=>|\s-{1,2}\s)\s*([\w -]{1,30}?)\s*[.。!！]?\s*$")
_LAST_SENTENCE = re.compile(r"(?<=[.!?。！？])\s*([^.!?。！？]+)[.!?。！？]?\s*$")


# Where a remark after a list may start: a dash, an ellipsis, a stop, a comma, a bracket, a colon.
_REMARK_START = re.compile(r"\s*(?:—+|–|-{1,2}(?!\w)|\.{2,}|…+|[.。!！?？;；,，(（【\[:：])")


def _a_remark(rest: str, known: str, domain: frozenset[str]) -> bool:
    """Talk off the subject: twelve words at most, naming at most one word of the question's text and at least
    one word the bank never uses ("the five shots you need in the album"); in Chinese, twenty characters at
    most, mostly not the question's, with one of its English terms at most ("粤语版背诵完毕，搞掂"); and no formula."""
    if re.search(r"[=^√→]|\d|\w\(", rest):
        return False
    said = content(rest)
    if _CJK.search(rest):
        latin = {word for word in said if not _CJK.search(word)}
        return len(_CJK.findall(rest)) <= 20 and _mostly_off(said, known) and len(latin & _words_of(known)) <= 1
    return len(rest.split()) <= 12 and len(said & _words_of(known)) <= 1 and bool(said - domain)


def _off_subject(item: str, known: str, domain: frozenset[str], listed: bool = True) -> bool:
    """An item with no word of the bank (English) or no character of the question's own text (Chinese,
    whose single characters the whole bank mostly holds): "no cap", "all that jazz", "晓得伐", "就这样".

    An item set apart by commas (``listed``) is off the subject too when most of its characters are and it
    relates nothing ("幕布一块一块": only 块 is the question's).
    """
    if not _CJK.search(item):
        return not content(item) & domain
    said = content(item)
    return not said & _words_of(known) or listed and _mostly_off(said, known) and not _RELATION_ZH.search(_NOUNS_ZH.sub("", item))


def is_keyword_list(answer: str, known: str = "", domain: frozenset[str] = frozenset(), _remark_follows: bool = False,
                    most: int = 8) -> bool:
    """Two to eight short items (ten set apart by spaces; ``most`` for a list laid out as lines), topic words, and
    nothing that relates them.

    ``known`` is the question's own text (question, model answer, idea labels): a longer Chinese item
    taken from it ("注意力矩阵") is a topic word too, and so is an English one whose only relating word
    is an adjective ("lower triangular") in a list of three or more. In a list separated by commas
    (or 、) a single English word is a topic word ("keys, values, cache, reuse"), and so is a
    definition ("h=8") in a list of four or more.
    """
    # A list followed by one short sentence that shares no word with the question's text ("…, decoder, mask.
    # Basically two different betas for the same route.") is a list with a remark.
    if (tail := _LAST_SENTENCE.search(answer)) and len(tail.group(1).split()) <= 12 and known and not (
            content(tail.group(1)) & _words_of(known)) and is_keyword_list(answer[:tail.start()], known, domain):
        return True
    # Four or more sentences of three words at most are items said one by one ("Kernel. Feature map. RNN.").
    said = _ONE_BY_ONE.split(answer.strip(" .。!！"))
    if len(said) >= 4 and all(len(sentence.split()) <= 3 for sentence in said):
        answer = ", ".join(said)
    # A list of three or more pointing at the name it adds up to ("running max, running sum, rescale → online
    # softmax": words of the question's own text) relates nothing.
    if (pointed := _POINTS_AT_NAME.search(answer)) and known and content(pointed.group(1)) <= _words_of(known) and len(
            _ITEM_SPLIT.split(answer[:pointed.start()].strip())) >= 3:
        answer = answer[:pointed.start()]
    # ... and so does a short remark off the subject after it ("…, lower-triangular — the five shots you need in
    # the album", "…、卷积——粤语版背诵完毕，搞掂！").
    if known and not _remark_follows:
        for cut in [m.start() for m in _REMARK_START.finditer(answer)][-4:][::-1]:
            if _a_remark(answer[cut:], known, domain) and len(_ITEM_SPLIT.split(answer[:cut].strip())) >= 4 and is_keyword_list(
                    answer[:cut], known, domain, _remark_follows=True):
                return True
    # A citation ("Xiong et al. 2020", "Transformers are RNNs") is one more topic word.
    items = [re.sub(r"\s+et al\.?(?=\s|$)", "", i) for i in _ITEM_SPLIT.split(_PAPER_TITLE.sub("paper", answer.strip(" .。!！"))) if i]
    # An arrow, a formula, "BERT: bidirectional" relate things; in a list of four or more, a definition
    # ("h=8", "θ_i = 10000^(-2i/d)") is one more topic word.
    long_list = len(items) >= 4
    # ... and so does code that assigns the result of a call ("m_new = max(m, rowmax(s))").
    if (re.search(r"[→<>≈∝~]|[^\d\s]\s*:|=\s*[\w.]+\(", answer)
            or any("=" in i and not (long_list and _definition(i)) for i in items)):
        return False
    # A list of three or more topic words opened or closed by words off the subject (``domain``: the bank's own
    # words) is a list with a greeting or a tag ("…, rescale, no cap", "…、重缩放，晓得伐？", "yo, …").
    if domain and len(items) >= 4 and _off_subject(items[-1], known, domain):
        items = items[:-1]
    if domain and len(items) >= 4 and _off_subject(items[0], known, domain):
        items = items[1:]
    separated = len(items) >= 3  # "keys, values, cache, reuse": a word alone relates nothing
    if separated:  # ... nor does an article before each ("the kernel, the associativity, the RNN")
        items = [re.sub(r"^(?:the|an?)\s+(?=\S+(?:\s+\S+)?$)", "", item) for item in items]
    spaced = len(items) == 1
    if spaced:
        items = answer.strip(" .。!！").split()
        # Chinese words set apart by spaces ("最大值 溢出 exp 数值稳定") are listed, not written as a
        # sentence: such a list may be as long as a separated one.
        # So may a list holding a symbol, a number or a formula ("-inf -1e9 NaN exp softmax 均匀",
        # "sliding window W O(nW) layers receptive field"; "−" is "-" by now).
        if len(items) > (10 if any(re.fullmatch(r"[\u3400-\u9fff]+", i) or re.search(r"[\d\-+^()]", i)
                                   for i in items) else 8):
            return False
        if domain and len(items) >= 4 and _off_subject(items[-1], known, domain, listed=False):
            items = items[:-1]  # "多头 子空间 拼接 W_O 晓得伐": the tag again
    if not 2 <= len(items) <= (max(10, most) if spaced else most):
        return False
    listed = len(items) >= 3
    # A Chinese item of two to five terms set apart by spaces ("线性注意力 核函数; 结合律 RNN") is read term
    # by term, when nothing in it relates them.
    items = [word for item in items for word in (item.split() if not spaced and _spaced_terms(item) else [item])]
    for item in items:
        if separated and (_definition(item) or re.fullmatch(r"[a-z_-]+", item)):
            continue
        if _CJK.search(item):
            longest = 6 if item in known else 5 if len(items) >= 4 else 4
            if listed and re.fullmatch(r"更[\u3400-\u9fff]", item):
                continue  # a bare comparative ("更快"), like "lower" in an English list
            nouns = _NOUNS_ZH.sub("", _PROPERTY_ZH.sub("", item) if spaced and len(items) >= 4 else item)
            if len(_CJK.findall(item)) > longest or _RELATION_ZH.search(nouns):
                return False
        elif len(item.split()) > (4 if len(items) >= 5 else 3):  # "kernel feature map φ" in a list of five
            return False
        else:
            # In a list of four or more, "of" joins a noun phrase ("blocks of keys"), it relates nothing.
            # In a list of five or more, a phrase joined by a preposition ("jesses on the attention",
            # "mask for the future") names a thing too.
            words = _OF.sub(" ", item) if long_list and separated else item
            if separated and len(items) >= 5 and len(item.split()) <= 4:
                words = _LINKING_EN.sub(" ", words)
            relations = [m.group(0) for m in _RELATION_EN.finditer(words)]
            if relations and not (listed and len(relations) == 1 and _COMPARATIVE_EN.fullmatch(relations[0])):
                return False
    return True


# ------------------------------------------------------------------------------- the judgement


@dataclass
class Judgement:
    """What a text answer says, what it scores, and how sure the grader is."""

    fraction: float
    found: list[Concept] = field(default_factory=list)
    missing: list[Concept] = field(default_factory=list)
    inverted: list[Concept] = field(default_factory=list)  # ideas whose opposite the answer asserts
    mistake: str | None = None
    notes: list[tuple[str, dict[str, object]]] = field(default_factory=list)
    confidence: float = 1.0
    doubts: list[str] = field(default_factory=list)  # message keys: why the grader is unsure

    def doubt(self, key: str, confidence: float) -> None:
        if key not in self.doubts:
            self.doubts.append(key)
        self.confidence = min(self.confidence, confidence)


#: No keyword list is longer (eight items of a few words): longer answers skip the check.
_LONGEST_LIST = 240

# What decorates a post but says nothing: emoji, hashtags ("#面试 #干货"), and a remark that the
# words are the keywords ("记住这几个词就够了", "这题的关键词就这些", "就这些嘛", "面试高频词汇，收藏！", "keywords:", "that's it"). A list so decorated
# is still a list: "多头🧠 子空间 concat W_o 并行 #记住就行".
_EMOJI = re.compile(f"[{_EMOJI_CHARS}\u2713-\u2718\u2B00-\u2BFF\uFE0F\u200D]")
_HASHTAG = re.compile(r"(?<!\S)#[^#\n;]{1,40}#|(?<!\S)#[^\s#]+")  # "#topic#" (Weibo) or "#topic"
# The numbers of a thread's posts or a list's lines ("1/ ...; 2/ ...").
_LINE_NUMBER = r"\d+\s*[/.)]"
_NUMBERING = re.compile(rf"(?:^|(?<=[;,]\s)){_LINE_NUMBER}(?=\s)")
# (The words around a remark are bounded: an unbounded run would make a long unbroken answer quadratic.)
# Remarks that say an answer lists keywords rather than explains them, grouped by the framing they come from.
_KEYWORD_REMARKS_ZH = (
    # saying so outright
    "关键词", "这几个词", "这些词", "几个词", "就这几样儿?", "就这几个", "就是关键", "这些就是", "重要",
    "(?:很|老|超|贼|交关|蛮|挺|非常)(?:省|好用|有用|关键|实用|香)", "得劲儿?", "带劲", "齐活儿?", "妥了", "搞定",
    "串不起来", "连不起来", "嘛都有", "好像都有关系",
    # telling to memorise
    "记住就行", "记住就好", "记牢", "背下来就行", "背熟", "必背", "必考", "高频词", "高频考点", "考点",
    "整就完了", "就完事了?", "就这些", "就这么(?:些|多)",
    # social-media cheering
    "收藏", "码住", "冲冲冲", "冲鸭", "姐妹们冲", "绝绝子", "yyds", "点赞", "亲", "哦", "啦", "嗯",
    # a comic duo's dialogue (甲：…乙：您倒是说说怎么回事啊？)
    "倒是说说", "怎么回事",
    # a livestream seller's patter
    "家人们", "上链接", r"\d*上车", "闭眼入", "宝宝们", "老铁们?", "直播间", "冲就完了",
    # storyteller
    "列位看官", "看官", "话说", "且听下回分解", "欲知后事如何", "各有千秋",
    # course outline and notices
    "核心要点", "要点", "重点", "关键点", "知识点", r"第[一二三四五六七八九十\d]+讲",
    "各位同学", "同学们", "请注意", "特此通知", "本题", "本节", "大家好",
    # a newsreader's script
    "观众朋友们", "听众朋友们", "本台",
    # a weather forecaster's idiom ("局部有 padding", "预计")
    "局部有", "预计", "请注意防范",
    # a tag question closing the list ("……，阿是？", "对吧？", "是伐？"): it asks, it relates nothing
    "阿是", "对吧", "是吧", "对伐", "是伐", "对不对", "是不是啊?", "没错吧", "对哇", "对撒", "对头不", "中不中",
    "行不行", "好不好", "懂不懂",
    # called away ("宝宝哭了先这样")
    "先这样", r"(?:宝宝|娃|孩子)(?:哭了|醒了|叫我了?)",
)
_KEYWORD_REMARKS_EN = (
    r"\b(?:key ?words?|buzzwords?)\s*(?:are|:)?", r"\bthat'?s (?:it|all|the recipe|the lot)\b",
    r"\b(?:and )?all that jazz\b", r"\band (?:stuff|so on|so forth|whatnot)\b",
    r"\b(?:(?:all\s+)?(?:very|super|really|so)\s+)?important\s+(?:stuff|things|words|concepts|bits)\b",
    r"\b(?:that|this) kind(?: of thing)?(?: lor| lah| la| ah)?\b", r"\b(?:save this|bookmark(?: this)?|must[- ]knows?)\b",
    # a contract's boilerplate
    r"\b(?:whereas|hereby|hereinafter|notwithstanding)\b", r"\bthe part(?:y|ies)(?:'s)?(?: (?:attends|refers|relates) to)?\b",
)
_REMARK_EDGE = r"[^,.:;、。!?！？\s]{0,16}"
_KEYWORD_REMARK = re.compile(f"{_REMARK_EDGE}(?:{'|'.join(_KEYWORD_REMARKS_ZH)}){_REMARK_EDGE}|" + "|".join(_KEYWORD_REMARKS_EN))


# A tilde after Chinese draws out a tone ("亲～", "哦～"); it is not "approximately".
_TONE_TILDE = re.compile(r"(?<=[\u3400-\u9fff])[~～]+")


# A speaker's label in a dialogue ("甲：核函数！乙：嗯。").
_SPEAKER = re.compile(r"(?:^|(?<=[。.!?！？]))\s*[甲乙丙]\s*[:：]")


# A list written as lines ("## sliding window; - o(n·w); - rolling buffer", the lines already joined by ";"):
# the bullets, and a markdown heading, which heads the list.
_BULLET = re.compile(r"(?:^|(?<=;\s))[-*•]\s+")
_MARKDOWN_HEADING = re.compile(r"^#+\s*([^;#]{1,40});\s*")
# A greeting that opens the answer ("hi all", "hey!", "good morning,").
_GREETING = re.compile(r"^(?:hi|hey|hello|yo|greetings|good (?:morning|afternoon|evening))\b(?:\s+(?:all|everyone|folks|guys|there|team))?\s*[!,.]?\s*")


# A list laid out as lines opens each with a bullet, an arrow or a number ("•", "★", ">", "→", "①", "1)", "一、",
# "篾一："), or with nothing but indentation.
_LINE_MARKER = re.compile(
    r"^\s*(?:[-*•★☆>〉»▪▸◦·→⟶]+|[\u2460-\u2473]|\(?\d{1,2}[.)、:：]|[一二三四五六七八九十]+[、.:：]|"
    r"[\u3400-\u9fff]{1,2}[一二三四五六七八九十][:：])\s*")
# A heading ends in a colon or a dash, is set in brackets ("【softmax 减最大值】") or is a Markdown heading.
_LINE_HEADING = re.compile(r"(?:[:：—–-]|\s-)\s*$|^\s*[【\[〔(（].{1,30}[】\]〕)）]\s*$|^\s*#+\s")


def _laid_out_items(raw: str, known: str, asked_text: str, asked: set[str] | frozenset[str],
                    domain: frozenset[str]) -> list[str] | None:
    """The items of a list laid out as short lines under a heading or above a closing line ("Softmax stability,
    main points: / • exp() / • row max / • overflow / inf / NaN / That about covers the fold"), each in canonical
    form; None when the answer is not laid out so.

    A closing line that is a remark is dropped: one that brings at most one word of the subject the question does
    not hold ("That's why RoPE is relative"), or a short Chinese one mostly off the question's words ("差不多就这些，
    面试够用了"). Any other closing line is one more item, so that a sentence that explains ("The scale keeps the
    variance at 1, so the softmax does not saturate") makes the answer no bare list.
    """
    lines = [line for line in raw.strip().splitlines() if line.strip()]
    if not 2 <= len(lines) <= 12:
        return None
    marked = [bool(_LINE_MARKER.match(line)) for line in lines]
    headed = bool(_LINE_HEADING.search(lines[0])) or (not marked[0] and sum(marked[1:]) >= 3)
    body = lines[1:] if headed else lines
    marks = marked[1:] if headed else marked
    closing = body[-1] if len(body) >= 2 and not marks[-1] and sum(marks[:-1]) * 2 >= len(body) - 1 else None
    if not (headed or closing is not None):
        return None
    if closing is not None:
        plain = re.sub(r"'s\b", "", canonical(closing))
        if _CJK.search(plain):
            # Chinese is read in pairs of characters: those of the subject (the model answer, the ideas) that the
            # question does not hold.
            subject = {pair for pair in _cjk_pairs(plain) if pair in known and pair not in asked_text}
            remark = len(_CJK.findall(plain)) <= 20 and len(subject) <= 1
        else:
            new_words = len((content(plain) & domain) - asked)
            remark = len(plain.split()) <= 12 and (new_words <= 1 or new_words <= 2 and len(plain.split()) <= 4)
        if remark:
            body = body[:-1]
    items = [item for item in (canonical(_LINE_MARKER.sub("", line)) for line in body) if item]
    return items if len(items) >= 3 or (items and len(_ITEM_SPLIT.split(items[0])) >= 3) else None


def _without_decoration(answer: str) -> str:
    """The answer without emoji, hashtags, speakers' labels, a greeting, bullets and remarks that it lists
    keywords (to tell a keyword list)."""
    bare = _SPEAKER.sub(" ", _TONE_TILDE.sub(" ", answer))
    bare = _BULLET.sub("", _MARKDOWN_HEADING.sub(r"\1: ", _GREETING.sub("", bare)))
    bare = _NUMBERING.sub(" ", _KEYWORD_REMARK.sub(" ", _HASHTAG.sub(" ", _EMOJI.sub(" ", bare))))
    # What a removed remark leaves at either end ("同学们请注意，本节要点：最大值、…") is punctuation.
    return re.sub(r"\s+", " ", bare).strip(" .。…,，:：;；、—-")


@lru_cache(maxsize=256)
def _asked(text: str) -> frozenset[str]:
    return frozenset(content(canonical(text)))


# A verb that reports what follows ("the Party states that ...") adds nothing to it.
_REPORTING = re.compile(r"\b(?:states?|says?|declares?|submits?|holds?|stipulates?|acknowledges?|affirms?|asserts?|agrees?|notes?)\s+that\b")

_HEADING = re.compile(r"[^:,.;。]{1,24}:\s*")
# ... and so does one that only labels what follows ("举证：", "答：", "Exhibit A:", "TL;DR:").
_LABEL_HEADING = re.compile(r"\s*(?:举证|答|答案|回答|关键词|要点|总结|结论|证据|证物|summary|answer|keywords?|tl;?dr|in short|evidence|exhibit\s+\w)\s*:\s*")
# A heading that says something of its words ("the mask is: …") starts an answer, not a list.
_HEADING_RELATION_EN = re.compile(r"\b(?:is|are|means|does|do)\b")
# A likeness announced before a colon ("kind of like a colour formula:", "就像做菜：") says nothing of what follows.
_ANALOGY_HEADING = re.compile(r"(?:it'?s\s+|this\s+is\s+)?(?:kind of\s+|sort of\s+|a bit\s+|just\s+)?like\s+(?:a|an|the|my|your)\s+[\w' -]{1,30}:\s*"
                              r"|(?:这)?就?(?:像|好比|如同)[\u3400-\u9fff]{1,10}[:：]\s*")
# ... and so does one that closes it ("…、编码器、解码器，跟烧窑温度不一样一个道理", "…, just like a forge").
_ANALOGY_TAIL = re.compile(r"[,，。]\s*(?:这|也)?(?:就)?(?:跟|和|与|像|好比|如同)[^,，。；;:：]{1,16}(?:一个道理|一样|似的|差不多|同理)[。.!！]?$"
                           r"|,\s*(?:it'?s\s+)?(?:just\s+|kind of\s+|sort of\s+|a bit\s+)?like\s+(?:a|an|the|my|your)\s+[\w' -]{1,30}[.!]?$")


@lru_cache(maxsize=256)
def _known(text: str) -> str:
    return canonical(text)


# A claim that gives itself as its own reason ("通过减小 KV 缓存来减小 KV 缓存", "代价就是付出了代价", "it reduces the
# cache by reducing the cache"), or says a thing does what its name says, says nothing.
_TAUTOLOGY = re.compile(r"通过\s*([^。；;,]{2,20}?)\s*来\s*\1|代价(?:就)?是(?:付出了?)?(?:一些|一定的?|些)?代价|代价(?:就)?是[^。；;,]{0,10}付出的代价"
                        r"|\b(\w{3,}?)(?:es|s)?\s+([\w -]{2,30}?)\s+by\s+\2(?:ing|es|s)?\s+\3\b"
                        # a name repeated as what the thing does ("位置编码提供位置", "positional encoding gives the
                        # position", "KV cache is a cache for K and V")
                        r"|([\u4e00-\u9fff]{2})(?:编码|嵌入)\s*(?:就是)?(?:用来|来)?(?:提供|给出|带来)了?\s*\4(?=\s*(?:[。；;,.!！]|$))"
                        r"|\bposition(?:al)?\s+(?:encodings?|embeddings?)\s+(?:provides?|gives?)\s+(?:the\s+)?positions?(?=\s*(?:[.;,!]|$))"
                        r"|\b(?:kv\s+cache|it)(?:'s|\s+is)\s+(?:just\s+)?(?:a|the|one)\s+cache\s+(?:for|of)\s+(?:the\s+)?(?:k|keys?)\s*(?:and|&|/)\s*(?:v|values?)\b"
                        r"|kv\s*缓存(?:就)?是(?:用来)?缓存\s*(?:k|键)\s*(?:和|与|跟)\s*(?:v|值)的?(?:缓存)?"
                        # "without positional encodings it would have no positional encodings", "it needs them to encode
                        # the positions": the thing asked about, named as its own reason
                        r"|\bwithout\s+([\w -]{3,30}?),?\s+(?:it|there|the model|a transformer)\s*(?:would|'d|will)\s+(?:have|be)\s+no\s+\5"
                        r"|\bposition(?:al)?\s+(?:encodings?|embeddings?)\s+(?:because|since)\s+it\s+(?:needs?|has)\s+to\s+encode\s+(?:the\s+)?positions?\b")


def judge(question: Question, raw: str) -> Judgement:
    """Grade one free-text answer (not blank) against ``question``'s rubric."""
    answer = _TAUTOLOGY.sub(" ", canonical(raw))
    asked = set(_asked(question.question.en + " " + question.question.zh))
    asked_text = _known(question.question.en + " " + question.question.zh)
    # The question's terms, however the answer spells them.
    renamed = frozenset(word for spellings in question.synonyms
                        for m in _compiled(spellings)[0].finditer(answer) for word in content(m.group(0)))
    concepts = question.concepts
    total = sum(c.points for c in concepts)
    if not (content(_REPORTING.sub(" ", answer)) - asked - renamed):
        return Judgement(0.0, missing=list(concepts), notes=[("text_repeats", {})])
    bare = _without_decoration(answer)
    # A heading made of the question's own words ("因果掩码：上三角、−inf、自回归") introduces the list; one
    # that says something of them ("ALiBi 就是：…", "the mask is: …") does not.
    if ((heading := _HEADING.match(bare)) and (not (content(heading.group(0)) - asked - renamed) or _LABEL_HEADING.fullmatch(heading.group(0)))
            and not _RELATION_ZH.search(heading.group(0)) and not _HEADING_RELATION_EN.search(heading.group(0))):
        bare = bare[heading.end():]
    # ... and so does a likeness that only announces it ("kind of like a colour formula: the kernel, …").
    elif analogy := _ANALOGY_HEADING.match(bare):
        bare = bare[analogy.end():]
    bare = _ANALOGY_TAIL.sub("", bare)
    known = _known(" ".join([question.question.en, question.question.zh, *question.answer.values(),
                             *(c.label.en + " " + c.label.zh for c in concepts)]))
    domain = vocabulary(question.domain)
    # (An answer laid out as lines is read line by line only when it is no list as one text.)
    if (len(bare) <= _LONGEST_LIST and is_keyword_list(bare, known, domain)) or (
            (laid_out := _laid_out_items(raw, known, asked_text, asked | renamed, domain))
            and is_keyword_list(", ".join(laid_out), known, domain, most=16)):
        return Judgement(0.0, missing=list(concepts), notes=[("text_keywords", {})])

    result = Judgement(0.0)
    covered: list[tuple[int, int]] = []
    mentions = _mentions(question, answer)
    evidence: dict[str, list[Match]] = {}
    wrong_sentences: set[int] = set()
    for concept in concepts:
        matches = find(concept.en + concept.zh, answer, asked, renamed)
        # The question's own words rearranged the wrong way ("prefill is memory-bound") are no echo; a
        # guess asked as a question ("maybe −1e9 also NaNs?") claims nothing.
        against = [m for m in find(concept.against.en + concept.against.zh, answer, asked, renamed)
                   if not m.negated and not _guessed(answer, m.start)]
        if not concept.danger:
            # Its opposite said of what would happen without the thing asked about states the idea.
            supposed = [m for m in against if _hypothetical(answer, m.start)]
            against = [m for m in against if m not in supposed]
            matches += [replace(m, negated=False) for m in supposed]
        said = asserted(matches, allow_frame=concept.danger)
        if concept.about:
            # The opposite said of the other subject, named in its clause ("standard attention stores the
            # n × n matrix"), is true.
            against = [m for m in against if not ((named := _named_in_clause(m, answer, mentions)) and concept.about not in named)]
            # Said of the other subject ("prefill is memory-bound"), the idea is stated the wrong way round;
            # unless it is also said of no subject in particular ("训练目标是 MLM"), or of the right one.
            # A claim that runs into the subject names it as its object ("every later query compares against
            # all the earlier keys"): it is said of that subject too.
            subjects = [_subjects_of(m, answer, mentions) | _object_of(m, answer, mentions) for m in said]
            misattributed = [m for m, named in zip(said, subjects) if named and concept.about not in named]
            if misattributed and not any(not named or concept.about in named for named in subjects):
                against += misattributed
            said = [m for m in said if m not in misattributed]
        covered += [(m.start, m.end) for m in said + against]
        if against:
            result.inverted.append(concept)
            wrong_sentences |= {_sentence_start(answer, m.start, limit=400) for m in against}
            if any(not any(a.start <= m.start < a.end or m.start <= a.start < m.end for a in against) for m in said):
                result.doubt("text_doubt_contradiction", 0.5)
        elif said:
            result.found.append(concept)
            evidence[concept.id] = said
        elif denial := _denial_of(concept, answer):
            # The idea set aside by name ("warm-up's got nothing to do with it", "跟训练稳定没得关系") is denied.
            result.inverted.append(concept)
            wrong_sentences.add(_sentence_start(answer, denial, limit=400))
        else:
            result.missing.append(concept)
            if any(m.negated and not m.echo for m in matches):
                result.doubt("text_doubt_negated", 0.5)
    mistaken: list[tuple[int, int]] = []  # where the answer asserts a named mistake
    for wrong in question.mistakes:
        # A wrong claim made of the question's own words ("RoPE 只旋转键") is said, not echoed; unless it
        # copies the question's words as they stand.
        mentioned = [m if answer[m.start:m.end] in asked_text else replace(m, echo=False)
                     for m in find(wrong.en + wrong.zh, answer, asked, renamed)]
        hits = asserted(mentioned, allow_frame=False)
        # A negation read inside a longer asserted match ("so that the model doesn't attend to the padding")
        # belongs to that claim; it rejects nothing.
        if hits and any(m.negated and not m.echo and not any(h.start <= m.start and m.end <= h.end for h in hits)
                        for m in mentioned):
            # The answer rejects the mistake ("not by d_k") and then discusses it ("dividing by d_k shrinks...").
            result.doubt("text_doubt_negated", 0.6)
            continue
        if hits:
            result.mistake = result.mistake or wrong.mistake
            covered += [(m.start, m.end) for m in hits]
            wrong_sentences |= {_sentence_start(answer, m.start, limit=400) for m in hits}
            mistaken += [(m.start, m.end) for m in hits]
    # An answer whose every idea is read inside the words of its misconception ("ALiBi learns a bias for
    # every distance") states no right idea: those words say the wrong thing.
    if result.found and all(any(start <= m.start and m.end <= end for start, end in mistaken)
                            for concept in result.found for m in evidence[concept.id]):
        result.missing = [c for c in concepts if c in result.missing or c in result.found]
        result.found = []

    result.fraction = sum(c.points for c in result.found) / total
    if result.mistake or result.inverted:
        # A wrong claim cancels a right one, and whatever is left stays below half.
        if result.found:
            result.doubt("text_doubt_mixed", 0.6)
        # Each wrong claim (an inverted idea, a named mistake) cancels one right idea, the largest first.
        wrongs = len(result.inverted) + (1 if result.mistake else 0)
        cancelled = sum(sorted((c.points for c in concepts), reverse=True)[:wrongs]) / total
        result.fraction = min(max(result.fraction - cancelled, 0.0), WRONG_CAP)
        # A right idea stated in a sentence of its own, beside a misconception stated in another, is
        # still worth something (the label "partial"); one said inside the wrong claim is not, nor one
        # drawn from it ("RMSNorm 减去均值但不除以标准差; 所以更省算力").
        apart = [c for c in result.found
                 if any((start := _sentence_start(answer, m.start, limit=400)) not in wrong_sentences
                        and not _drawn_from(answer, start, wrong_sentences) for m in evidence[c.id])]
        if result.fraction == 0 and apart:
            result.fraction = min(sum(c.points for c in apart) / total / 2, WRONG_CAP)
    if result.mistake:
        result.notes.append(("text_mistake", {}))
    if result.inverted:
        ideas = Text(", ".join(c.label.en for c in result.inverted), "、".join(c.label.zh for c in result.inverted))
        result.notes.append(("text_inverted", {"ideas": ideas}))
    unread = _unread(answer, covered, asked)
    if result.fraction < 1 and _count(unread) >= 8:
        result.doubt("text_doubt_unrecognised", 0.6)
        if not _ADMITS.search(answer):
            _benefit_of_doubt(result, concepts, _count(unread & vocabulary(question.domain)))
    return result


# A sentence that opens by drawing a conclusion ("so ...", "所以……"), after the numbering of its line.
_DRAWN = re.compile(rf"\s*(?:{_LINE_NUMBER}\s*)?(?:(?:so|thus|hence|therefore|which means)\b|所以|因此|因而|于是|故)")


def _drawn_from(answer: str, start: int, wrong_sentences: set[int]) -> bool:
    """Whether the sentence at ``start`` draws its conclusion from a wrong sentence just before it."""
    if not start or not _DRAWN.match(answer, start):
        return False
    return _sentence_start(answer, len(answer[:start].rstrip(" .;!?。！？；")), limit=400) in wrong_sentences


# An answer that says it does not know or remember part of what was asked ("这笔账我还没对明白", "I don't
# remember why") is not taken on trust for the ideas it leaves out.
_ADMITS = re.compile(
    r"我[^。；;,]{0,6}(?:没有?|不太?|还没)[^。；;,]{0,3}(?:懂|明白|清楚|记得|记住|想通|搞清|弄清)|记不(?:清|得|住)|不记得|忘了"
    r"|\bi\s+(?:really\s+)?(?:don't|do not|can't|cannot|didn't|did not)\s+(?:really\s+)?(?:know|remember|recall|understand)\b"
    r"|\b(?:not (?:100% |entirely |totally |quite )?sure|no idea|dunno|beats me|i forg[eo]t)\b"
    r"|\bi(?:'ve| have)? (?:got )?no clue\b|\bdon'?t ask me\b|\b(?:i'?d|i would|i'?m|i am)\s+(?:only\s+|just\s+)?(?:be\s+)?guess(?:ing|in'?)\b|\b(?:couldn'?t|can'?t) tell you\b"
    r"|我也?说不(?:好|清|上来)|(?:搞|整|闹)不(?:懂|明白|清)"
    # ... or that it will not go into it ("至于加性注意力，本律师不予举证", "I'll skip the additive part").
    r"|(?:不予|暂不|恕不|就不|先不)(?:举证|说明|解释|置评|赘述|讨论|展开|细说|多说)"
    r"|\b(?:i'll|i will|i'm going to|let me)\s+(?:skip|not go into|leave out|pass on)\b|\b(?:won't|will not)\s+go\s+into\b|\bno comment\b"
    # ... or, as a reviewer does, that the text it reviews leaves it out ("本文未给出说明", "建议补充").
    r"|(?:未|没有|并未|尚未)(?:给出|作出|做出|进行|加以)?(?:说明|解释|讨论|交代|论述|提及|涉及)|建议(?:作者)?(?:进一步)?(?:补充|增加|加入|补上|讨论)"
    r"|\b(?:does not|doesn't|did not|didn't|fails? to)\s+(?:explain|discuss|address|mention|cover)\b|\b(?:the\s+)?authors?\s+should\s+(?:add|discuss|explain)\b")


#: Words on the bank's subject that no phrasing accounted for (CJK characters count one each, halved)
#: from which the missing ideas are taken to be stated in other words: 12 beside every idea but one,
#: 16 beside one idea of three or more. Chosen on the first blind readings of heldout_c to heldout_p
#: (4,927 answers, each graded by the grader frozen before its set was read; docs/qa_text.md). Among
#: answers with no wrong claim and every idea but one found, those with 12 such words or more were
#: labelled full 218 times, partial 24 and zero 2 (fewer: full 45, partial 125, zero 12); with one
#: idea of three found and 16 or more, full 36 times of 36 (fewer: full 17, partial 68, zero 21).
TRUSTED_UNRECOGNISED = {1: 12, 2: 16}


def _benefit_of_doubt(result: Judgement, concepts: list[Concept], on_topic: int) -> None:
    """Full points, flagged for review, for a sure-footed answer that says much the rubric did not read.

    Only an answer with no wrong claim (no misconception, nothing inverted, no negated or contradicted
    idea) that states every idea but one, or misses two of three or more, qualifies: its words on the
    subject that matched no phrasing most likely state the missing ideas in other words, the way a
    paraphrase does; filler and examples are not the bank's words and do not count. The missing ideas
    stay listed, the verdict says it was given on trust, and its confidence keeps it in the review.
    """
    if result.mistake or result.inverted or result.doubts != ["text_doubt_unrecognised"] or not result.found:
        return
    missing = len(result.missing)
    if missing == 2 and len(concepts) < 3:
        return
    if on_topic >= TRUSTED_UNRECOGNISED.get(missing, 10**9):
        ideas = Text(", ".join(c.label.en for c in result.missing), "、".join(c.label.zh for c in result.missing))
        result.fraction = 1.0
        result.notes.append(("text_on_trust", {"ideas": ideas}))
        result.doubt("text_doubt_on_trust", 0.6)


# What would happen without the thing asked about ("没有因果掩码的话，每个词就能看到后面的词", "without the
# mask, every token could see the future") is the danger it prevents, not a claim that it happens: the
# opposite of what the thing achieves, said so, is right. (The opposite of a danger idea, "otherwise the
# gradients explode", stays wrong.)
_HYPOTHETICAL = re.compile(
    r"(?:没有?|不加|不用|去掉|拿掉)[^。；;,]{1,12}的话|(?:如果|要是|若|假如|假设)(?:没有|不加|不用|去掉|不存|不缓存|不|没)|否则|不然"
    # "不遮住的话", "不存的话"; "没有缓存时，…", "没缓存：…"
    r"|(?:不遮|不挡|不屏蔽|不盖|不掩|不mask|不存|不缓存|不保存)[^。；;,]{0,12}的话"
    r"|(?:没有?|不用|不加|去掉|拿掉)\s*(?:kv\s*)?(?:缓存|cache|掩码|mask)\s*(?:时|的时候|时候)?\s*[:：,，]"
    # "Without the cache, ...", "without it we ...": fronted, at the start of a sentence or after a comma
    # ("it trains stably without warm-up, ..." only says how it trains).
    r"|(?:^|[,;:]\s*)without\s+(?:it|them|this|that|the\s+[\w-]+(?:\s+[\w-]+)?|an?\s+[\w-]+(?:\s+[\w-]+)?|[\w-]+(?:\s+[\w-]+)?)"
    r"(?:\s*,|(?=\s+(?:we|you|it|they|the model|each|every|one|all)\b))"
    r"|(?:^|[,;:]\s*)if\s+(?:there\s+(?:is|were|was)\s+no|we\s+(?:didn't|did not|don't|do not|removed?|dropped?))\b|\botherwise\b"
)


# A report's fields ("现象：… 原因：… 动作：… 结果：…", "Root cause: … Fix: …"): under a problem's field the
# answer states what went wrong before the thing asked about, like "without the cache".
_FIELD = re.compile(r"(原因|问题|痛点|现象|背景|动作|结果|方案|结论|目标|做法|效果|root cause|problem|issue|fix|result|solution)\s*:")
_PROBLEM_FIELDS = frozenset(("问题", "痛点", "现象", "背景", "problem", "issue"))


def _hypothetical(answer: str, position: int) -> bool:
    """Whether the claim at ``position`` is said of what would happen without the thing asked about."""
    start = _sentence_start(answer, position)
    fields = _FIELD.findall(answer, start, position)
    return bool(_HYPOTHETICAL.search(answer[start:position].lstrip())) or bool(fields and fields[-1] in _PROBLEM_FIELDS)


# ------------------------------------------------------------------------------- subjects

# A subject named only to be set aside ("unlike prefill", "和预填充相比") is not what the clause is about.
#: A subject named as the operation a step performs ("再和向量做内积", "then takes a dot product with v") is
#: what the step does, not what the sentence is about.
_OPERATION_BEFORE = re.compile(r"(?:\b(?:takes?|taking|took)\s+(?:a|an|the)\s+|(?:做|求|取)\s*)$")
_CONTRAST_BEFORE = re.compile(
    r"(?:\b(?:unlike|than|versus|vs\.?|compared (?:with|to)|rather than|instead of|as opposed to|not)\s+(?:the\s+|in\s+|a\s+)?"
    r"|(?:不像|不同于|与|和|跟|同|比|比起|而非|而不是|不是|相对于|相较于)\s*)$"
)

_JOINED_BEFORE = re.compile(r"(?:与|和|跟|同)\s*$")
_AGENT_BEFORE = re.compile(r"(?:\bby|\b(?:that|which)(?=\s+(?:every|each|all|any)\b))\s+(?:(?:every|each|all|any|the|later|future|subsequent|new|next|following|upcoming|other)\s+)*(?:(?:token|word|position|step)(?:'s|s')?\s+)?$|被\s*(?:(?:之后|后面|以后|后来|其后|后续)的?)?\s*(?:每一?个|每一?步的?|所有的?|各个?)?\s*$"
                           # "为其后每一查询所读取" (为…所…, the written passive); not 因为, 作为, 认为…
                           r"|(?<![因作成认称以视行较更最])为\s*(?:(?:其后|之后|以后|后续|此后)的?\s*(?:每一?个?|每一?步的?|所有的?|各个?)?|每一?个?|每一?步的?|所有的?|各个?)\s*$")
# ... or of an operation on something else, named by a pronoun ("every new query still has to scan them",
# "之后的查询还要用它们"): the pronoun's referent is what the claim is about.
_AGENT_AFTER = re.compile(
    r"\s*(?:\([^)]{0,20}\)\s*)?(?:(?:still|also|again|all|then)\s+)*(?:(?:needs?|has to|have to|must|will|would|can)\s+)?"
    r"(?:scan|read|use|consult|search|attend to|look at|see|check|go through|need)s?\s+(?:all\s+(?:of\s+)?)?(?:them|those|these)\b"
    r"|\s*(?:还|也|都|仍|又|再)*(?:要|得|需要|会)?\s*(?:用|读|看|查|扫|翻|关注)\s*(?:它们|这些|那些)")
_BOTH_AFTER = re.compile(r"\s*(?:(?:也|其实|实际上)?(?:都|均)|两者|二者|一样|同样)")


def _mentions(question: Question, answer: str) -> list[tuple[int, int, str]]:
    """Where the answer names one of the question's subjects, as the subject of what follows."""
    mentions = []
    for name, named in question.subjects.items():
        for pattern in named.en + named.zh:
            for m in _compiled(pattern)[0].finditer(answer):
                before = answer[max(0, m.start() - 16):m.start()]
                # "BERT 和 GPT 都……" names both: 和 joins them here, it sets nothing aside.
                joined = _JOINED_BEFORE.search(before) and _BOTH_AFTER.match(answer, m.end())
                set_aside = _CONTRAST_BEFORE.search(before) and not joined
                # Named as the agent of a passive ("read by every later query", "被查询读取") or of a relative
                # clause ("entries that every later query consults") it is not the subject.
                agent = _AGENT_BEFORE.search(answer[max(0, m.start() - 48):m.start()]) or _AGENT_AFTER.match(answer, m.end())
                if m.end() > m.start() and not set_aside and not agent and not _OPERATION_BEFORE.search(before):
                    mentions.append((m.start(), m.end(), name))
    return sorted(mentions)


def _subjects_of(match: Match, answer: str, mentions: list[tuple[int, int, str]]) -> set[str]:
    """The subjects a claim may be about ({} when it names none).

    A span that runs over several clauses is read clause by clause. In each: the subjects it names
    itself; else the last one named before it in its clause, or the first after it there ("MLM is
    BERT's objective"); else the last one named before it in its sentence.
    """
    found: set[str] = set()
    start = match.start
    while start < match.end:
        end = min(match.end, _clause_end(answer, start + 1))
        found |= _subjects_of_clause(start, end, answer, mentions)
        start = end + 1
    return found


_THEM_END = re.compile(r"(?:它们|\bthem)\s*$")
_THEM_NEXT = re.compile(r"\s*(?:它们|them\b)")


def _object_of(match: Match, answer: str, mentions: list[tuple[int, int, str]]) -> set[str]:
    """The subject named right where the claim ends, with nothing between ("compare against all the
    earlier | keys"); or, where it ends on "它们" / "them", the one named last in the sentence before its
    clause ("K 和 V 不一样，后面每个新 query 都要跟 | 它们算")."""
    named = {name for start, _, name in mentions if match.end <= start <= match.end + 1 and not answer[match.end:start].strip()}
    if named or not (_THEM_END.search(answer, match.start, match.end) or _THEM_NEXT.match(answer, match.end)):
        return named
    sentence, clause = _sentence_start(answer, match.start, limit=400), _clause_start(answer, match.start)
    before = [name for start, end, name in mentions if sentence <= start and end <= clause]
    return {before[-1]} if before else set()


def _named_in_clause(match: Match, answer: str, mentions: list[tuple[int, int, str]]) -> set[str]:
    """The subjects named in the clause (or clauses) that hold ``match``; a parenthesis belongs to the clause
    it opens in ("Post-LN 在走廊上设了卡（每次相加后归一化）")."""
    start, end = _clause_start(answer, match.start), _clause_end(answer, match.end)
    if start and answer[start - 1] in "(（":
        start = _clause_start(answer, start - 1)
    return {name for first, last, name in mentions if start <= first and last <= end}


def _subjects_of_clause(begin: int, finish: int, answer: str, mentions: list[tuple[int, int, str]]) -> set[str]:
    inside = {name for start, end, name in mentions if start < finish and end > begin}
    if inside:
        return inside
    clause_start, clause_end = _clause_start(answer, begin), _clause_end(answer, finish)
    before = [name for start, end, name in mentions if clause_start <= start and end <= begin]
    after = [name for start, end, name in mentions if finish <= start and end <= clause_end]
    if before or after:
        return {before[-1] if before else after[0]}
    sentence = _sentence_start(answer, begin, limit=400)
    before = [name for start, end, name in mentions if sentence <= start and end <= begin]
    return {before[-1]} if before else set()


# What an answer sets aside by name: "X has nothing to do with it", "it's got nothing to do with X", "X never came
# into it", "跟 X 没关系", "X 无关".
_SET_ASIDE_EN = (
    re.compile(_NOTHING_TO_DO_WITH + r"((?:[\w'-]+\s*){1,4}?)(?=\s*(?:[.;,!?:()—–]|\s-\s|$|\s(?:though|really|at all|either)\b))"),
    re.compile(r"((?:[\w'-]+\s+){0,2}[\w'-]+)\s+(?:(?:has|have|had|'s|is|was)\s+)?(?:got\s+)?(?:nothin[g']?\s+to\s+do\s+with\s+it|never\s+(?:came|comes|come)\s+into\s+it)\b"),
)
_SET_ASIDE_ZH = re.compile(_WITH + r"\s*([^，,。；;：:！!？?]{1,10}?)" + _UNRELATED)
_GENERIC = frozenset(("it", "this", "that", "attention", "model", "the", "a", "an", "thing", "token", "tokens", "them", "they"))


def _denial_of(concept: Concept, answer: str) -> int | None:
    """Where the answer sets aside, by one of its words, the idea ``concept`` states; None if it does not."""
    label_words = content(concept.label.en) - _GENERIC
    label_zh = concept.label.zh
    for pattern in _SET_ASIDE_EN:
        for m in pattern.finditer(answer):
            if content(m.group(1)) & label_words and not _negations(answer[_clause_start(answer, m.start()):m.start()]):
                return m.start()
    for m in _SET_ASIDE_ZH.finditer(answer):
        if any(pair in label_zh for pair in _cjk_pairs(re.sub(r"\s+", "", m.group(1)))):
            return m.start()
    return None


def _unread(answer: str, covered: list[tuple[int, int]], asked: set[str]) -> set[str]:
    """The content words no phrasing accounted for (the question's own words aside)."""
    rest = list(answer)
    for start, end in covered:
        rest[start:end] = " " * (end - start)
    return content("".join(rest)) - asked


def _count(words: set[str]) -> int:
    """How many words these are, a CJK character counting half (two make about one English word)."""
    latin = sum(1 for t in words if not re.match(r"[\u3400-\u9fff]", t))
    return latin + (len(words) - latin) // 2
