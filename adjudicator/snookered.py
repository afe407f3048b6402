"""Is the cue-ball snookered? Section 2 Rule 17, by real geometry.

Balls are discs of radius ``R = TABLE.ball_radius`` (26.25 mm). A moving cue-ball touches a
ball whose centre comes within ``2R`` of the cue-ball's centre line, so every question is one
of rays from the cue-ball centre against discs of radius ``2R`` round the other centres.

Implemented, clause by clause:

- Rule 17 (definition): the cue-ball is snookered when no ball on can be hit at *both extreme
  edges* free of obstruction by a ball not on. An extreme-edge stroke is the tangent from the
  cue-ball centre to the ``2R`` disc round the ball on; it is obstructed when a ball not on lies
  within ``2R`` of that tangent segment before the contact point (a ball exactly grazing the
  path does not obstruct). Balls on never obstruct each other.
- 17(a) in-hand: snookered only if snookered from *every* position on or within the D. The set
  of positions from which a ball on is free is star-shaped towards that ball (moving the
  cue-ball straight towards the ball on only narrows the corridor the two edge strokes sweep),
  so when the ball on is outside the D a free position exists in the D only if one exists on the
  D's boundary; a ball on inside the D is free from a position right beside it. The D is
  therefore sampled on its arc and baulk-line every :data:`D_STEP` mm, on a ring round any
  ball on that lies in the D, and on a coarse interior grid; tests compare it with a dense grid.
- 17(b) the effective snookering ball is the nearest obstruction; equidistant ones all count
  (:func:`effective_snookerers`), used for the free-ball and Six Reds snooker fouls.
- 17(c) reds obstructed by different balls: no single effective snookering ball; a ball
  snookers "on all Reds" only if it is an effective snookering ball for every red.
- 17(e) cushions never snooker: they are not modelled at all.
- Section 3 Rule 14(c) "a clear path in a straight line to any part of a ball": exact interval
  geometry (:func:`clear_path`): each target's angular interval is cut at every tangent direction
  and every crossing of two ``2R`` discs, between which the first ball met cannot change, and
  one ray per piece decides it. 14(d) "central, full ball, contact": :func:`centre_clear`.

Not implemented: swerve and jump escapes are irrelevant to the definition (straight lines only).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from calibration.table import TABLE

FloatArray = npt.NDArray[np.float64]
Position = tuple[float, float]

R: float = TABLE.ball_radius
#: Contact distance between two ball centres.
CONTACT: float = 2.0 * R
#: Slack (mm) below which an obstruction is considered grazing, not obstructing.
GRAZE: float = 1e-6
#: Spacing (mm) of the samples along the D's boundary for the in-hand test.
D_STEP: float = 1.0


def _array(points: Iterable[Position]) -> FloatArray:
    arr = np.asarray(list(points), dtype=np.float64)
    return arr.reshape(-1, 2)


def _edge_blocked(cue: FloatArray, targets: FloatArray, obstacles: FloatArray) -> npt.NDArray[np.bool_]:
    """For cue positions ``(p, 2)`` and targets ``(m, 2)``: whether each of the two extreme-edge
    strokes is obstructed, shape ``(p, m, 2)``. A target touching the cue-ball is free."""
    d = targets[None, :, :] - cue[:, None, :]  # (p, m, 2)
    dist = np.hypot(d[..., 0], d[..., 1])  # (p, m)
    safe = np.maximum(dist, CONTACT)
    theta = np.arctan2(d[..., 1], d[..., 0])
    alpha = np.arcsin(np.clip(CONTACT / safe, -1.0, 1.0))
    reach = np.sqrt(np.maximum(safe**2 - CONTACT**2, 0.0))  # cue travel to the tangent contact
    blocked = np.zeros((*dist.shape, 2), dtype=bool)
    if obstacles.shape[0] == 0:
        return blocked
    o = obstacles[None, :, :] - cue[:, None, :]  # (p, k, 2)
    for side, sign in enumerate((-1.0, 1.0)):
        ang = theta + sign * alpha  # (p, m)
        ux, uy = np.cos(ang), np.sin(ang)
        s = ux[:, :, None] * o[:, None, :, 0] + uy[:, :, None] * o[:, None, :, 1]  # (p, m, k)
        h = np.abs(ux[:, :, None] * o[:, None, :, 1] - uy[:, :, None] * o[:, None, :, 0])
        hit = (h < CONTACT - GRAZE) & (s > 0.0)
        t = s - np.sqrt(np.maximum(CONTACT**2 - h**2, 0.0))
        blocked[..., side] = np.any(hit & (t < reach[:, :, None]), axis=2)
    touching = dist <= CONTACT + GRAZE
    blocked[touching] = False
    return blocked


def edges_obstructed(
    cue: Position, on: Sequence[Position], others: Sequence[Position]
) -> npt.NDArray[np.bool_]:
    """For each ball on, whether the stroke to each of its two extreme edges is obstructed by a
    ball not on, shape ``(m, 2)``: what the overlay draws to show why a FREE BALL was called."""
    if not on:
        return np.zeros((0, 2), dtype=bool)
    return _edge_blocked(_array([cue]), _array(on), _array(others))[0]


def free_balls(cue: Position, on: Sequence[Position], others: Sequence[Position]) -> npt.NDArray[np.bool_]:
    """Which balls on can be hit at both extreme edges from ``cue`` (Rule 17)."""
    if not on:
        return np.zeros(0, dtype=bool)
    blocked = _edge_blocked(_array([cue]), _array(on), _array(others))[0]
    return ~np.any(blocked, axis=1)


def snookered(cue: Position, on: Sequence[Position], others: Sequence[Position]) -> bool:
    """Section 2 Rule 17: no ball on can be hit at both extreme edges. With no ball on at all
    the striker is not snookered (there is nothing to be obstructed from)."""
    if not on:
        return False
    return not bool(np.any(free_balls(cue, on, others)))


@lru_cache(maxsize=8)
def _d_base(step: float) -> FloatArray:
    """The fixed part of the D samples: arc, baulk-line and a 20 mm interior grid."""
    cx, cy = TABLE.d_centre
    r = TABLE.d_radius
    n_arc = max(int(math.pi * r / step), 8)
    a = np.linspace(-math.pi / 2, math.pi / 2, n_arc + 1)
    arc = np.stack([cx - r * np.cos(a), cy + r * np.sin(a)], axis=1)
    ys = np.linspace(cy - r, cy + r, max(int(2 * r / step), 2) + 1)
    line = np.stack([np.full_like(ys, cx), ys], axis=1)
    gx, gy = np.meshgrid(np.arange(cx - r, cx + 0.1, 20.0), np.arange(cy - r, cy + r + 0.1, 20.0))
    grid = np.stack([gx.ravel(), gy.ravel()], axis=1)
    pts = np.concatenate([arc, line, grid])
    inside = (pts[:, 0] <= cx + 1e-6) & (np.hypot(pts[:, 0] - cx, pts[:, 1] - cy) <= r + 1e-6)
    out = pts[inside]
    out.setflags(write=False)
    return out


def d_samples(
    on: Sequence[Position] = (), others: Sequence[Position] = (), step: float = D_STEP
) -> FloatArray:
    """Positions where the white may be placed in hand (Section 3 Rule 5), for Rule 17(a).

    The D's arc and baulk-line every ``step`` mm, a ring just outside contact round each ball on
    within reach of the D, and a 20 mm interior grid; positions overlapping a ball are dropped.
    """
    cx, cy = TABLE.d_centre
    r = TABLE.d_radius
    parts = [_d_base(step)]
    ring_a = np.linspace(0.0, 2 * math.pi, 720, endpoint=False)
    for bx, by in on:
        if math.hypot(bx - cx, by - cy) <= r + CONTACT + 1.0:
            ring = np.stack(
                [bx + (CONTACT + 0.05) * np.cos(ring_a), by + (CONTACT + 0.05) * np.sin(ring_a)], axis=1
            )
            inside = (ring[:, 0] <= cx + 1e-6) & (np.hypot(ring[:, 0] - cx, ring[:, 1] - cy) <= r + 1e-6)
            parts.append(ring[inside])
    pts = np.concatenate(parts) if len(parts) > 1 else parts[0]
    balls = _array([*on, *others])
    near = (
        balls[(balls[:, 0] < cx + CONTACT) & (np.abs(balls[:, 1] - cy) < r + CONTACT)]
        if balls.size
        else balls
    )
    if near.shape[0]:
        gap = np.hypot(pts[:, None, 0] - near[None, :, 0], pts[:, None, 1] - near[None, :, 1])
        pts = pts[np.all(gap >= CONTACT - GRAZE, axis=1)]
    return pts


def snookered_in_hand(on: Sequence[Position], others: Sequence[Position], step: float = D_STEP) -> bool:
    """Section 2 Rule 17(a): snookered from every position on or within the D.

    A coarse pass over every 16th sample answers "not snookered" at once in ordinary positions;
    only when it finds no free position are all samples examined.
    """
    if not on:
        return False
    cues = d_samples(on, others, step)
    if cues.shape[0] == 0:
        return True
    obstacles = _array(others)
    targets = _array(on)
    coarse = cues[::16]
    blocked = _edge_blocked(coarse, targets, obstacles)
    if bool(np.any(~np.any(blocked, axis=2))):
        return False
    for i in range(targets.shape[0]):  # one ball on at a time keeps arrays small; stop when free
        blocked = _edge_blocked(cues, targets[i : i + 1], obstacles)
        if bool(np.any(~np.any(blocked[:, 0, :], axis=1))):
            return False
    return True


def effective_snookerers(
    cue: Position, on: Mapping[str, Position], others: Mapping[str, Position], tol: float = 1.0
) -> dict[str, frozenset[str]]:
    """Rule 17(b): for each ball on that is obstructed, the nearest obstructing ball(s) not on."""
    names = list(others)
    obstacles = _array(others[n] for n in names)
    out: dict[str, frozenset[str]] = {}
    c = np.asarray(cue, dtype=np.float64)
    for ball, pos in on.items():
        d = np.asarray(pos) - c
        dist = float(np.hypot(*d))
        if dist <= CONTACT + GRAZE or not names:
            continue
        theta = math.atan2(d[1], d[0])
        alpha = math.asin(min(CONTACT / dist, 1.0))
        reach = math.sqrt(max(dist**2 - CONTACT**2, 0.0))
        o = obstacles - c
        blockers: set[int] = set()
        for sign in (-1.0, 1.0):
            ux, uy = math.cos(theta + sign * alpha), math.sin(theta + sign * alpha)
            s = ux * o[:, 0] + uy * o[:, 1]
            h = np.abs(ux * o[:, 1] - uy * o[:, 0])
            t = s - np.sqrt(np.maximum(CONTACT**2 - h**2, 0.0))
            blockers.update(np.nonzero((h < CONTACT - GRAZE) & (s > 0.0) & (t < reach))[0].tolist())
        if not blockers:
            continue
        dists = {i: float(np.hypot(*o[i])) for i in blockers}
        nearest = min(dists.values())
        out[ball] = frozenset(names[i] for i, v in dists.items() if v <= nearest + tol)
    return out


def snookered_by(
    cue: Position, on: Mapping[str, Position], others: Mapping[str, Position], culprit: str
) -> bool:
    """Whether ``culprit`` snookers the cue-ball on every ball on (Rules 17(b), 17(c)): the
    cue-ball is snookered and ``culprit`` is an effective snookering ball for each ball on."""
    if not on or culprit not in others:
        return False
    if not snookered(cue, list(on.values()), list(others.values())):
        return False
    eff = effective_snookerers(cue, on, others)
    return all(culprit in eff.get(ball, frozenset()) for ball in on)


def _first_hits(cue: FloatArray, dirs: FloatArray, balls: FloatArray) -> npt.NDArray[np.int64]:
    """Index of the first ball each ray from ``cue`` would touch, -1 for none."""
    o = balls - cue  # (n, 2)
    s = dirs[:, 0:1] * o[None, :, 0] + dirs[:, 1:2] * o[None, :, 1]  # (m, n)
    h = np.abs(dirs[:, 0:1] * o[None, :, 1] - dirs[:, 1:2] * o[None, :, 0])
    hit = (h < CONTACT - GRAZE) & (s > 0.0)
    t = np.where(hit, s - np.sqrt(np.maximum(CONTACT**2 - h**2, 0.0)), np.inf)
    first = np.argmin(t, axis=1)
    return np.where(np.isfinite(t[np.arange(t.shape[0]), first]), first, -1)


def _circle_crossings(balls: FloatArray) -> FloatArray:
    """Points where two ``2R`` discs round ball centres cross: the only places, besides tangents,
    where the first ball a ray from the cue-ball meets can change."""
    if balls.shape[0] < 2:
        return np.zeros((0, 2))
    i, j = np.triu_indices(balls.shape[0], k=1)
    a, b = balls[i], balls[j]
    d = np.hypot(*(b - a).T)
    ok = (d > 0.0) & (d < 2.0 * CONTACT)
    a, b, d = a[ok], b[ok], d[ok]
    mid = (a + b) / 2.0
    h = np.sqrt(np.maximum(CONTACT**2 - (d / 2.0) ** 2, 0.0))
    perp = np.stack([-(b - a)[:, 1], (b - a)[:, 0]], axis=1) / d[:, None]
    return np.concatenate([mid + h[:, None] * perp, mid - h[:, None] * perp])


def clear_path(cue: Position, targets: Sequence[Position], others: Sequence[Position]) -> bool:
    """Section 3 Rule 14(c): a clear straight path from the cue-ball to any part of any target.

    Exact, not sampled: the directions that meet target ``i`` form the interval
    ``theta_i +- asin(2R / d_i)``; inside it the first ball met is constant between consecutive
    breakpoints (tangent directions of every ball, directions through the crossing points of two
    ``2R`` discs), so one ray at the middle of each piece decides the whole piece.
    """
    if not targets:
        return False
    centre = _centre_first_hits(cue, targets, others)  # the common case, decided cheaply
    if centre is None or bool(np.any((centre >= 0) & (centre < len(targets)))):
        return True
    c = np.asarray(cue, dtype=np.float64)
    tg = _array(targets)
    balls = np.concatenate([tg, _array(others)])
    rel = balls - c
    bdist = np.maximum(np.hypot(rel[:, 0], rel[:, 1]), CONTACT)
    btheta = np.arctan2(rel[:, 1], rel[:, 0])
    balpha = np.arcsin(np.clip(CONTACT / bdist, -1.0, 1.0))
    cross = _circle_crossings(balls) - c
    breaks = np.concatenate([btheta - balpha, btheta + balpha, np.arctan2(cross[:, 1], cross[:, 0])])
    for i in range(tg.shape[0]):
        lo, hi = -balpha[i], balpha[i]
        local = (breaks - btheta[i] + math.pi) % (2.0 * math.pi) - math.pi
        cuts = np.unique(np.concatenate([[lo, hi], local[(local > lo) & (local < hi)]]))
        mids = btheta[i] + (cuts[:-1] + cuts[1:]) / 2.0
        mids = mids[np.diff(cuts) > 1e-12]
        if mids.size == 0:
            continue
        dirs = np.stack([np.cos(mids), np.sin(mids)], axis=1)
        first = _first_hits(c, dirs, balls)
        if bool(np.any((first >= 0) & (first < tg.shape[0]))):
            return True
    return False


def centre_clear(cue: Position, targets: Sequence[Position], others: Sequence[Position]) -> bool:
    """Section 3 Rule 14(d) "central, full ball, contact was available": the straight stroke at
    some target's centre meets that target first (a ball on touching the cue-ball counts)."""
    if not targets:
        return False
    first = _centre_first_hits(cue, targets, others)
    return first is None or bool(np.any(first == np.arange(len(targets))))


def _centre_first_hits(
    cue: Position, targets: Sequence[Position], others: Sequence[Position]
) -> npt.NDArray[np.int64] | None:
    """Index (into targets + others) of the first ball met by the straight stroke at each
    target's centre, -1 for none; ``None`` when a target touches the cue-ball (it is hit)."""
    c = np.asarray(cue, dtype=np.float64)
    tg = _array(targets)
    d = tg - c
    dist = np.hypot(d[:, 0], d[:, 1])
    if bool(np.any(dist <= CONTACT + GRAZE)):
        return None
    return _first_hits(c, d / dist[:, None], np.concatenate([tg, _array(others)]))


def clear_path_in_hand(targets: Sequence[Position], others: Sequence[Position], step: float = 4.0) -> bool:
    """Rule 14(c) from in-hand: a clear path from some position in the D."""
    cues = d_samples(targets, others, step)
    return any(clear_path((float(x), float(y)), targets, others) for x, y in cues)
