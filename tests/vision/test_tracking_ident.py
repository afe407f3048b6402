"""Red identities: the reds' shared look, contacts as hypotheses, lost reds found again."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from calibration.table import Colour
from vision.detection.detections import COLOURS, BallDetections
from vision.tracking.tracker import Tracker, TrackerState, name_balls
from vision.tracks import TrackState

R = 10.0
RED = COLOURS.index(Colour.RED)
#: Two red looks (Lab) as different as the light across a table makes them.
LOOK_A = np.array([120.0, 175.0, 150.0])
LOOK_B = np.array([90.0, 150.0, 135.0])


def _tracker(pos: list[tuple[float, float]], vel: list[tuple[float, float]], looks: np.ndarray) -> Tracker:
    colours = np.full(len(pos), RED)
    radius = np.full(len(pos), R)
    state = TrackerState.seed(name_balls(colours), pos, radius, colour=colours, appearance=looks)
    return Tracker(replace(state, vel=np.asarray(vel, np.float64)))


@pytest.mark.parametrize("speed", [4.0, 6.0, 8.0])
@pytest.mark.parametrize("gap", [1.8, 2.0, 2.4])
def test_red_passing_a_red_keeps_its_name_whatever_the_looks(speed: float, gap: float) -> None:
    """A red rolling past a resting red a diameter or so to its side keeps its name even when each
    detection looks like the other red's memory: reds look alike, motion decides."""
    tracker = _tracker([(0.0, 0.0), (speed, gap * R)], [(speed, 0.0), (0.0, 0.0)], np.stack([LOOK_A, LOOK_B]))
    for k in range(1, 4):
        rolling, resting = (k * speed, 0.0), (speed, gap * R)
        det = BallDetections.build(np.array([resting, rolling]), np.full(2, R), colour=np.full(2, RED))
        # Each detection's look is the OTHER red's remembered look.
        tracker.update(det, np.stack([LOOK_A, LOOK_B]))
        np.testing.assert_allclose(tracker.state.pos[0], rolling, atol=0.5 * R)
        np.testing.assert_allclose(tracker.state.pos[1], resting, atol=0.5 * R)


@pytest.mark.parametrize(("pack", "stays"), [(True, True), (False, False)])
def test_struck_red_unseen_stays_only_in_a_pack(pack: bool, stays: bool) -> None:
    """A red the contact model says is struck, with no measurement to confirm it, stays on its spot
    when it touches another resting red (the impulse goes on through the pack) and is sent on by
    the contact when it is alone."""
    pos = [(0.0, 0.0), (25.0, 0.0)] + ([(45.0, 0.0)] if pack else [])
    vel = [(8.0, 0.0), (0.0, 0.0)] + ([(0.0, 0.0)] if pack else [])
    tracker = _tracker(pos, vel, np.tile(LOOK_A, (len(pos), 1)))
    seen = [(5.0, 0.0)] + ([(45.0, 0.0)] if pack else [])
    det = BallDetections.build(np.array(seen), np.full(len(seen), R), colour=np.full(len(seen), RED))
    tracker.update(det, np.tile(LOOK_A, (len(seen), 1)))
    struck = tracker.state
    assert struck.state[1] == TrackState.PREDICTED
    moved = float(np.hypot(*(struck.pos[1] - np.array(pos[1]))))
    assert (moved < 0.5) == stays
    assert (float(np.hypot(*struck.vel[1])) < 1e-9) == stays


@pytest.mark.parametrize("dx", [150.0, 300.0])
def test_lost_red_takes_an_unexplained_red_detection(dx: float) -> None:
    """A red lost at rest for a few frames takes a red detection that no ball on the table explains
    (reds are interchangeable: a red there is the lost red), beyond its gate."""
    tracker = _tracker([(0.0, 0.0), (500.0, 0.0)], [(0.0, 0.0), (0.0, 0.0)], np.stack([LOOK_A, LOOK_A]))
    other = BallDetections.build(np.array([(500.0, 0.0)]), np.full(1, R), colour=np.full(1, RED))
    for _ in range(tracker.config.reacquire_after + 1):
        tracker.update(other, LOOK_A[None])
    assert tracker.state.state[0] == TrackState.PREDICTED
    both = BallDetections.build(np.array([(500.0, 0.0), (dx, 40.0)]), np.full(2, R), colour=np.full(2, RED))
    tracker.update(both, np.stack([LOOK_A, LOOK_A]))
    assert tracker.state.state[0] == TrackState.SEEN
    np.testing.assert_allclose(tracker.state.pos[0], (dx, 40.0), atol=1e-6)
    np.testing.assert_allclose(tracker.state.pos[1], (500.0, 0.0), atol=1.0)


def test_lost_red_leaves_a_blob_of_unknown_colour_alone() -> None:
    """A blob whose colour the detector did not call red (a hand, a shadow) is no lost red."""
    tracker = _tracker([(0.0, 0.0)], [(0.0, 0.0)], LOOK_A[None])
    for _ in range(tracker.config.reacquire_after + 1):
        tracker.update(BallDetections.empty())
    blob = BallDetections.build(np.array([(300.0, 0.0)]), np.full(1, R))
    tracker.update(blob, LOOK_A[None])
    assert tracker.state.state[0] == TrackState.PREDICTED


@pytest.mark.parametrize(
    ("on", "i", "others"),
    [
        ((True, True, True), 0, (False, True, True)),
        ((True, False, True), 2, (True, False, False)),
        ((False, False, True), 2, (False, False, False)),
        ((False, True, True), 0, (False, True, True)),
    ],
)
def test_the_others_on_the_table_leave_out_the_ball_and_those_off_it(
    on: tuple[bool, ...], i: int, others: tuple[bool, ...]
) -> None:
    pos = np.array([[10.0, 10.0] if o else [np.nan, np.nan] for o in on])
    state = TrackerState.seed(("white", "red1", "red2"), pos, np.full(3, 5.0))
    assert tuple(state.others_on_table(i)) == others
    assert tuple(state.state != TrackState.ABSENT) == on  # (not changed by asking)
