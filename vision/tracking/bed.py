"""Where a ball centre can be measured: the bed, not a pocket hole or the rail beyond a cushion.

Why: a pocket's hole is a dark disc ringed by the cream-coloured lip of the fall, and from
above it looks enough like a ball (dark like the black and the blue, ringed like any ball
under the light) that a detector or a colour search, asked where a ball that just dropped
went, finds it there and keeps finding it: the tracker then holds a potted ball "seen" in
the hole forever and no pot is ever inferred. A ball on the cloth has its centre at least a
radius inside every cushion nose, and it can only come closer where a pocket's mouth opens,
up to the mouth line: a centre past the mouth line is a ball entering the pocket (a pot,
Section 2 Rule 7), and a centre past a cushion nose line is a ball in the air
or off the table. Neither is a measurement of a ball on the bed, so the tracker drops such
measurements, and a ball whose own prediction leaves the bed that way is taken off it.

Everything is in table millimetres (:data:`calibration.table.TABLE`); ``tol`` absorbs the
calibration's and the detector's error so that a ball frozen to a cushion or sitting in the
jaws is never refused.
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np
import numpy.typing as npt

from calibration.table import TABLE

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]

#: Default tolerance (mm) past a nose or mouth line: half a ball radius, over the few
#: millimetres a calibrated camera and the detector err by, yet short of where a pocket
#: hole's own centre projects (two thirds of a radius and more past the mouth line).
DEFAULT_TOL = 0.5 * TABLE.ball_radius


def _mouths() -> tuple[FloatArray, FloatArray, FloatArray]:
    """Each pocket's mouth midpoint, outward unit normal (towards the fall) and half-width."""
    mids, normals, halves = [], [], []
    for p in TABLE.pockets.values():
        (ax, ay), (bx, by) = p.jaws
        mid = np.array(p.mouth_midpoint)
        n = np.array([-(by - ay), bx - ax]) / max(p.mouth_width, 1e-9)
        if float(np.dot(np.array(p.centre) - mid, n)) < 0:
            n = -n
        mids.append(mid)
        normals.append(n)
        halves.append(p.mouth_width / 2.0)
    return np.array(mids), np.array(normals), np.array(halves)


_MID, _NORMAL, _HALF = _mouths()


def off_bed(xy: npt.ArrayLike, tol: float = DEFAULT_TOL) -> BoolArray:
    """``(N,)``: which table positions (mm) cannot be the centre of a ball on the cloth.

    A position is off the bed when it lies more than ``tol`` past a cushion nose line (the
    playing area's edge), or more than ``tol`` past a pocket's mouth line within reach of that
    mouth (inside the pocket). Unknown positions (NaN) are never off the bed: without a
    calibration nothing is refused.
    """
    p = np.asarray(xy, np.float64).reshape(-1, 2)
    return np.asarray((past_nose(p, tol) | into_pocket(p, tol)) & np.all(np.isfinite(p), axis=1), dtype=bool)


def on_bed_filter(
    to_table: Callable[[FloatArray], FloatArray], tol: float = DEFAULT_TOL
) -> Callable[[FloatArray], BoolArray]:
    """A detector's ``keep`` filter: which pixel centres map (through ``to_table``) onto the bed.

    Why one: the detector names colours under the ball-set prior, so a blob off the bed (a
    piece of a cushion's green nose by a pocket) must be refused before it takes a ball's
    colour, both when a clip's balls are first named and in each whole-table search.
    """

    def keep(pixels: FloatArray) -> BoolArray:
        return ~off_bed(to_table(pixels), tol)

    return keep


def past_nose(xy: npt.ArrayLike, tol: float = DEFAULT_TOL) -> BoolArray:
    """``(N,)``: which table positions (mm) lie more than ``tol`` past a cushion nose line."""
    p = np.asarray(xy, np.float64).reshape(-1, 2)
    x, y = p[:, 0], p[:, 1]
    with np.errstate(invalid="ignore"):
        out = (x < -tol) | (x > TABLE.length + tol) | (y < -tol) | (y > TABLE.width + tol)
    return np.asarray(out, dtype=bool)


def into_pocket(xy: npt.ArrayLike, tol: float = DEFAULT_TOL) -> BoolArray:
    """``(N,)``: which table positions (mm) lie more than ``tol`` past a pocket's mouth line,
    within reach of that mouth (a ball dropping into the pocket)."""
    p = np.asarray(xy, np.float64).reshape(-1, 2)
    with np.errstate(invalid="ignore"):
        d = p[:, None, :] - _MID[None, :, :]
        past = np.einsum("nkj,kj->nk", d, _NORMAL)
        along = np.linalg.norm(d - past[..., None] * _NORMAL[None], axis=2)
        inside = (past > tol) & (along < _HALF[None, :] + TABLE.ball_radius)
    return np.asarray(inside.any(axis=1), dtype=bool)


def nose_normal(xy: npt.ArrayLike) -> FloatArray:
    """``(N, 2)``: the inward unit normal of the nose line each table position (mm) lies
    farthest past (zero for a position on the bed)."""
    p = np.asarray(xy, np.float64).reshape(-1, 2)
    over = np.stack([-p[:, 0], p[:, 0] - TABLE.length, -p[:, 1], p[:, 1] - TABLE.width], axis=1)
    normals = np.array([[1.0, 0.0], [-1.0, 0.0], [0.0, 1.0], [0.0, -1.0]])
    k = np.argmax(np.nan_to_num(over, nan=-np.inf), axis=1)
    out: FloatArray = np.where((over[np.arange(len(p)), k] > 0)[:, None], normals[k], 0.0)
    return out


def near_mouth(xy: npt.ArrayLike, reach: float) -> BoolArray:
    """``(N,)``: which table positions lie within ``reach`` mm of a pocket's mouth midpoint."""
    p = np.asarray(xy, np.float64).reshape(-1, 2)
    d = np.linalg.norm(p[:, None, :] - _MID[None, :, :], axis=2).min(axis=1)
    with np.errstate(invalid="ignore"):
        return np.asarray(np.isfinite(d) & (d < reach), dtype=bool)


_FALL = np.array([p.centre for p in TABLE.pockets.values()])
_FALL_R = np.array([p.radius for p in TABLE.pockets.values()])


def in_fall(xy: npt.ArrayLike) -> BoolArray:
    """``(N,)``: which table positions (mm) lie over a pocket's fall circle (the hole itself).

    A ball centre there is dropping; nothing resting can be measured there.
    """
    p = np.asarray(xy, np.float64).reshape(-1, 2)
    d = np.linalg.norm(p[:, None, :] - _FALL[None, :, :], axis=2)
    with np.errstate(invalid="ignore"):
        return np.asarray(np.any(d < _FALL_R[None, :], axis=1), dtype=bool)


def fall_pixels(
    table_to_pixels: Callable[[FloatArray], FloatArray], shape: tuple[int, ...], points: int = 72
) -> BoolArray:
    """``shape[:2]`` mask of the pixels that show a pocket's fall (the hole, on the cloth's plane).

    Why: the part of a middle pocket's hole cut into the bed is a dark half-disc inside the
    cushion line, and a colour search for a dark ball that just dropped (a brown, on a rendered
    1080p60 colours clearance, broadcast camera) found it there, 1.8 mm outside the fall circle
    by its measured centre: held "seen" at rest in the mouth, the ball was never potted and the
    referee called a miss. No pixel of the hole is a ball's (a ball over it has dropped), so the
    searches leave those pixels out; a ball on the lip loses only the part of its image that
    hangs over the hole. ``table_to_pixels``: table millimetres on the cloth (z = 0) to the
    frame's pixels.
    """
    h, w = shape[:2]
    mask = np.zeros((h, w), np.uint8)
    angle = np.linspace(0.0, 2.0 * np.pi, points, endpoint=False)
    ring = np.column_stack([np.cos(angle), np.sin(angle)])
    for centre, radius in zip(_FALL, _FALL_R, strict=True):
        px = np.asarray(table_to_pixels(centre[None, :] + radius * ring), np.float64)
        if not np.all(np.isfinite(px)):
            continue
        cv2.fillPoly(mask, [np.round(px).astype(np.int32).reshape(-1, 1, 2)], 1)
    return mask > 0
