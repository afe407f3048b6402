"""A fast ball's remembered look counts less than its line: its streak is mixed with the cloth."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from vision.detection.detections import BallDetections
from vision.tracking.motion import MotionConfig
from vision.tracking.tracker import TrackerState, step

R = 10.0
BALL = np.array([40.0, 160.0, 150.0])  # Lab of a red
CLOTH = np.array([130.0, 80.0, 170.0])


def _state(speed: float, unseen: int) -> TrackerState:
    st = TrackerState.seed(["red1"], [[100.0, 100.0]], [R], appearance=BALL[None, :])
    return replace(st, vel=np.array([[speed, 0.0]]), unseen=np.array([unseen]))


@pytest.mark.parametrize("speed", [30.0, 40.0])
@pytest.mark.parametrize("mix", [0.4, 0.6])
def test_streak_on_line_beats_sharp_ball_off_line(speed: float, mix: float) -> None:
    """After an unseen frame, the ball's blurred streak on its line wins over a sharp look-alike beside it."""
    pred = np.array([100.0 + MotionConfig().unseen_decay * speed, 100.0])
    streak = pred + np.array([8.0, 0.0])
    beside = pred + np.array([-10.0, 3.5 * R])
    det = BallDetections.build(np.array([beside, streak]), np.full(2, R))
    look = np.array([BALL, mix * BALL + (1 - mix) * CLOTH])
    out = step(_state(speed, 1), det, look)
    assert np.linalg.norm(out.pos[0] - streak) < 1.0


def test_slow_ball_still_told_by_its_look() -> None:
    """Under a radius a frame there is no streak: of two candidates as near, the look-alike wins."""
    pred = np.array([104.0, 100.0])
    same = pred + np.array([0.0, 6.0])
    other = pred + np.array([0.0, -6.0])
    det = BallDetections.build(np.array([other, same]), np.full(2, R))
    look = np.array([0.5 * BALL + 0.5 * CLOTH, BALL])
    out = step(_state(4.0, 0), det, look)
    assert out.pos[0, 1] > 100.0
