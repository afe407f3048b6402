"""A ball come to rest beside balls long at rest has them measured again for a while.

A ball rolled up against another pushes it a few millimetres, a pixel at the far end of a view,
which leaves the thumbnail as it was: carried where it stood, the pushed ball made the gap
between the two too small by the push (a rendered 1080p60 free ball: the white 5.8 mm from the
green it had moved 6.5 mm, measured 0.8 mm apart, and TOUCHING BALL called).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt
import pytest

from vision.detection.detections import BallDetections
from vision.tracking.schedule import ScheduleConfig
from vision.tracking.tracker import Tracker, TrackerState
from vision.tracking.video import VideoTracker

R = 5.0


@dataclass
class _Stub:
    """A detector that finds the balls where they are."""

    at: npt.NDArray[np.float64] = field(default_factory=lambda: np.zeros((0, 2)))

    def detect(
        self, image: npt.NDArray[np.uint8], roi: tuple[int, int, int, int] | None = None
    ) -> BallDetections:
        x0, y0, x1, y1 = roi if roi is not None else (0, 0, image.shape[1], image.shape[0])
        p = self.at
        inside = (p[:, 0] >= x0) & (p[:, 0] < x1) & (p[:, 1] >= y0) & (p[:, 1] < y1)
        return BallDetections.build(p[inside], np.full(int(inside.sum()), R))


def _video(at: list[tuple[float, float]], ages: list[int]) -> VideoTracker:
    """Balls at rest at ``at`` (pixels), each carried at its anchor for ``ages`` frames."""
    names = ["white"] + [f"red{k}" for k in range(1, len(at))]
    state = TrackerState.seed(names, np.array(at, float), np.full(len(at), R))
    video = VideoTracker(_Stub(np.array(at, float)), Tracker(state, fps=30.0), ScheduleConfig(full_every=0))
    video._anchor[:] = np.array(at, float)
    video._anchor_age[:] = ages
    video._settled[:] = True
    return video


SCHED = ScheduleConfig()
CASES = [
    ("touching, long at rest", (50.0 + 2 * R, 40.0), SCHED.settle_for, True),
    ("0.4 radii off touching", (50.0 + 2.4 * R, 40.0), SCHED.settle_for + 50, True),
    ("two diameters off", (50.0 + 4 * R, 40.0), SCHED.settle_for + 50, False),
    ("touching, just come to rest itself", (50.0 + 2 * R, 40.0), SCHED.settle_for - 1, False),
]


@pytest.mark.parametrize(("name", "other", "age", "rechecked"), CASES, ids=[c[0] for c in CASES])
def test_the_balls_a_resting_ball_may_have_pushed_are_rechecked(
    name: str, other: tuple[float, float], age: int, rechecked: bool
) -> None:
    video = _video([(50.0, 40.0), other], [1, age])
    video._recheck_beside(video.tracker.state, 0, np.array([50.0, 40.0]))
    assert bool(video._recheck_until[1] >= video.frames) is rechecked, name
    assert video._recheck_until[0] < video.frames  # not itself


def test_a_rechecked_ball_is_settled_anew_in_every_frame_of_the_window() -> None:
    video = _video([(50.0, 40.0), (50.0 + 2 * R, 40.0)], [1, 100])
    settled: list[int] = []
    real = video._settle

    def spy(frame: npt.NDArray[np.uint8], i: int, at: npt.NDArray[np.float64], r: float, colour: int):  # type: ignore[no-untyped-def]
        settled.append(i)
        return real(frame, i, at, r, colour)

    video._settle = spy  # type: ignore[method-assign]
    image = np.zeros((90, 160, 3), np.uint8)
    for _ in range(3):
        video.process(image)  # found, then carried at rest
    video._settled[:] = True
    settled.clear()
    video._recheck_until[1] = video.frames + 4
    for _ in range(8):
        video.process(image)
    assert settled.count(1) == 4  # each of the next four frames, then carried as before
    assert settled.count(0) == 0
