"""A track's radius carried with its ball through the view's perspective, by steps of RADIUS_STEP.

The searches size their tests by the track's radius; a ball that rolled from near a broadcast
camera to the far end kept the radius it had near the camera and its colour search refused it
(see :meth:`vision.tracking.video.VideoTracker._radii_where_they_are`).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import numpy.typing as npt
import pytest

from vision.detection.detections import BallDetections
from vision.tracking.tracker import Tracker, TrackerState
from vision.tracking.video import VideoTracker
from vision.tracks import TrackState

FloatArray = npt.NDArray[np.float64]
Image = npt.NDArray[np.uint8]


class Sized:
    """A detector finding nothing, whose radius grows down the picture (a view from one end):
    10 at row 80, 12 at row 160."""

    def detect(self, image: Image, roi: tuple[int, int, int, int] | None = None) -> BallDetections:
        return BallDetections.empty()

    def expected_radius(self, pixels: FloatArray) -> FloatArray:
        return np.asarray(8.0 + np.asarray(pixels, np.float64).reshape(-1, 2)[:, 1] / 40.0, np.float64)


class Unsized:
    """A detector that says nothing of radii."""

    def detect(self, image: Image, roi: tuple[int, int, int, int] | None = None) -> BallDetections:
        return BallDetections.empty()


@pytest.mark.parametrize(
    ("detector", "radius", "rows", "state", "expected"),
    [
        (Sized(), 10.0, (80.0, 80.0), TrackState.SEEN, 10.0),  # still
        (Sized(), 10.0, (80.0, 82.0), TrackState.SEEN, 10.0),  # (0.5%: a drag, not a move)
        (Sized(), 10.0, (80.0, 160.0), TrackState.SEEN, 12.0),  # rolled to the near end
        (Sized(), 8.0, (80.0, 160.0), TrackState.PREDICTED, 9.6),  # seeded with its own size
        (Sized(), 12.0, (160.0, 80.0), TrackState.SEEN, 10.0),  # rolled to the far end
        (Sized(), 12.0, (160.0, 80.0), TrackState.ABSENT, 12.0),  # off the table
        (Unsized(), 12.0, (160.0, 80.0), TrackState.SEEN, 12.0),
    ],
)
def test_radius_carried_with_the_ball(
    detector: Sized | Unsized, radius: float, rows: tuple[float, float], state: int, expected: float
) -> None:
    st = TrackerState.seed(
        ["red1", "red2"], np.array([[50.0, rows[0]], [100.0, 120.0]]), np.array([radius, 11.0])
    )
    vt = VideoTracker(detector, Tracker(st))
    assert vt._radii_where_they_are().radius[0] == pytest.approx(radius)  # (where it was seeded)
    moved = np.array([[50.0, rows[1]], [100.0, 120.0]])
    vt.tracker.state = replace(st, pos=moved, state=np.array([state, TrackState.SEEN], np.int8))
    out = vt._radii_where_they_are()
    assert out.radius[0] == pytest.approx(expected)
    assert out.radius[1] == pytest.approx(11.0)
    assert vt.tracker.state is out
