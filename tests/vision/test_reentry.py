"""Where a colour taken off the table may come back onto it (Section 3 Rule 7)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from calibration.table import TABLE, Colour
from vision.detection.detections import COLOURS
from vision.tracking.reentry import REENTRY_RADII, reentry_allowed

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
