"""Tell an answer that only lists topic words ("variance, gradients, saturation", "→ 方差 → 饱和 → 梯度") from one
that relates them: items set apart by commas, spaces or lines, decoration (emoji, hashtags, remarks that the
words are the keywords, a heading, a likeness) set aside, and nothing that relates the items."""

from __future__ import annotations

import re

from grader.qa.normal_form import canonical
from grader.qa.words import CJK, EMOJI_CHARS, cjk_pairs, content, mostly_off, words_of

# Items set apart by commas, ellipses ("normalise... softmax"), slashes (not one inside a term: "8d/3", "k/v"), "and", or shouted one by one
# ("双向！掩码！BERT！"), or said one by one as sentences ("Kernel. Feature map. RNN. Linear. Logbook of sums.").
_ITEM_SPLIT = re.compile(r"\s*(?:[,;、|+&!•]|\.{2,}|…+)\s*|\s+·\s+|\s*/\s*(?!\w)|(?<!\w)\s*/\s*|\s+/\s+|\s+and\s+")
_ONE_BY_ONE = re.compile(r"(?<=[a-z])\.\s+(?=[a-z])")
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
    return (bool(CJK.search(item)) and 2 <= len(words) <= 5 and not any(CJK.fullmatch(w) for w in words)
            and not _RELATION_ZH.search(_NOUNS_ZH.sub("", item)))


# Papers whose titles make a claim ("Transformers are RNNs"): named in a list, each is one topic word.
_PAPER_TITLE = re.compile(r"\b(?:transformers are rnns|attention is all you need|train short,? test long)\b")


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
    if CJK.search(rest):
        latin = {word for word in said if not CJK.search(word)}
        return len(CJK.findall(rest)) <= 20 and mostly_off(said, known) and len(latin & words_of(known)) <= 1
    return len(rest.split()) <= 12 and len(said & words_of(known)) <= 1 and bool(said - domain)


def _off_subject(item: str, known: str, domain: frozenset[str], listed: bool = True) -> bool:
    """An item with no word of the bank (English) or no character of the question's own text (Chinese,
    whose single characters the whole bank mostly holds): "no cap", "all that jazz", "晓得伐", "就这样".

    An item set apart by commas (``listed``) is off the subject too when most of its characters are and it
    relates nothing ("幕布一块一块": only 块 is the question's).
    """
    if not CJK.search(item):
        return not content(item) & domain
    said = content(item)
    return not said & words_of(known) or listed and mostly_off(said, known) and not _RELATION_ZH.search(_NOUNS_ZH.sub("", item))


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
            content(tail.group(1)) & words_of(known)) and is_keyword_list(answer[:tail.start()], known, domain):
        return True
    # Four or more sentences of three words at most are items said one by one ("Kernel. Feature map. RNN.").
    said = _ONE_BY_ONE.split(answer.strip(" .。!！"))
    if len(said) >= 4 and all(len(sentence.split()) <= 3 for sentence in said):
        answer = ", ".join(said)
    # A list of three or more pointing at the name it adds up to ("running max, running sum, rescale → online
    # softmax": words of the question's own text) relates nothing.
    if (pointed := _POINTS_AT_NAME.search(answer)) and known and content(pointed.group(1)) <= words_of(known) and len(
            _ITEM_SPLIT.split(answer[:pointed.start()].strip())) >= 3:
        answer = answer[:pointed.start()]
    # ... and so does a short remark off the subject after it ("…, lower-triangular — the five shots you need in
    # the album", "…、卷积——粤语版背诵完毕，搞掂！").
    if known and not _remark_follows:
        for cut in [m.start() for m in _REMARK_START.finditer(answer)][-4:][::-1]:
            if _a_remark(answer[cut:], known, domain) and len(_ITEM_SPLIT.split(answer[:cut].strip())) >= 4 and is_keyword_list(
                    answer[:cut], known, domain, _remark_follows=True):
                return True
    # "block by block", "token by token": one adverb, not a relation.
    answer = re.sub(r"\b([a-z]+) by \1\b", r"\1-by-\1", answer)
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
        if CJK.search(item):
            longest = 6 if item in known else 5 if len(items) >= 4 else 4
            if listed and re.fullmatch(r"更[\u3400-\u9fff]", item):
                continue  # a bare comparative ("更快"), like "lower" in an English list
            nouns = _NOUNS_ZH.sub("", _PROPERTY_ZH.sub("", item) if spaced and len(items) >= 4 else item)
            if len(CJK.findall(item)) > longest or _RELATION_ZH.search(nouns):
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


#: No keyword list is longer (eight items of a few words): longer answers skip the check.
_LONGEST_LIST = 240

# What decorates a post but says nothing: emoji, hashtags ("#面试 #干货"), and a remark that the
# words are the keywords ("记住这几个词就够了", "这题的关键词就这些", "就这些嘛", "面试高频词汇，收藏！", "keywords:", "that's it"). A list so decorated
# is still a list: "多头🧠 子空间 concat W_o 并行 #记住就行".
_EMOJI = re.compile(f"[{EMOJI_CHARS}\u2713-\u2718\u2B00-\u2BFF\uFE0F\u200D]")
_HASHTAG = re.compile(r"(?<!\S)#[^#\n;]{1,40}#|(?<!\S)#[^\s#]+")  # "#topic#" (Weibo) or "#topic"
# The numbers of a thread's posts or a list's lines ("1/ ...; 2/ ...").
LINE_NUMBER = r"\d+\s*[/.)]"
_NUMBERING = re.compile(rf"(?:^|(?<=[;,]\s)){LINE_NUMBER}(?=\s)")
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


def _without_decoration(answer: str) -> str:
    """The answer without emoji, hashtags, speakers' labels, a greeting, bullets and remarks that it lists
    keywords (to tell a keyword list)."""
    bare = _SPEAKER.sub(" ", _TONE_TILDE.sub(" ", answer))
    bare = _BULLET.sub("", _MARKDOWN_HEADING.sub(r"\1: ", _GREETING.sub("", bare)))
    bare = _NUMBERING.sub(" ", _KEYWORD_REMARK.sub(" ", _HASHTAG.sub(" ", _EMOJI.sub(" ", bare))))
    # What a removed remark leaves at either end ("同学们请注意，本节要点：最大值、…") is punctuation.
    return re.sub(r"\s+", " ", bare).strip(" .。…,，:：;；、—-")


# A list laid out as lines opens each with a bullet, an arrow or a number ("•", "★", ">", "→", "①", "1)", "一、",
# "篾一："), or with nothing but indentation.
_LINE_MARKER = re.compile(
    r"^\s*(?:[-*•★☆>〉»▪▸◦·→⟶✓✔☑]+|[\u2460-\u2473]|\(?\d{1,2}[.)、:：]|[一二三四五六七八九十]+[、.:：]|"
    r"[\u3400-\u9fff]{1,2}[一二三四五六七八九十][:：])\s*")
# A heading ends in a colon or a dash, is set in brackets ("【softmax 减最大值】") or is a Markdown heading.
_LINE_HEADING = re.compile(r"(?:[:：—–-]|\s-)\s*$|^\s*[【\[〔(（].{1,30}[】\]〕)）]\s*$|^\s*#+\s")


# A verb that makes a short closing line a claim ("So the cost is linear."), not a remark ("Key paper for
# efficient transformers.").
_CLAIM_EN = re.compile(r"\b(?:is|are|was|were|makes?|gives?|means|causes?|leads?|grows?|keeps?|prevents?|avoids?|saves?|"
                       r"needs?|uses?|reads?|stores?|becomes?|gets?|can|cannot|won't|doesn't|don't|isn't)\b|[=→]|n't\b")
# A recap's label ("So:", "结论：").
_RECAP_LABEL = re.compile(r"^(?:so|thus|hence|i\.?e\.?|in short|tl;?dr|summary|recap|结论|总结|小结|所以)\s*[:：]\s*")
# A line that names a topic and lists its alternatives without choosing ("memory: linear / quadratic",
# "全屏蔽行：NaN、均匀", "fully masked row: NaN? uniform?") names topics; so does a question ("exact?").
_ALTERNATIVES = re.compile(r"^([^:：]{1,30})[:：]\s*([^:：→=]+?(?:\s*(?:/|、|\?|？|\|)\s*[^:：→=/、?？|]+?)+)\s*[?？]?$")


def _recap(line: str, known: str, domain: frozenset[str]) -> list[str] | None:
    """The items of a closing line that recaps the list ("so: max, exp, shift. murakoze."): its first sentence a
    keyword list, the rest remarks; None otherwise."""
    if not (label := _RECAP_LABEL.match(line)):
        return None
    first, _, rest = line[label.end():].partition(". ")
    if not is_keyword_list(first, known, domain) or (rest.strip(" .") and not _a_remark(rest, known, domain)):
        return None
    return [item for item in _ITEM_SPLIT.split(first.strip(" .")) if item]


def _topic_line(item: str) -> str:
    """A line listing alternatives under a topic, or asking, as topic words ("memory, linear, quadratic")."""
    if alternatives := _ALTERNATIVES.match(item):
        parts = [part.strip() for part in re.split(r"/|、|\?|？|\|", alternatives.group(2)) if part.strip()]
        # ... each alternative a word or two, relating nothing ("NaN", "均匀"; not "(b, t, d)，小了 h 倍").
        if all(len(part.split()) <= 2 and not re.search(r"[(),，]", part) and not _RELATION_ZH.search(_NOUNS_ZH.sub("", part))
               for part in parts):
            return ", ".join([alternatives.group(1).strip(), *parts])
    return item.rstrip("?？ ") if item.endswith(("?", "？")) and len(item.split()) <= 3 else item


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
    # In a list with no bullet at all, a line indented under an unindented first line is marked by its indentation.
    if not any(marked) and not lines[0][:1].isspace():
        marked = [i > 0 and line[:1] in " \t\u3000" for i, line in enumerate(lines)]
    headed = bool(_LINE_HEADING.search(lines[0])) or (not marked[0] and sum(marked[1:]) >= 3)
    body = lines[1:] if headed else lines
    marks = marked[1:] if headed else marked
    closing = body[-1] if len(body) >= 2 and not marks[-1] and sum(marks[:-1]) * 2 >= len(body) - 1 else None
    if not (headed or closing is not None):
        return None
    if closing is not None:
        plain = re.sub(r"'s\b", "", canonical(closing))
        if CJK.search(plain):
            # Chinese is read in pairs of characters: those of the subject (the model answer, the ideas) that the
            # question does not hold.
            subject = {pair for pair in cjk_pairs(plain) if pair in known and pair not in asked_text}
            remark = len(CJK.findall(plain)) <= 20 and len(subject) <= 1
        else:
            new_words = len((content(plain) & domain) - asked)
            remark = len(plain.split()) <= 12 and (new_words <= 1 or new_words <= 2 and (
                len(plain.split()) <= 4 or len(plain.split()) <= 6 and not _CLAIM_EN.search(plain)))
        if remark:
            body = body[:-1]
        elif recap := _recap(plain, known, domain):
            # A closing recap that is itself a list ("So: max, exp, shift. Murakoze.") adds its items.
            body = body[:-1] + recap
    items = [_topic_line(item) for item in (canonical(_LINE_MARKER.sub("", line)) for line in body) if item]
    return items if len(items) >= 3 or (items and len(_ITEM_SPLIT.split(items[0])) >= 3) else None


# A heading before a colon ("Softmax stability:", "因果掩码：") may introduce a list.
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


def lists_only_keywords(answer: str, raw: str, *, known: str, asked_text: str, asked: set[str] | frozenset[str],
                        renamed: frozenset[str], domain: frozenset[str]) -> bool:
    """Whether the canonical ``answer`` (``raw`` as written) only lists topic words: once its decoration, a heading
    that only introduces the list and a likeness that only announces or closes it are set aside, as one text or as
    lines laid out under a heading. ``known`` is the question's text with its model answer and ideas, ``asked_text``
    the question alone, ``asked`` and ``renamed`` its words and the answer's spellings of them, ``domain`` the bank's
    words."""
    bare = _without_decoration(answer)
    # A heading made of the question's own words ("因果掩码：上三角、−inf、自回归") introduces the list; one
    # that says something of them ("ALiBi 就是：…", "the mask is: …") does not.
    if ((heading := _HEADING.match(bare)) and (not (content(heading.group(0)) - asked - renamed) or _LABEL_HEADING.fullmatch(heading.group(0)))
            and not _RELATION_ZH.search(heading.group(0)) and not _HEADING_RELATION_EN.search(heading.group(0))):
        bare = bare[heading.end():]
    # ... and so does a heading off the subject ("Brush list:", "舂米讲究稳：").
    elif heading and _a_remark(heading.group(0).rstrip(": "), known, domain):
        bare = bare[heading.end():]
    # ... and so does a likeness that only announces it ("kind of like a colour formula: the kernel, …").
    elif analogy := _ANALOGY_HEADING.match(bare):
        bare = bare[analogy.end():]
    bare = _ANALOGY_TAIL.sub("", bare)
    # (An answer laid out as lines is read line by line only when it is no list as one text.)
    return (len(bare) <= _LONGEST_LIST and is_keyword_list(bare, known, domain)) or bool(
        (laid_out := _laid_out_items(raw, known, asked_text, asked | renamed, domain))
        and is_keyword_list(", ".join(laid_out), known, domain, most=16))
