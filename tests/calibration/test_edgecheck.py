"""The independent cushion-edge check: it must pass the true camera and catch a moved one."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.calibrate import Calibration, calibrate_image
from calibration.edgecheck import EdgeCheck, check_cushion_edges


@pytest.fixture(scope="module")
def rendered() -> tuple[np.ndarray, Calibration]:
    """A synthetic frame (no balls, no people) and the camera that rendered it."""
    from vision.synthetic.conditions import random_conditions
    from vision.synthetic.render import Renderer

    cond = random_conditions(3, 640, 360)
    img = Renderer(cond, 3).frame((), np.zeros((1, 0, 2)))
    return img, Calibration.from_camera(cond.camera)


def test_the_true_camera_lies_on_the_rendered_cushion_edges(rendered: tuple[np.ndarray, Calibration]) -> None:
    img, truth = rendered
    chk = check_cushion_edges(img, truth)
    assert chk.valid > 100
    assert chk.median_px < 1.5


@pytest.mark.parametrize("shift_px", [4.0, -5.0])
def test_a_moved_camera_is_caught(rendered: tuple[np.ndarray, Calibration], shift_px: float) -> None:
    img, truth = rendered
    # Move the principal point: the whole projected table slides by shift_px pixels.
    k = truth.camera_matrix.copy()
    k[0, 2] += shift_px
    k[1, 2] += shift_px
    good = check_cushion_edges(img, truth).median_px
    assert check_cushion_edges(img, replace(truth, camera_matrix=k)).median_px > good + 2.0


def test_the_check_runs_on_a_real_frame(footage: Path) -> None:
    raw = cv2.imread(str(footage / "Task1" / "1.jpg"))
    assert raw is not None
    im = np.asarray(raw, dtype=np.uint8)
    chk = check_cushion_edges(im, calibrate_image(im, "Task1/1.jpg"))
    assert chk.valid > 100
    assert np.isfinite(chk.median_px)


def test_edge_check_rows_must_align() -> None:
    with pytest.raises(ValueError, match="align"):
        EdgeCheck(offsets=np.zeros(3), sides=["baulk"])
