"""The report as a person sees it: rendered by headless Chromium, screenshot checked."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.test_report import INPUTS, OUTPUTS
from vision.report import render_report

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.skipif(
    CHROMIUM is None, reason="chromium is not installed (scripts/bootstrap installs it as root)"
)
def test_report_renders_tables_and_plots_in_chromium(tmp_path: Path) -> None:
    page = tmp_path / "report.html"
    page.write_text(render_report(INPUTS, OUTPUTS))
    shot = tmp_path / "shot.png"
    cmd = [
        str(CHROMIUM),
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={tmp_path / 'profile'}",
        "--hide-scrollbars",
        "--window-size=1000,1400",
        f"--screenshot={shot}",
        page.as_uri(),
    ]
    subprocess.run(cmd, check=True, capture_output=True, timeout=60)
    image = cv2.imread(str(shot))
    assert image is not None and image.shape[:2] == (1400, 1000)
    b, g, r = (image[..., i].astype(int) for i in range(3))
    # the table plot's cloth (#1f6b35) and the two score lines (#1f77b4, #d62728) are drawn
    cloth = (abs(r - 0x1F) < 12) & (abs(g - 0x6B) < 12) & (abs(b - 0x35) < 12)
    blue_line = (abs(r - 0x1F) < 30) & (abs(g - 0x77) < 30) & (abs(b - 0xB4) < 30)
    red_line = (abs(r - 0xD6) < 30) & (abs(g - 0x27) < 30) & (abs(b - 0x28) < 30)
    assert cloth.sum() > 5000, "the call's table plot is not visible"
    assert blue_line.sum() > 50 and red_line.sum() > 50, "the score progression is not drawn"
    # table rules: many thin grey borders of the strokes table
    grey = (abs(r - 0xBB) < 8) & (abs(g - 0xBB) < 8) & (abs(b - 0xBB) < 8)
    assert grey.sum() > 500 and np.std(image) > 20
