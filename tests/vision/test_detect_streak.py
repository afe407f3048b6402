"""A moving ball's streak is one ball; touching balls in a row, a lone ball and a cue are not streaks."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.detection.cluster import ClusterPrior
from vision.detection.streak import is_streak, smeared

R = 6.0


def stadium(length: float, angle: float, r: float = R, size: int = 80) -> np.ndarray:
    """A disc of radius ``r`` swept ``length`` pixels along ``angle`` (radians)."""
    img = np.zeros((size, size), np.uint8)
    c = np.array([size / 2, size / 2])
    d = np.array([np.cos(angle), np.sin(angle)]) * length / 2
    a, b = c - d, c + d
    cv2.line(img, (round(a[0]), round(a[1])), (round(b[0]), round(b[1])), 1, round(2 * r))
    cv2.circle(img, (round(a[0]), round(a[1])), round(r), 1, -1)
    cv2.circle(img, (round(b[0]), round(b[1])), round(r), 1, -1)
    return img.astype(bool)


def discs(centres: list[tuple[float, float]], r: float = R, size: int = 80) -> np.ndarray:
    """Filled discs at ``centres``."""
    img = np.zeros((size, size), np.uint8)
    for u, v in centres:
        cv2.circle(img, (round(u), round(v)), round(r), 1, -1)
    return img.astype(bool)


@pytest.mark.parametrize(
    ("blob", "expected"),
    [
        (stadium(2 * R, 0.0), True),
        (stadium(3 * R, 0.7), True),
        (stadium(5 * R, 2.0), True),
        (discs([(40, 40)]), False),  # a lone ball is not elongated
        (discs([(30, 40), (30 + 2 * R, 40)]), False),  # two touching balls narrow where they meet
        (discs([(25, 40), (25 + 2 * R, 40), (25 + 4 * R, 40)]), False),
        (stadium(5 * R, 0.3, r=0.35 * R), False),  # a cue is much thinner than a ball
        (stadium(3 * R, 0.0, r=2.0 * R), False),  # an arm is much wider
    ],
)
def test_is_streak(blob: np.ndarray, expected: bool) -> None:
    assert is_streak(blob, R) == expected


@settings(max_examples=30, deadline=None)
@given(length=st.floats(1.6 * R, 5.0 * R), angle=st.floats(0.0, np.pi))
def test_any_streak_direction_is_a_streak(length: float, angle: float) -> None:
    assert is_streak(stadium(length, angle), R)


def ball_image(centres: list[tuple[float, float]], size: int = 80) -> np.ndarray:
    """Red balls on green cloth, each with a white lamp cap above its centre."""
    img = np.zeros((size, size, 3), np.uint8)
    img[:] = (20, 150, 20)
    for u, v in centres:
        cv2.circle(img, (round(u), round(v)), round(R), (30, 30, 190), -1)
        cv2.circle(img, (round(u), round(v - 0.4 * R)), 1, (255, 255, 255), -1)
    return img


def test_overlapping_balls_with_two_caps_are_not_smeared() -> None:
    # One behind the other under a steep foreshortening: no narrowing, but two caps.
    centres = [(40.0, 32.0), (40.0, 32.0 + 1.6 * R)]
    blob = discs(centres)
    prior = ClusterPrior(strength=40.0)
    assert not smeared(ball_image(centres), blob, (0, 0), R, 1.0, prior, squash=0.4)


def test_a_capless_streak_is_smeared() -> None:
    blob = stadium(3 * R, 0.0)
    img = np.zeros((80, 80, 3), np.uint8)
    img[:] = (20, 150, 20)
    img[blob] = (60, 110, 120)
    assert smeared(img, blob, (0, 0), R, 1.0, ClusterPrior(strength=40.0))
