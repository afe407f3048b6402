"""The classical detector on real broadcast stills (skipped where the footage is absent)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from benchmarks.balls_bench import read_counts
from vision.detection.classical import ClassicalDetector


@pytest.mark.parametrize("still", ["10", "20", "29", "26"])
def test_ball_total_near_ground_truth(footage: Path, still: str) -> None:
    """A smoke check (within one ball); exactness over all stills is the benchmark's figure."""
    image = np.asarray(cv2.imread(str(footage / "Task1" / f"{still}.jpg")), np.uint8)
    truth = read_counts(footage / "Task1" / "ground-truth" / f"{still}_gt.txt")
    found = ClassicalDetector().detect(image)
    named = int(np.count_nonzero(found.colour >= 0))  # unnamed rows are rejected candidates
    assert abs(named - sum(truth.values())) <= 1


def test_detect_cli_json(footage: Path) -> None:
    out = subprocess.run(
        [sys.executable, "-m", "vision.cli", "detect", str(footage / "Task1" / "20.jpg"), "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    balls = json.loads(out.stdout)["balls"]
    assert {"colour", "pixel", "position", "confidence"} == set(balls[0])
    assert sum(b["colour"] == "white" for b in balls) == 1


def test_detect_cli_bad_image(tmp_path: Path) -> None:
    bad = tmp_path / "x.png"
    bad.write_text("not an image")
    out = subprocess.run(
        [sys.executable, "-m", "vision.cli", "detect", str(bad)], capture_output=True, text=True
    )
    assert out.returncode != 0
    assert str(bad) in out.stderr and len(out.stderr.strip().splitlines()) == 1
