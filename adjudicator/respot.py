"""Where a colour goes back: Section 3 Rule 7.

Implemented, clause by clause:

- 7 (preamble): every colour potted, pocketed or forced off the table is spotted before the next
  stroke, until finally potted in the clearing order (the engine decides which colours).
- Section 2 Rule 18: a spot is *occupied* when a ball placed on it would touch another ball
  (centres closer than, or exactly at, one ball diameter).
- 7(e): own spot occupied -> the highest-value spot available.
- 7(f): several colours to spot: those whose own spot is free go there first; the others take
  spots in order of value, highest first, each seeing the balls already spotted.
- 7(g): no spot available -> as near the own spot as possible on the line from the spot to the
  nearest part of the top cushion (towards ``x = length``, keeping ``y``).
- 7(h): Pink and Black (and, should it ever happen, any colour) with no room there -> as near the
  own spot as possible on the centre line, i.e. below the spot.
- 7(i): never touching another ball: a placement off-spot keeps :data:`GAP` mm of daylight.
- 7(j), 7(c), 10(d): a colour placed elsewhere is reported by the engine (``notice``) and
  stays where it was put; 7(a), 7(b), 7(d) are referee errors the log cannot express.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from calibration.table import BALL_VALUES, COLOURS_ASCENDING, TABLE, Colour

Position = tuple[float, float]

#: Daylight (mm) left between a colour placed off its spot and the ball it would otherwise touch.
GAP: float = 0.1
_D = TABLE.ball_diameter


@dataclass(frozen=True)
class Respot:
    """Where one colour goes: ``spot`` is the spot's colour name, or ``None`` when off-spot."""

    ball: str
    spot: str | None
    position: Position


def occupied(point: Position, balls: Iterable[Position]) -> bool:
    """Section 2 Rule 18: a ball put at ``point`` would touch another ball."""
    x, y = point
    return any(math.hypot(x - bx, y - by) <= _D + 1e-9 for bx, by in balls)


def _along(start: Position, direction: float, balls: list[Position], limit: float) -> Position | None:
    """The nearest free point to ``start`` along ``x`` (direction +1 up, -1 down), same ``y``."""
    x0, y = start
    blocks: list[tuple[float, float]] = []
    for bx, by in balls:
        dy = abs(by - y)
        if dy < _D:
            half = math.sqrt(_D * _D - dy * dy)
            blocks.append((bx - half, bx + half))
    x = x0
    moved = True
    while moved:  # push past every interval the candidate lies in, until none contains it
        moved = False
        for lo, hi in blocks:
            if lo - 1e-9 <= x <= hi + 1e-9:
                x = (hi + GAP) if direction > 0 else (lo - GAP)
                moved = True
    if direction > 0 and x > limit:
        return None
    if direction < 0 and x < TABLE.ball_radius:
        return None
    return (x, y)


def respot(colours: Iterable[str], positions: Mapping[str, Position]) -> tuple[Respot, ...]:
    """Positions for the colours to spot, in the order the referee spots them (Rule 7(f)).

    Args:
        colours: colour names to spot (reds are never re-spotted and are ignored).
        positions: every ball now on the table (the colours to spot must not be among them).
    """
    todo = sorted(
        {c for c in colours if c != Colour.WHITE.value and not c.startswith("red")},
        key=lambda c: -BALL_VALUES[Colour(c)],
    )
    placed: dict[str, Position] = {k: v for k, v in positions.items() if k not in todo}
    out: list[Respot] = []
    spots = TABLE.spots
    waiting: list[str] = []
    for colour in todo:  # 7(f): own spots first
        own = spots[Colour(colour)]
        if not occupied(own, placed.values()):
            placed[colour] = own
            out.append(Respot(colour, colour, own))
        else:
            waiting.append(colour)
    for colour in waiting:  # highest value first (todo is sorted)
        for spot_colour in reversed(COLOURS_ASCENDING):  # 7(e): highest-value spot available
            xy = spots[spot_colour]
            if not occupied(xy, placed.values()):
                placed[colour] = xy
                out.append(Respot(colour, spot_colour.value, xy))
                break
        else:
            own = spots[Colour(colour)]
            limit = TABLE.length - TABLE.ball_radius
            others = list(placed.values())
            xy_up = _along(own, +1.0, others, limit)  # 7(g): towards the top cushion
            xy_down = _along(own, -1.0, others, limit)  # 7(h): on the line, below the spot
            xy = xy_up if xy_up is not None else xy_down if xy_down is not None else own
            placed[colour] = xy
            out.append(Respot(colour, None, (round(xy[0], 3), round(xy[1], 3))))
    return tuple(out)
