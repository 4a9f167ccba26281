"""Labelled free-text answers: the sets that measure how well text answers are graded.

A set is a folder of YAML files, one per text question, in one of the splits (:data:`SPLITS`:
``tests/qa_text/tuning/``, ``dev/``, ``dev_b/``, ``heldout_c/``, ``heldout_d/``, ``heldout_e/``, ``heldout_f/``; the format and the rules of each
split are documented in ``tests/qa_text/README.md``)::

    question: explain_sqrt_dk
    answers:
      - text: "Without it the variance grows with d_k, the softmax saturates and the gradients vanish."
        lang: en
        label: full
        style: textbook
        note: optional, why the label

Loading checks every key and value and fails with a :class:`~grader.errors.SpecError` naming the
file, the answer's index and the key.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


from grader.errors import SpecError
from grader.qa.bank import QuestionBank
from grader.yaml_files import read_yaml

#: The labelled sets: written with the rubrics; written blind, read once with the grader frozen, then studied
#: (dev onwards; the latest set's first reading is the blind figure, docs/qa_text.md).
SPLITS = ("tuning", "adversarial_a", "adversarial_b", "adversarial_c", "adversarial_d", "adversarial_e", "adversarial_f", "adversarial_g", "dev", "dev_b", "heldout_c", "heldout_d", "heldout_e", "heldout_f", "heldout_g", "heldout_h",
          "heldout_i", "heldout_j", "heldout_k", "heldout_l", "heldout_m", "heldout_n", "heldout_o", "heldout_p",
          "heldout_q", "heldout_r", "heldout_s", "heldout_t", "heldout_u", "heldout_v",
          "heldout_w", "heldout_x", "heldout_y", "heldout_z", "heldout_aa", "heldout_ab", "heldout_ac", "heldout_ad", "heldout_ae", "heldout_af", "heldout_ag", "heldout_ah", "heldout_ai", "heldout_aj", "heldout_ak", "heldout_al", "heldout_am", "heldout_an", "heldout_ao", "heldout_ap", "heldout_aq", "heldout_ar", "heldout_as", "heldout_at", "heldout_au", "heldout_av", "heldout_aw", "heldout_ax", "heldout_ay", "heldout_az", "heldout_ba", "heldout_bb", "heldout_bc", "heldout_bd", "heldout_be", "heldout_bf", "heldout_bg", "heldout_bh", "heldout_bi", "heldout_bj", "heldout_bk", "heldout_bl", "heldout_bm", "heldout_bn", "heldout_bo", "heldout_bp", "heldout_bq", "heldout_br", "heldout_bs", "heldout_bt", "heldout_bu", "heldout_bv", "heldout_bw", "heldout_bx", "heldout_by", "heldout_bz", "heldout_ca", "heldout_cb", "heldout_cc", "heldout_cd", "heldout_ce", "heldout_cf", "heldout_cg", "heldout_ch", "heldout_ci", "heldout_cj", "heldout_ck", "heldout_cl", "heldout_cm", "heldout_cn", "heldout_co", "heldout_cp", "heldout_cq", "heldout_cr", "heldout_cs", "heldout_ct", "heldout_cu", "heldout_cv", "heldout_cw", "heldout_cx", "heldout_cy", "heldout_cz", "heldout_da", "heldout_db", "heldout_dc", "heldout_dd", "heldout_de", "heldout_df", "heldout_dg", "heldout_dh", "heldout_di", "heldout_dj", "heldout_dk", "heldout_dl", "heldout_dm", "heldout_dn")
#: Blind sets not read yet: graded only when named (``bench_qa_text.py --split``), once, after the grader is
#: frozen; the tests load them but never grade them.
UNREAD: tuple[str, ...] = ()
#: The held-out part: blind sets each read once with a frozen grader and never studied (no phrasing, lexicon or rule
#: was written from them). ``bench_qa_text.py --held-out`` grades them together.
HELD_OUT = ("heldout_ci", "heldout_cj", "heldout_ck", "heldout_cl", "heldout_cu", "heldout_cv", "heldout_cw", "heldout_cx",
            "heldout_dc", "heldout_dd", "heldout_de", "heldout_df", "heldout_dk", "heldout_dl", "heldout_dm", "heldout_dn")
LABELS = ("full", "partial", "zero")
LANGS = ("en", "zh")
#: How a learner wrote the answer. The last four are wrong answers: they must score below half.
STYLES = (
    "textbook", "terse", "paraphrase", "partial", "off_topic", "hedged", "mixed_language",
    "misconception", "inversion", "keywords", "echo",
)
WRONG_STYLES = ("misconception", "inversion", "keywords", "echo")
_ANSWER_KEYS = {"text", "lang", "label", "style", "note"}


@dataclass(frozen=True)
class LabelledAnswer:
    """One answer a learner might give, and the verdict a careful interviewer gives it."""

    question: str
    text: str
    lang: str
    label: str
    style: str
    note: str
    where: str  # "file.yaml [index]", for reports

    @property
    def wrong(self) -> bool:
        """A wrong answer (misconception, inversion, keyword list, echo): it must get less than half."""
        return self.style in WRONG_STYLES


def load_set(folder: Path, bank: QuestionBank) -> list[LabelledAnswer]:
    """Every labelled answer in ``folder``'s YAML files, in file order; [] when the folder is absent."""
    if not folder.is_dir():
        return []
    answers: list[LabelledAnswer] = []
    for path in sorted(folder.glob("*.yaml")):
        answers.extend(_load_file(path, bank))
    return answers


def _load_file(path: Path, bank: QuestionBank) -> list[LabelledAnswer]:
    def fail(message: str) -> SpecError:
        return SpecError(f"{path}: {message}")

    data = read_yaml(path)
    if not isinstance(data, dict) or set(data) != {"question", "answers"}:
        raise fail("expected exactly the keys `question` and `answers`")
    qid = data["question"]
    if qid not in bank or bank.get(qid).type != "text":
        raise fail(f"question {qid!r} is not a text question of the bank")
    if not isinstance(data["answers"], list) or not data["answers"]:
        raise fail("`answers` must be a non-empty list")
    out = []
    for index, item in enumerate(data["answers"]):
        where = f"{path.name} [{index}]"
        if not isinstance(item, dict):
            raise fail(f"answers[{index}] must be a mapping with text, lang, label, style")
        unknown = set(item) - _ANSWER_KEYS
        if unknown:
            raise fail(f"answers[{index}]: unknown key {sorted(unknown)[0]!r} (allowed: {sorted(_ANSWER_KEYS)})")
        for key, allowed in (("lang", LANGS), ("label", LABELS), ("style", STYLES)):
            if item.get(key) not in allowed:
                raise fail(f"answers[{index}].{key}: {item.get(key)!r} is not one of {', '.join(allowed)}")
        text = item.get("text")
        if not isinstance(text, str) or not text.strip():
            raise fail(f"answers[{index}].text must be a non-empty string")
        note = item.get("note") or ""
        out.append(LabelledAnswer(qid, text, item["lang"], item["label"], item["style"], str(note), where))
    return out


# ------------------------------------------------------------------------------- measuring the grader


def verdict_label(fraction: float) -> str:
    """The label a score fraction stands for: all the points, none, or some."""
    if fraction >= 1.0:
        return "full"
    return "zero" if fraction <= 0.0 else "partial"


@dataclass(frozen=True)
class Graded:
    """A labelled answer and what the grader made of it."""

    answer: LabelledAnswer
    fraction: float
    confidence: float
    message: str
    on_trust: bool = False  # full points given on trust for ideas no phrasing recognised (sent to review)
    incomplete: bool = False  # some ideas and not all: held below half (grader/qa/text.py, INCOMPLETE_CAP)

    @property
    def predicted(self) -> str:
        return verdict_label(self.fraction)

    @property
    def agrees(self) -> bool:
        return self.predicted == self.answer.label

    @property
    def wrong_given_half(self) -> bool:
        """A wrong answer (misconception, inversion, keyword list, echo) given half the points or more."""
        return self.answer.wrong and self.fraction >= 0.5

    @property
    def miss(self) -> float:
        """How far the verdict is from the label (full = 1, partial = 0.5, zero = 0), for sorting."""
        target = {"full": 1.0, "partial": 0.5, "zero": 0.0}[self.answer.label]
        if self.agrees:
            return 0.0
        return abs(self.fraction - target) + (1.0 if self.wrong_given_half else 0.0)


def grade_set(answers: list[LabelledAnswer], bank: QuestionBank) -> list[Graded]:
    """Grade every labelled answer with the bank's grader (the same one ``grade qa`` uses)."""
    from grader.qa.grading import grade

    out = []
    for answer in answers:
        verdict = grade(bank.get(answer.question), answer.text)
        on_trust = "text_doubt_on_trust" in verdict.doubts
        incomplete = ("text_incomplete", {}) in verdict.notes
        out.append(Graded(answer, verdict.fraction, verdict.confidence, verdict.message(answer.lang), on_trust, incomplete))
    return out


def agreement(graded: list[Graded]) -> float:
    """Share of answers whose verdict label equals the label (1.0 for an empty list)."""
    return sum(g.agrees for g in graded) / len(graded) if graded else 1.0
