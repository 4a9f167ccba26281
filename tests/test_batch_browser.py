"""report.html in a real headless browser (Debian's chromium): no console errors, charts drawn."""

from __future__ import annotations

import shutil
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import numpy as np
import pytest

from conftest import TESTS
from grader.batch.run import BatchOptions, run_batch

sys.path.insert(0, str(TESTS.parent / "benchmarks"))
from make_class import make_class  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (apt-get install -y chromium)"),
]
HISTOGRAM_BLUE = (0x4E, 0x79, 0xA7)  # the bar colour of grader.batch.svg.histogram


def _chromium(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    flags = [
        "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run",
        f"--user-data-dir={tmp_path / 'profile'}", "--enable-logging=stderr", "--v=0",
    ]
    return subprocess.run([CHROMIUM, *flags, *args], capture_output=True, text=True, timeout=120)


def _png_rgb(path: Path) -> np.ndarray:
    """Decode an 8-bit, non-interlaced RGB/RGBA PNG (what chromium writes) into (H, W, 3)."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos : pos + 8])
        body = data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and colour in (2, 6)
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = np.frombuffer(zlib.decompress(idat), np.uint8).reshape(height, 1 + width * channels)
    out = np.zeros((height, width * channels), np.int32)
    bpp = channels
    for y in range(height):
        kind, line = raw[y, 0], raw[y, 1:].astype(np.int32)
        prev = out[y - 1] if y else np.zeros(width * channels, np.int32)
        if kind == 0:
            out[y] = line
        elif kind == 2:
            out[y] = (line + prev) % 256
        else:  # 1 (sub), 3 (average), 4 (Paeth) depend on the pixel to the left: go pixel by pixel
            row = np.zeros(width * channels, np.int32)
            for x in range(width * channels):
                left = row[x - bpp] if x >= bpp else 0
                up, corner = prev[x], prev[x - bpp] if x >= bpp else 0
                if kind == 1:
                    pred = left
                elif kind == 3:
                    pred = (left + up) // 2
                else:
                    p = left + up - corner
                    pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                    pred = left if pa <= pb and pa <= pc else up if pb <= pc else corner
                row[x] = (line[x] + pred) % 256
            out[y] = row
    return out.reshape(height, width, channels)[:, :, :3]


@pytest.fixture(name="report", scope="module")
def _report(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("browser")
    make_class(root / "subs", 4, seed=1, problems=["self_attention"])
    run_batch(BatchOptions(root / "subs", root / "out", problems=["self_attention"], jobs=1))
    return root / "out" / "report.html"


def test_report_opens_without_console_errors(report: Path, tmp_path: Path) -> None:
    """The page loads with no console message at all (no script errors, no blocked requests)."""
    run = _chromium(tmp_path, "--dump-dom", report.as_uri())
    assert run.returncode == 0, run.stderr[-2000:]
    console = [line for line in run.stderr.splitlines() if "CONSOLE" in line or "Refused to" in line]
    assert console == []
    assert "<svg" in run.stdout and 'id="students"' in run.stdout


def test_report_charts_render_in_a_screenshot(report: Path, tmp_path: Path) -> None:
    """A screenshot of the top of the page shows the histogram bars in their colour."""
    shot = tmp_path / "report.png"
    run = _chromium(tmp_path, "--window-size=1000,700", f"--screenshot={shot}", report.as_uri())
    assert run.returncode == 0 and shot.is_file(), run.stderr[-2000:]
    pixels = _png_rgb(shot)
    assert pixels.shape[:2] == (700, 1000)
    bar = np.all(np.abs(pixels - np.array(HISTOGRAM_BLUE)) <= 6, axis=-1)
    assert bar.sum() > 2000, "no histogram bars were drawn"
    assert (pixels.std(axis=(0, 1)) > 10).all(), "the screenshot is blank"


MASK_BLUE, DIFFERS_RED = (0x2B, 0x5D, 0x9B), (0xD6, 0x27, 0x28)  # grader.render.heatmap's mask and outline colours


def test_a_wrong_causal_mask_is_drawn_beside_the_expected_one(tmp_path: Path) -> None:
    """report.html draws a failed check's figure (yours, expected) as SVG that a browser renders:
    the blue cells of both masks, and red outlines on the cells where the student's differs."""
    from conftest import CORPUS

    student = tmp_path / "subs" / "alice"
    student.mkdir(parents=True)
    (student / "masks.py").write_text((CORPUS / "masks" / "causal_off_by_one.py").read_text(encoding="utf-8"))
    run_batch(BatchOptions(tmp_path / "subs", tmp_path / "out", problems=["masks"], jobs=1))
    html = (tmp_path / "out" / "report.html").read_text(encoding="utf-8")
    assert html.count('<svg class="heatmap"') == 2  # causal_mask and decoder_mask failed, each with its picture
    page = tmp_path / "figure.html"  # the student's detail alone, opened, with the report's head
    detail = html[html.index('<h2 id="details">'):].replace("<details>", "<details open>")
    page.write_text(html[: html.index("<body>") + 6] + detail, encoding="utf-8")
    shot = tmp_path / "figure.png"
    run = _chromium(tmp_path, "--window-size=1000,800", f"--screenshot={shot}", page.as_uri())
    assert run.returncode == 0 and shot.is_file(), run.stderr[-2000:]
    pixels = _png_rgb(shot)
    blue = np.all(np.abs(pixels - np.array(MASK_BLUE)) <= 8, axis=-1)
    red = np.all(np.abs(pixels - np.array(DIFFERS_RED)) <= 8, axis=-1)
    assert blue.sum() > 36 * 10 * 10, "the mask cells were not drawn"  # causal_mask(6): 15 + 21 blue cells of 14 px
    assert red.sum() > 6 * 20, "the cells that differ are not outlined"
