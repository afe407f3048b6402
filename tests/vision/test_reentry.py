"""Where a colour taken off the table may come back onto it (Section 3 Rule 7)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from calibration.table import TABLE, Colour
from vision.detection.detections import COLOURS, BallDetections
from vision.tracking.reentry import REENTRY_RADII, reentry_allowed
from vision.tracking.tracker import Tracker, TrackerState
from vision.tracks import TrackState

R = TABLE.ball_radius
SPOT = {c: np.array(xy) for c, xy in TABLE.spots.items()}


@pytest.mark.parametrize(
    ("colour", "last", "at", "allowed"),
    [
        (Colour.BROWN, None, SPOT[Colour.BROWN], True),  # its own spot
        (Colour.BROWN, None, SPOT[Colour.BLACK] + [5.0, -5.0], True),  # another spot (own occupied)
        (Colour.BROWN, None, SPOT[Colour.BROWN] + [400.0, 10.0], True),  # on its line up the table
        (Colour.BROWN, None, SPOT[Colour.BROWN] + [-400.0, 0.0], False),  # its line towards baulk
        (Colour.BROWN, None, np.array([187.0, 513.0]), False),  # a knuckle by the baulk cushion
        (Colour.GREEN, None, np.array([127.0, 508.0]), False),
        (Colour.GREEN, np.array([130.0, 500.0]), np.array([127.0, 508.0]), True),  # replaced
        (Colour.PINK, None, np.array([3000.0, 889.0]), True),  # pink's line reaches the top
        (Colour.YELLOW, None, np.array([1500.0, 1181.0]), True),
        (Colour.YELLOW, None, np.array([1500.0, 1000.0]), False),
        (Colour.WHITE, None, np.array([187.0, 513.0]), True),  # the white: anywhere (the referee judges)
        (Colour.RED, None, np.array([187.0, 513.0]), True),  # reds are not restricted here
    ],
)
def test_reentry_places(colour: Colour, last: np.ndarray | None, at: np.ndarray, allowed: bool) -> None:
    last_xy = np.full((1, 2), np.nan) if last is None else last[None]
    out = reentry_allowed(np.array([COLOURS.index(colour)]), last_xy, at[None].astype(float))
    assert out.shape == (1, 1) and bool(out[0, 0]) is allowed


def test_unknown_colour_and_unknown_position_are_allowed() -> None:
    out = reentry_allowed(
        np.array([-1, COLOURS.index(Colour.BLUE)]),
        np.full((2, 2), np.nan),
        np.array([[np.nan, np.nan], [50.0, 50.0]]),
    )
    assert out.tolist() == [[True, True], [True, False]]


@given(
    colour=st.sampled_from([c for c in Colour if c not in (Colour.WHITE, Colour.RED)]),
    angle=st.floats(0.0, 2 * np.pi),
    frac=st.floats(0.0, 0.99),
)
def test_near_any_spot_is_always_allowed(colour: Colour, angle: float, frac: float) -> None:
    """Within the tolerance of any spot, every colour may come back (the spot may be its own,
    or the highest free one)."""
    tol = REENTRY_RADII * R
    for spot in SPOT.values():
        at = spot + frac * tol * np.array([np.cos(angle), np.sin(angle)])
        out = reentry_allowed(np.array([COLOURS.index(colour)]), np.full((1, 2), np.nan), at[None])
        assert out[0, 0]


def _brown_potted() -> Tracker:
    """A brown that rested by the baulk cushion, rolled into the baulk-left pocket's mouth and was
    taken off the table there (pixels standing for table millimetres one to one)."""
    from dataclasses import replace

    rest = np.array([[300.0, 400.0]])
    state = TrackerState.seed(["brown"], rest, np.array([R]), colour=np.array([COLOURS.index(Colour.BROWN)]))
    tracker = Tracker(state, fps=30.0, to_table=lambda px: np.asarray(px, np.float64))
    for _ in range(3):
        tracker.update(BallDetections.build(rest, [R], [COLOURS.index(Colour.BROWN)]))
    for k in range(1, 8):
        at = rest + np.array([[-40.0 * k, -50.0 * k]])
        tracker.update(BallDetections.build(at, [R], [COLOURS.index(Colour.BROWN)]))
    tracker.state = replace(tracker.state, state=np.array([TrackState.ABSENT], np.int8))
    return tracker


@pytest.mark.parametrize(
    ("where", "xy", "back"),
    [
        ("where it rested before its stroke (a miss's replacement)", (300.0, 400.0), True),
        ("a pocket ring by the mouth it was last seen at", (30.0, 45.0), False),
        ("its spot", tuple(SPOT[Colour.BROWN]), True),
    ],
)
def test_a_potted_colour_comes_back_where_it_was_still_not_where_it_was_last_seen(
    where: str, xy: tuple[float, float], back: bool
) -> None:
    tracker = _brown_potted()
    tracker.update(BallDetections.build(np.array([xy]), [R], [COLOURS.index(Colour.BROWN)]))
    assert bool(tracker.state.state[0] == TrackState.SEEN) is back, where


@pytest.mark.parametrize("rolling", [True, False])
def test_a_colour_is_not_put_back_where_a_rolling_ball_is(rolling: bool) -> None:
    """The pink struck off its spot, its blurred blob named the brown (off the table) while still
    within a spot's reach: that is the pink rolling, not the brown put back by hand. With the pink
    at rest on its spot, a brown found beside it was put there."""
    spot = SPOT[Colour.PINK]
    nan = np.full(2, np.nan)
    state = TrackerState.seed(
        ["brown", "pink"],
        np.array([nan, spot]),
        np.array([R, R]),
        colour=np.array([COLOURS.index(Colour.BROWN), COLOURS.index(Colour.PINK)]),
    )
    tracker = Tracker(state, fps=30.0, to_table=lambda px: np.asarray(px, np.float64))
    step = np.array([15.0, 0.0]) if rolling else np.zeros(2)
    for k in range(4):
        tracker.update(BallDetections.build(np.array([spot + k * step]), [R], [COLOURS.index(Colour.PINK)]))
    at = spot + 4 * step if rolling else spot + np.array([2.2 * R, 0.0])
    tracker.update(BallDetections.build(np.array([at]), [R], [COLOURS.index(Colour.BROWN)]))
    assert bool(tracker.state.state[0] == TrackState.SEEN) is not rolling
