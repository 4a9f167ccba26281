"""How well free-text answers are graded: agreement with labelled answers, by split and language.

    python benchmarks/bench_qa_text.py                 # every set: tuning, adversarial_a to adversarial_g, dev, dev_b, heldout_c to heldout_dn (all but heldout_ci to heldout_cl, heldout_cu to heldout_cx, heldout_dc to heldout_df and heldout_dk to heldout_dn studied; those sixteen, each read once with a frozen grader, are the held-out part)
    python benchmarks/bench_qa_text.py --held-out      # the held-out part: the sixteen blind sets never studied
    python benchmarks/bench_qa_text.py --split heldout_dn  # one set only
    python benchmarks/bench_qa_text.py --worst 20      # list more of the worst misses
    python benchmarks/bench_qa_text.py --split tuning  # one split only
    python benchmarks/bench_qa_text.py --timing 11     # also: wall time of `grade qa` on the full reference answers
    python benchmarks/bench_qa_text.py --timing 21 --baseline ../old  # ... and of another checkout, interleaved

Reads tests/qa_text/<split>/*.yaml (format: tests/qa_text/README.md), grades every answer with
the grader ``grade qa`` uses, and prints the agreement (the verdict's label, from its score,
equals the answer's label), the confusion between full / partial / zero, the wrong answers
(misconception, inversion, keyword list, echo) given half the points or more, how many verdicts
would go to an instructor's review, how many got full points on trust (grader/qa/text.py,
TRUSTED_UNRECOGNISED) and how those were labelled, and the worst misses. Targets: agreement >= 95%, and no
wrong answer at half or more. Exit 1 when a split holds no answer (nothing was measured).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from measure import require, run  # noqa: E402

from grader.bank import ProblemBank  # noqa: E402
from grader.qa.bank import load_bank  # noqa: E402
from grader.qa.labelled import HELD_OUT, LABELS, SPLITS, UNREAD, agreement, grade_set, load_set  # noqa: E402
from grader.qa.text import REVIEW_BELOW  # noqa: E402

SETS = ROOT / "tests" / "qa_text"


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:5.1f}% ({part}/{whole})" if whole else "   n/a"


def report(split: str, graded: list, worst: int) -> None:
    print(f"\n== {split}: {len(graded)} answers, {len({g.answer.question for g in graded})} questions")
    print(f"agreement      {_pct(sum(g.agrees for g in graded), len(graded))}")
    for lang in ("en", "zh"):
        part = [g for g in graded if g.answer.lang == lang]
        print(f"  {lang}           {_pct(sum(g.agrees for g in part), len(part))}")
    wrong = [g for g in graded if g.answer.wrong]
    bad = [g for g in wrong if g.wrong_given_half]
    print(f"wrong answers given >= half the points: {len(bad)} of {len(wrong)}")
    review = [g for g in graded if g.confidence < REVIEW_BELOW]
    print(f"sent to review (confidence < {REVIEW_BELOW}): {_pct(len(review), len(graded))};"
          f" agreement among them {_pct(sum(g.agrees for g in review), len(review))}")
    trusted = Counter(g.answer.label for g in graded if g.on_trust)
    print(f"full points on trust (ideas in words no phrasing read, sent to review): {sum(trusted.values())};"
          f" labelled " + ", ".join(f"{label} {trusted[label]}" for label in LABELS))
    capped = Counter("wrong" if g.answer.wrong else g.answer.label for g in graded if g.incomplete)
    print(f"held below half as incomplete (some ideas, not all; INCOMPLETE_CAP): {sum(capped.values())}; labelled "
          + ", ".join(f"{label} {capped[label]}" for label in LABELS) + f", wrong answers {capped['wrong']}")
    counts = Counter((g.answer.label, g.predicted) for g in graded)
    print("confusion (rows: label, columns: verdict)")
    print("           " + "".join(f"{p:>9}" for p in LABELS))
    for label in LABELS:
        print(f"  {label:<9}" + "".join(f"{counts[(label, p)]:>9}" for p in LABELS))
    styles = Counter(g.answer.style for g in graded)
    agree_by_style = Counter(g.answer.style for g in graded if g.agrees)
    print("by style: " + ", ".join(f"{s} {agree_by_style[s]}/{n}" for s, n in sorted(styles.items())))
    misses = sorted((g for g in graded if not g.agrees), key=lambda g: -g.miss)[:worst]
    if misses:
        print(f"worst misses (up to {worst}):")
    for g in misses:
        a = g.answer
        print(f"  {a.where:<34} {a.label:>7} -> {g.fraction:.2f} [{a.style}] {a.text[:90]!r}")
        print(f"  {'':<34} {g.message[:150]}")


def timing(repeat: int, baseline: Path | None) -> None:
    """Median wall time of ``grade qa`` grading every question of reference/qa.yaml; with ``baseline``
    (a checkout of another version), that version's too, the two runs interleaved."""
    import os

    trees = {"this tree": ROOT, **({f"baseline {baseline}": baseline} if baseline else {})}
    walls: dict[str, list[float]] = {name: [] for name in trees}
    for _ in range(repeat):
        for name, tree in trees.items():
            cmd = [sys.executable, "-m", "grader", "qa", "--file", str(tree / "reference" / "qa.yaml")]
            env = {**os.environ, "PYTHONPATH": str(tree)}
            done = run(cmd, what=f"grade qa on {tree}/reference/qa.yaml", expect=r"\d+/\d+", env=env, cwd=tree)
            walls[name].append(done.wall_s)
    print()
    for name, times in walls.items():
        times.sort()
        print(f"grade qa (reference/qa.yaml), {name}: median {times[len(times) // 2]:.3f} s wall over {repeat} runs "
              f"(min {times[0]:.3f}, max {times[-1]:.3f})")
    if baseline:
        medians = [times[len(times) // 2] for times in walls.values()]
        print(f"ratio this tree / baseline: {medians[0] / medians[1]:.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=SPLITS, action="append")
    parser.add_argument("--held-out", action="store_true", help="the held-out part: the blind sets never studied")
    parser.add_argument("--worst", type=int, default=10)
    parser.add_argument("--timing", type=int, default=0, metavar="N", help="also time `grade qa` N times")
    parser.add_argument("--baseline", type=Path, metavar="DIR",
                        help="with --timing: a checkout of another version, timed in the same run (git worktree add DIR REF)")
    args = parser.parse_args()
    bank = load_bank(ProblemBank().get("qa").folder)
    text_questions = [q.id for q in bank.questions if q.type == "text"]
    print(f"{len(text_questions)} text questions in the bank")
    everything = []
    if args.held_out:
        args.split = [*(args.split or []), *HELD_OUT]
    for split in args.split or [s for s in SPLITS if s not in UNREAD]:
        answers = load_set(SETS / split, bank)
        if not answers:
            require(split not in ("tuning", "dev") and not args.split, f"the {split} set in {SETS / split} holds no answer")
            print(f"\n== {split}: no answers yet ({SETS / split})")
            continue
        graded = grade_set(answers, bank)
        everything += graded
        report(split, graded, args.worst)
    require(bool(everything), "no labelled answer was graded")
    print(f"\noverall agreement {100 * agreement(everything):.1f}% over {len(everything)} answers")
    for lang in ("en", "zh"):
        part = [g for g in everything if g.answer.lang == lang]
        print(f"  {lang}           {_pct(sum(g.agrees for g in part), len(part))}")
    wrong = [g for g in everything if g.answer.wrong]
    print(f"overall wrong answers given >= half the points: {sum(g.wrong_given_half for g in wrong)} of {len(wrong)}")
    trusted = Counter(g.answer.label for g in everything if g.on_trust)
    print(f"overall full points on trust: {sum(trusted.values())}; labelled "
          + ", ".join(f"{label} {trusted[label]}" for label in LABELS))
    capped = Counter("wrong" if g.answer.wrong else g.answer.label for g in everything if g.incomplete)
    print(f"overall held below half as incomplete: {sum(capped.values())}; labelled "
          + ", ".join(f"{label} {capped[label]}" for label in LABELS) + f", wrong answers {capped['wrong']}")
    if args.timing:
        timing(args.timing, args.baseline.resolve() if args.baseline else None)


if __name__ == "__main__":
    main()
