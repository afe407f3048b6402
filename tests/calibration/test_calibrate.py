"""calibrate_image on degenerate pictures and on real footage; JSON round trip."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.calibrate import Calibration, calibrate_image
from calibration.errors import BaulklineError
from calibration.table import TABLE, Colour


def _read(path: Path) -> np.ndarray:
    im = cv2.imread(str(path))
    assert im is not None, path
    return np.asarray(im, dtype=np.uint8)


def _noise() -> np.ndarray:
    return np.random.default_rng(0).integers(0, 256, size=(720, 1280, 3), dtype=np.uint8)


@pytest.mark.parametrize(
    "image",
    [
        pytest.param(np.zeros((720, 1280, 3), np.uint8), id="black"),
        pytest.param(_noise(), id="noise"),
        pytest.param(np.full((720, 1280, 3), (40, 160, 40), np.uint8), id="flat-green"),
    ],
)
def test_no_table_is_an_explicit_error(image: np.ndarray) -> None:
    with pytest.raises(BaulklineError, match="frame 7"):
        calibrate_image(image, "frame 7")


def test_a_small_crop_is_refused(footage: Path) -> None:
    im = _read(footage / "Task1" / "1.jpg")
    with pytest.raises(BaulklineError):
        calibrate_image(np.ascontiguousarray(im[200:420, 300:700]), "crop")


@pytest.mark.parametrize("name", ["1", "12", "20"])
def test_real_frame_orientation_and_round_trip(footage: Path, name: str) -> None:
    im = _read(footage / "Task1" / f"{name}.jpg")
    cal = calibrate_image(im, name)
    # The broadcast camera sits behind the top cushion, high above the table: the D end
    # (baulk) is the far end, so the camera's x is beyond the table's length.
    assert cal.camera_centre[0] > TABLE.length
    assert cal.camera_centre[2] > 1000
    # Seen from baulk (the image top here) yellow is on the right (Section 1 Rule 1(f)), which
    # for this camera facing back towards baulk is the image's left.
    yellow, green = cal.table_to_pixels(np.array([TABLE.spots[Colour.YELLOW], TABLE.spots[Colour.GREEN]]))
    assert yellow[0] < green[0]
    again = Calibration.from_json(cal.to_json())
    pts = np.array([[100.0, 100.0], [3000.0, 1500.0]])
    np.testing.assert_allclose(again.table_to_pixels(pts), cal.table_to_pixels(pts), atol=1e-6)
    back = cal.pixels_to_table(cal.table_to_pixels(pts, TABLE.ball_radius), TABLE.ball_radius)
    np.testing.assert_allclose(back, pts, atol=0.5)


def test_video_calibrator_keeps_a_still_camera_and_catches_a_bump(footage: Path) -> None:
    from calibration.video import VideoCalibrator

    im = _read(footage / "Task1" / "1.jpg")
    vc = VideoCalibrator(fps=30.0)
    for i in range(5):
        vc.update(i, im)
    assert len(vc.changes) == 1
    moved = np.ascontiguousarray(np.roll(im, (25, 40), axis=(0, 1)))
    for i in range(5, 5 + 30):
        vc.update(i, moved)
    assert len(vc.changes) == 2
    assert vc.changes[1][0] < 5 + 30
