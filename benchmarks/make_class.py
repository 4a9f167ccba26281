"""Make a synthetic class for batch grading: N student folders across all problems in the bank.

Each student gets, per problem, one of: a correct solution (the reference or a corpus file that
scores full marks), a named mistake (each corpus file whose expected diagnosis is a mistake),
a fault (corpus ``fault_*`` files: exceptions, sys.exit, output floods, ...), the untouched stub,
or nothing. A few folders are broken on purpose: empty, no learner files, a file that is not
UTF-8, files nested one level down as LMS downloads do. ``class.json`` records what each student
got, so tests and benchmarks can check the grades.

    python benchmarks/make_class.py OUT_DIR --students 200 [--seed 0] [--problems a,b] [--slow-faults]

Faults that only end at a time limit (infinite loops, sleeps, memory hogs) take seconds each and
are left out unless ``--slow-faults`` is given. The same arguments always give the same class.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from grader.bank import ProblemBank  # noqa: E402

CORPUS = ROOT / "tests" / "corpus"
#: Share of each kind of submission, per student x problem.
MIX = {"correct": 0.40, "mistake": 0.35, "fault": 0.08, "stub": 0.05, "missing": 0.12}


def _is_slow(expectation: dict) -> bool:
    statuses = set((expectation.get("checks") or {}).values())
    return "timeout" in statuses or "max_seconds" in expectation or bool(expectation.get("options"))


def sources(problem, slow_faults: bool) -> dict[str, list[tuple[str, Path]]]:
    """For one problem: kind -> [(label, file)], from the reference, the stub and the corpus."""
    found: dict[str, list[tuple[str, Path]]] = {
        "correct": [("reference", problem.reference_file)], "mistake": [], "fault": [],
        "stub": [("stub", problem.stub_file)],
    }
    folder = CORPUS / problem.name
    expected_file = folder / "expected.yaml"
    expected = yaml.safe_load(expected_file.read_text(encoding="utf-8")) if expected_file.exists() else {}
    for name, expectation in sorted((expected or {}).items()):
        path = folder / name
        if not path.is_file():
            continue
        expectation = expectation or {}
        if expectation.get("full"):
            found["correct"].append((name, path))
        elif "diagnosis" in expectation:
            found["mistake"].append((f"mistake:{expectation['diagnosis']}", path))
        elif name.startswith("fault_") and (slow_faults or not _is_slow(expectation)):
            found["fault"].append((name, path))
    return found


def make_class(out: Path, students: int, seed: int = 0, problems: list[str] | None = None,
               slow_faults: bool = False, broken: bool = True) -> dict:
    """Write the class into ``out`` and return the manifest (also written to out/class.json)."""
    rng = random.Random(seed)
    bank = ProblemBank()
    chosen = [bank.get(n) for n in problems] if problems else list(bank)
    pools = {p.name: sources(p, slow_faults) for p in chosen}
    out.mkdir(parents=True, exist_ok=True)
    manifest: dict = {"problems": [p.name for p in chosen], "students": {}}
    kinds, weights = zip(*MIX.items())
    width = len(str(students))
    for i in range(students):
        name = f"student{i:0{width}d}"
        folder = out / name
        folder.mkdir(exist_ok=True)
        nested = broken and i % 37 == 5  # an LMS download: files one level down
        target = folder / "submission" if nested else folder
        target.mkdir(exist_ok=True)
        got = {}
        for problem in chosen:
            kind = rng.choices(kinds, weights)[0]
            pool = pools[problem.name].get(kind) or pools[problem.name]["correct"]
            if kind == "missing":
                continue
            if not pools[problem.name].get(kind):
                kind = "correct"
            label, path = rng.choice(pool)
            text = path.read_text(encoding="utf-8")
            if path.suffix == ".py" and kind != "stub":
                text += f"\n# submitted by {name}\n"
            (target / problem.spec.learner_file).write_text(text, encoding="utf-8")
            got[problem.name] = {"kind": kind, "source": label}
        manifest["students"][name] = got
    if broken:
        (out / "zz_empty").mkdir(exist_ok=True)
        (out / "zz_no_files").mkdir(exist_ok=True)
        (out / "zz_no_files" / "README.txt").write_text("I could not do the homework\n", encoding="utf-8")
        first = chosen[0]
        (out / "zz_latin1").mkdir(exist_ok=True)
        (out / "zz_latin1" / first.spec.learner_file).write_bytes("# caf\xe9\n".encode("latin-1"))
        manifest["students"].update({"zz_empty": {}, "zz_no_files": {},
                                     "zz_latin1": {first.name: {"kind": "not_utf8", "source": "latin-1"}}})
    (out / "class.json").write_text(json.dumps(manifest, indent=1), encoding="utf-8")
    return manifest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--students", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--problems", default="", help="comma-separated problem names (default: all)")
    parser.add_argument("--slow-faults", action="store_true", help="include faults that end at a time limit")
    parser.add_argument("--no-broken", action="store_true", help="leave out the broken folders")
    args = parser.parse_args()
    problems = [p for p in args.problems.split(",") if p] or None
    manifest = make_class(args.out, args.students, args.seed, problems, args.slow_faults, not args.no_broken)
    print(f"wrote {len(manifest['students'])} student folders to {args.out}")


if __name__ == "__main__":
    main()
