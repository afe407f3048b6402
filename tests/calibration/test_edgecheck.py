"""The independent cushion-edge check: it must pass a good calibration and catch a moved one."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.calibrate import calibrate_image
from calibration.edgecheck import EdgeCheck, check_cushion_edges


@pytest.fixture(scope="module")
def frame(footage: Path) -> np.ndarray:
    im = cv2.imread(str(footage / "Task1" / "1.jpg"))
    assert im is not None
    return np.asarray(im, dtype=np.uint8)


def test_a_fitted_real_frame_lies_on_its_cushion_edges(frame: np.ndarray) -> None:
    chk = check_cushion_edges(frame, calibrate_image(frame, "Task1/1.jpg"))
    assert chk.valid > 100
    assert chk.median_px < 3.0


@pytest.mark.parametrize("shift_px", [4.0, -6.0])
def test_a_moved_camera_is_caught(frame: np.ndarray, shift_px: float) -> None:
    cal = calibrate_image(frame, "Task1/1.jpg")
    good = check_cushion_edges(frame, cal).median_px
    # Move the principal point: the whole projected table slides by shift_px pixels.
    k = cal.camera_matrix.copy()
    k[0, 2] += shift_px
    k[1, 2] += shift_px
    moved = check_cushion_edges(frame, replace(cal, camera_matrix=k)).median_px
    assert moved > good + 1.0


def test_edge_check_rows_must_align() -> None:
    with pytest.raises(ValueError, match="align"):
        EdgeCheck(offsets=np.zeros(3), sides=["baulk"])
