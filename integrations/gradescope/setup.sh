#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder image (its Ubuntu base image).
# It installs the grader from the wheel that make_autograder.sh put in the zip into its own venv,
# creates the unprivileged account learner code runs as, and makes the secrets readable by root
# only: the private bank and the seed in /autograder/source, and the bank bundled in the package.
# (docs/security.md: the user level, for a root container without user namespaces.)
set -euo pipefail

SOURCE="${AUTOGRADER_ROOT:-/autograder}/source"
# Outside /autograder, which run_autograder makes root-only: the account must read Python.
VENV="${GRADER_VENV:-/opt/attention-grader/venv}"
ACCOUNT="${GRADER_SANDBOX_USER:-grader-learner}"

# Install only what the image lacks (Gradescope runs apt-get update before this script).
missing=()
command -v python3 >/dev/null 2>&1 || missing+=(python3)
python3 -c 'import ensurepip, venv' >/dev/null 2>&1 || missing+=(python3-venv)
# bubblewrap gives the full level where the container allows user namespaces.
command -v bwrap >/dev/null 2>&1 || missing+=(bubblewrap)
if [ "${#missing[@]}" -gt 0 ]; then
  apt-get install -y --no-install-recommends "${missing[@]}"
fi

# The account learner code runs as: it owns nothing and has no home or shell.
if ! id -u "$ACCOUNT" >/dev/null 2>&1; then
  useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin "$ACCOUNT"
fi

[ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
# CPU wheels of torch: the CUDA build is gigabytes the autograder never uses. The notebook extra
# (nbformat) reads uploaded .ipynb answers.
wheel=("$SOURCE"/dist/*.whl)
"$VENV/bin/python" -m pip install --quiet --extra-index-url https://download.pytorch.org/whl/cpu "${wheel[0]}[notebook]"

# Readable by root only: the bank bundled in the package (hidden checks, reference solutions),
# and the source folder (private bank, grader.env with the seed). Everything else in the venv
# stays readable: learner code imports numpy and torch from it.
bundled="$("$VENV/bin/python" -c 'import grader.bundled, os; print(os.path.dirname(grader.bundled.__file__))')"
chmod -R go-rwx "$bundled" "$SOURCE"
"$VENV/bin/grade" --version
