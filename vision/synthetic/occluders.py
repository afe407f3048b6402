"""People over the table: a player down on a stroke, a hand placing a ball.

They matter because the real footage is full of them (a player's arm and cue across the
balls for seconds before every stroke, a referee's hand over a spot), and a detector or
tracker that has never seen a ball hidden by a sleeve will call it potted. Bodies are built
as 3-D capsules in table millimetres (real sizes: forearm 80 mm thick, torso 380 mm wide,
cue 10-29 mm) and projected through the true camera, so their apparent size and
foreshortening follow the pose like everything else. The shapes are simple on purpose:
what the pipeline needs is plausible size, colour (black waistcoat, white shirt, skin,
cue wood) and motion over the balls, not a person model.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from calibration.camera import Camera
from calibration.table import TABLE
from vision.synthetic.timeline import Action

FloatArray = npt.NDArray[np.float64]
U8 = npt.NDArray[np.uint8]
Point3 = tuple[float, float, float]

WAISTCOAT = (28.0, 24.0, 24.0)
SHIRT = (215.0, 215.0, 220.0)
SKIN = (120.0, 150.0, 205.0)
HAIR = (40.0, 58.0, 82.0)
CUE_TIP = (150.0, 200.0, 225.0)
CUE_BUTT = (20.0, 45.0, 80.0)


@dataclass(frozen=True)
class Capsule:
    """A limb, torso or cue: a segment in table mm (z up) swept by a radius per end."""

    a: Point3
    b: Point3
    ra: float
    rb: float
    colour: tuple[float, float, float]


def _smooth(x: float) -> float:
    x = min(max(x, 0.0), 1.0)
    return x * x * (3.0 - 2.0 * x)


def _at(origin: tuple[float, float], u: tuple[float, float], along: float, side: float, z: float) -> Point3:
    """A point ``along`` the unit aim ``u`` from ``origin`` and ``side`` to its left."""
    return (origin[0] + u[0] * along - u[1] * side, origin[1] + u[1] * along + u[0] * side, z)


def _exit_distance(origin: tuple[float, float], direction: tuple[float, float]) -> float:
    """How far from ``origin`` along ``direction`` the rail's outer edge is (mm)."""
    out = TABLE.cushion_width + TABLE.rail_width
    best = math.inf
    for o, d, lo, hi in (
        (origin[0], direction[0], -out, TABLE.length + out),
        (origin[1], direction[1], -out, TABLE.width + out),
    ):
        if d > 1e-9:
            best = min(best, (hi - o) / d)
        elif d < -1e-9:
            best = min(best, (lo - o) / d)
    return best


def stroke_capsules(action: Action, t: float, strike: float | None = None) -> list[Capsule]:
    """A player down on a stroke at time ``t``: cue along the aim behind the white, bridge
    hand on the cloth 300 mm behind it, head over the cue, torso and back arm behind.
    Before ``strike`` the cue feathers; after it the player follows through, then rises
    and steps back, clear of the table at ``action.t_end``."""
    strike = (action.t_start + action.t_end) / 2 if strike is None else strike
    u = (math.cos(action.direction), math.sin(action.direction))
    white = action.position
    back = (-u[0], -u[1])
    get_down = _smooth((t - action.t_start) / 0.6)
    rise = _smooth((t - strike - 0.15) / max(action.t_end - strike - 0.15, 1e-3))
    if t < strike:
        feather = 25.0 + 20.0 * math.sin(2 * math.pi * 1.2 * (t - action.t_start))
    else:
        feather = -60.0 * _smooth((t - strike) / 0.1)
    retreat = 900.0 * rise + 700.0 * (1.0 - get_down)
    lift = 250.0 * rise + 350.0 * (1.0 - get_down)
    tip_gap = feather + retreat
    # A player keeps a foot on the floor: the shoulders reach at most 350 mm in over the
    # table from the rail's outer edge, and the bridge hand at most 700 mm from them.
    exit_dist = _exit_distance(white, back)
    shoulders = max(860.0, exit_dist - 350.0) + retreat
    bridge = max(300.0 + retreat, shoulders - 700.0)

    # Points along -u ("back" from the white) with height z.
    def p(dist: float, side: float, z: float) -> Point3:
        return _at(white, back, dist, -side, z)

    cue_tip = p(TABLE.ball_radius + tip_gap, 0.0, TABLE.ball_radius + 4.0 + lift * 0.3)
    cue_butt = p(TABLE.ball_radius + tip_gap + 1470.0, 0.0, 150.0 + lift * 0.5)
    hand_bridge = p(bridge, 30.0, 35.0 + lift * 0.5)
    chin = p(shoulders - 250.0, 0.0, 230.0 + lift)
    shoulder_l = p(shoulders, 170.0, 300.0 + lift)
    shoulder_r = p(shoulders, -170.0, 330.0 + lift)
    hips = p(shoulders + 540.0, -60.0, 400.0 + lift * 0.6)
    grip = p(TABLE.ball_radius + tip_gap + 1200.0, 0.0, 120.0 + lift * 0.5)
    elbow_r = p(shoulders + 340.0, -200.0, 500.0 + lift)
    return [
        Capsule(
            hips,
            ((shoulder_l[0] + shoulder_r[0]) / 2, (shoulder_l[1] + shoulder_r[1]) / 2, 320.0 + lift),
            170.0,
            160.0,
            WAISTCOAT,
        ),
        Capsule(shoulder_l, hand_bridge, 48.0, 36.0, SHIRT),
        Capsule(hand_bridge, p(bridge - 40.0, 20.0, 25.0 + lift * 0.5), 40.0, 30.0, SKIN),
        Capsule(cue_butt, cue_tip, 15.0, 5.0, CUE_TIP),
        Capsule(
            cue_butt, p(TABLE.ball_radius + tip_gap + 1000.0, 0.0, 125.0 + lift * 0.5), 15.5, 13.0, CUE_BUTT
        ),
        Capsule(shoulder_r, elbow_r, 48.0, 42.0, SHIRT),
        Capsule(elbow_r, grip, 45.0, 40.0, SHIRT),
        Capsule(grip, grip, 45.0, 45.0, SKIN),
        # Head over the cue line, chin near the cue: hair from above, the face towards the cue.
        Capsule(
            p(shoulders - 120.0, 0.0, 300.0 + lift),
            p(shoulders - 70.0, 0.0, 330.0 + lift),
            70.0,
            70.0,
            WAISTCOAT,
        ),
        Capsule(chin, p(shoulders - 170.0, 0.0, 290.0 + lift), 85.0, 100.0, SKIN),
        Capsule(
            p(shoulders - 190.0, 0.0, 320.0 + lift), p(shoulders - 120.0, 0.0, 340.0 + lift), 90.0, 95.0, HAIR
        ),
    ]


def place_capsules(action: Action, t: float, moment: float | None = None) -> list[Capsule]:
    """A hand reaching from the nearest side of the table to ``action.position``, over the
    ball at ``moment`` (the place event's time; the action's middle if not given), then
    withdrawing."""
    x, y = action.position
    # Reach from the nearest long or short side, from outside the rail.
    sides = [(x, -700.0), (x, TABLE.width + 700.0), (-700.0, y), (TABLE.length + 700.0, y)]
    dists = [y, TABLE.width - y, x, TABLE.length - x]
    sx, sy = sides[int(np.argmin(dists))]
    mid = (action.t_start + action.t_end) / 2.0 if moment is None else moment
    if not action.t_start <= t <= action.t_end:
        reach = 0.0
    elif t <= mid:
        reach = _smooth((t - action.t_start) / max(mid - action.t_start, 1e-3))
    else:
        reach = _smooth((action.t_end - t) / max(action.t_end - mid, 1e-3))
    hx = sx + (x - sx) * reach
    hy = sy + (y - sy) * reach
    hand = (hx, hy, 55.0 + 150.0 * (1.0 - reach))
    shoulder = (sx + (x - sx) * 0.1, sy + (y - sy) * 0.1, 900.0)
    vx, vy = x - sx, y - sy
    nrm = math.hypot(vx, vy) or 1.0
    elbow = (hx - vx / nrm * 330.0, hy - vy / nrm * 330.0, 300.0)
    return [
        Capsule(shoulder, elbow, 60.0, 50.0, WAISTCOAT),
        Capsule(elbow, hand, 45.0, 38.0, SHIRT),
        Capsule(hand, (hx + vx / nrm * 60.0, hy + vy / nrm * 60.0, hand[2]), 45.0, 40.0, SKIN),
    ]


def capsules_at(
    actions: Sequence[Action], t: float, moments: Sequence[float | None] | None = None
) -> list[Capsule]:
    """Every capsule of the people at the table at time ``t``; ``moments`` are, per action,
    the time of its strike or place event (the action's middle where ``None``)."""
    out: list[Capsule] = []
    for i, a in enumerate(actions):
        if not a.t_start <= t <= a.t_end:
            continue
        moment = None if moments is None else moments[i]
        if a.kind == "stroke":
            out += stroke_capsules(a, t, moment)
        else:
            out += place_capsules(a, t, moment)
    return out


def draw_capsules(frame: U8, camera: Camera, capsules: Sequence[Capsule], light: float = 1.0) -> None:
    """Project and paint capsules far to near, each with a darker outline and a lit core
    (a cheap cylinder shading); also a soft shadow straight below on the cloth."""
    if not capsules:
        return
    centre = camera.centre
    h, w = frame.shape[:2]
    f = camera.intrinsics.fx
    # The people's soft shadow on the cloth, drawn at a quarter of the resolution (it is
    # blurred anyway) and applied only inside its bounding box: a full-frame blur per frame
    # would cost more than everything else in the frame.
    q = 4
    shadow = np.zeros((h // q + 1, w // q + 1), np.uint8)
    order = sorted(capsules, key=lambda c: -float(np.linalg.norm(np.add(c.a, c.b) / 2 - centre)))
    drawn: list[tuple[FloatArray, int, tuple[float, float, float]]] = []
    for cap in order:
        ends = np.array([cap.a, cap.b])
        depth = np.array([camera.depth([e[:2]], float(e[2]))[0] for e in ends])
        if np.any(depth <= 50.0):
            continue
        px = camera.project(ends)
        if not np.all(np.isfinite(px)) or np.abs(px).max() > 4 * max(h, w):
            continue
        rad = float(f * (cap.ra + cap.rb) / 2.0 / float(np.mean(depth)))
        drawn.append((px, max(1, round(rad)), cap.colour))
        ground = camera.project(np.column_stack([ends[:, :2], np.zeros(2)])) / q
        if not np.all(np.isfinite(ground)) or np.abs(ground).max() > 4 * max(h, w):
            continue
        gp = np.round(ground).astype(np.int32)
        cv2.line(shadow, tuple(gp[0]), tuple(gp[1]), 255, max(1, round(rad * 1.6 / q)), cv2.LINE_AA)
    if not drawn:
        return
    blurred = cv2.GaussianBlur(shadow, (0, 0), max(1.0, h / 60 / q))
    x, y, bw, bh = cv2.boundingRect(cv2.findNonZero(blurred)) if blurred.any() else (0, 0, 0, 0)
    if bw and bh:
        x0, y0, x1, y1 = x * q, y * q, min(w, (x + bw) * q), min(h, (y + bh) * q)
        small = blurred[y : y + bh, x : x + bw]
        big = cv2.resize(small, (bw * q, bh * q), interpolation=cv2.INTER_LINEAR)[: y1 - y0, : x1 - x0]
        gain = 1.0 - 0.35 * (big.astype(np.float32) / 255.0)
        region = frame[y0:y1, x0:x1]
        region[:] = np.clip(region * gain[..., None], 0, 255).astype(np.uint8)
    for px, rad, col in drawn:
        a = tuple(int(v) for v in np.round(px[0] * 8))
        b = tuple(int(v) for v in np.round(px[1] * 8))
        dark = tuple(v * 0.55 * light for v in col)
        lit = tuple(min(255.0, v * light) for v in col)
        cv2.line(frame, a, b, dark, 2 * rad, cv2.LINE_AA, 3)
        if rad >= 2:
            cv2.line(frame, a, b, lit, max(1, int(rad * 1.2)), cv2.LINE_AA, 3)
