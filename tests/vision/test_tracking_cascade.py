"""A lost ball's grown gate never takes a detection from a ball that has it in its own gate."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from calibration.table import Colour
from vision.detection.detections import COLOURS, BallDetections
from vision.tracking.tracker import TrackerState, step

R = 10.0
RED = COLOURS.index(Colour.RED)


@pytest.mark.parametrize("unseen", [2, 3])
@pytest.mark.parametrize("blob", [(85.0, 100.0), (100.0, 85.0), (100.0, 116.0)])
def test_resting_ball_keeps_its_detection(unseen: int, blob: tuple[float, float]) -> None:
    """A resting red keeps its own detection though a spurious blob lies in its gate and a lost
    red's grown gate reaches the resting red but not the blob."""
    st = TrackerState.seed(
        ["red1", "red2"], [[100.0, 100.0], [270.0 + 80.0 * (unseen - 2), 100.0]], [R, R], colour=[RED, RED]
    )
    st = replace(st, unseen=np.array([0, unseen]))
    det = BallDetections.build(np.array([[100.0, 100.0], blob]), np.full(2, R), colour=np.array([RED, RED]))
    out = step(st, det)
    assert np.allclose(out.pos[0], [100.0, 100.0], atol=1.0)
    assert not np.allclose(out.pos[1], [100.0, 100.0], atol=5.0)
