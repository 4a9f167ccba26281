#!/usr/bin/env bash
# Exercism's test runner interface: bin/run.sh SLUG INPUT_DIR OUTPUT_DIR
#
# Grades the solution in INPUT_DIR (the exercise's slug names the problem: self-attention ->
# grade self_attention, which grades ./self_attention.py) and writes OUTPUT_DIR/results.json
# (version 3). It exits 0 whenever it graded, whatever the tests say (pass, fail, or a file that
# does not load: status "error" with the message); only a failure of the runner itself (an
# unknown slug, a grader that cannot run) exits non-zero, with the reason on stderr.
set -euo pipefail

if [ "$#" -ne 3 ]; then
  echo "usage: bin/run.sh SLUG INPUT_DIR OUTPUT_DIR" >&2
  exit 2
fi
problem="${1//-/_}"
input="${2%/}"
output="${3%/}"
mkdir -p "$output"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT

status=0
# INPUT_DIR is read-only for the runner: grade only reads it. Learner output is captured by the
# grader, never printed here.
(cd "$input" && grade "$problem" --format exercism) > "$output/results.json.partial" 2> "$log" || status=$?
case "$status" in
  0 | 1)  # graded: 0 at full marks, 1 otherwise (results.json holds the learner's result)
    mv "$output/results.json.partial" "$output/results.json"
    ;;
  *)
    rm -f "$output/results.json.partial"
    cat "$log" >&2
    exit "$status"
    ;;
esac
