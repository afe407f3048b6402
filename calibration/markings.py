"""Finding the table's own markings in one picture: the cloth, its four cushion lines and the
cushion noses (the baulk-line and the D are in :mod:`calibration.rectified`).

The cloth is found by its colour, not by where it sits in the frame: the most saturated hue
whose largest connected region is most like a convex quadrilateral wins, so a green, blue or
red cloth all work and a red carpet around the table does not. The cushion lines come from the
boundary of that region, fitted by sequential RANSAC so balls, pockets, players and cues that
bite into the boundary are outliers, then moved onto the cushion nose by an edge search along
the lines' normals, reading only the full-resolution pixels on those normals.

The cloth is found on a working-resolution copy of the frame (see :data:`WORK_WIDTH`); nothing
else converts or filters the whole frame, which is what keeps a 1080p calibration fast.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Collection
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from calibration.curvefit import curve_inliers, draws
from calibration.errors import BaulklineError
from calibration.homography import FloatArray, Homography
from calibration.table import TABLE

UInt8Array = npt.NDArray[np.uint8]

#: The cloth outline is found on a copy this wide (coarse: the lines are refined on the
#: detail copy); small enough to stay inside the 50 ms budget at 1080p.
WORK_WIDTH = 480

#: A cloth colour region must cover at least this fraction of the frame to be a table.
MIN_CLOTH_FRACTION = 0.08


@dataclass(frozen=True)
class Cloth:
    """The cloth region of a frame.

    Attributes:
        mask: uint8 0/255 mask of the largest cloth-coloured region (balls filled in), at
            working resolution.
        hue: the cloth's OpenCV hue (0-179).
        scale: working pixels per caller pixel.
        solidity: region area over its convex-hull area (1 for an unoccluded quadrilateral).
    """

    mask: UInt8Array
    hue: int
    scale: float
    solidity: float

    def __post_init__(self) -> None:
        if self.mask.ndim != 2:
            raise ValueError(f"cloth mask must be 2-D, got shape {self.mask.shape}")


@dataclass(frozen=True)
class Line:
    """An image line ``a x + b y + c = 0`` with ``a^2 + b^2 = 1`` and its supporting points.

    Attributes:
        abc: the normalised coefficients, ``(3,)``.
        points: the inlier points it was fitted to, ``(N, 2)``.
    """

    abc: FloatArray
    points: FloatArray

    def __post_init__(self) -> None:
        if self.abc.shape != (3,):
            raise ValueError(f"line coefficients must have shape (3,), got {self.abc.shape}")
        if self.points.ndim != 2 or self.points.shape[1] != 2:
            raise ValueError(f"line points must have shape (N, 2), got {self.points.shape}")

    @property
    def normal(self) -> FloatArray:
        """Unit normal ``(a, b)``."""
        n: FloatArray = self.abc[:2]
        return n

    def distance(self, pts: FloatArray) -> FloatArray:
        """Signed distance of ``(N, 2)`` points."""
        d: FloatArray = pts @ self.abc[:2] + self.abc[2]
        return d


def working_copy(image: UInt8Array) -> tuple[UInt8Array, float]:
    """The frame resized to :data:`WORK_WIDTH` (never enlarged) and the scale applied."""
    if image.ndim != 3 or image.shape[2] != 3:
        raise BaulklineError(f"expected a colour (H, W, 3) image, got shape {image.shape}")
    h, w = image.shape[:2]
    scale = min(1.0, WORK_WIDTH / w)
    if scale == 1.0:
        return image, 1.0
    # Bilinear, not area-averaged: a seventh of the time at 1080p, and the cloth region is
    # found from its hue over thousands of pixels, which a little aliasing does not move.
    small = cv2.resize(image, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_LINEAR)
    return np.asarray(small, dtype=np.uint8), scale


def _hue_peaks(hue: UInt8Array, valid: npt.NDArray[np.bool_], n: int = 3) -> list[int]:
    hist = np.bincount(hue[valid].ravel(), minlength=180)[:180].astype(np.float64)
    # Circular smoothing: a cloth's hue spreads over a few bins under uneven light.
    k = np.array([1.0, 2.0, 3.0, 2.0, 1.0])
    padded = np.concatenate([hist[-2:], hist, hist[:2]])
    smooth = np.convolve(padded, k, mode="valid")
    peaks: list[int] = []
    work = smooth.copy()
    for _ in range(n):
        p = int(np.argmax(work))
        if work[p] <= 0:
            break
        peaks.append(p)
        for d in range(-12, 13):
            work[(p + d) % 180] = 0.0
    return peaks


def find_cloth(image: UInt8Array) -> Cloth:
    """The cloth: the dominant saturated hue whose largest region is most table-like.

    Raises:
        BaulklineError: no colour region large and compact enough to be a table.
    """
    small, scale = working_copy(image)
    hsv = cv2.cvtColor(small, cv2.COLOR_BGR2HSV)
    hue, sat, val = hsv[..., 0], hsv[..., 1], hsv[..., 2]
    valid = (sat > 70) & (val > 50)
    valid_u8 = valid.astype(np.uint8) * 255
    hue_u8 = np.ascontiguousarray(hue, dtype=np.uint8)
    total = small.shape[0] * small.shape[1]
    best: Cloth | None = None
    best_score = 0.0
    levels = np.arange(256, dtype=np.int16)
    for peak in _hue_peaks(hue_u8, valid, n=5):
        # Within 9 of the peak round the hue circle, as a lookup table over the 8-bit hues.
        diff = np.abs(levels - peak)
        near = (np.minimum(diff, 180 - diff) <= 9).astype(np.uint8) * 255
        mask = cv2.bitwise_and(cv2.LUT(hue_u8, near), valid_u8)
        if cv2.countNonZero(mask) < MIN_CLOTH_FRACTION * total:
            continue  # too little of this hue to be a table, whatever its shape
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        # Close thin gaps: a cue lying across the cloth must not cut it in two.
        mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
        count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
        if count < 2:
            continue
        idx = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
        area = float(stats[idx, cv2.CC_STAT_AREA])
        if area < MIN_CLOTH_FRACTION * total:
            continue
        region = (labels == idx).astype(np.uint8) * 255
        contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        hull = cv2.convexHull(max(contours, key=cv2.contourArea))
        hull_area = float(cv2.contourArea(hull))
        solidity = area / max(hull_area, 1.0)
        # A floor or carpet of a saturated colour surrounds the table and runs off every edge of
        # the frame; a cloth is bounded by its cushions. Share of the outline on the frame edge:
        outline = max(contours, key=len).reshape(-1, 2)
        hh, ww = region.shape
        on_edge = (
            (outline[:, 0] <= 1)
            | (outline[:, 0] >= ww - 2)
            | (outline[:, 1] <= 1)
            | (outline[:, 1] >= hh - 2)
        )
        # A cloth's holes are balls and markings; a floor's hole is the whole table.
        filled = np.zeros_like(region)
        cv2.drawContours(filled, contours, -1, 255, thickness=cv2.FILLED)
        unholed = area / max(float(np.count_nonzero(filled)), 1.0)
        # Solidity to the fourth: a floor wrapping round the table can be three times its area,
        # but it is far from convex (0.65 against 0.9 and more for a cloth, even behind a cue).
        score = area * solidity**4 * unholed**2 * (1.0 - float(on_edge.mean()))
        if score > best_score:
            # The filled region: the boundary is only the table's outline.
            best_score = score
            best = Cloth(mask=filled, hue=peak, scale=scale, solidity=solidity)
    if best is None:
        raise BaulklineError(
            f"no table in view: no cloth-coloured region covers {MIN_CLOTH_FRACTION:.0%} of the frame"
        )
    return best


def _fit_line(pts: FloatArray) -> FloatArray:
    """Total-least-squares line through points, normalised ``(a, b, c)``."""
    centre = pts.mean(axis=0)
    _, _, vt = np.linalg.svd(pts - centre, full_matrices=False)
    normal = vt[1]
    abc: FloatArray = np.array([normal[0], normal[1], -float(normal @ centre)])
    return abc


def ransac_lines(
    pts: FloatArray,
    count: int,
    tol: float,
    min_support: int,
    iterations: int = 160,
    seed: int = 0,
) -> list[Line]:
    """Up to ``count`` lines found one after another, each taking its inliers away.

    Why sequential RANSAC: a cushion line is the longest straight run of the cloth outline;
    whatever interrupts it (pockets, a player's arm) only removes points, it cannot pull the
    fit, because points off the line are never averaged in.
    """
    rng = np.random.default_rng(seed)
    remaining = pts.copy()
    lines: list[Line] = []
    for _ in range(count):
        if len(remaining) < min_support:
            break
        i = rng.integers(0, len(remaining), size=(iterations, 2))
        p, q = remaining[i[:, 0]], remaining[i[:, 1]]
        d = q - p
        norm = np.hypot(d[:, 0], d[:, 1])
        ok = norm > 10 * tol
        if not np.any(ok):
            break
        n = np.stack([-d[ok, 1], d[ok, 0]], axis=1) / norm[ok, None]
        c = -np.sum(n * p[ok], axis=1)
        dist = np.abs(np.einsum("nk,hk->nh", remaining, n) + c)  # (N, H)
        support = (dist < tol).sum(axis=0)
        h = int(np.argmax(support))
        if support[h] < min_support:
            break
        inl = dist[:, h] < tol
        abc = _fit_line(remaining[inl])
        inl = np.abs(remaining @ abc[:2] + abc[2]) < tol
        abc = _fit_line(remaining[inl])
        lines.append(Line(abc=abc, points=remaining[inl]))
        remaining = remaining[~inl]
    return lines


def outline_points(cloth: Cloth) -> FloatArray:
    """Points of the cloth outline, excluding where the frame's own border cuts the cloth.

    The outline is the convex hull's, sampled every pixel along each hull edge: a cue, an arm
    or a player's body lying over a cushion cuts a notch into the cloth region whose straight
    flanks would otherwise pass for cushion lines; the hull bridges the notch along the cushion
    line itself.
    """
    contours, _ = cv2.findContours(cloth.mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    hull = np.asarray(cv2.convexHull(max(contours, key=len)), dtype=np.float64).reshape(-1, 2)
    a, b = hull, np.roll(hull, -1, axis=0)
    n = np.maximum(np.ceil(np.hypot(*(b - a).T)).astype(int), 1)
    t = np.concatenate([np.arange(k) / k for k in n])
    start = np.repeat(a, n, axis=0)
    pts: FloatArray = start + t[:, None] * (np.repeat(b, n, axis=0) - start)
    h, w = cloth.mask.shape
    keep = (pts[:, 0] > 2) & (pts[:, 0] < w - 3) & (pts[:, 1] > 2) & (pts[:, 1] < h - 3)
    out: FloatArray = pts[keep]
    return out


def intersect(l1: FloatArray, l2: FloatArray) -> FloatArray:
    """Intersection of two lines ``(a, b, c)``; raises on (near-)parallel lines."""
    a1, b1, c1 = float(l1[0]), float(l1[1]), float(l1[2])
    a2, b2, c2 = float(l2[0]), float(l2[1]), float(l2[2])
    w = a1 * b2 - b1 * a2  # the cross product, by components: numpy's costs a dozen calls
    if abs(w) < 1e-9:
        raise BaulklineError("two cushion lines are parallel; the table outline is not a quadrilateral")
    out: FloatArray = np.array([(b1 * c2 - c1 * b2) / w, (c1 * a2 - a1 * c2) / w])
    return out


def order_quad(lines: list[Line], centre: FloatArray) -> list[Line]:
    """Four lines in order round the cloth (by the direction of their normal from its centre)."""
    angles = []
    for ln in lines:
        # Foot of the perpendicular from the centre: its direction orders the sides.
        foot = centre - ln.distance(centre[None, :])[0] * ln.normal
        angles.append(np.arctan2(foot[1] - centre[1], foot[0] - centre[0]))
    order = np.argsort(angles)
    return [lines[i] for i in order]


#: The outline is thinned to at most this many points before the line search.
MAX_OUTLINE_POINTS = 400


def outer_quad(cloth: Cloth) -> tuple[list[Line], FloatArray]:
    """The four outline lines of the cloth, in order round it, and their corner points ``(4, 2)``
    (corner ``i`` joins line ``i`` and line ``i + 1``), at working resolution.

    Raises:
        BaulklineError: fewer than four straight sides are visible.
    """
    pts = outline_points(cloth)
    # The hull's straight runs lose nothing when thinned; the support needed thins with them.
    thin = max(1, int(np.ceil(len(pts) / MAX_OUTLINE_POINTS)))
    pts = pts[::thin]
    h, w = cloth.mask.shape
    tol = max(1.0, 1.5 * w / WORK_WIDTH)
    min_support = max(8, int(max(20, int(0.06 * (h + w) / 2)) / thin))
    lines = ransac_lines(pts, 6, tol, min_support)
    if len(lines) < 4:
        raise BaulklineError(
            f"too little of the table in view: only {len(lines)} of its four cushion lines are visible"
        )
    m = cv2.moments(cloth.mask, binaryImage=True)  # the region's centroid, without its pixel list
    centre = np.array([m["m10"] / m["m00"], m["m01"] / m["m00"]])
    return _best_quad(lines, centre, outline_hull(cloth))


def outline_hull(cloth: Cloth) -> npt.NDArray[np.float32]:
    """The convex hull of the cloth region ``(K, 2)`` (working pixels)."""
    contours, _ = cv2.findContours(cloth.mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return np.asarray(cv2.convexHull(max(contours, key=cv2.contourArea)), dtype=np.float32).reshape(-1, 2)


def _best_quad(
    lines: list[Line], centre: FloatArray, hull: npt.NDArray[np.float32]
) -> tuple[list[Line], FloatArray]:
    """The four of ``lines`` whose quadrilateral covers the cloth's hull best (intersection over
    union), in order round it, and its corners.

    Why not simply the four longest: pocket mouths make short extra segments, but under a strong
    barrel lens a long cushion bows, and its two halves can both outlast a short end cushion
    (synthetic seed 60: two lines of one long side, a corner 45 m off the frame). The sides of
    the table are the four lines whose quadrilateral is the cloth.
    """
    # Areas counted in pixels of the working copy (cv2.intersectConvexConvex returned more than
    # the hull's whole area for a quadrilateral reaching off the frame).
    shape = (int(np.ceil(hull[:, 1].max())) + 2, int(np.ceil(hull[:, 0].max())) + 2)
    inside = np.zeros(shape, np.uint8)
    cv2.fillConvexPoly(inside, np.round(hull).astype(np.int32), 1)
    hull_area = float(cv2.countNonZero(inside))
    best: tuple[float, list[Line], FloatArray] | None = None
    for quad in itertools.combinations(lines, 4):
        ordered = order_quad(list(quad), centre)
        try:
            corners = np.array([intersect(ordered[i].abc, ordered[(i + 1) % 4].abc) for i in range(4)])
        except BaulklineError:
            continue
        poly = corners.astype(np.float32)
        if not np.all(np.abs(corners) < 1e6) or not cv2.isContourConvex(poly):
            continue
        mask = np.zeros(shape, np.uint8)
        cv2.fillConvexPoly(mask, np.round(corners).astype(np.int32), 1)
        inter = float(cv2.countNonZero(mask & inside))
        score = inter / max(abs(float(cv2.contourArea(poly))) + hull_area - inter, 1e-9)
        if best is None or score > best[0]:
            best = (score, ordered, corners)
    if best is None:
        raise BaulklineError("the cloth outline's straight sides do not make a quadrilateral")
    return best[1], best[2]


def sample(img: npt.NDArray[np.uint8] | npt.NDArray[np.float32] | FloatArray, pts: FloatArray) -> FloatArray:
    """Bilinear samples of ``img`` at ``(..., 2)`` pixel points; NaN outside the image. A colour
    image gives the brightest channel (HSV value), so the cloth's own colour carries the signal
    whatever that colour is. Only the points asked for are read: no full-frame conversion."""
    shape = pts.shape[:-1]
    flat = pts.reshape(-1, 2).astype(np.float32)
    h, w = img.shape[:2]
    src = img if img.dtype == np.uint8 else np.asarray(img, dtype=np.float32)
    # The maps keep the points' own rows (a column of one for a flat list): remap reads a
    # wide map faster than a tall one, and each output pixel is the same either way.
    cols = shape[-1] if len(shape) > 1 and shape[-1] > 0 else 1
    vals = cv2.remap(
        src,
        np.ascontiguousarray(flat[:, 0].reshape(-1, cols)),
        np.ascontiguousarray(flat[:, 1].reshape(-1, cols)),
        cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE,
    )
    if vals.ndim == 3:  # the brightest channel, by channel: numpy's max over a short last axis crawls
        vals = np.maximum(np.maximum(vals[..., 0], vals[..., 1]), vals[..., 2])
    out: FloatArray = np.asarray(vals, dtype=np.float64).reshape(shape)
    inside = (flat[:, 0] >= 0) & (flat[:, 0] <= w - 1) & (flat[:, 1] >= 0) & (flat[:, 1] <= h - 1)
    out.reshape(-1)[~inside] = np.nan
    return out


def robust_curve(pts: FloatArray, tol: float, iterations: int = 40, seed: int = 0) -> npt.NDArray[np.bool_]:
    """Inliers of the best quadratic curve through image points (RANSAC on three points, the
    best hypothesis refitted to its inliers by least squares).

    A quadratic, not a line, so that a cushion bent by lens distortion still counts as one
    curve; occluded samples (a ball, a cue, an arm) are the outliers. The three-point curves
    are solved in closed form (divided differences) and the axes come from the 2x2 scatter
    matrix, compiled (:mod:`calibration.curvefit`): it runs a dozen times per calibration on a
    few dozen points, where numpy's calls cost more than their arithmetic.
    """
    n = len(pts)
    if n < 6:
        return np.zeros(n, dtype=bool)
    pts64 = np.ascontiguousarray(pts, dtype=np.float64)
    out: npt.NDArray[np.bool_] = curve_inliers(pts64, float(tol), draws(n, iterations, seed))
    return out


#: Projects ``(N, 2)`` table millimetres at height ``z`` to detail-copy pixels.
ToImage = Callable[[FloatArray, float], FloatArray]


def homography_projector(hom: Homography) -> ToImage:
    """A :data:`ToImage` that ignores height: the rough, outline-only stage."""

    def project(pts: FloatArray, z: float) -> FloatArray:
        return hom.apply(pts)

    return project


def _gradient(values: FloatArray) -> FloatArray:
    """``numpy.gradient`` along each row (central differences, one-sided at the ends), for rows
    of at least two samples: the same numbers without its generic axis handling."""
    out = np.empty_like(values)
    out[:, 1:-1] = (values[:, 2:] - values[:, :-2]) / 2.0
    out[:, 0] = values[:, 1] - values[:, 0]
    out[:, -1] = values[:, -1] - values[:, -2]
    return out


def _vertex(values: FloatArray, i: npt.NDArray[np.intp]) -> tuple[FloatArray, FloatArray]:
    """Sub-sample position of each row's peak at whole-sample index ``i`` (a parabola through
    it and its neighbours, moved at most half a sample), and the peak sample's value."""
    rows = np.arange(len(values))
    a, b, c = values[rows, i - 1], values[rows, i], values[rows, i + 1]
    with np.errstate(invalid="ignore"):
        denom = a - 2 * b + c
        ok = np.isfinite(a) & np.isfinite(c) & (denom < 0)
        off = np.where(ok, 0.5 * (a - c) / np.where(ok, denom, 1.0), 0.0)
    out: FloatArray = i + np.clip(off, -0.5, 0.5)
    return out, b


def _peak(values: FloatArray, start: npt.NDArray[np.intp]) -> tuple[FloatArray, FloatArray]:
    """Sub-sample index and height of each row's maximum at or after ``start``."""
    m = values.shape[1]
    cols = np.arange(m)[None, :]
    masked = np.where((cols >= start[:, None]) & np.isfinite(values), values, -np.inf)
    i = np.clip(np.argmax(masked, axis=1), 1, m - 2)
    return _vertex(masked, i)


#: Where along each cushion the nose is sampled (mm from the corner): clear of the pockets.
CORNER_CLEARANCE = 160.0
MIDDLE_CLEARANCE = 140.0

#: Inward direction (table axis and sign) of each cushion side.
INWARD: dict[str, tuple[int, float, float]] = {
    "baulk": (0, 0.0, 1.0),
    "top": (0, TABLE.length, -1.0),
    "left": (1, 0.0, 1.0),
    "right": (1, TABLE.width, -1.0),
}


def _along(side: str, step: float) -> FloatArray:
    """Positions along a side (mm) at which to sample it, clear of the pocket mouths."""
    axis = INWARD[side][0]
    span = TABLE.width if axis == 0 else TABLE.length
    t: FloatArray = np.arange(CORNER_CLEARANCE, span - CORNER_CLEARANCE, step, dtype=np.float64)
    if axis == 1:
        t = t[np.abs(t - TABLE.length / 2.0) > MIDDLE_CLEARANCE]
    return t


def _grid(side: str, along: FloatArray, offsets: FloatArray) -> FloatArray:
    """Table points ``(len(along), len(offsets), 2)``: inward offsets from a side's face line."""
    axis, value, sign = INWARD[side]
    pts = np.empty((len(along), len(offsets), 2))
    pts[..., axis] = value + sign * offsets[None, :]
    pts[..., 1 - axis] = along[:, None]
    return pts


#: How far outside a candidate cushion edge (mm) its outer side is probed for cloth colour.
OUTSIDE_PROBE = 15.0


def cloth_coloured(image: UInt8Array, px: FloatArray, hue: int) -> npt.NDArray[np.bool_]:
    """Whether the picture at pixels ``(..., 2)`` is the cloth's colour (a shaded cushion top
    included, so value and saturation may be low); False off the picture. Only these pixels are
    converted to HSV."""
    shape = px.shape[:-1]
    flat = px.reshape(-1, 2).astype(np.float32)
    cols = shape[-1] if len(shape) > 1 and shape[-1] > 0 else 1  # wide maps, as in sample()
    bgr = cv2.remap(
        image,
        np.ascontiguousarray(flat[:, 0].reshape(-1, cols)),
        np.ascontiguousarray(flat[:, 1].reshape(-1, cols)),
        cv2.INTER_LINEAR,
    )
    hsv = cv2.cvtColor(np.asarray(bgr, dtype=np.uint8), cv2.COLOR_BGR2HSV).reshape(-1, 3)
    diff = np.abs(hsv[:, 0].astype(np.int16) - hue)
    diff = np.minimum(diff, 180 - diff)
    h, w = image.shape[:2]
    on = (flat[:, 0] >= 0) & (flat[:, 0] <= w - 1) & (flat[:, 1] >= 0) & (flat[:, 1] <= h - 1)
    ok = on & (diff <= 14) & (hsv[:, 1] >= 40) & (hsv[:, 2] >= 25)
    out: npt.NDArray[np.bool_] = ok.reshape(shape)
    return out


def _refine(values: FloatArray, idx: FloatArray) -> FloatArray:
    """Sub-sample peak position of ``values`` around the whole-sample index ``idx`` per row."""
    i = np.clip(np.round(idx).astype(np.intp), 1, values.shape[1] - 2)
    return _vertex(values, i)[0]


def _took_rail(
    idx: FloatArray, height: FloatArray, idx_in: FloatArray, height_in: FloatArray, offsets: FloatArray
) -> npt.NDArray[np.bool_]:
    """Rows whose strongest step is the rail's edge: a step with cloth outside it lies about a
    cushion width further in (where the strongest step is the nose, that step is itself)."""
    step = float(offsets[1] - offsets[0]) if len(offsets) > 1 else 1.0
    gap = (idx_in - idx) * step  # mm inwards from the strongest step
    cw = TABLE.cushion_width
    out: npt.NDArray[np.bool_] = (
        np.isfinite(height_in) & (height_in > 2.0) & (gap >= 0.5 * cw) & (gap <= 1.5 * cw)
    )
    return out


def _rows_of(sides: list[str], alongs: list[FloatArray], which: Collection[str]) -> npt.NDArray[np.bool_]:
    """Which rows of the stacked windows belong to the sides in ``which``."""
    return np.concatenate([np.full(len(a), side in which) for side, a in zip(sides, alongs, strict=True)])


def _past_the_foot(
    slope: FloatArray,
    grad: FloatArray,
    idx: FloatArray,
    height: FloatArray,
    start: npt.NDArray[np.intp],
    seen: npt.NDArray[np.bool_],
) -> tuple[FloatArray, FloatArray]:
    """On a cushion whose face the camera sees, the edge at the nose is the rise out of the face's
    shadow; the fall into it is the face's foot on the cloth, a face's height nearer (the bed's
    bright cloth, then the shadowed face, then the lit cushion top). Where the strongest step
    of such a row falls outwards (``slope``, along the window inwards, is positive there), the
    nearest rise outward of it with at least half its strength is taken instead."""
    rows = np.arange(len(idx))
    at = np.clip(np.round(np.nan_to_num(idx)).astype(np.intp), 0, slope.shape[1] - 1)
    foot = seen & np.isfinite(height) & (np.nan_to_num(slope[rows, at]) > 0)
    if not foot.any():
        return idx, height
    rise = np.nan_to_num(-slope, nan=-np.inf)
    prev = np.concatenate([np.full((len(rise), 1), -np.inf), rise[:, :-1]], axis=1)
    nxt = np.concatenate([rise[:, 1:], np.full((len(rise), 1), -np.inf)], axis=1)
    cols = np.arange(rise.shape[1])[None, :]
    cand = (rise >= prev) & (rise >= nxt) & (rise >= 0.5 * height[:, None])
    cand &= (cols >= start[:, None]) & (cols < at[:, None])
    j = np.where(cand, cols, -1).max(axis=1)
    take = foot & (j > 0)
    if not take.any():
        return idx, height
    new_idx = _refine(grad, np.where(take, j, 1).astype(np.float64))
    return np.where(take, new_idx, idx), np.where(take, rise[rows, np.maximum(j, 0)], height)


def nose_points(
    image: UInt8Array,
    cloth: Cloth,
    to_image: ToImage,
    side: str,
    offsets: FloatArray,
    z: float,
    step: float = 40.0,
    seen: Collection[str] = (),
) -> FloatArray:
    """Image points where the bed of cloth ends along one side (image pixels), outliers removed:
    :func:`nose_points_sides` for one side."""
    return nose_points_sides(image, cloth, to_image, {side: offsets}, z, step, seen)[side]


def nose_points_sides(
    image: UInt8Array,
    cloth: Cloth,
    to_image: ToImage,
    offsets: dict[str, FloatArray],
    z: float,
    step: float = 40.0,
    seen: Collection[str] = (),
) -> dict[str, FloatArray]:
    """Image points where the bed of cloth ends along each side (image pixels), outliers
    removed; ``offsets``: each side's search window (inward mm from its face line), all of one
    length and spacing; ``seen``: the sides whose face the camera sees, where the edge is the
    rise out of the face's shadow, not the fall into it at the face's foot (:func:`_past_the_foot`).

    Along each sampled normal, from where the cloth starts, the edge is the strongest
    brightness step. Where the nose is faint that is the rail's edge, a cushion width out: the
    cushion top beyond the nose is cloth-covered, the wooden rail beyond the cushion top is not,
    so where a step with cloth colour :data:`OUTSIDE_PROBE` outside it lies a cushion width
    further in (:func:`_took_rail`), that step is the nose (their height and position differ,
    see :func:`calibration.fit.edge_height`).

    Every side's normals are searched in one batch (one projection, one sampling of the
    picture): each normal is independent, and four calls cost four times the array calls'
    overhead, which was most of the search's time.
    """
    sides = list(offsets)
    if len({len(o) for o in offsets.values()}) > 1:
        raise ValueError("every side's search window must have the same number of samples")
    alongs = [_along(side, step) for side in sides]
    table = np.concatenate([_grid(side, a, offsets[side]) for side, a in zip(sides, alongs, strict=True)])
    shifted = table.copy()
    rows = 0
    for side, a in zip(sides, alongs, strict=True):
        axis, _, sign = INWARD[side]
        shifted[rows : rows + len(a), :, axis] -= sign * OUTSIDE_PROBE
        rows += len(a)
    # Both grids in one projection: the probe just outside each sample too.
    both = to_image(np.concatenate([table, shifted]).reshape(-1, 2), z).reshape((2, *table.shape))
    px, out_px = both[0], both[1]
    prof = sample(image, px)
    inside = sample(cloth.mask, px * cloth.scale) > 127
    slope = _gradient(prof)  # along each window: inwards
    grad = np.abs(slope)
    # Whether each sample has cloth (a cushion top) just outside it: the nose does, the rail's
    # edge, a cushion width out, has wood (or anything not cloth) there.
    cloth_out = cloth_coloured(image, out_px, cloth.hue)
    # First sample from which the profile stays on cloth; then two more for the rail edge.
    start = np.argmax(np.cumprod(inside[:, ::-1], axis=1)[:, ::-1], axis=1) + 2
    idx, height = _peak(grad, start)
    fin = np.where(np.isfinite(grad), grad, -np.inf)
    left = np.concatenate([np.full((len(fin), 1), -np.inf), fin[:, :-1]], axis=1)
    right = np.concatenate([fin[:, 1:], np.full((len(fin), 1), -np.inf)], axis=1)
    # A second line of steps, each with cloth outside it: where the strongest step was the
    # rail's edge, the nose is there.
    cols = np.arange(fin.shape[1])[None, :]
    cand = (fin >= left) & (fin >= right) & cloth_out & (cols >= start[:, None])
    idx_in, height_in = _peak(np.where(cand, fin, -np.inf), start)
    idx_in = _refine(fin, idx_in)
    took_rail = _took_rail(idx, height, idx_in, height_in, offsets[sides[0]])
    idx, height = np.where(took_rail, idx_in, idx), np.where(took_rail, height_in, height)
    idx, height = _past_the_foot(slope, fin, idx, height, start, _rows_of(sides, alongs, seen))
    ok = np.isfinite(height) & (height > 2.0) & inside.any(axis=1)
    pts = np.empty((len(idx), 2))
    rows = 0
    for side, a in zip(sides, alongs, strict=True):
        axis, value, sign = INWARD[side]
        sl = slice(rows, rows + len(a))
        pos = np.interp(idx[sl], np.arange(len(offsets[side])), offsets[side])
        pts[sl, axis] = value + sign * pos
        pts[sl, 1 - axis] = a
        rows += len(a)
    img = to_image(pts, z)
    out: dict[str, FloatArray] = {}
    rows = 0
    for side, a in zip(sides, alongs, strict=True):
        sl = slice(rows, rows + len(a))
        found = img[sl][ok[sl]]
        out[side] = found[robust_curve(found, tol=1.5)]
        rows += len(a)
    return out
