"""Random but plausible event logs, for property tests and the benchmark.

The generator plays frames with a crude player: it pots the ball on, plays safe or commits a
simple foul (in-off, a ball not on first, a colour not on pocketed) at random. It keeps its
own idea of the ball on, which mirrors Section 3 Rule 3 closely enough that most strokes are
what they pretend to be; the referee, not the generator, is the authority. The white is kept in
two lanes away from the spots so that re-spotted colours always find their own spot free.
"""

from __future__ import annotations

import math
import random
from typing import Any

from calibration.table import COLOURS_ASCENDING, TABLE

Event = dict[str, Any]
_COLOURS = [c.value for c in COLOURS_ASCENDING]
_SPOTS = {c.value: xy for c, xy in TABLE.spots.items()}


def _white_spot(rng: random.Random) -> tuple[float, float]:
    y = rng.uniform(60.0, 420.0) if rng.random() < 0.5 else rng.uniform(1360.0, 1718.0)
    return (round(rng.uniform(900.0, 2500.0), 1), round(y, 1))


def _in_d(rng: random.Random) -> tuple[float, float]:
    a = rng.uniform(-math.pi / 2, math.pi / 2)
    r = TABLE.d_radius * math.sqrt(rng.random()) * 0.95
    cx, cy = TABLE.d_centre
    return (round(cx - r * math.cos(a), 1), round(cy + r * math.sin(a), 1))


def generate_frame(
    rng: random.Random, reds: int = 15, foul_rate: float = 0.15, safe_rate: float = 0.3, t0: float = 0.0
) -> tuple[list[Event], int]:
    """One frame's events (and the number of strokes in it), starting at time ``t0``."""
    t = t0
    events: list[Event] = []

    def add(obj: Event) -> None:
        nonlocal t
        t = round(t + 0.5, 3)
        events.append({**obj, "t": t})

    start: Event = {"type": "frame_start", "players": ["A", "B"], "striker": rng.randrange(2)}
    if reds != 15:
        start["reds"] = reds
    add(start)
    pos: dict[str, tuple[float, float]] = dict(TABLE.standard_positions(reds))
    on = "red"
    in_hand = True
    strokes = 0
    while True:
        red_names = [b for b in pos if b.startswith("red")]
        colours = [c for c in _COLOURS if c in pos]
        if not red_names and not colours:
            break
        if in_hand:
            pos["white"] = _in_d(rng)
            add({"type": "place", "ball": "white", "position": list(pos["white"])})
            in_hand = False
        if on == "red" and not red_names:
            on = colours[0]
        if on == "colour":
            target = rng.choice(colours)
            add({"type": "nominate", "ball": target})
        elif on == "red":
            target = rng.choice(red_names)
        else:
            target = on
        add({"type": "strike"})
        strokes += 1
        roll = rng.random()
        potted: list[str] = []
        foul = roll < foul_rate
        if foul:
            kind = rng.randrange(3)
            not_on = [c for c in colours if c != target] or [target]
            if kind == 0:
                add({"type": "collision", "balls": ["white", target]})
                potted.append("white")
            elif kind == 1:
                add({"type": "collision", "balls": ["white", rng.choice(not_on)]})
            else:
                add({"type": "collision", "balls": ["white", target]})
                potted.append(rng.choice(not_on))
        else:
            add({"type": "collision", "balls": ["white", target]})
            if roll >= foul_rate + safe_rate:
                potted.append(target)
                if on == "red" and len(red_names) > 1 and rng.random() < 0.1:
                    potted.append(rng.choice([r for r in red_names if r != target]))
        for ball in potted:
            add({"type": "pot", "ball": ball, "pocket": rng.choice(sorted(TABLE.pockets))})
            pos.pop(ball, None)
        if "white" in potted:
            in_hand = True
        else:
            pos["white"] = _white_spot(rng)
        add({"type": "rest", "positions": {k: [v[0], v[1]] for k, v in pos.items()}})
        respot = [b for b in potted if b in _COLOURS and (foul or on in ("red", "colour"))]
        for ball in respot:
            pos[ball] = _SPOTS[ball]
            add({"type": "place", "ball": ball, "position": list(_SPOTS[ball])})
        if foul and set(pos) - {"white"} <= {"black"}:
            break
        left = [c for c in _COLOURS if c in pos]
        has_reds = any(b.startswith("red") for b in pos)
        if not foul and potted and on == "red":
            on = "colour"
        elif has_reds:
            on = "red"
        elif left:
            on = left[0]
        else:
            break
        if strokes > 400:
            break
    return events, strokes


def generate_log(
    rng: random.Random, strokes: int, reds: int = 15, foul_rate: float = 0.15
) -> tuple[list[Event], int]:
    """Whole frames, one after another, until at least ``strokes`` strokes have been played."""
    events: list[Event] = []
    total = 0
    t = 0.0
    while total < strokes:
        frame, n = generate_frame(rng, reds=reds, foul_rate=foul_rate, t0=t)
        events += frame
        total += n
        t = frame[-1]["t"] if frame else t
    return events, total
