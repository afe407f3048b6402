"""The white in hand is looked for where it is put down (the D) as often as a lost ball.

A ball off the table was found again only by the whole-table search, once a second; the white
in hand is put down and played within seconds, a hand and then the cue's tip touching it, and on
a rendered 1080p60 break-off every search of the second after it was put down fell on a frame
where the hand or the tip joined its blob: the break was never seen.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt
import pytest

from calibration.calibrate import Calibration
from calibration.camera import Camera, Intrinsics, Pose
from calibration.table import TABLE
from vision.balls_stage import hand_box
from vision.detection.detections import BallDetections
from vision.tracking.schedule import ScheduleConfig
from vision.tracking.tracker import Tracker, TrackerState
from vision.tracking.video import VideoTracker
from vision.tracks import TrackState

CAMERAS = [
    ("overhead", Pose(height=3600.0, tilt=0.0, yaw=0.0, roll=0.0)),
    ("broadcast, from the baulk end", Pose(height=3600.0, tilt=25.0, yaw=0.0, roll=0.0)),
    ("from the top end", Pose(height=3600.0, tilt=25.0, yaw=180.0, roll=2.0)),
    ("from the side", Pose(height=3600.0, tilt=30.0, yaw=90.0, roll=-1.0)),
]


@pytest.mark.parametrize("pose", [c[1] for c in CAMERAS], ids=[c[0] for c in CAMERAS])
def test_the_hand_box_holds_the_d_and_is_inside_the_frame(pose: Pose) -> None:
    cal = Calibration.from_camera(Camera(Intrinsics.from_fov(1280, 720, 70.0, (0.0,) * 5), pose))
    x0, y0, x1, y1 = hand_box(cal, (720, 1280, 3))
    cx, cy = TABLE.d_centre
    a = np.linspace(np.pi / 2, 3 * np.pi / 2, 50)
    ring = np.column_stack([cx + TABLE.d_radius * np.cos(a), cy + TABLE.d_radius * np.sin(a)])
    px = cal.table_to_pixels(np.vstack([ring, [[cx, cy]]]), z=TABLE.ball_radius)
    seen = (px[:, 0] >= 0) & (px[:, 0] < 1280) & (px[:, 1] >= 0) & (px[:, 1] < 720)
    assert 0 <= x0 < x1 <= 1280 and 0 <= y0 < y1 <= 720
    inside = (px[:, 0] >= x0) & (px[:, 0] <= x1) & (px[:, 1] >= y0) & (px[:, 1] <= y1)
    assert np.all(inside[seen])
    # No more than the baulk end's quarter of the table, and a margin round the D.
    corners = cal.table_to_pixels(
        np.array([[0.0, 0.0], [0.0, TABLE.width], [TABLE.length, 0.0], [TABLE.length, TABLE.width]]),
        z=TABLE.ball_radius,
    )
    table_area = float(np.ptp(corners[:, 0]) * np.ptp(corners[:, 1]))
    assert (x1 - x0) * (y1 - y0) < 0.5 * table_area


@dataclass
class _Stub:
    """A detector that records where it was asked to look and finds nothing."""

    rois: list[tuple[int, int, int, int] | None] = field(default_factory=list)

    def detect(
        self, image: npt.NDArray[np.uint8], roi: tuple[int, int, int, int] | None = None
    ) -> BallDetections:
        self.rois.append(roi)
        return BallDetections.empty()


HAND = (10, 20, 60, 70)


@pytest.mark.parametrize(
    ("white", "box", "searched"),
    [
        ("in hand", HAND, True),
        ("on the table", HAND, False),
        ("in hand", None, False),
    ],
)
def test_the_d_is_searched_while_the_white_is_in_hand(
    white: str, box: tuple[int, int, int, int] | None, searched: bool
) -> None:
    at = np.array([[np.nan, np.nan] if white == "in hand" else [100.0, 40.0]])
    state = TrackerState.seed(["white"], at, np.array([5.0]))
    assert bool(state.state[0] == TrackState.ABSENT) is (white == "in hand")
    stub = _Stub()
    sch = ScheduleConfig(full_every=1000)
    video = VideoTracker(stub, Tracker(state, fps=30.0), sch, hand_roi=box)
    frames = 4 * sch.lost_every
    for _ in range(frames):
        video.process(np.zeros((90, 160, 3), np.uint8))
    hand = [r for r in stub.rois if r == HAND]
    assert len(hand) == (frames // sch.lost_every if searched else 0)
