"""Generate the qa problem's derived files from its question bank, or check they are in sync.

Three files follow from ``problems/qa/{topics,mistakes}.yaml`` and ``problems/qa/questions/``:

* ``problems/qa/spec.yaml``, below its ``GENERATED`` marker: one check per question (id, title,
  points, its teaching hint) and the mistakes. The part above the marker is written by hand.
* ``problems/qa/qa.yaml``: the learner's stub, each question as a comment and an empty answer.
* ``reference/qa.yaml``: the reference answers, a qa.yaml with full marks.

Run ``python -m grader.qa.build`` after editing the bank; ``--check`` only reports stale files
(``tests/test_qa_bank.py`` does the same).
"""

from __future__ import annotations

import json
import re
import sys
import textwrap
from pathlib import Path

import yaml

from grader.errors import SpecError
from grader.qa.bank import Question, QuestionBank, Text, load_bank

MARKER = "# ---- GENERATED from the bank by `python -m grader.qa.build`; edit the bank, not below ----"
WIDTH = 100
_TYPE_HELP = {
    "choice": "one letter",
    "multi": "one or more letters",
    "numeric": "a number",
    "vector": "a list of numbers",
    "text": "a sentence or two, English or Chinese",
}


def targets(root: Path) -> dict[Path, str]:
    """Each derived file under bank ``root`` and the text it should hold."""
    folder = root / "problems" / "qa"
    bank = load_bank(folder)
    spec_file = folder / "spec.yaml"
    return {
        spec_file: render_spec(bank, spec_file.read_text(encoding="utf-8")),
        folder / "qa.yaml": render_stub(bank),
        folder / "zh" / "qa.yaml": render_stub(bank, "zh"),
        root / "reference" / "qa.yaml": render_reference(bank),
    }


def stale_files(root: Path) -> list[Path]:
    """Derived files whose content differs from what the bank generates."""
    return [path for path, text in targets(root).items() if not path.exists() or path.read_text(encoding="utf-8") != text]


# ------------------------------------------------------------------------------ spec.yaml


def render_spec(bank: QuestionBank, current: str) -> str:
    """The hand-written head of ``current``, the marker, then the checks and mistakes."""
    if MARKER not in current:
        raise SpecError(f"{bank.folder / 'spec.yaml'}: the line {MARKER!r} is missing")
    head = current.split(MARKER)[0]
    checks = [  # the hint teaches without the answer; the explanation is for grade quiz and --instructor
        {"id": q.id, "title": _both(q.title), "points": int(q.points) if q.points.is_integer() else q.points, "hint": _both(q.hint)}
        for q in bank.questions
    ]
    mistakes = [{"id": m.id, "title": _both(m.title), "hint": _both(m.hint)} for m in bank.mistakes.values()]
    body = yaml.safe_dump({"checks": checks, "mistakes": mistakes}, allow_unicode=True, sort_keys=False, width=WIDTH)
    return head + MARKER + "\n" + body


def _both(text: Text) -> dict[str, str]:
    return {"en": text.en, "zh": text.zh}


# ------------------------------------------------------------------------------ qa.yaml stub

_STUB_HEAD = """\
# qa.yaml: interview questions on transformer attention (the `qa` problem).
# 面试题：Transformer 注意力机制。
#
# Write each answer after its question id, then run: grade qa
# 在每个题目 id 后面写上答案，然后运行：grade qa
#
#   choice   one letter                    C
#   multi    one or more letters           [A, D]
#   numeric  a number                      12,345     (also 0.3, 1e-3, 3/4, 2.5e9)
#   vector   numbers in brackets           [0.1, 0.2, 0.7]
#   text     a sentence or two, in English or Chinese; put it in quotes if it contains ": "
#
# Practise one question at a time instead with: grade quiz   (中文：grade quiz --lang zh)
"""


_STUB_HEAD_ZH = """\
# qa.yaml：Transformer 注意力机制面试题（`qa` 这道题）。
#
# 在每个题目 id 后面写上答案，然后运行：grade qa
#
#   单选   一个字母                      C
#   多选   一个或多个字母                [A, D]
#   数值   一个数                        12,345     （也可以写 0.3、1e-3、3/4、2.5e9）
#   向量   方括号中的一组数              [0.1, 0.2, 0.7]
#   简答   一两句话，中文或英文均可；如果答案里有 ": "，请用引号括起来
#
# 想一次只练一道题，可以运行：grade quiz --lang zh
"""
_TYPE_ZH = {
    "choice": "单选：一个字母",
    "multi": "多选：一个或多个字母",
    "numeric": "数值：一个数",
    "vector": "向量：一组数",
    "text": "简答：一两句话，中文或英文均可",
}


def render_stub(bank: QuestionBank, lang: str = "en") -> str:
    """The learner's qa.yaml: each question as a comment above its id (both languages; ``zh``: Chinese only)."""
    if lang == "zh":
        return _render_stub_zh(bank)
    lines = [_STUB_HEAD.rstrip("\n")]
    for topic, label in bank.topics.items():
        lines += ["", "", f"# {'=' * 20} {label.en} · {label.zh} {'=' * 20}"]
        for q in (q for q in bank.questions if q.topic == topic):
            lines.append("")
            head = f"[{_number(q.points)} pt · {q.type}: {_TYPE_HELP[q.type]}"
            head += f", in {q.unit}]" if q.unit else "]"
            lines += _comment(f"{head} {q.question.en}")
            lines += _comment(q.question.zh)
            for letter, option in q.options.items():
                lines += _comment(f"{letter}. {option.en}", indent="  ", hang="   ")
                lines += _comment(option.zh, indent="     ", hang="")
            lines.append(f"{q.id}:")
    return "\n".join(lines) + "\n"


def _render_stub_zh(bank: QuestionBank) -> str:
    lines = [_STUB_HEAD_ZH.rstrip("\n")]
    for topic, label in bank.topics.items():
        lines += ["", "", f"# {'=' * 20} {label.zh} {'=' * 20}"]
        for q in (q for q in bank.questions if q.topic == topic):
            lines.append("")
            head = f"[{_number(q.points)} 分 · {_TYPE_ZH[q.type]}"
            head += f"，单位 {q.unit}]" if q.unit else "]"
            lines += _comment(f"{head} {q.question.zh}")
            for letter, option in q.options.items():
                lines += _comment(f"{letter}. {option.zh}", indent="  ", hang="   ")
            lines.append(f"{q.id}:")
    return "\n".join(lines) + "\n"


def _comment(text: str, indent: str = "", hang: str = "  ") -> list[str]:
    """``text`` as comment lines of at most WIDTH columns; continuation lines hang by ``hang``."""
    width = WIDTH - 2 - len(indent) - len(hang)
    if any("\u4e00" <= ch <= "\u9fff" for ch in text):
        width = width // 2 + 10  # CJK characters are two columns wide; textwrap counts one
    wrapped = textwrap.wrap(text, width, break_on_hyphens=False) or [""]
    first, rest = wrapped[0], wrapped[1:]
    return [f"# {indent}{first}".rstrip()] + [f"# {indent}{hang}{line}".rstrip() for line in rest]


# ------------------------------------------------------------------------------ reference


_REFERENCE_HEAD = '''\
# Reference answers of the qa problem: a qa.yaml that scores full marks (tests grade it like a
# learner's file). GENERATED by `python -m grader.qa.build` from the bank in problems/qa/: edit
# the bank, never this file.
'''


def render_reference(bank: QuestionBank) -> str:
    lines = [_REFERENCE_HEAD.rstrip("\n")]
    for topic, label in bank.topics.items():
        lines += ["", f"# {label.en} · {label.zh}"]
        lines += [f"{q.id}: {reference_answer(q)}" for q in bank.questions if q.topic == topic]
    return "\n".join(lines) + "\n"


def reference_answer(q: Question) -> str:
    """The answer as a YAML value, written the way the stub asks learners to write it."""
    if q.type == "text":
        return json.dumps(q.answer["en"], ensure_ascii=False)
    if q.type == "numeric":
        return _number(q.answer)
    if q.type == "vector":
        return "[" + ", ".join(_number(x) for x in q.answer) + "]"
    return json.dumps(q.answer)  # a letter, or a list of letters


def format_answer(question: Question, lang: str) -> str:
    """The reference answer, as a learner would read it."""
    if question.type == "choice":
        return f"{question.answer}. {question.options[question.answer].get(lang)}"
    if question.type == "multi":
        return ", ".join(question.answer)
    if question.type == "numeric":
        value = question.answer
        text = f"{int(value):,}" if float(value).is_integer() and abs(value) < 1e15 else f"{value:.6g}"
        return f"{text} {question.unit}" if question.unit else text
    if question.type == "vector":
        return reference_answer(question)
    return question.answer[lang]


def answer_secrets(question: Question) -> list[str]:
    """What graded output must never show for ``question``: the answer in the forms a learner would
    recognise (numbers rounded to 2-6 significant digits, grouped integers, the right options' text,
    the model answer) and each sentence of the explanation. Forms of one character are left out:
    they cannot be told apart from other text."""
    sentences = [s for lang in ("en", "zh") for s in re.split(r"(?<=[。；])|(?<=[.;])\s+", question.explanation.get(lang))]
    secrets = [s for s in sentences if len(s.strip()) >= 12]
    if question.type in ("choice", "multi"):
        letters = [question.answer] if question.type == "choice" else question.answer
        secrets += [question.options[letter].get(lang) for letter in letters for lang in ("en", "zh")]
    elif question.type == "text":
        secrets += [question.answer["en"], question.answer["zh"]]
    else:
        values = [question.answer] if question.type == "numeric" else question.answer
        secrets += [form for value in values for form in number_forms(value)]
        if question.type == "vector":
            secrets.append(reference_answer(question))
    return sorted({s.strip() for s in secrets if len(s.strip()) > 1}, key=len)


def number_forms(value: float) -> set[str]:
    """``value`` written as learners and explanations write it: 1050624, 1,050,624, 0.2689, 2.23e20."""
    forms = {_number(value)}
    if float(value).is_integer() and abs(value) < 1e15:
        forms.add(f"{int(value):,}")
    if value:
        for digits in range(1, 7):
            forms.add(re.sub(r"e\+?(-?)0*(\d)", r"e\1\2", f"{value:.{digits - 1}e}"))  # 7e-4, 2.23e20
            if digits > 1:
                forms.add(f"{value:.{digits}g}")
    return forms


def _number(x: float) -> str:
    return str(int(x)) if float(x).is_integer() and abs(x) < 1e15 else repr(float(x))


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    check = "--check" in args
    roots = [a for a in args if a != "--check"]
    from grader.bank import bundled_root

    root = Path(roots[0]) if roots else bundled_root()
    if check:
        stale = stale_files(root)
        for path in stale:
            print(f"stale: {path} (run: python -m grader.qa.build)")
        return 1 if stale else 0
    for path, text in targets(root).items():
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
