"""Putting balls back by hand in the simulator: colours re-spotted and the white from hand.

The adjudicator decides where a colour *must* go for its calls; the simulator only needs a
plausible referee's hand, so this is a small self-contained version of Section 3 Rule 7
(own spot, else the highest-value free spot, else the nearest free point on the centre line
towards the top cushion) and of placing the white in the D (Section 3 Rule 9).
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np

from calibration.table import BALL_VALUES, COLOURS_ASCENDING, TABLE, Colour, colour_of

Position = tuple[float, float]

#: A spot is free when no ball centre lies within one diameter plus this (mm) of it:
#: Rule 7(i), a spotted colour must not touch another ball.
SPOT_CLEARANCE_MM = 0.5


def is_free(xy: Position, balls: Mapping[str, Position], clearance: float = SPOT_CLEARANCE_MM) -> bool:
    """Whether a ball placed at ``xy`` would touch none of ``balls``."""
    limit = TABLE.ball_diameter + clearance
    return all(math.hypot(xy[0] - bx, xy[1] - by) >= limit for bx, by in balls.values())


def respot(colour: str, balls: Mapping[str, Position]) -> Position:
    """Where a potted colour goes back (Section 3 Rule 7(e)-(h)).

    Args:
        colour: the colour's ball name (``"pink"``).
        balls: the balls already on the table (other re-spotted colours included).
    """
    own = colour_of(colour)
    if own is Colour.RED or own is Colour.WHITE:
        raise ValueError(f"only a colour is re-spotted, not {colour!r}")
    spot = TABLE.spots[own]
    if is_free(spot, balls):
        return spot
    for c in sorted(COLOURS_ASCENDING, key=lambda c: -BALL_VALUES[c]):  # Rule 7(e)
        if is_free(TABLE.spots[c], balls):
            return TABLE.spots[c]
    step = 0.5
    top = TABLE.length - TABLE.ball_radius
    for x in np.arange(spot[0], top, step):  # Rule 7(g): towards the top cushion
        if is_free((float(x), spot[1]), balls):
            return (float(x), spot[1])
    for x in np.arange(spot[0], TABLE.ball_radius, -step):  # Rule 7(h): the other way
        if is_free((float(x), spot[1]), balls):
            return (float(x), spot[1])
    raise ValueError(f"no free place for {colour} on the centre line")


def place_in_d(balls: Mapping[str, Position], rng: np.random.Generator) -> Position:
    """A free position for the white in the D (Section 3 Rule 9), chosen like a player would:
    behind the baulk-line, mostly on the yellow or green side."""
    cx, cy = TABLE.d_centre
    for _ in range(200):
        r = TABLE.d_radius * math.sqrt(rng.uniform(0.05, 0.9))
        a = rng.uniform(math.pi / 2, 3 * math.pi / 2)
        xy = (cx + r * math.cos(a), cy + r * math.sin(a))
        if TABLE.in_d(*xy) and is_free(xy, balls, clearance=5.0):
            return xy
    raise ValueError("no free position in the D")
