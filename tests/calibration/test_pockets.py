"""The middle pockets' mirror symmetry as a marking on x = length / 2."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calibration.calibrate import Calibration
from calibration.camera import Camera, Intrinsics, Pose
from calibration.fit import NOSE_HEIGHT
from calibration.pockets import SEARCH, SPAN, STEP, _symmetry_centre, middle_points
from calibration.table import TABLE

_N = round(2 * SPAN / STEP) + 1


def _gap(centre: float, width: float = 50.0, depth: float = 80.0, base: float = 150.0) -> np.ndarray:
    """A cushion-top profile with a dark pocket gap whose centre is at sample ``centre``."""
    i = np.arange(_N, dtype=np.float64)
    return base - depth * np.clip(width / 2.0 + 1.0 - np.abs(i - centre), 0.0, 1.0)


@settings(max_examples=40, deadline=None)
@given(st.floats(-0.8 * SEARCH / STEP, 0.8 * SEARCH / STEP), st.floats(20.0, 60.0))
def test_the_centre_of_a_symmetric_gap_is_found(shift: float, width: float) -> None:
    centre = _N // 2 + shift
    got = _symmetry_centre(_gap(centre, width))
    assert got is not None
    assert got == pytest.approx(centre, abs=0.5)


@pytest.mark.parametrize(
    "profile",
    [
        pytest.param(np.full(_N, 120.0), id="flat"),
        pytest.param(np.linspace(80.0, 160.0, _N), id="ramp"),
        pytest.param(_gap(_N // 2 + 2 * SEARCH / STEP), id="gap-beyond-the-search"),
        pytest.param(np.where(np.arange(_N) < _N // 2, 60.0, 160.0), id="one-step"),
    ],
)
def test_no_symmetric_gap_is_no_point(profile: np.ndarray) -> None:
    assert _symmetry_centre(profile) is None


def test_middle_points_lie_on_the_half_way_line() -> None:
    """A drawn frame: bright cushion tops with a dark gap at each middle pocket; the points
    found, cast back through the true camera, lie on x = length / 2."""
    cam = Camera(Intrinsics.from_fov(1280, 720, 55.0), Pose(height=4200.0, tilt=15.0, yaw=20.0, roll=0.0))
    cal = Calibration.from_camera(cam)
    img = np.full((720, 1280, 3), (30, 120, 30), np.uint8)
    # Paint every pixel from where it falls on the plane at the nose's height.
    ys, xs = np.mgrid[0:720, 0:1280]
    pts = cal.pixels_to_table(np.stack([xs.ravel(), ys.ravel()], axis=1).astype(np.float64), NOSE_HEIGHT)
    x, y = pts[:, 0].reshape(720, 1280), pts[:, 1].reshape(720, 1280)
    on_cushion = (y < 0) | (y > TABLE.width)
    img[on_cushion] = (40, 170, 40)
    img[on_cushion & (np.abs(x - TABLE.length / 2.0) < 52.0)] = (10, 10, 10)
    found = middle_points(img, cal.projector())
    assert len(found) >= 4
    back = cal.pixels_to_table(found, NOSE_HEIGHT)
    np.testing.assert_allclose(back[:, 0], TABLE.length / 2.0, atol=3.0)
