"""The wheel built from a clean copy, installed, gives a working ``grade`` with the whole bank, outside the tree.

The fresh venv gets the already-installed dependencies (numpy, torch, ...) through a ``.pth`` to a
folder of links into this environment's site-packages, leaving out this project's own (editable)
install, so the test is fast and needs no network; the project's wheel is built with
``--no-deps --no-build-isolation`` and installed, as a release does.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from grader import __version__
from grader.bank import ProblemBank
from grader.bank import course_order

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
OWN = ("attention_grader", "__editable__", "grader", "__pycache__")


def _clean_copy(target: Path) -> None:
    """What a fresh clone holds: tracked files plus new files git does not ignore."""
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT, check=True,
                            capture_output=True).stdout.decode().split("\0")
    for name in filter(None, listed):
        source = ROOT / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)


def _seed(target: Path) -> Path:
    """Links to this environment's packages, except this project's and the .pth hooks."""
    target.mkdir()
    for entry in Path(sysconfig.get_paths()["purelib"]).iterdir():
        if not entry.name.startswith(OWN) and entry.suffix != ".pth":
            (target / entry.name).symlink_to(entry)
    return target


@pytest.fixture(name="installed", scope="module")
def _installed(tmp_path_factory) -> Path:
    base = tmp_path_factory.mktemp("packaging")
    _clean_copy(base / "src")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(base / "venv")], check=True)
    python = base / "venv" / "bin" / "python"
    site = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          check=True, capture_output=True, text=True).stdout.strip()
    Path(site, "seed.pth").write_text(str(_seed(base / "seed")) + "\n")
    # As a release does (.github/workflows/release.yml): build the wheel, install the wheel.
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation", "--no-index",
         "--wheel-dir", str(base / "dist"), str(base / "src")],
        check=True, capture_output=True, cwd=base,
    )
    (wheel,) = (base / "dist").glob("attention_grader-*.whl")
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", "--no-deps", "--no-index",
         str(wheel)],
        check=True, capture_output=True, cwd=base,
    )
    shutil.rmtree(base / "src")  # nothing may depend on the source tree
    (base / "work").mkdir()
    return base


def _run(installed: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GRADER_", "PYTHON"))}
    env["PATH"] = f"{installed / 'venv' / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    return subprocess.run(list(args), cwd=installed / "work", env=env, capture_output=True, text=True, timeout=300)


def test_grade_and_python_m_grader_show_the_version(installed: Path) -> None:
    for command in (["grade", "--version"], ["python", "-m", "grader", "--version"]):
        result = _run(installed, *command)
        assert result.returncode == 0, result.stderr
        assert result.stdout.strip() == f"grade, version {__version__}"


def test_installed_grader_is_not_the_source_tree(installed: Path) -> None:
    result = _run(installed, "python", "-c", "import grader, grader.bank as b; print(grader.__file__); "
                  "print(b.bundled_root())")
    module, bank = result.stdout.split()
    assert str(installed / "venv") in module and "site-packages" in module
    assert bank.endswith(os.path.join("grader", "bundled"))


def test_every_package_and_bank_file_is_installed(installed: Path) -> None:
    packages = sorted(
        ".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "grader").rglob("__init__.py")
        if "bundled" not in p.parts
    )
    result = _run(installed, "python", "-c", f"import importlib; [importlib.import_module(p) for p in {packages!r}]")
    assert result.returncode == 0, f"not installed (add to pyproject [tool.setuptools] packages): {result.stderr}"
    site = Path(_run(installed, "python", "-c", "import grader; print(grader.__file__)").stdout.strip()).parent
    tracked = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "problems", "reference"], cwd=ROOT,
                             check=True, capture_output=True, text=True).stdout.split()
    missing = [name for name in tracked if (ROOT / name).is_file() and not (site / "bundled" / name).is_file()]
    assert not missing, f"bank files not installed (pyproject package-data): {missing}"


def test_whole_bank_is_listed_and_gradable(installed: Path) -> None:
    listed = _run(installed, "grade", "list", "--format", "json")
    assert listed.returncode == 0, listed.stderr
    assert [row["name"] for row in json.loads(listed.stdout)] == [p.name for p in course_order(ProblemBank())]
    init = _run(installed, "grade", "init", "self_attention")
    assert init.returncode == 0, init.stderr
    stub = _run(installed, "grade", "self_attention", "--format", "json")
    assert json.loads(stub.stdout)["score"] == 0
    shutil.copyfile(ROOT / "reference" / "self_attention.py", installed / "work" / "self_attention.py")
    graded = _run(installed, "grade", "self_attention", "--format", "json")
    assert graded.returncode == 0, graded.stdout + graded.stderr
    assert json.loads(graded.stdout)["score"] == json.loads(graded.stdout)["max_score"]


def test_classroom_init_ships_the_wheel_this_grader_was_installed_from(installed: Path) -> None:
    """pip recorded the wheel's path (PEP 610): a runner cannot reach it, so the template carries a copy."""
    (wheel,) = (installed / "dist").glob("attention_grader-*.whl")
    made = _run(installed, "grade", "classroom", "init", "template", "--problems", "self_attention")
    assert made.returncode == 0, made.stderr
    copy = Path(".github") / "attention-grader" / wheel.name
    assert (installed / "work" / "template" / copy).read_bytes() == wheel.read_bytes()
    workflow = (installed / "work" / "template" / ".github" / "workflows" / "classroom.yml").read_text()
    assert f'pip install --extra-index-url https://download.pytorch.org/whl/cpu "./{copy.as_posix()}"' in workflow
    assert f"The workflow installs ./{copy.as_posix()} (this grader's wheel, copied into the template" in made.stdout


def test_sandbox_masks_an_installed_bank_once(monkeypatch, tmp_path) -> None:
    """Installed, the bank sits in grader/bundled/: the sandbox masks that folder, not also its insides.

    (Masking grader/bundled/problems inside an already-masked, read-only grader/bundled made
    bubblewrap fail to start under --sandbox full.) The user level's Landlock view of
    site-packages is everything but that folder.
    """
    from grader import bank
    from grader.worker import visible

    site_packages = tmp_path / "site-packages"
    package = site_packages / "grader"
    (package / "bundled" / "problems").mkdir(parents=True)
    (package / "bundled" / "reference").mkdir()
    (package / "worker").mkdir()
    (package / "__init__.py").write_text("")
    (site_packages / "numpy").mkdir()
    monkeypatch.setattr(visible, "package_dir", lambda: package)
    monkeypatch.setattr(visible, "_package_folders", lambda: [site_packages])
    monkeypatch.setattr(bank, "bundled_root", lambda: package / "bundled")
    monkeypatch.delenv(bank.PROBLEMS_ENV, raising=False)
    secrets = visible.secret_dirs()
    assert secrets == [(package / "bundled").resolve()]
    readable = visible._without(site_packages.resolve(), secrets)
    assert sorted(readable) == sorted(p.resolve() for p in (package / "__init__.py", package / "worker", site_packages / "numpy"))
