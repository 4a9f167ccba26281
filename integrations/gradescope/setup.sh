#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder image (its Ubuntu base image).
# It installs the grader from the wheel that make_autograder.sh put in the zip, into its own venv.
set -euo pipefail

SOURCE=/autograder/source
VENV=/autograder/venv

apt-get update
# bubblewrap lets the grader run learner code in a namespace sandbox where the kernel allows it;
# without it the grader still applies its resource limits (see docs/security.md).
apt-get install -y --no-install-recommends python3 python3-venv python3-pip bubblewrap

python3 -m venv "$VENV"
"$VENV/bin/python" -m pip install --upgrade pip
# CPU wheels of torch: the CUDA build is gigabytes the autograder never uses.
"$VENV/bin/python" -m pip install --extra-index-url https://download.pytorch.org/whl/cpu "$SOURCE"/dist/*.whl

# The source folder holds the private bank and the seed: only root may read it.
chmod -R go-rwx "$SOURCE"
"$VENV/bin/grade" --version
