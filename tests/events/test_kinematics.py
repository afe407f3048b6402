"""Departure times from the kink in a ball's samples (:func:`vision.events.kinematics.kink_time`)."""

from __future__ import annotations

import numpy as np
import pytest

from vision.events.config import GRAVITY, SLIDING_FRICTION
from vision.events.kinematics import kink_time


def samples(
    speed: float, decel: float, fps: float, phase: float, wild: float, seed: int
) -> tuple[np.ndarray, np.ndarray, float]:
    """A ball at rest on the origin set moving along x at ``t_d = 0`` (frames from ``phase``
    frames before it), decelerating, with 1 mm noise; the sample two frames before the
    departure is off the spot by ``wild`` mm besides."""
    dt = 1.0 / fps
    t = (np.arange(-6, 12) - phase) * dt
    s = np.clip(t, 0.0, None)
    x = np.where(t > 0, speed * s - 0.5 * decel * s * s, 0.0)
    p = np.stack([x, np.zeros_like(x)], axis=1)
    p += np.random.default_rng(seed).normal(0.0, 1.0, p.shape)
    p[4, 0] += wild
    return t, p, dt


@pytest.mark.parametrize(
    ("speed", "decel", "fps", "phase", "wild", "tol_frames"),
    [
        (3800.0, 200.0, 60.0, 0.3, 4.2, 0.1),  # fast: one wild still sample 2 frames before
        (3800.0, 200.0, 60.0, 0.9, 0.0, 0.1),
        (1000.0, 1500.0, 30.0, 0.5, 4.0, 0.15),  # a stun sliding to a roll
        (300.0, 130.0, 50.0, 0.2, 0.0, 0.5),
        (100.0, 130.0, 50.0, 0.7, 0.0, 1.0),  # slow: 2 mm a frame against 1 mm of noise
    ],
)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_kink_time_finds_the_departure(
    speed: float, decel: float, fps: float, phase: float, wild: float, tol_frames: float, seed: int
) -> None:
    t, p, dt = samples(speed, decel, fps, phase, wild, seed)
    t_d = kink_time(t, p, np.zeros(2), 1.0, SLIDING_FRICTION * GRAVITY, float(t[0]), float(t[-1]), dt / 64)
    assert abs(t_d) < tol_frames * dt
