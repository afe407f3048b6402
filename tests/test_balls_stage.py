"""The ball stage's fast paths measure what the exact ones measure.

:class:`vision.balls_stage.PixelMap` stands in for the calibration's pixel-to-table mapping and
the working-size calibration for the source-size one; both are checked against the exact
mapping on cameras with and without lens distortion, and the frame shrinking against the
pixel convention the scaled calibration assumes.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calibration.calibrate import Calibration
from calibration.camera import Camera, Intrinsics, Pose
from calibration.table import TABLE
from vision.balls_stage import (
    BIAS_PX,
    RIM_BIAS_PX,
    LiveBalls,
    PixelMap,
    gap_bias_px,
    scaled_calibration,
    small_balls_note,
)
from vision.source import Frame

#: Lenses from none to the strongest barrel distortion of the sample clips (09: k1 = -0.22).
LENSES = [
    (0.0,) * 5,
    (-0.018, 0.005, 0.0, 0.0, 0.0),
    (-0.22, 0.059, -0.0012, -0.0002, 0.0),
    (0.3, 0.0, 0.0, 0.0, 0.0),
]


def _calibration(dist: tuple[float, ...], size: tuple[int, int] = (1280, 720)) -> Calibration:
    w, h = size
    intr = Intrinsics.from_fov(w, h, 62.0, dist)
    return Calibration.from_camera(Camera(intr, Pose(height=3600.0, tilt=25.0, yaw=3.0, roll=-1.0)))


def _on_table(cal: Calibration, n: int, seed: int) -> np.ndarray:
    """Pixels of random ball centres on the bed (where the tracker asks for positions)."""
    rng = np.random.default_rng(seed)
    xy = rng.uniform([0.0, 0.0], [TABLE.length, TABLE.width], (n, 2))
    px = cal.table_to_pixels(xy, z=TABLE.ball_radius)
    w, h = cal.image_size
    inside = (px[:, 0] >= 0) & (px[:, 0] < w) & (px[:, 1] >= 0) & (px[:, 1] < h)
    return px[inside]


@pytest.mark.parametrize("dist", LENSES)
def test_pixel_map_matches_the_exact_mapping(dist: tuple[float, ...]) -> None:
    cal = _calibration(dist)
    px = _on_table(cal, 2000, seed=1)
    exact = cal.pixels_to_table(px, TABLE.ball_radius)
    fast = PixelMap(cal, TABLE.ball_radius)(px)
    # A hundredth of a millimetre: two orders below the position noise at rest.
    assert np.max(np.linalg.norm(fast - exact, axis=1)) < 0.02


@pytest.mark.parametrize("dist", LENSES)
def test_pixel_map_off_the_frame_takes_the_exact_mapping(dist: tuple[float, ...]) -> None:
    cal = _calibration(dist)
    px = np.array([[-3.0, 100.0], [1300.0, 700.0], [640.0, -0.5], [200.0, 740.0]])
    with np.errstate(all="ignore"):
        exact = cal.pixels_to_table(px, TABLE.ball_radius)
        fast = PixelMap(cal, TABLE.ball_radius)(px)
    np.testing.assert_array_equal(fast, exact)


@settings(max_examples=30, deadline=None)
@given(
    size=st.sampled_from([(1920, 1080), (2560, 1440), (1600, 900)]),
    dist=st.sampled_from(LENSES),
    x=st.floats(0.0, TABLE.length),
    y=st.floats(0.0, TABLE.width),
)
def test_scaled_calibration_projects_to_the_resized_pixel(
    size: tuple[int, int], dist: tuple[float, ...], x: float, y: float
) -> None:
    cal = _calibration(dist, size)
    small = scaled_calibration(cal, (1280, 720))
    s = np.array([1280 / size[0], 720 / size[1]])
    full = cal.table_to_pixels(np.array([[x, y]]))
    # A resize maps the pixel centre u to (u + 0.5) s - 0.5.
    np.testing.assert_allclose(small.table_to_pixels(np.array([[x, y]])), (full + 0.5) * s - 0.5, atol=1e-6)


@pytest.mark.parametrize(
    ("source", "work_width", "work"),
    [((1920, 1080), 1280, (1280, 720)), ((1280, 720), 1280, (1280, 720)), ((1920, 1080), 0, (1920, 1080))],
)
def test_frames_are_worked_on_at_most_work_width_wide(
    source: tuple[int, int], work_width: int, work: tuple[int, int]
) -> None:
    cal = _calibration(LENSES[1], source)
    stage = LiveBalls(fps=30.0, fixed=cal, work_width=work_width)
    image = np.zeros((source[1], source[0], 3), np.uint8)
    assert stage.working(Frame(0, 0.0, image)).shape == (work[1], work[0], 3)
    # The fixed calibration follows the frames worked on; pixels handed out are the source's.
    assert stage.calibration is not None
    assert tuple(stage.calibration.image_size) == work
    xy = np.array([[900.0, 600.0], [3000.0, 1200.0]])
    np.testing.assert_allclose(stage.table_to_pixels(xy), cal.table_to_pixels(xy), atol=1e-6)


def test_nothing_is_tracked_on_a_blank_frame() -> None:
    stage = LiveBalls(fps=30.0, fixed=_calibration(LENSES[0], (1920, 1080)))
    frame = Frame(0, 0.0, np.full((1080, 1920, 3), (40, 120, 30), np.uint8))
    assert stage.update(frame) is None
    assert stage.names == ()


@pytest.mark.parametrize("height", [3000.0, 4500.0])
def test_bias_is_the_working_pixels_span_on_the_bed(height: float) -> None:
    """Straight down, a working pixel spans height / focal length millimetres everywhere."""
    intr = Intrinsics.from_fov(1280, 720, 70.0)
    cam = Camera(intr, Pose(height=height, tilt=0.0, yaw=0.0, roll=0.0))
    stage = LiveBalls(fps=30.0, fixed=Calibration.from_camera(cam))
    stage.working(Frame(0, 0.0, np.zeros((720, 1280, 3), np.uint8)))
    assert stage.bias_mm == pytest.approx(BIAS_PX * (height - TABLE.ball_radius) / intr.fx, rel=1e-6)


@pytest.mark.parametrize(
    ("upscale", "bias_px"),
    [
        (1.0, BIAS_PX),  # the detector measures the working frame itself
        (2.0, RIM_BIAS_PX),  # balls 2-3 px in radius, measured through a pixel of rim
        (3.0, RIM_BIAS_PX),
    ],
)
def test_a_gap_measured_upscaled_is_as_uncertain_as_its_rim(upscale: float, bias_px: float) -> None:
    assert gap_bias_px(upscale) == bias_px
    assert gap_bias_px(upscale) >= BIAS_PX


@pytest.mark.parametrize(
    ("radius_px", "size", "warned"),
    [
        (1.9, (640, 360), True),
        (2.99, (960, 540), True),
        (3.0, (960, 540), False),
        (9.0, (1280, 720), False),
        (float("nan"), (1280, 720), False),  # not seeded yet: nothing to say
    ],
)
def test_a_video_whose_balls_are_under_three_pixels_is_warned_of(
    radius_px: float, size: tuple[int, int], warned: bool
) -> None:
    note = small_balls_note(radius_px, size)
    assert (note is not None) == warned
    if note is not None:
        assert f"{radius_px:.1f} px" in note and f"{size[0]}x{size[1]}" in note
