#!/usr/bin/env bash
# Build the zip an instructor uploads to a Gradescope programming assignment ("Configure Autograder").
#
#   integrations/gradescope/make_autograder.sh [-o autograder.zip] [-p self_attention,masks]
#                                              [-b PRIVATE_BANK_DIR] [-s SEED]
#
# -p  problems of the assignment (default: every problem in the bank); their points sum to the
#     assignment's total, which must match the total set on Gradescope.
# -b  a private bank (problems/ and reference/) that overrides and extends the public problems.
# -s  the seed of the hidden inputs (keep it secret; default: each problem's own seed).
# The zip holds setup.sh, run_autograder, grader.env, dist/<the grader's wheel> and bank/.
# Extra flags for `pip wheel` (e.g. --no-build-isolation offline) come from GRADER_WHEEL_FLAGS.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
out="autograder.zip" problems="" bank="" seed=""
while getopts "o:p:b:s:h" opt; do
  case "$opt" in
    o) out="$OPTARG" ;;
    p) problems="$OPTARG" ;;
    b) bank="$OPTARG" ;;
    s) seed="$OPTARG" ;;
    *) sed -n '2,13p' "$0"; exit 2 ;;
  esac
done
if [ -n "$bank" ] && [ ! -d "$bank/problems" ]; then
  echo "make_autograder.sh: $bank holds no problems/ folder (a bank holds problems/ and reference/)" >&2
  exit 2
fi
if ! [[ "$problems" =~ ^[a-z0-9_,]*$ ]]; then
  echo "make_autograder.sh: -p $problems: give problem names separated by commas" >&2
  exit 2
fi
if [ -n "$seed" ] && ! [[ "$seed" =~ ^[0-9]+$ ]]; then
  echo "make_autograder.sh: -s $seed: the seed must be a whole number" >&2
  exit 2
fi
case "$out" in /*) ;; *) out="$PWD/$out" ;; esac

python="${PYTHON:-python3}"
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
cp "$here/setup.sh" "$here/run_autograder" "$stage/"
chmod +x "$stage/setup.sh" "$stage/run_autograder"
# shellcheck disable=SC2086
"$python" -m pip wheel --quiet --no-deps ${GRADER_WHEEL_FLAGS:-} --wheel-dir "$stage/dist" "$repo"
if [ -n "$bank" ]; then cp -R "$bank" "$stage/bank"; fi
{
  echo "PROBLEMS=\"${problems//,/ }\""
  if [ -n "$seed" ]; then echo "GRADER_SEED=$seed"; fi
} > "$stage/grader.env"

rm -f "$out"
(cd "$stage" && "$python" -m zipfile -c "$out" ./*)
echo "Wrote $out: upload it as the autograder of a Gradescope programming assignment."
