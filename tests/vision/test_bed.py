"""The bed gate: pocket holes and the rail are no ball positions; a ball into a pocket goes absent."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calibration.table import TABLE, Colour
from vision.detection.detections import COLOURS, BallDetections
from vision.tracking.bed import DEFAULT_TOL, in_fall, near_mouth, off_bed, on_bed_filter
from vision.tracking.tracker import Tracker, TrackerState
from vision.tracks import TrackState

R = TABLE.ball_radius
L, W = TABLE.length, TABLE.width
BLUE = COLOURS.index(Colour.BLUE)


@pytest.mark.parametrize(
    ("xy", "expected"),
    [
        (TABLE.spots[Colour.BLUE], False),
        ((R, W / 2), False),  # frozen to the baulk cushion
        ((L / 2, R - 5.0), False),  # in the middle pocket's mouth, short of the nose line
        ((L / 2, 0.0), False),  # on the mouth line
        (TABLE.pockets["middle_left"].centre, True),  # the hole itself
        (TABLE.pockets["top_right"].centre, True),
        ((1754.0, -27.0), True),  # a hole's rim found as a ball
        ((L / 2 + 500, -DEFAULT_TOL - 2), True),  # on the rail beyond a cushion
        ((L + 40.0, W / 2), True),
        ((20.0, 20.0), True),  # past a corner pocket's mouth line
        ((45.0, 45.0), False),  # in a corner pocket's jaws
        ((float("nan"), 3.0), False),  # unknown: never refused
    ],
)
def test_off_bed_cases(xy: tuple[float, float], expected: bool) -> None:
    assert bool(off_bed(np.array([xy]))[0]) is expected


def test_the_detector_filter_keeps_the_centres_that_map_onto_the_bed() -> None:
    """Pixels at 2 mm a pixel, 100 px off the table's corner: the same answers as off_bed."""
    keep = on_bed_filter(lambda px: (px - 100.0) * 2.0)
    table = np.array([TABLE.spots[Colour.BLUE], TABLE.pockets["top_right"].centre, (L + 40.0, W / 2)])
    pixels = table / 2.0 + 100.0
    assert keep(pixels).tolist() == [True, False, False]
    assert keep(pixels).tolist() == (~off_bed(table)).tolist()


@settings(max_examples=60, deadline=None)
@given(st.floats(R, L - R), st.floats(R, W - R))
def test_every_ball_on_the_cloth_is_on_the_bed(x: float, y: float) -> None:
    """A centre a radius inside every cushion nose (a ball that fits on the cloth) is never refused."""
    assert not off_bed(np.array([[x, y]]))[0]


@settings(max_examples=60, deadline=None)
@given(st.floats(-300.0, -DEFAULT_TOL - 0.01), st.floats(-300.0, W + 300.0), st.booleans())
def test_beyond_a_nose_line_is_off_the_bed(d: float, y: float, top: bool) -> None:
    x = L - d if top else d
    assert off_bed(np.array([[x, y]]))[0]


def test_near_mouth() -> None:
    pts = np.array([TABLE.pockets["baulk_left"].mouth_midpoint, TABLE.spots[Colour.BLACK]])
    assert near_mouth(pts, 2 * R).tolist() == [True, False]


def test_ball_into_a_pocket_goes_absent_and_the_hole_is_never_it() -> None:
    """The blue rolls into the middle pocket; the detector then keeps finding the hole as blue."""
    mid = TABLE.pockets["middle_left"]
    start = np.array([mid.corner[0], 300.0])
    v = np.array([0.0, -40.0])
    state = TrackerState.seed(["blue"], start[None], [R], colour=[BLUE])
    # Pixels are millimetres here: the calibration is the identity.
    tracker = Tracker(state, to_table=lambda px: px, pockets=np.array([mid.centre]))
    hole = np.array([[mid.centre[0] - 25.0, -27.0]])
    frames = 20
    for f in range(1, frames):
        p = start + f * v
        xy = p[None] if p[1] > 0 else hole
        tracker.update(BallDetections.build(xy, [R], colour=[BLUE]))
    tracks = tracker.tracks()
    last_seen = int(np.flatnonzero(start[1] + np.arange(1, frames) * v[1] > 0)[-1])
    assert np.all(tracks.state[last_seen + 2 :, 0] == TrackState.ABSENT)
    assert np.all(tracks.state[: last_seen + 1, 0] == TrackState.SEEN)


def test_a_ball_never_seen_takes_its_first_measurement() -> None:
    """The white starts absent (in hand) and is placed in the D: it must get that position."""
    state = TrackerState.seed(["blue"], np.array([[np.nan, np.nan]]), [R], colour=[BLUE])
    tracker = Tracker(state)
    for _ in range(3):
        tracker.update(BallDetections.build(np.array([[500.0, 300.0]]), [R], colour=[BLUE]))
    tracks = tracker.tracks()
    assert tracks.state[-1, 0] == TrackState.SEEN
    assert np.allclose(tracks.pixel[-1, 0], [500.0, 300.0])


@pytest.mark.parametrize(
    ("xy", "expected"),
    [
        ((1815.0, 1.0), True),  # the middle pocket hole's rim, inside the bed's tolerance
        (TABLE.pockets["top_left"].centre, True),
        ((L / 2, 3 * R), False),  # a ball a radius off the mouth line
        (TABLE.spots[Colour.BLACK], False),
        ((float("nan"), 0.0), False),
    ],
)
def test_in_fall(xy: tuple[float, float], expected: bool) -> None:
    assert bool(in_fall(np.array([xy]))[0]) is expected


def test_a_resting_ball_never_takes_a_pocket_hole() -> None:
    """A red hidden for a few frames (its gate grown) is not re-found in a pocket's hole."""
    mid = TABLE.pockets["middle_left"]
    red = COLOURS.index(Colour.RED)
    state = TrackerState.seed(["red1"], np.array([[mid.corner[0] + 150.0, 200.0]]), [R], colour=[red])
    tracker = Tracker(state, to_table=lambda px: px, pockets=np.array([mid.centre]))
    for _ in range(3):
        tracker.update(BallDetections.empty())
    rim = np.array([[mid.corner[0] + 30.0, 1.0]])
    for _ in range(3):
        tracker.update(BallDetections.build(rim, [R], colour=[red]))
    assert tracker.tracks().state[-1, 0] != TrackState.SEEN


@pytest.mark.parametrize(
    ("seen_again", "on_table"),
    [
        (True, True),  # unseen for its bounce off the cushion, found again on its way out
        (False, False),  # never seen again: it left the table over the cushion
    ],
)
def test_a_ball_unseen_at_a_cushion_is_turned_back(seen_again: bool, on_table: bool) -> None:
    """A blue rolling into the top cushion, away from the pockets, is lost for the frames of its
    bounce: its prediction is turned back off the nose line, not taken off the table; only a
    ball that stays unseen is taken off (the event stage then reads it as forced off)."""
    start = np.array([1000.0, 200.0])
    v = np.array([10.0, -30.0])
    state = TrackerState.seed(["blue"], start[None], [R], colour=[BLUE])
    # Pixels are millimetres here: the calibration is the identity.
    tracker = Tracker(
        state, to_table=lambda px: px, pockets=np.array([p.centre for p in TABLE.pockets.values()])
    )
    for f in range(1, 6):  # seen up to y = 50 mm
        tracker.update(BallDetections.build((start + f * v)[None], [R], colour=[BLUE]))
    for _ in range(4):  # unseen: into the cushion and back out
        st = tracker.update(BallDetections.empty())
        assert st.state[0] == TrackState.PREDICTED
    # The bounce reversed the ball's motion across the nose line, not along it.
    assert st.vel[0, 1] > 0 and st.vel[0, 0] > 0
    back = st.pos[0] + st.vel[0]
    for _ in range(10):
        st = tracker.update(BallDetections.build(back[None], [R], colour=[BLUE]) if seen_again else None)
        back = back + np.array([10.0, 30.0])
    assert bool(st.state[0] != TrackState.ABSENT) is on_table


@pytest.mark.parametrize(
    ("last_seen_y", "absent"),
    [
        (380.0, True),  # lost 380 mm out: its slowing prediction stops over the hole
        (420.0, False),  # lost 420 mm out: it stops 5 mm short of the hole, on the bed
    ],
)
def test_a_prediction_that_stops_over_the_hole_is_in_the_pocket(last_seen_y: float, absent: bool) -> None:
    """A blue rolling into the middle pocket, lost for good well short of it (faint against the
    cloth): the unseen decay stops its prediction short, over the pocket's fall circle but not
    past the mouth line's tolerance. A ball centre over the hole drops, so it is off the bed."""
    mid = TABLE.pockets["middle_left"]
    v = np.array([0.0, -40.0])
    start = np.array([mid.corner[0], last_seen_y + 3 * 40.0])
    state = TrackerState.seed(["blue"], start[None], [R], colour=[BLUE])
    # Pixels are millimetres here: the calibration is the identity.
    tracker = Tracker(state, to_table=lambda px: px, pockets=np.array([mid.centre]))
    for f in range(1, 4):
        tracker.update(BallDetections.build((start + f * v)[None], [R], colour=[BLUE]))
    for _ in range(40):
        st = tracker.update(BallDetections.empty())
    assert bool(st.state[0] == TrackState.ABSENT) is absent
