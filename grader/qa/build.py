"""Generate the qa problem's derived files from its question bank, or check they are in sync.

Three files follow from ``problems/qa/{topics,mistakes}.yaml`` and ``problems/qa/questions/``:

* ``problems/qa/spec.yaml``, below its ``GENERATED`` marker: one check per question (id, title,
  points, the explanation as hint) and the mistakes. The part above the marker is written by hand.
* ``problems/qa/qa.yaml``: the learner's stub, each question as a comment and an empty answer.
* ``reference/qa.yaml``: the reference answers, a qa.yaml with full marks.

Run ``python -m grader.qa.build`` after editing the bank; ``--check`` only reports stale files
(``tests/test_qa_bank.py`` does the same).
"""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

import yaml

from grader.errors import SpecError
from grader.qa.bank import Question, QuestionBank, load_bank

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
    checks = [
        {"id": q.id, "title": q.title, "points": int(q.points) if q.points.is_integer() else q.points, "hint": q.explanation.en} for q in bank.questions
    ]
    mistakes = [{"id": m.id, "title": m.title.en, "hint": m.hint.en} for m in bank.mistakes.values()]
    body = yaml.safe_dump({"checks": checks, "mistakes": mistakes}, allow_unicode=True, sort_keys=False, width=WIDTH)
    return head + MARKER + "\n" + body


# ------------------------------------------------------------------------------ qa.yaml stub

_STUB_HEAD = """\
# qa.yaml: interview questions on transformer attention (the `qa` problem).
# 面试题：Transformer 注意力机制。
#
# Write each answer after its question id, then run: grade qa
# 在每个题目 id 后面写上答案，然后运行：grade qa
#
#   choice   one letter                    why_sqrt_dk: B
#   multi    one or more letters           softmax_role: [A, C]
#   numeric  a number                      mha_params: 1,050,624     (also 64, 1e-3, 3/4)
#   vector   numbers in brackets           softmax_1_0: [0.73, 0.27]
#   text     a sentence or two, in English or Chinese; put it in quotes if it contains ": "
#
# Practise one question at a time instead with: grade quiz   (中文：grade quiz --lang zh)
"""


def render_stub(bank: QuestionBank) -> str:
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
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
