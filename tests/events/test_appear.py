"""Where a hand may put a colour down (Section 3 Rule 7), and the inferer's use of it."""

from __future__ import annotations

import math

import numpy as np
import pytest

from adjudicator.eventlog import FrameStart, Place
from calibration.table import TABLE, Colour
from tests.events.scenes import keyframes
from tests.events.test_infer import kinds, run
from vision.events.appear import may_be_put

TOL = 26.0
S = TABLE.spots
MID = TABLE.width / 2.0


@pytest.mark.parametrize(
    ("colour", "xy", "earlier", "expected", "why"),
    [
        (Colour.GREEN, S[Colour.GREEN], (), True, "own spot, 7(e)"),
        (Colour.GREEN, S[Colour.BLACK], (), True, "a higher spot, 7(e)"),
        (
            Colour.GREEN,
            (S[Colour.GREEN][0] + 10.0, S[Colour.GREEN][1] + 20.0),
            (),
            True,
            "on the spot, measured",
        ),
        (Colour.GREEN, (2000.0, S[Colour.GREEN][1]), (), True, "up its longitudinal line, 7(g)"),
        (Colour.GREEN, (400.0, S[Colour.GREEN][1]), (), False, "down the line, towards baulk"),
        (Colour.GREEN, (1520.0, 653.0), (), False, "mid-table, off every line"),
        (Colour.GREEN, (1520.0, 653.0), ((1530.0, 660.0),), True, "where it rested: replaced"),
        (Colour.BLUE, (3000.0, MID + 10.0), (), True, "up the centre line, 7(g)"),
        (Colour.BLUE, (1000.0, MID), (), False, "below its spot on the centre line"),
        (Colour.PINK, (1000.0, MID), (), True, "pink on the centre line, 7(h)"),
        (Colour.BLACK, (500.0, MID - 5.0), (), True, "black on the centre line, 7(h)"),
        (Colour.BLACK, (500.0, MID - 100.0), (), False, "black off the centre line"),
        (Colour.WHITE, (1520.0, 653.0), (), True, "the white: not judged"),
        (Colour.RED, (1520.0, 653.0), (), True, "a red: not judged"),
        (Colour.YELLOW, (np.nan, np.nan), (), False, "no position"),
    ],
)
def test_where_a_hand_puts_a_colour(
    colour: Colour,
    xy: tuple[float, float],
    earlier: tuple[tuple[float, float], ...],
    expected: bool,
    why: str,
) -> None:
    got = may_be_put(TABLE, colour, np.array(xy), TOL, [np.array(e) for e in earlier])
    assert got is expected, why


@pytest.mark.parametrize(
    ("at", "placed"),
    [(S[Colour.GREEN], True), ((1520.0, 653.0), False), ((2600.0, 380.0), False)],
)
def test_a_colour_found_where_no_hand_puts_it_is_not_placed(at: tuple[float, float], placed: bool) -> None:
    """A colour absent as the video began, found at rest later: on its spot it was spotted
    (a place); in mid-table, off every spotting line, it is no ball (a rendered clearance's
    mottled cloth, named green, turned every call after it)."""
    paths: dict[str, list[tuple[float, tuple[float, float] | None]]] = {
        "white": [(0.0, (1000.0, 900.0))],
        "green": [(0.0, None), (1.0, at)],
        "red1": [(0.0, (2500.0, 600.0))],
    }
    events = run(keyframes(paths, [], end=3.0), seed=10, dropout=0.02)
    start = events[0]
    assert isinstance(start, FrameStart) and start.positions is not None
    assert "green" not in start.positions
    places = kinds(events, Place)
    assert [p.ball for p in places] == (["green"] if placed else [])
    if placed:
        assert math.dist(places[0].position, at) < 3.0
