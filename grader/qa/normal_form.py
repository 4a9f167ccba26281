"""The normal form every answer and pattern is matched in: NFKC, lower case, simplified characters, dialects
in standard words, one spelling for formulas (``sqrt(d_k)``, ``n^2``, ``k^t``, ``-inf``), LaTeX and Markdown
tables read as plain text, and line breaks that end a statement as "; "."""

from __future__ import annotations

import re
import unicodedata

from grader.qa.dialects import standard_words
from grader.qa.traditional import SIMPLIFIED, TRADITIONAL

_BEFORE_NFKC = str.maketrans({"²": "^2", "ᵀ": "^t", "√": "sqrt", "∞": "inf", "\u2212": "-"})
# Traditional characters read as simplified ("點積的變異數" → "点积的变异数"): one Chinese rubric reads both.
_AFTER = str.maketrans(TRADITIONAL, SIMPLIFIED) | str.maketrans(
    {"\u2013": "-", "\u2014": "-", "\u2019": "'", "\u2018": "'", "，": ",", "；": ";", "：": ":"})
# Verbs that "nor" (West African and Caribbean English) and "nda" (Malay English) negate before them.
_NEGATED_VERB = (r"(?:subtract|divide|know|need|see|store|keep|use|care|matter|change|recompute|recalculate|have|get|work|"
                 r"look|attend|mean|shift|center|centre|grow|save)\w*\b")

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
    # "nor" before a verb, as West African and Caribbean English write "doesn't" ("RMSNorm nor subtract da mean",
    # "attention nor know the order"); not the "nor" of "neither ... nor".
    (re.compile(rf"(?<![.;!?]) nor\s+(?={_NEGATED_VERB})"),
     lambda m: m.group(0) if re.search(r"\bneither\b[^.;!?]*$", m.string[:m.start()]) else " doesn't "),
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
    # 么 for 没 (Wuhan, Baotou: "一点都么变", "么 RNN 的循环"); not 什么, 怎么, 那么, 这么, 多么...
    (re.compile(r"(?<![什怎那这多要为干啥甚])么(?=\s*(?:变|有|顺序|rnn|cnn|的?循环|的?卷积|关系))"), "没"),
    # "nda" / "ndak" / "nggak" (Malay and Indonesian English: "RMSNorm nda subtract mean"): doesn't.
    (re.compile(rf"\b(?:nda|ndak|nggak|gak)\s+(?={_NEGATED_VERB})"), "doesn't "),
    # 每只 before a token or a head ("每只 token"): 每个.
    (re.compile(r"每只(?=\s*(?:token|词|位置|头|query|key|查询|键))"), "每个"),
    # 晓得 (colloquial, from Sichuan to Jiangxi): 知道; the particle 嘚 (Henan, Jiangxi): 的.
    (re.compile(r"晓得"), "知道"), (re.compile(r"嘚(?!瑟)"), "的"),
    # "往后每个 q 都得用" is "以后" (later on); "往后看" (look back) is not.
    (re.compile(r"往后(?=的?(?:每|所有|各|都|还|再|也|就|一直))"), "以后"),
    (re.compile(r"\b(zero|nothing) (over|divided by) (zero|nothing)\b|\bdivid\w* (zero|nothing) by (zero|nothing)\b|零除以零|0\s*除以\s*0"), "0/0"),
    (re.compile(r"\s*(->|=>|⇒|⟶|⟹)\s*"), " → "),
    # A question's A-not-A ("能不能看到后面的词", "会不会溢出") asks; its 不 negates nothing ("是不是" is left: "代价是不是
    # exact softmax" says "is not").
    (re.compile(r"([能会可有要需看用算存])[不没]\1"), r"是否\1"),
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
