"""The referee-assistance overlay drawn over each video frame.

Two layers: the balls as tracked (identity labels, recent trails) and the referee's reasons,
given as drawing primitives in table millimetres so they are made once from the logs and
projected through whatever calibration the frame has. :func:`reasons_for_call` turns a call
and the position it was made on into those primitives: the first contact of a foul, the
lines to both extreme edges of each ball on for a FREE BALL (blocked ones in red), the
touching pair, the re-spot position, and the D when the white is in hand.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from adjudicator.snookered import edges_obstructed
from calibration.table import TABLE, Colour, colour_of

FloatArray = npt.NDArray[np.float64]
Projector = Callable[[FloatArray], FloatArray]
BGR = tuple[int, int, int]

LABEL_BGR: dict[Colour, BGR] = {
    Colour.WHITE: (240, 240, 240),
    Colour.RED: (40, 40, 220),
    Colour.YELLOW: (40, 220, 240),
    Colour.GREEN: (60, 170, 40),
    Colour.BROWN: (40, 80, 140),
    Colour.BLUE: (220, 90, 30),
    Colour.PINK: (190, 140, 250),
    Colour.BLACK: (30, 30, 30),
}
OK_BGR: BGR = (80, 220, 80)
BAD_BGR: BGR = (40, 40, 235)
NOTE_BGR: BGR = (0, 215, 255)


@dataclass(frozen=True)
class Segment:
    """A line on the table (mm) to draw, e.g. a sight line to the edge of a ball."""

    a: tuple[float, float]
    b: tuple[float, float]
    colour: BGR
    thickness: int = 2


@dataclass(frozen=True)
class Ring:
    """A circle on the table (mm): a contact point, a re-spot position, a touching ball."""

    centre: tuple[float, float]
    radius: float
    colour: BGR
    thickness: int = 2
    label: str = ""


@dataclass(frozen=True)
class Polyline:
    """A path on the table (mm), e.g. the D."""

    points: tuple[tuple[float, float], ...]
    colour: BGR
    thickness: int = 2


Primitive = Segment | Ring | Polyline


def free_ball_lines(positions: Mapping[str, Sequence[float]], balls_on: Sequence[str]) -> list[Primitive]:
    """Sight lines from the white to both extreme edges of every ball on (Section 2 Rule 17).

    The white's centre must pass at 2R from the object ball's centre to graze its edge, so the
    two extreme paths end beside the ball, perpendicular to the line of centres. A line drawn
    red is obstructed by a ball not on.
    """
    if "white" not in positions:
        return []
    w = np.asarray(positions["white"], dtype=float)
    on = [b for b in balls_on if b in positions]
    centres = [(float(positions[b][0]), float(positions[b][1])) for b in on]
    others = [(float(p[0]), float(p[1])) for b, p in positions.items() if b != "white" and b not in balls_on]
    blocked = edges_obstructed((float(w[0]), float(w[1])), centres, others)
    out: list[Primitive] = []
    for c, sides in zip(np.asarray(centres, dtype=float).reshape(-1, 2), blocked, strict=True):
        d = c - w
        dist = float(np.hypot(*d))
        if dist < 1e-6:
            continue
        n = np.array([-d[1], d[0]]) / dist
        for sign, is_blocked in zip((-1.0, 1.0), sides, strict=True):
            # the white's centre passes 2R from the object ball's centre to graze its edge
            edge = c + sign * n * 2 * TABLE.ball_radius
            colour = BAD_BGR if is_blocked else OK_BGR
            out.append(Segment((float(w[0]), float(w[1])), (float(edge[0]), float(edge[1])), colour, 1))
        out.append(Ring((float(c[0]), float(c[1])), TABLE.ball_radius * 1.4, NOTE_BGR, 1))
    return out


def d_outline() -> Polyline:
    """The D, highlighted when the white is in hand."""
    pts = [(float(x), float(y)) for x, y in TABLE.d_arc(48)]
    return Polyline(tuple(pts), NOTE_BGR, 2)


def reasons_for_call(
    call: Mapping[str, Any],
    positions: Mapping[str, Sequence[float]],
    first_contact: tuple[float, float] | None = None,
    balls_on: Sequence[str] = (),
) -> list[Primitive]:
    """The primitives that make a call's reason visible on the frame."""
    kind = call.get("call")
    out: list[Primitive] = []
    if kind in ("FOUL", "FOUL AND A MISS") and first_contact is not None:
        out.append(Ring(first_contact, TABLE.ball_radius * 1.6, BAD_BGR, 2, "first contact"))
    if kind == "FREE BALL":
        out.extend(free_ball_lines(positions, balls_on))
    if kind == "TOUCHING BALL":
        for ball in call.get("balls", ()) or ():
            if ball in positions:
                x, y = positions[ball]
                out.append(Ring((float(x), float(y)), TABLE.ball_radius * 1.5, NOTE_BGR, 2, "touching"))
    return out


def respot_marker(ball: str, position: Sequence[float]) -> Ring:
    """Where a colour must be re-spotted."""
    return Ring(
        (float(position[0]), float(position[1])),
        TABLE.ball_radius,
        LABEL_BGR[colour_of(ball)],
        2,
        f"re-spot {ball}",
    )


def draw_primitives(frame: npt.NDArray[np.uint8], prims: Sequence[Primitive], project: Projector) -> None:
    """Draw table-space primitives on ``frame`` in place through ``project`` (mm -> px)."""
    for p in prims:
        if isinstance(p, Segment):
            a, b = project(np.array([p.a, p.b], dtype=float))
            cv2.line(frame, _pt(a), _pt(b), p.colour, p.thickness, cv2.LINE_AA)
        elif isinstance(p, Polyline):
            pts = project(np.array(p.points, dtype=float)).round().astype(np.int32)
            cv2.polylines(frame, [pts], False, p.colour, p.thickness, cv2.LINE_AA)
        else:
            ring = np.array(
                [
                    [p.centre[0] + p.radius * math.cos(a), p.centre[1] + p.radius * math.sin(a)]
                    for a in np.linspace(0, 2 * math.pi, 24)
                ]
            )
            pts = project(ring).round().astype(np.int32)
            cv2.polylines(frame, [pts], True, p.colour, p.thickness, cv2.LINE_AA)
            if p.label:
                top = pts[np.argmin(pts[:, 1])]
                _text(frame, p.label, (int(top[0]) - 20, int(top[1]) - 6), p.colour, 0.45)


def draw_balls(
    frame: npt.NDArray[np.uint8],
    pixels: Mapping[str, Sequence[float]],
    trails: Mapping[str, Sequence[Sequence[float]]] | None = None,
    radius_px: float = 9.0,
) -> None:
    """Mark each tracked ball with its identity and its recent trail, in place."""
    for ball, trail in (trails or {}).items():
        if len(trail) > 1:
            pts = np.asarray(trail, dtype=float).round().astype(np.int32)
            cv2.polylines(frame, [pts], False, LABEL_BGR[colour_of(ball)], 1, cv2.LINE_AA)
    for ball, (u, v) in pixels.items():
        colour = LABEL_BGR[colour_of(ball)]
        centre = (round(u), round(v))
        cv2.circle(frame, centre, round(radius_px + 3), (0, 0, 0), 2, cv2.LINE_AA)
        cv2.circle(frame, centre, round(radius_px + 3), colour, 1, cv2.LINE_AA)
        _text(frame, ball, (centre[0] + round(radius_px) + 2, centre[1] - 4), (255, 255, 255), 0.38)


def draw_score_bar(
    frame: npt.NDArray[np.uint8],
    players: Sequence[str],
    score: Mapping[str, Any] | None,
    calls: Sequence[str],
) -> None:
    """The score bar at the bottom (scores, striker, break, ball on) and the latest calls."""
    h, w = frame.shape[:2]
    bar = 28
    cv2.rectangle(frame, (0, h - bar), (w, h), (25, 25, 25), -1)
    scores = list(score.get("scores", [0, 0])) if score else [0, 0]
    striker = int(score.get("striker", 0)) if score else 0
    text = f"{players[0]} {scores[0]}  -  {scores[1]} {players[1]}"
    if score:
        text += f"   break {score.get('break', 0)}   on: {score.get('ball_on', '')}"
        text += f"   reds {score.get('reds', '')}"
    _text(frame, text, (10, h - 9), (255, 255, 255), 0.55)
    marker_x = 2 if striker == 0 else w - 8
    cv2.rectangle(frame, (marker_x, h - bar + 4), (marker_x + 5, h - 4), NOTE_BGR, -1)
    for i, call in enumerate(reversed(list(calls)[-3:])):
        _text(frame, call, (10, 28 + 26 * i), NOTE_BGR if i == 0 else (200, 200, 200), 0.7)


def _pt(p: FloatArray) -> tuple[int, int]:
    return (round(float(p[0])), round(float(p[1])))


def _text(frame: npt.NDArray[np.uint8], text: str, org: tuple[int, int], colour: BGR, scale: float) -> None:
    cv2.putText(frame, text, org, cv2.FONT_HERSHEY_SIMPLEX, scale, (0, 0, 0), 3, cv2.LINE_AA)
    cv2.putText(frame, text, org, cv2.FONT_HERSHEY_SIMPLEX, scale, colour, 1, cv2.LINE_AA)
