#!/usr/bin/env bash
# Build the zip an instructor uploads to a Gradescope programming assignment ("Configure Autograder").
#
#   integrations/gradescope/make_autograder.sh [-o autograder.zip] [-p self_attention,masks]
#                                              [-b PRIVATE_BANK_DIR] [-s SEED] [-H VISIBILITY] [-l en|zh]
#
# -p  problems of the assignment (default: every problem in the bank); their points sum to the
#     assignment's total, which must match the total set on Gradescope.
# -b  a private bank (problems/ and reference/) that overrides and extends the public problems.
# -s  the seed of the hidden inputs (keep it secret; default: each problem's own seed).
# -H  Gradescope visibility of hidden checks: after_due_date (default), after_published, hidden
#     (never shown; Gradescope then shows the total) or visible.
# -l  language of what run_autograder tells the student about the upload: en (default) or zh.
# The zip holds setup.sh, run_autograder, grader.env, dist/<the grader's wheel> and bank/.
# Extra flags for `pip wheel` (e.g. --no-build-isolation offline) come from GRADER_WHEEL_FLAGS.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
out="autograder.zip" problems="" bank="" seed="" hidden="" lang=""
while getopts "o:p:b:s:H:l:h" opt; do
  case "$opt" in
    o) out="$OPTARG" ;;
    p) problems="$OPTARG" ;;
    b) bank="$OPTARG" ;;
    s) seed="$OPTARG" ;;
    H) hidden="$OPTARG" ;;
    l) lang="$OPTARG" ;;
    *) sed -n '2,15p' "$0"; exit 2 ;;
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
case "$hidden" in ""|hidden|after_due_date|after_published|visible) ;; *)
  echo "make_autograder.sh: -H $hidden: choose after_due_date, after_published, hidden or visible" >&2
  exit 2 ;;
esac
case "$lang" in ""|en|zh) ;; *)
  echo "make_autograder.sh: -l $lang: choose en or zh" >&2
  exit 2 ;;
esac
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
  if [ -n "$hidden" ]; then echo "GRADER_GRADESCOPE_HIDDEN=$hidden"; fi
  if [ -n "$lang" ]; then echo "GRADER_LANG=$lang"; fi
} > "$stage/grader.env"

rm -f "$out"
(cd "$stage" && "$python" -m zipfile -c "$out" ./*)
echo "Wrote $out: upload it as the autograder of a Gradescope programming assignment."
