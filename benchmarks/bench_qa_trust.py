"""What full points on trust do to the first blind readings: each blind set graded by the grader frozen before it was read.

    python benchmarks/bench_qa_trust.py               # every blind set of FIRST_READINGS (about 4 minutes)
    python benchmarks/bench_qa_trust.py --sets heldout_o heldout_p

For each blind set, checks out (``git worktree add --detach``, under a temporary folder) the commit it
was first read with, grades the set there (labels from this tree), and records per answer the
fraction, the doubts, the ideas missing and the words that grader's phrasings left unread. It checks
that the agreement it gets is the first reading docs/qa_text.md reports (else it stops: the baseline
did not run as documented), then applies this tree's on-trust rule (``grader.qa.text.TRUSTED_UNRECOGNISED``,
words on the subject = this tree's bank vocabulary) to those verdicts and prints, per set, the agreement
before and after and the wrong answers given half the points or more, and how the answers the rule
lifts were labelled. The rule's thresholds were chosen on these readings: this shows what it does
to them, not how it does on unseen writing (the next blind set's first reading says that).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from measure import require, run  # noqa: E402

#: blind set -> (the commit its first reading was made with, that reading's agreement in docs/qa_text.md)
FIRST_READINGS = {
    "heldout_c": ("7e21451", 84.6), "heldout_d": ("a7e9f4d", 87.8), "heldout_e": ("39a162b", 84.9),
    "heldout_f": ("bed3cc5", 93.5), "heldout_g": ("68d7be1", 82.4), "heldout_h": ("a6c18f7", 87.5),
    "heldout_i": ("7b1d255", 86.6), "heldout_j": ("b2513eb", 87.8), "heldout_k": ("9e5a469", 89.5),
    "heldout_l": ("35f03e2", 88.9), "heldout_m": ("81af8d0", 90.9), "heldout_n": ("6aaf6f3", 87.5),
    "heldout_o": ("be3337a", 85.8), "heldout_p": ("f36978f", 84.4),
}

# Run inside the old checkout: grade one split, and catch the unread words from its own _unrecognised.
_READ = r'''
import json, sys
from pathlib import Path
sys.path.insert(0, ".")
from grader.bank import ProblemBank
from grader.qa.bank import load_bank
from grader.qa.labelled import load_set
from grader.qa.grading import grade
import grader.qa.text as T
seen = {}
unrecognised = T._unrecognised
def spy(answer, covered, asked, *rest, **kw):
    rest_text = list(answer)
    for s, e in covered:
        rest_text[s:e] = " " * (e - s)
    seen["left"] = sorted(T.content("".join(rest_text)) - asked)
    return unrecognised(answer, covered, asked, *rest, **kw)
T._unrecognised = spy
bank = load_bank(ProblemBank().get("qa").folder)
for a in load_set(Path(sys.argv[1]), bank):
    seen.clear()
    v = grade(bank.get(a.question), a.text)
    print(json.dumps(dict(label=a.label, style=a.style, fraction=v.fraction, mistake=v.mistake,
                          doubts=list(v.doubts), found=len(v.found), missing=len(v.missing),
                          concepts=len(bank.get(a.question).concepts), left=seen.get("left", []))))
'''

WRONG = {"misconception", "inversion", "keywords", "echo"}


def label(fraction: float) -> str:
    return "full" if fraction >= 1 else "zero" if fraction <= 0 else "partial"


def on_trust(row: dict, domain: frozenset[str], thresholds: dict[int, int]) -> bool:
    """Whether this tree's rule would give ``row`` (an old grader's verdict) full points on trust."""
    if row["mistake"] or row["doubts"] != ["text_doubt_unrecognised"] or not row["found"] or row["fraction"] >= 1:
        return False
    if row["missing"] == 2 and row["concepts"] < 3:
        return False
    from grader.qa.text import _count

    return _count(set(row["left"]) & domain) >= thresholds.get(row["missing"], 10**9)


def read(split: str, commit: str, scratch: Path) -> list[dict]:
    tree = scratch / split
    run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), commit], what=f"checking out {commit}")
    try:
        done = run([sys.executable, "-c", _READ, str(ROOT / "tests" / "qa_text" / split)], cwd=tree,
                   what=f"{split} graded at {commit}", expect=r"\{")
        return [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], check=False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", nargs="+", default=list(FIRST_READINGS), choices=list(FIRST_READINGS))
    args = parser.parse_args()

    from grader.bank import ProblemBank
    from grader.qa.bank import load_bank
    from grader.qa.text import TRUSTED_UNRECOGNISED, vocabulary

    bank = load_bank(ProblemBank().get("qa").folder)
    domain = vocabulary(next(q.domain for q in bank.questions if q.type == "text"))
    lifted: Counter[str] = Counter()
    before_sum = after_sum = 0.0
    print(f"{'set':<10} {'commit':<8} {'first reading':>13} {'on trust':>9} {'wrong >= half':>14}")
    with tempfile.TemporaryDirectory() as scratch:
        for split in args.sets:
            commit, documented = FIRST_READINGS[split]
            rows = read(split, commit, Path(scratch))
            before = 100 * sum(label(r["fraction"]) == r["label"] for r in rows) / len(rows)
            require(round(before, 1) == documented,
                    f"{split} at {commit} agrees {before:.1f}%, not the documented {documented}%: the baseline is not the first reading")
            after_labels = ["full" if on_trust(r, domain, TRUSTED_UNRECOGNISED) else label(r["fraction"]) for r in rows]
            lifted.update(r["label"] for r, new in zip(rows, after_labels) if new != label(r["fraction"]))
            after = 100 * sum(new == r["label"] for r, new in zip(rows, after_labels)) / len(rows)
            wrong_before = sum(r["style"] in WRONG and r["fraction"] >= 0.5 for r in rows)
            wrong_after = sum(r["style"] in WRONG and (new == "full" or r["fraction"] >= 0.5) for r, new in zip(rows, after_labels))
            before_sum, after_sum = before_sum + before, after_sum + after
            print(f"{split:<10} {commit:<8} {before:12.1f}% {after:8.1f}% {wrong_before:>7} -> {wrong_after}")
    count = len(args.sets)
    print(f"{'mean':<19} {before_sum / count:12.1f}% {after_sum / count:8.1f}%")
    print("answers lifted to full, by label: " + ", ".join(f"{k} {lifted[k]}" for k in ("full", "partial", "zero")))


if __name__ == "__main__":
    main()
