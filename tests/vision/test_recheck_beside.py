"""A ball come to rest against balls at rest has those it can have pushed re-measured.

A ball rolled up against another pushes it a few millimetres, a pixel at the far end of a view,
which can leave the thumbnail as it was: carried where it stood, the pushed ball made the gap
between the two too small by the push (a rendered 1080p60 free ball: the white 5.8 mm from the
green it had moved 6.5 mm, measured 0.8 mm apart, and TOUCHING BALL called). Re-measuring every
neighbour every frame cost thirteen times the detector's rest measurements of a break-off, so
only the balls in reach and in front are re-measured, every ``settle_every`` frames.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np
import numpy.typing as npt
import pytest

from vision.detection.colour import colour_index
from vision.detection.detections import BallDetections
from vision.tracking.pushes import pushable
from vision.tracking.rest_report import SPOT_HELD_RADII, reported_spot
from vision.tracking.schedule import ScheduleConfig
from vision.tracking.tracker import Tracker, TrackerState
from vision.tracking.video import VideoTracker

R = 5.0
EAST = (1.0, 0.0)
SCHED = ScheduleConfig()


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


PUSHABLE = [
    # name, other ball's centre (the one come to rest at the origin), heading, pushable
    ("touching, in front", (2 * R, 0.0), EAST, True),
    ("a push of 0.4 radii off, in front", (2.4 * R, 0.0), EAST, True),
    ("touching, diagonally in front", (1.4 * R, 1.4 * R), EAST, True),
    ("two diameters off", (4 * R, 0.0), EAST, False),
    ("touching, behind", (-2 * R, 0.0), EAST, False),
    ("touching, level with it", (0.0, 2 * R), EAST, False),
    ("touching, cut 67 degrees off its path", (2 * R * 0.39, 2 * R * 0.92), EAST, True),
    ("touching, 80 degrees off its path", (2 * R * 0.17, 2 * R * 0.98), EAST, False),
    ("touching, heading unknown", (-2 * R, 0.0), (0.0, 0.0), True),
]


@pytest.mark.parametrize(("name", "other", "heading", "expected"), PUSHABLE, ids=[c[0] for c in PUSHABLE])
def test_only_balls_in_reach_and_in_front_are_pushable(
    name: str, other: tuple[float, float], heading: tuple[float, float], expected: bool
) -> None:
    pos = np.array([(0.0, 0.0), other])
    got = pushable(pos, np.full(2, R), np.ones(2, bool), 0, pos[0], np.array(heading), 0.5, SCHED.ahead_cos)
    assert not got[0], name  # never itself
    assert bool(got[1]) is expected, name


def _video(at: list[tuple[float, float]], ages: list[int]) -> VideoTracker:
    """Balls at rest at ``at`` (pixels), each carried at its anchor for ``ages`` frames."""
    names = ["white"] + [f"red{k}" for k in range(1, len(at))]
    state = TrackerState.seed(names, np.array(at, float), np.full(len(at), R))
    video = VideoTracker(_Stub(np.array(at, float)), Tracker(state, fps=30.0), ScheduleConfig(full_every=0))
    video._anchor[:] = np.array(at, float)
    video._anchor_age[:] = ages
    video._settled[:] = True
    return video


RECHECK = [
    ("touching, long at rest", (50.0 + 2 * R, 40.0), SCHED.settle_for, True),
    ("touching, just come to rest itself", (50.0 + 2 * R, 40.0), 1, False),
    ("two diameters off", (50.0 + 4 * R, 40.0), SCHED.settle_for + 50, False),
]


@pytest.mark.parametrize(("name", "other", "age", "rechecked"), RECHECK, ids=[c[0] for c in RECHECK])
def test_the_balls_a_resting_ball_may_have_pushed_are_rechecked(
    name: str, other: tuple[float, float], age: int, rechecked: bool
) -> None:
    video = _video([(50.0, 40.0), other], [1, age])
    video._heading[0] = EAST
    video._recheck_beside(video.tracker.state, 0, np.array([50.0, 40.0]))
    assert bool(video._recheck_left[1] > 0) is rechecked, name
    assert video._recheck_left[0] == 0  # not itself


@pytest.mark.parametrize(
    ("name", "age", "reached_ago", "rechecked"),
    [
        ("long at rest", SCHED.settle_for, None, True),
        ("just at rest, rolled there itself", 1, None, False),
        ("just at rest, a moving ball in reach a moment ago", 1, 5, True),
        ("just at rest, a moving ball in reach long ago", 1, SCHED.settle_for + 1, False),
    ],
)
def test_a_ball_only_just_at_rest_is_rechecked_only_when_a_ball_came_near_it(
    name: str, age: int, reached_ago: int | None, rechecked: bool
) -> None:
    """A ball that rolled to rest is measured as it settles (re-measured in the blob it made
    with the red it touched, a touching white was put 7 mm off it: a rendered 1080p60 touching
    ball, seed 145); one a moving ball came within reach of may creep, unseen, after it
    (a free ball's green, seed 143)."""
    video = _video([(50.0 + 2 * R, 40.0), (50.0, 40.0)], [1, age])
    video.frames = 100
    if reached_ago is not None:
        video._reached_at[1] = video.frames - reached_ago
    video._heading[0] = (-1.0, 0.0)
    video._recheck_beside(video.tracker.state, 0, np.array([50.0 + 2 * R, 40.0]))
    assert bool(video._recheck_left[1] > 0) is rechecked, name


def test_a_rechecked_ball_is_settled_anew_every_settle_every_frames_for_settle_for_frames() -> None:
    video = _video([(50.0, 40.0), (50.0 + 2 * R, 40.0)], [1, 100])
    settled: list[int] = []
    real = video.spots.settle

    def spy(frame: npt.NDArray[np.uint8], i: int, at: npt.NDArray[np.float64], r: float, colour: int):  # type: ignore[no-untyped-def]
        settled.append(video.frames)
        return real(frame, i, at, r, colour)

    video.spots.settle = spy  # type: ignore[method-assign]
    image = np.zeros((90, 160, 3), np.uint8)
    for _ in range(3):
        video.process(image)  # found, then carried at rest
    video._settled[:] = True
    settled.clear()
    video._heading[0] = EAST
    video._recheck_beside(video.tracker.state, 0, video.tracker.state.pos[0])
    start = video.frames
    for _ in range(2 * SCHED.settle_for):
        video.process(image)
    every = SCHED.settle_every
    assert [f - start for f in settled] == list(range(1, SCHED.settle_for + 1, every))
    assert video._recheck_left[1] == 0
    video._recheck_beside(video.tracker.state, 0, video.tracker.state.pos[0])
    assert video._recheck_left[1] == 0  # once per rest where it is


NUDGES = [
    # name, move of the resting red (radii; the white came to rest west of it), rechecked, pushed
    ("nudged away a tenth and more, re-measured", (0.12, 0.0), True, True),
    ("nudged away a tenth and more, not re-measured", (0.12, 0.0), False, False),
    ("moved away past push_radii, not re-measured", (0.25, 0.0), False, True),
    ("detector jitter", (0.04, 0.0), True, False),
    ("towards the white (dragged)", (-0.15, 0.0), True, False),
]


@pytest.mark.parametrize(("name", "move", "rechecked", "pushed"), NUDGES, ids=[c[0] for c in NUDGES])
def test_a_rechecked_ball_counts_as_pushed_from_a_nudge(
    name: str, move: tuple[float, float], rechecked: bool, pushed: bool
) -> None:
    video = _video([(50.0, 40.0), (50.0 + 2 * R, 40.0)], [1, 100])
    least = SCHED.nudge_radii if rechecked else SCHED.push_radii
    rested = video._anchor[1] + R * np.array(move)
    assert video._pushed(video.tracker.state, 1, rested, least) is pushed, name


CARRY = [
    # name, move off where its spot was measured (radii), limb fit, still, a neighbour, carried along
    ("moved a pixel or so by the whole-table search", 2 * SPOT_HELD_RADII, False, True, True, True),
    ("re-measured where its spot was (reported_spot holds)", 0.5 * SPOT_HELD_RADII, False, True, True, False),
    ("alone: the search's centre is the better one", 2 * SPOT_HELD_RADII, False, True, False, False),
    ("a limb fit's own centre", 2 * SPOT_HELD_RADII, True, True, True, False),
    ("not still (a step, not a re-measure at rest)", 2 * SPOT_HELD_RADII, False, False, True, False),
]


@pytest.mark.parametrize(
    ("name", "move", "limb", "still", "beside", "carried"), CARRY, ids=[c[0] for c in CARRY]
)
def test_a_ball_the_whole_table_search_moved_in_a_pack_keeps_its_fine_change(
    name: str, move: float, limb: bool, still: bool, beside: bool, carried: bool
) -> None:
    other = (50.0 + 2 * R, 40.0) if beside else (50.0 + 6 * R, 40.0)
    video = _video([(50.0, 40.0), other], [100, 100])
    video.spots.spot_at[:] = video._anchor
    change = np.array([0.3, -0.2])
    video.spots.spot[:] = video._anchor + change
    video.spots.limb[:] = limb
    before = (video.spots.spot.copy(), video.spots.spot_at.copy())
    pos = video._anchor.copy()
    pos[0, 0] += move * R
    video.spots.carry_spots(pos, np.array([still, False]))
    if carried:
        assert np.allclose(video.spots.spot_at[0], pos[0]) and np.allclose(
            video.spots.spot[0], pos[0] + change
        ), name
        reported = reported_spot(pos, video.spots.spot, video.spots.spot_at, np.full(2, R))
        assert np.allclose(reported[0], pos[0] + change)
    else:
        assert np.array_equal(video.spots.spot, before[0]) and np.array_equal(
            video.spots.spot_at, before[1]
        ), name
    assert np.array_equal(video.spots.spot[1], before[0][1])  # (the other, not still, untouched)


@pytest.mark.parametrize(("packed", "rechecked"), [(False, True), (True, False)])
def test_a_ball_cut_off_the_path_is_rechecked_unless_in_a_pack_of_its_colour(
    packed: bool, rechecked: bool
) -> None:
    """A ball the one come to rest cut 67 degrees off its path (a free ball's brown, pushed
    11 mm: seed 145) is re-measured; one as far round in a pack of its colour is not (a
    break-off's reds level with a red come to rest, re-measured, swapped names: seed 101)."""
    at = (50.0, 40.0)
    cut = (at[0] + 2 * R * 0.39, at[1] + 2 * R * 0.92)
    partner = (cut[0] + 2 * R, cut[1]) if packed else (cut[0] + 20 * R, cut[1])
    video = _video([(300.0, 300.0), at, cut, partner], [100, 1, SCHED.settle_for, SCHED.settle_for])
    red = colour_index("red")
    video.tracker.state = replace(
        video.tracker.state, colour=np.array([colour_index("white"), red, red, red])
    )
    video._heading[1] = EAST
    video._recheck_beside(video.tracker.state, 1, np.array(at))
    assert bool(video._recheck_left[2] > 0) is rechecked
