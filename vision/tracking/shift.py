"""How far a resting ball's picture has moved since it came to rest, to a fraction of a pixel.

Why a module of its own: the detector measures a ball to about a pixel (its blob in whole
pixels, the video's colour at half resolution), and a gentle stroke at the far end of a steep
view moves the white a fifth of a pixel a frame (a rendered 1080p60 free ball, broadcast camera:
37 mm in half a second, five working pixels, the cue's tip over the ball all the while). Seen
only as a jump of half a radius, such a white's departure was found 13 frames late or never,
and the stroke's strike and first contact with it. The picture of the ball itself tells a shift
of a twentieth of a pixel: the change at its rim, where the ball meets the cloth, is the shift
times the picture's gradient there (Lucas and Kanade's registration). What covers part of the
ball (the cue's tip, a finger) changes the picture by more than any shift explains, and is
weighed out (a robust fit).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import pairwise

import cv2
import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]
Image = npt.NDArray[np.uint8]
IntArray = npt.NDArray[np.int64]
Grey = npt.NDArray[np.float32]

#: Reach of the compared picture round the ball's centre, in radii: the ball and its rim, with
#: the cloth just outside it (the rim's gradient is what measures the shift).
SUPPORT_RADII = 1.35
#: Pixels nearer another ball's centre than this many of its radii are not compared: that ball
#: does not move with this one, and its rim's gradient reaches a pixel or so past its edge (a
#: white resting half behind the green in a steep view, creeping on towards it, was measured at
#: four fifths of its shift with 1.1).
OTHERS_RADII = 1.25
#: Farthest shift (radii) measured: beyond, the registration of a picture a radius off is no
#: longer a small change, and the tracker's searches find the ball.
MAX_SHIFT_RADII = 0.8
#: Least share of the picture's detail (its squared gradient over the support) the fit must
#: explain for a measurement to stand (see :func:`patch_shift`): a hand over most of the ball,
#: or the ball gone, leaves little of it.
LEAST_EXPLAINED = 0.5
#: The residuals' spread (grey levels) on a still ball: the codec's noise (0-2 levels on the
#: real broadcast clips).
NOISE_FLOOR = 3.0
#: Shift (pixels) still to be fitted that a pixel's residual may show, times its gradient,
#: beyond the noise before the robust fit weighs it out (see :func:`patch_shift`): at the first
#: step a ball's rim shifted by up to a pixel or two is kept, and the reach halves each step
#: down to the last, once the shift is fitted: then a rim a hand or a cue covers is weighed
#: out too (with half a pixel throughout, a hand over four fifths of the ball left the fit two
#: thirds of the picture's detail; with a tenth of a pixel at the last, a ball's rim shifted by
#: half a pixel, rendered, left it four fifths).
REACH_PX = 1.0
REACH_LAST_PX = 0.3
#: Tukey's cut-off, in residual scales.
TUKEY = 4.0
#: Iterations of the fit, and the step (pixels) under which it has converged.
ITERATIONS = 12
CONVERGED_PX = 0.01


@dataclass(frozen=True)
class RestPatch:
    """A resting ball's grey picture, to measure later shifts against (:func:`patch_shift`).

    Attributes:
        grey: the picture round the ball (float grey levels), ``2 m + 1`` pixels square.
        gx, gy: its gradient.
        centre: where the ball rested (working pixels); the patch's centre pixel is its
            rounded value, ``corner`` its top-left corner.
        corner: the patch's top-left pixel.
        support: which of its pixels are compared (the ball and its rim, not other balls).
        radius: the ball's radius (pixels).
    """

    grey: Grey
    gx: Grey
    gy: Grey
    centre: FloatArray
    corner: tuple[int, int]
    support: npt.NDArray[np.bool_]
    radius: float


@dataclass(frozen=True)
class Shift:
    """A measured shift: how far (pixels, ``(2,)``) the ball's picture moved, and the share of
    the picture's detail the fit explains."""

    d: FloatArray
    explained: float


def _grey(frame: Image, x0: int, y0: int, x1: int, y1: int) -> Grey | None:
    """The grey levels of ``frame[y0:y1, x0:x1]`` as floats (None: not all inside the frame)."""
    h, w = frame.shape[:2]
    if x0 < 0 or y0 < 0 or x1 > w or y1 > h or x1 <= x0 or y1 <= y0:
        return None
    crop = frame[y0:y1, x0:x1]
    grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY) if crop.ndim == 3 else crop
    return np.asarray(grey, np.float32)


def rest_patch(
    frame: Image, centre: FloatArray, r: float, others: FloatArray, others_r: FloatArray
) -> RestPatch | None:
    """The picture of a ball of radius ``r`` resting at ``centre`` in ``frame`` (BGR), leaving
    out the pixels by the other balls at ``others`` (``(k, 2)``, radii ``others_r``; NaN rows
    ignored). None: too near the frame's edge."""
    m = int(np.ceil((SUPPORT_RADII + MAX_SHIFT_RADII) * r)) + 2
    cx, cy = round(float(centre[0])), round(float(centre[1]))
    grey = _grey(frame, cx - m, cy - m, cx + m + 1, cy + m + 1)
    if grey is None:
        return None
    yy, xx = np.mgrid[cy - m : cy + m + 1, cx - m : cx + m + 1]
    support = _without_others(
        np.hypot(xx - centre[0], yy - centre[1]) < SUPPORT_RADII * r, xx, yy, others, others_r
    )
    gy, gx = np.gradient(grey)
    return RestPatch(
        grey,
        gx.astype(np.float32),
        gy.astype(np.float32),
        np.asarray(centre, np.float64).copy(),
        (cx - m, cy - m),
        support,
        float(r),
    )


def leave_out(patch: RestPatch, others: FloatArray, others_r: FloatArray) -> RestPatch:
    """``patch`` with the pixels by the balls now at ``others`` (``(k, 2)``, radii ``others_r``)
    left out of its support, as :func:`rest_patch` leaves out those beside it when taken.

    Why: a ball come to rest against this one since its picture was taken (one that pushed it)
    covers part of the picture's cloth and blurs into its rim; compared there, its pixels say
    nothing of this ball's shift.
    """
    h, w = patch.grey.shape
    x0, y0 = patch.corner
    yy, xx = np.mgrid[y0 : y0 + h, x0 : x0 + w]
    return replace(patch, support=_without_others(patch.support.copy(), xx, yy, others, others_r))


def _without_others(
    support: npt.NDArray[np.bool_], xx: IntArray, yy: IntArray, others: FloatArray, others_r: FloatArray
) -> npt.NDArray[np.bool_]:
    """``support`` (modified in place; pixel grids ``xx``, ``yy``) less the pixels within
    :data:`OTHERS_RADII` radii of the balls at ``others`` (``(k, 2)``, radii ``others_r``; NaN
    rows ignored).

    Only the balls whose cleared disc reaches the grid's rectangle are drawn: a table's other
    twenty balls cost a whole-grid distance each, most of them far off (0.3 ms a picture).
    """
    pts = np.asarray(others, np.float64).reshape(-1, 2)
    reach = OTHERS_RADII * np.asarray(others_r, np.float64).reshape(-1)
    if len(pts) != len(reach):
        raise ValueError(f"others {pts.shape} and others_r {reach.shape} do not pair up")
    if not len(pts) or not xx.size:
        return support
    x_lo, x_hi, y_lo, y_hi = float(xx.min()), float(xx.max()), float(yy.min()), float(yy.max())
    with np.errstate(invalid="ignore"):
        dx = np.maximum(np.maximum(x_lo - pts[:, 0], pts[:, 0] - x_hi), 0.0)
        dy = np.maximum(np.maximum(y_lo - pts[:, 1], pts[:, 1] - y_hi), 0.0)
        near = np.isfinite(pts).all(axis=1) & (np.hypot(dx, dy) <= reach)
    for k in np.flatnonzero(near):
        support &= np.hypot(xx - pts[k, 0], yy - pts[k, 1]) > reach[k]
    return support


def patch_shift(frame: Image, patch: RestPatch, start: FloatArray | None = None) -> Shift | None:
    """How far the ball in ``patch`` has moved in ``frame`` (BGR): the shift ``d`` for which
    ``frame`` at ``x + d`` best matches the patch at ``x`` over its support, fitted from
    ``start`` (the last shift found; zero when None) with Tukey-weighted Gauss-Newton steps,
    a change of the picture's brightness fitted beside it.

    None: the fit did not converge, moved the ball more than :data:`MAX_SHIFT_RADII`, or
    explains less than :data:`LEAST_EXPLAINED` of the picture's detail (the ball covered, or
    gone).
    """
    h, w = patch.grey.shape
    x0, y0 = patch.corner
    d = np.zeros(2) if start is None else np.asarray(start, np.float64).copy()
    # A window round where the patch is sampled, with a pixel to spare for the interpolation.
    pad = int(np.ceil(MAX_SHIFT_RADII * patch.radius)) + 2
    area = _grey(frame, x0 - pad, y0 - pad, x0 + w + pad, y0 + h + pad)
    if area is None:
        return None
    sup = patch.support
    energy = sup * (patch.gx * patch.gx + patch.gy * patch.gy)
    total = float(energy.sum())
    if total <= 0:
        return None
    bias = 0.0
    wt = sup.astype(np.float32)
    converged = False
    for k in range(ITERATIONS):
        reach = max(REACH_LAST_PX, REACH_PX * 0.5**k)
        # getRectSubPix samples the window bilinearly at the patch's pixels moved by d.
        centre = (pad + (w - 1) / 2.0 + d[0], pad + (h - 1) / 2.0 + d[1])
        cur = cv2.getRectSubPix(area, (w, h), centre)
        e = cur - patch.grey - bias
        cy, cx = np.gradient(cur)
        gx, gy = 0.5 * (patch.gx + cx), 0.5 * (patch.gy + cy)
        # Each pixel's residual is weighed against what the noise and a shift of up to
        # ``reach`` leave there: at the rim, where a shift changes the picture most, a fifth of
        # a pixel leaves more than the noise (weighed by the noise alone, the rim was weighed
        # out and the shift measured a third of what it was); a cue or a hand over the cloth or
        # the ball's flat top leaves more than both.
        u = np.minimum(np.abs(e) / (TUKEY * (NOISE_FLOOR + reach * np.hypot(gx, gy))), 1.0)
        wt = sup * (1.0 - u * u) ** 2
        # Gauss-Newton on the shift and a change of brightness (the camera's exposure).
        j = (gx, gy, np.full_like(gx, -1.0))
        a = np.array([[float(np.sum(wt * p * q)) for q in j] for p in j])
        b = -np.array([float(np.sum(wt * p * e)) for p in j])
        try:
            step = np.linalg.solve(a, b)
        except np.linalg.LinAlgError:
            return None
        d += step[:2]
        bias += float(step[2])
        if not np.all(np.isfinite(d)) or float(np.hypot(*d)) > MAX_SHIFT_RADII * patch.radius:
            return None
        if reach <= REACH_LAST_PX and float(np.hypot(*step[:2])) < CONVERGED_PX:
            converged = True
            break
    # The share of the picture's detail (its squared gradient: the rim, the ball's shading)
    # the fit explains; the flat cloth round the ball matches whether the ball is there or not.
    explained = float(np.sum(wt * energy)) / total
    if not converged or explained < LEAST_EXPLAINED:
        return None
    return Shift(d, explained)


def departing(shifts: list[FloatArray], least: float, away: FloatArray, cos: float) -> bool:
    """Whether the shifts of a resting ball measured on consecutive frames (oldest first) show
    it leaving its spot: the last farther than ``least`` pixels, each farther along the last's
    direction than the one before (a struck ball keeps going; the noise and a drag by what
    touches the ball wander), and the last within ``cos`` of ``away`` (the side away from the
    cue; zero: not known).

    Why growing: a cue's tip or a finger over the ball that the robust fit does not weigh out
    pulls the measurement once, and back as it moves on; a ball set rolling moves further every
    frame until it stops.
    """
    if len(shifts) < 2:
        return False
    last = shifts[-1]
    dist = float(np.hypot(*last))
    if dist <= least:
        return False
    unit = last / dist
    along = [float(s @ unit) for s in shifts]
    if any(b <= a for a, b in pairwise(along)):
        return False
    norm = float(np.hypot(*away))
    return norm <= 0 or float(last @ away) / (dist * norm) > cos
