"""Where a resting ball is reported once the detector's fine mode has measured it: the anchor
moved by the fine mode's change while it stays put, never by the bed's outline or a pocket."""

from __future__ import annotations

from functools import cache

import cv2
import numpy as np
import pytest

from vision.detection.classical import CUSHION_REACH, ClassicalDetector, learn_model
from vision.tracking.rest_report import SPOT_HELD_RADII, SPOT_RADII, reported_spot

R = 10.0
NAN = float("nan")


@pytest.mark.parametrize(
    ("anchor", "spot", "measured_at", "expected"),
    [
        ((100.0, 50.0), (100.4, 49.7), (100.0, 50.0), (100.4, 49.7)),  # measured here: moved
        # Re-measured at rest a hundredth of a pixel off: the change goes with it.
        ((100.01, 50.0), (100.4, 49.7), (100.0, 50.0), (100.41, 49.7)),
        # Anchored elsewhere since (pushed): the change was measured at another place.
        (
            (100.0 + 2 * SPOT_HELD_RADII * R, 50.0),
            (100.4, 49.7),
            (100.0, 50.0),
            (100.0 + 2 * SPOT_HELD_RADII * R, 50.0),
        ),
        # A change beyond SPOT_RADII: the fine mode found something else.
        ((100.0, 50.0), (100.0 + 1.5 * SPOT_RADII * R, 50.0), (100.0, 50.0), (100.0, 50.0)),
        ((100.0, 50.0), (NAN, NAN), (100.0, 50.0), (100.0, 50.0)),  # not measured
        ((100.0, 50.0), (NAN, NAN), (NAN, NAN), (100.0, 50.0)),  # never measured
        ((NAN, NAN), (100.4, 49.7), (100.0, 50.0), (NAN, NAN)),  # no anchor: nothing
    ],
)
def test_the_reported_spot(
    anchor: tuple[float, float],
    spot: tuple[float, float],
    measured_at: tuple[float, float],
    expected: tuple[float, float],
) -> None:
    out = reported_spot(np.array([anchor]), np.array([spot]), np.array([measured_at]), np.array([R]))
    assert np.allclose(out[0], expected, equal_nan=True, atol=1e-9)


def test_each_ball_its_own_spot() -> None:
    anchor = np.array([[10.0, 10.0], [50.0, 50.0]])
    spot = np.array([[10.5, 10.0], [NAN, NAN]])
    out = reported_spot(anchor, spot, anchor.copy(), np.array([R, R]))
    assert np.allclose(out, [[10.5, 10.0], [50.0, 50.0]])


BED = (240, 160, 800, 400)  # x0, y0, width, height of the green bed in the frame


@cache
def _detector() -> ClassicalDetector:
    """A detector whose cloth model was learned on a plain bed in a dark 720p frame."""
    image = np.full((720, 1280, 3), (40, 30, 60), np.uint8)
    x0, y0, w, h = BED
    cv2.rectangle(image, (x0, y0), (x0 + w, y0 + h), (30, 160, 20), -1)
    noise = np.random.default_rng(1).integers(-4, 5, image.shape)
    image = np.clip(image.astype(np.int32) + noise, 0, 255).astype(np.uint8)
    det = ClassicalDetector()
    det.cloth = learn_model(image, 0.5)
    return det


@pytest.mark.parametrize(
    ("gap_radii", "expected"),
    [
        (8.0, False),  # out on the cloth, clear of everything
        (CUSHION_REACH + 1.0, False),
        (CUSHION_REACH - 0.5, True),  # its window holds the cushion
        (0.5, True),  # against it
    ],
)
def test_balls_by_the_outline(gap_radii: float, expected: bool) -> None:
    x0, y0, w, _ = BED
    r = 11.0
    # A quarter of the way along the bed's long side (between a corner and a middle pocket),
    # the gap measured from the bed's top edge.
    at = np.array([[x0 + w / 4.0, y0 + gap_radii * r]])
    assert bool(_detector().by_outline(at, np.array([r]))[0]) is expected


def test_without_a_cloth_model_every_ball_counts_as_by_the_outline() -> None:
    out = ClassicalDetector().by_outline(np.array([[10.0, 10.0], [300.0, 300.0]]), np.array([5.0, 5.0]))
    assert out.tolist() == [True, True]


def test_by_a_pocket() -> None:
    x0, y0, w, h = BED
    r = 14.0
    # Clear of the outline by more than CUSHION_REACH but by a corner pocket; then clear of both.
    near_corner = np.array([[x0 + r, y0 + (CUSHION_REACH + 0.5) * r]])
    clear = np.array([[x0 + w / 4.0, y0 + h / 2.0]])
    out = _detector().by_outline(np.concatenate([near_corner, clear]), np.array([r, r]))
    assert out.tolist() == [True, False]
