"""Gradescope as it runs an autograder, in a container-like root, on hostile uploads.

The image is built as Gradescope's Dockerfile builds it: the zip from make_autograder.sh (a
private bank, a secret seed, hidden checks after the due date) unpacked in /autograder/source,
run_autograder copied to /autograder, setup.sh run as root. Then each upload of
tests/gradescope_uploads/ is graded by /autograder/run_autograder as root, in a container with
Docker's capabilities and no user namespaces (tests/container.py), so the grader gets the
``user`` level; once with Landlock and once as on a kernel without it (file modes only).

Each upload tries one thing and prints what it got ("LEAKED: ..."), getting a right answer only
if the attack worked. Every attack must fail: the check it sits in scores 0, and results.json
holds none of the seed, the bank, another student's work or a word the upload wrote.

The image's venv gets numpy and torch from this checkout's venv (a base image with the heavy
packages installed; installing torch's wheel each run would take minutes); setup.sh installs the
grader's wheel from the zip, offline.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import subprocess
import sys
import sysconfig
import time
import zipfile
from pathlib import Path

import jsonschema
import pytest

import container

pytestmark = pytest.mark.slow

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
UPLOADS = TESTS / "gradescope_uploads"
SEED = "918273"
#: What each upload loses (the checks its attack sits in): all of them score 0.
AFFECTED = {
    "read_grader_env": ["softmax"],
    "read_bank": ["softmax"],
    "write_results": ["softmax"],
    "read_other_upload": ["softmax"],
    "import_reference": ["softmax", "shapes", "values", "values_rectangular", "weights_sum_to_one", "batch_dims",
                         "large_logits", "mask", "fully_masked_rows", "inputs_unchanged", "dtype", "self_attention"],
}


class Image:
    """The built image's folders, its secret markers, and a way to run one upload in it."""

    def __init__(self, folder: Path, markers: dict[str, str]):
        self.folder, self.markers = folder, markers
        self.autograder = folder / "autograder"

    def grade(self, files: dict[str, Path], *, landlock: bool) -> tuple[dict, str]:
        """Put ``files`` in /autograder/submission, run /autograder/run_autograder; (results, text).

        Also records the run's wall time as seen from here (``self.wall_s``)."""
        submission = self.autograder / "submission"
        shutil.rmtree(submission, ignore_errors=True)
        submission.mkdir()
        for name, source in files.items():
            shutil.copyfile(source, submission / name)
        shutil.rmtree(self.autograder / "results", ignore_errors=True)
        began = time.monotonic()
        done = container.run(["/autograder/run_autograder"], image=self.folder, landlock=landlock,
                             cwd="/autograder", timeout=300)
        self.wall_s = time.monotonic() - began
        assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
        text = (self.autograder / "results" / "results.json").read_text(encoding="utf-8")
        document = json.loads(text)
        schema = json.loads((TESTS / "schemas" / "gradescope_results.schema.json").read_text())
        jsonschema.validate(document, schema)
        return document, text


def _private_bank(folder: Path, marker: str) -> Path:
    """A private bank: the public self_attention, marked so that a leak of it can be recognised."""
    bank = folder / "bank"
    shutil.copytree(ROOT / "problems" / "self_attention", bank / "problems" / "self_attention")
    (bank / "reference").mkdir()
    shutil.copyfile(ROOT / "reference" / "self_attention.py", bank / "reference" / "self_attention.py")
    for path in (bank / "problems" / "self_attention" / "checks.py", bank / "reference" / "self_attention.py"):
        path.write_text(f"# {marker}\n" + path.read_text(encoding="utf-8"), encoding="utf-8")
    return bank


def _base_site_packages(image: Path) -> Path:
    """The base image's packages (pip and setuptools too): this venv's site-packages without the
    grader's own install (editable, or a wheel's ``grader`` package, world-readable here)."""
    base = image / "opt" / "base-image" / "site-packages"
    base.mkdir(parents=True)
    for entry in Path(sysconfig.get_paths()["purelib"]).iterdir():
        own = "attention_grader" in entry.name or entry.name.startswith("__editable__") or entry.name == "grader"
        if not own:
            (base / entry.name).symlink_to(entry)
    return base


@pytest.fixture(name="image", scope="module")
def _image(tmp_path_factory) -> Image:
    reason = container.unavailable_reason()
    if reason is not None:
        if os.environ.get("HOSTILE_REQUIRE_FULL") == "1":
            pytest.fail(f"HOSTILE_REQUIRE_FULL=1 but Gradescope's container cannot be simulated here: {reason}")
        pytest.skip(reason)
    folder = container.make_image(tmp_path_factory.mktemp("image"))
    build = tmp_path_factory.mktemp("build")
    markers = {"bank": f"PRIVATE-BANK-{secrets.token_hex(6)}", "alice": f"ALICE-{secrets.token_hex(6)}",
               "metadata": f"classmate-{secrets.token_hex(6)}@example.edu"}
    zip_path = build / "autograder.zip"
    env = {k: v for k, v in os.environ.items() if not k.startswith("GRADER_")}
    subprocess.run(
        ["bash", str(ROOT / "integrations" / "gradescope" / "make_autograder.sh"), "-o", str(zip_path),
         "-p", "self_attention", "-b", str(_private_bank(build, markers["bank"])), "-s", SEED, "-H", "after_due_date"],
        env={**env, "PYTHON": sys.executable, "GRADER_WHEEL_FLAGS": "--no-build-isolation"},
        check=True, capture_output=True, timeout=300,
    )
    # Gradescope's Dockerfile: the zip in /autograder/source, run_autograder copied, setup.sh as root.
    autograder = folder / "autograder"
    with zipfile.ZipFile(zip_path) as archive:
        archive.extractall(autograder / "source")
    for script in ("setup.sh", "run_autograder"):
        (autograder / "source" / script).chmod(0o755)  # zipfile drops the modes; unzip keeps them
    shutil.copyfile(autograder / "source" / "run_autograder", autograder / "run_autograder")
    (autograder / "run_autograder").chmod(0o755)
    # Other people's data a real image could hold: an earlier upload, the submission metadata.
    (autograder / "submissions" / "alice").mkdir(parents=True)
    (autograder / "submissions" / "alice" / "self_attention.py").write_text(f"# {markers['alice']}\n")
    (autograder / "submission_metadata.json").write_text(json.dumps({"users": [{"email": markers["metadata"]}]}))
    base = _base_site_packages(folder)
    setup = container.run(
        ["bash", "-c", "python3 -m venv --without-pip /opt/attention-grader/venv && "
         f"echo /opt/base-image/site-packages > /opt/attention-grader/venv/lib/python{sys.version_info.major}."
         f"{sys.version_info.minor}/site-packages/base-image.pth && bash /autograder/source/setup.sh"],
        image=folder, timeout=600,
    )
    assert setup.returncode == 0, setup.stdout[-3000:] + setup.stderr[-3000:]
    assert base.is_dir()
    return Image(folder, markers)


@pytest.mark.parametrize("landlock", [True, False], ids=["landlock", "modes-only"])
@pytest.mark.parametrize("upload", sorted(AFFECTED))
def test_hostile_upload_gets_nothing(image: Image, upload: str, landlock: bool) -> None:
    document, text = image.grade({"self_attention.py": UPLOADS / upload / "self_attention.py"}, landlock=landlock)
    scores = {t["extra_data"]["check"]: t["score"] for t in document["tests"]}
    assert document["extra_data"]["problems"]["self_attention"]["isolation"] == "user"
    assert all(scores[check] == 0 for check in AFFECTED[upload]), scores
    assert document["score"] == sum(scores.values()) < 10
    for leak in ("LEAKED", SEED, *image.markers.values()):
        assert leak not in text, f"{leak!r} reached results.json"
    if upload == "write_results":
        assert document["score"] != 999


def test_a_right_upload_under_a_copy_name_gets_full_marks_and_no_total(image: Image) -> None:
    """The pipeline itself works at the user level: "Self_Attention (1).py" is found, told, graded
    with the helper module it imports; the total stays out of the always-visible output while
    hidden checks wait for the due date."""
    upload = UPLOADS / "two_files"
    document, _ = image.grade({"Self_Attention (1).py": upload / "self_attention.py",
                               "attention_math.py": upload / "attention_math.py"}, landlock=True)
    assert document["score"] == 10, document["output"]
    assert "graded Self_Attention (1).py as self_attention.py" in document["output"]
    assert "attention_math.py" in document["output"]
    assert "10/10" not in document["output"] and "8/8 points" in document["output"]
    assert "after the due date" in document["output"]
    hidden = [t for t in document["tests"] if t["visibility"] != "visible"]
    assert {t["visibility"] for t in hidden} == {"after_due_date"} and len(hidden) == 2
    # The whole run as the harness saw it, bounded by the container's wall time. (A lower bound of half the wall
    # time failed once with the machine loaded: 0.40 s of 0.81 s; timings are ratios in benchmarks/, not here.)
    assert 0 < document["execution_time"] <= image.wall_s
