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
repeats the question scores 0 (lists: :mod:`grader.qa.keyword_list`). Every judgement carries a confidence: the grader says when it is
unsure (a negated claim, correct and wrong claims mixed, much it did not recognise), so that an
instructor can review it. An answer with no wrong claim that states some ideas but not all earns their
share of the points, but less than half (``INCOMPLETE_CAP``): half and more are kept for complete answers.
One that misses one idea but says much more on the subject in words no phrasing read gets full points on
trust, and is sent to review.

Before matching (:mod:`grader.qa.normal_form`), formulas are written one way (``√dk``, ``d_k 的平方根``, ``sqrt(d_k)`` all become
``sqrt(d_k)``; ``n²`` becomes ``n^2``; ``Kᵀ`` becomes ``k^t``; ``−`` becomes ``-``); LaTeX in notes
(``$\\frac{1}{\\sqrt{d_k}}$``) is read as the same formula, and a Markdown table row by row, its column
header as the subject.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import lru_cache

from grader.i18n import Text
from grader.qa.bank import Concept, Question, compiled_pattern
from grader.qa.keyword_list import LINE_NUMBER, lists_only_keywords
from grader.qa.normal_form import canonical
from grader.qa.words import EMOJI_CHARS, cjk_pairs, content, vocabulary
from grader.results import REVIEW_BELOW  # noqa: F401  (re-exported: grading and the benchmark use it)

#: The most a text answer scores when it also asserts a misconception or an inverted claim.
WRONG_CAP = 0.25

#: The most a text answer scores when it states some of the ideas but not all (and nothing wrong that a
#: phrasing recognised). Half the points and more are kept for complete answers: a right idea beside a wrong
#: reason in words no phrasing knows reads exactly like a right idea beside nothing, and must not reach half.
#: Measured on the twelve never-studied held-out sets (docs/qa_text.md): every one of their 16 wrong answers
#: at half was such an answer (12 one idea of two, 3 two of three, 1 two of four); paying them their share up
#: to this cap takes all 16 below half and changes no label (partial stays partial).
INCOMPLETE_CAP = 0.45

# ------------------------------------------------------------------------------- clauses and polarity


# A clause ends at punctuation or an arrow, or before a linking word; the linking word starts the next clause
# ("k and v", "keys and values" name one thing).
_CLAUSE_END = re.compile(
    f"[{EMOJI_CHARS}]|"  # an emoji ends a clause
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


# What follows "how" in a question ("MQA 和 GQA 怎么减小 KV 缓存？", "so how does the cache shrink?") is asked, not
# claimed. ("Why" and "what" questions are often rhetorical claims: "why push it through the network again?")
_ASKED_MANNER = re.compile(r"\bhow\b|怎么|如何|怎样|阿门|咋")


def _asks(text: str, position: int) -> bool:
    """Whether ``position`` follows "how" in its clause, in a sentence that ends in a question mark ("缓存怎么变小的，我理解是
    量化……吧？" asks only its first clause)."""
    end = _SENTENCE_END.search(text, position)
    return bool(end and _QUESTION_END.match(text, end.start()) and _ASKED_MANNER.search(text, _clause_start(text, position), position))


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
_WITH_INSIDE_ZH = re.compile(_WITH)
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
            # ("旋转角度跟位置没关系": the 跟 may lie inside the claim's span.)
            unrelated = ((_WITH_ZH.search(answer, max(0, start - 2), start) or _WITH_INSIDE_ZH.search(answer, start, end))
                         and _UNRELATED_AFTER_ZH.match(answer, end)) or \
                _UNRELATED_BEFORE_EN.search(answer, max(0, start - 30), start)
            if unrelated or _asks(answer, start) or _reported(answer, start) or _IGNORED.match(answer, end, clause_end) or _SUGGESTED.match(answer, clause_start) or (
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
_ADVERB_ZH = re.compile(r"(?<=[a-z0-9] )跟(?= [a-z])|(?:本律师|本人|笔者|我方)?(?:请求|恳请)?(?:法庭|法院|贵院)(?:认定|确认)|(?:依据|根据|按照?)题意|如题所述|确已|其实|当然|就是|基本上|本质上|实际上|确实|显然|非常|一些|一点儿?|话说|列位看官|看官|诸位|(?<=[a-z\s])里面|"
                        r"(?:巧妙|大大|显著|有效|明显|简单|自然而然|聪明)地?|"
                        r"通过|借助|利用|采用|的?(?:一种)?(?:方式|方法|办法|做法|手段|机制|技术)来?|"
                        # "通过改变注意力的方式": changing "the way" of something names no change.
                        r"(?:改变|改动|修改|调整)(?:一下)?(?=[^，,。；;]{0,12}的?(?:方式|方法|做法|算法))|"
                        # "用 X 来减小……", "是用来减小……的", "用于减小": only link a means to its purpose.
                        r"(?:用来|用于|拿来|来)(?=\s*" + _PURPOSE_ZH + ")|"
                        r"用(?=[^，,。；;]{1,20}?来\s*" + _PURPOSE_ZH + ")|"
                        # "用多查询和分组查询的办法减小……": the means named as a way.
                        r"用(?=[^，,。；;]{1,20}?的(?:办法|方法|方式|做法))")
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


@lru_cache(maxsize=256)
def _asked(text: str) -> frozenset[str]:
    return frozenset(content(canonical(text)))


# A verb that reports what follows ("the Party states that ...") adds nothing to it.
_REPORTING = re.compile(r"\b(?:states?|says?|declares?|submits?|holds?|stipulates?|acknowledges?|affirms?|asserts?|agrees?|notes?)\s+that\b")


@lru_cache(maxsize=256)
def _known(text: str) -> str:
    return canonical(text)


# A claim that gives itself as its own reason ("通过减小 KV 缓存来减小 KV 缓存", "代价就是付出了代价", "it reduces the
# cache by reducing the cache"), or says a thing does what its name says, says nothing.
_TAUTOLOGY = re.compile(r"通过\s*([^。；;,]{2,20}?)\s*来\s*\1|代价(?:就)?是(?:付出了?|有)?(?:一些|一定的?|些)?代价|代价(?:就)?是[^。；;,]{0,10}付出的代价"
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
    known = _known(" ".join([question.question.en, question.question.zh, *question.answer.values(),
                             *(c.label.en + " " + c.label.zh for c in concepts)]))
    domain = vocabulary(question.domain)
    if lists_only_keywords(answer, raw, known=known, asked_text=asked_text, asked=asked, renamed=renamed, domain=domain):
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
    if INCOMPLETE_CAP < result.fraction < 1:
        # Some ideas and not all, none of them wrong (a wrong claim keeps the score lower still): their share, but
        # less than half.
        result.fraction = INCOMPLETE_CAP
        result.notes.append(("text_incomplete", {}))
    return result


# A sentence that opens by drawing a conclusion ("so ...", "所以……"), after the numbering of its line.
_DRAWN = re.compile(rf"\s*(?:{LINE_NUMBER}\s*)?(?:(?:so|thus|hence|therefore|which means)\b|所以|因此|因而|于是|故)")


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
        if any(pair in label_zh for pair in cjk_pairs(re.sub(r"\s+", "", m.group(1)))):
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
