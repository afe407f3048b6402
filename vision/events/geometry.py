"""Where the table's edges are, for a ball centre: cushion noses and pocket mouths.

A ball centre touches a cushion when it is one radius from the nose line, and drops into a
pocket when it crosses the mouth line (the line between the jaw points) heading towards the
fall centre. Both tests read :data:`calibration.table.TABLE`; no dimension is repeated.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from calibration.table import CushionSegment, Pocket, TableSpec
from vision.events.kinematics import Motion

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class PocketEntry:
    """A ball's path into a pocket: which pocket, and when the centre crossed the mouth line."""

    pocket: str
    t: float


def cushion_gap(points: FloatArray, cushion: CushionSegment, radius: float) -> tuple[FloatArray, FloatArray]:
    """Gap between ball surfaces and a cushion nose, and whether each centre is alongside it.

    Returns:
        ``(gap, alongside)``: ``gap`` (mm, negative when the centre is closer than one radius)
        and a mask of centres whose foot on the nose line lies between the segment's ends
        (with one radius of slack, as a ball near a jaw still meets the straight nose).
    """
    p = np.asarray(points, dtype=np.float64)
    s = np.asarray(cushion.start)
    e = np.asarray(cushion.end)
    n = np.asarray(cushion.normal)
    length = float(np.hypot(*(e - s)))
    u = (e - s) / length
    rel = p - s
    gap = rel @ n - radius
    along = rel @ u
    alongside = (along >= -radius) & (along <= length + radius)
    return gap, alongside


def _mouth_frame(pocket: Pocket) -> tuple[FloatArray, FloatArray, FloatArray, float]:
    """Mouth midpoint, unit vector along the mouth, unit normal towards the fall centre, and
    half the mouth width."""
    a = np.asarray(pocket.jaws[0])
    b = np.asarray(pocket.jaws[1])
    mid = 0.5 * (a + b)
    along = (b - a) / float(np.hypot(*(b - a)))
    normal = np.array([-along[1], along[0]])
    if float(normal @ (np.asarray(pocket.centre) - mid)) < 0:
        normal = -normal
    return mid, along, normal, 0.5 * float(np.hypot(*(b - a)))


def past_mouth(point: FloatArray, pocket: Pocket, radius: float, slack: float | None = None) -> float:
    """Signed depth of a centre beyond the mouth line towards the fall (mm), or ``-inf`` when
    the centre is not between the jaws (with ``slack`` each side, by default half a radius:
    the noise of a fitted centre)."""
    mid, along, normal, half = _mouth_frame(pocket)
    rel = np.asarray(point, dtype=np.float64) - mid
    if abs(float(rel @ along)) > half + (0.5 * radius if slack is None else slack):
        return -math.inf
    return float(rel @ normal)


def pocket_entry(
    motion: Motion, t_from: float, t_to: float, table: TableSpec, reach_mm: float
) -> PocketEntry | None:
    """Whether a path last seen at ``t_from`` entered a pocket before ``t_to``.

    The path is extrapolated from the last fit (it is on the cloth, so friction only slows
    it, and a path that turns back has stopped). It enters a pocket when its centre crosses
    the mouth line between the jaws or enters the pocket's fall circle (which reaches a
    little in front of a middle pocket's mouth line). ``reach_mm``
    bounds the extrapolation: a ball last seen further than this from a mouth vanished for
    another reason (a player's arm), not into a pocket.
    """
    r = table.ball_radius
    p_last = motion.at(t_from)
    best: PocketEntry | None = None
    best_d = math.inf
    grid = np.linspace(t_from, max(t_to, t_from), 129)
    path = motion.at(grid)
    # Once the fitted (decelerating) path turns back, the ball has stopped: cut it there.
    v = motion.velocity(grid)
    v0 = motion.velocity(t_from)
    forward = (v @ v0) > 0.0
    stop = int(np.argmin(forward)) if not forward.all() else len(grid)
    # Nor does a centre pass a cushion's nose line alongside that cushion: the ball meets the
    # rubber and comes back first. A line extrapolated through a side cushion a few hundred
    # millimetres short of a corner pocket (a ball bouncing off the rail and out of the
    # jaws) otherwise crosses that pocket's mouth line beyond the cushion. A ball running
    # into a pocket along a cushion keeps its centre a radius inside the nose; one last
    # measured closer than that to a cushion (touching it, or a centre misplaced in a jaw's
    # shade) says nothing of which side of the nose it is going.
    stop = min(stop, _into_cushion(path, table, r))
    stop = max(stop, 1)
    for pocket in table.pockets.values():
        mid, _, _, half = _mouth_frame(pocket)
        d_mid = float(np.hypot(*(p_last - mid)))
        if d_mid > reach_mm + half + r:
            continue
        depths = np.array([past_mouth(q, pocket, r) for q in path[:stop]])
        fall = np.hypot(*(path[:stop] - np.asarray(pocket.centre)).T) <= pocket.radius
        inside = np.flatnonzero((depths >= 0.0) | fall)
        if len(inside) == 0:
            continue
        t_cross = float(grid[int(inside[0])])
        if d_mid < best_d:
            best, best_d = PocketEntry(pocket.name, t_cross), d_mid
    return best


def at_mouth(point: FloatArray, velocity: FloatArray, table: TableSpec) -> str | None:
    """The pocket whose mouth a centre is at, heading in: between the jaws (with a radius of
    slack each side: the jaws are rounded) and less than a radius short of the mouth line,
    moving towards the fall. A ball there has its centre over the jaws' rounding or the
    pocket's shade; one last seen there, never again, went in."""
    r = table.ball_radius
    v = np.asarray(velocity, dtype=np.float64)
    for pocket in table.pockets.values():
        normal = _mouth_frame(pocket)[2]
        if past_mouth(point, pocket, r, slack=r) >= -r and float(v @ normal) > 0.0:
            return pocket.name
    return None


def _into_cushion(path: FloatArray, table: TableSpec, radius: float) -> int:
    """Index of the first centre of ``path`` beyond a cushion's nose line, alongside that
    cushion (a radius inside its ends), for the cushions the path starts clear of (its first centre
    over ``radius`` inside the nose); ``len(path)`` when none is."""
    first = len(path)
    for c in table.cushions:
        s, e, n = (np.asarray(v, dtype=np.float64) for v in (c.start, c.end, c.normal))
        length = float(np.hypot(*(e - s)))
        rel = path - s
        depth = rel @ n
        if len(path) == 0 or depth[0] <= radius:
            continue
        along = rel @ ((e - s) / length)
        # A radius clear of the jaws: the nose rounds into them, and a centre crossing the
        # mouth line by the jaw (with the noise of a fit) is a pot, not a cushion.
        beyond = np.flatnonzero((depth < 0.0) & (along >= radius) & (along <= length - radius))
        if len(beyond):
            first = min(first, int(beyond[0]))
    return first


def nearest_cushion(point: FloatArray, table: TableSpec) -> tuple[CushionSegment, float]:
    """The cushion nearest a centre and the surface gap to it (mm)."""
    best = table.cushions[0]
    best_gap = math.inf
    for c in table.cushions:
        gap, _ = cushion_gap(np.asarray(point, dtype=np.float64)[None], c, table.ball_radius)
        if float(gap[0]) < best_gap:
            best, best_gap = c, float(gap[0])
    return best, best_gap
