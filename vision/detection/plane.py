"""The cloth plane from the bed's outline: table millimetres to working pixels, any orientation.

Why: the expected ball size and the cloth's foreshortening must not assume the table's length
runs down the image (a rotated or tilted broadcast breaks that). The bed's outline is a
quadrilateral (the cushion noses); its four sides, fitted as lines through the outline's
points away from the pockets' chamfers, meet at the table's corners, and the homography from
the table's rectangle to them gives, at any pixel, the local scale in both directions. Which
pair of sides is the length is chosen by the less anisotropic mapping at the centre: the right
assignment's anisotropy is the view's foreshortening ``s``, the wrong one's ``1/(4 s)``, so it
is unambiguous for any view less foreshortened than a half.
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from calibration.errors import BaulklineError
from calibration.homography import Homography
from calibration.table import TABLE

FloatArray = npt.NDArray[np.float64]
Mask = npt.NDArray[np.uint8]

#: Part of each side (around its middle) whose outline points fit the side's line: the corner
#: pockets chamfer the outline near the ends.
SIDE_SPAN = 0.7
#: Focal lengths (in image widths) a broadcast or a phone lens can have.
F_RANGE = (0.2, 10.0)


def bed_quad(region: Mask) -> FloatArray | None:
    """The four corners ``(4, 2)`` of the bed (cyclic order), or ``None`` if not a quadrilateral."""
    contours, _ = cv2.findContours(region.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not contours:
        return None
    contour = max(contours, key=cv2.contourArea)
    hull = cv2.convexHull(contour)
    perimeter = cv2.arcLength(hull, True)
    approx = None
    for eps in np.linspace(0.01, 0.1, 19):
        poly = cv2.approxPolyDP(hull, float(eps) * perimeter, True)
        if len(poly) == 4:
            approx = poly.reshape(4, 2).astype(np.float64)
            break
        if len(poly) < 4:
            return None
    if approx is None:
        return None
    pts = contour.reshape(-1, 2).astype(np.float64)
    lines = []
    for i in range(4):
        a, b = approx[i], approx[(i + 1) % 4]
        d = b - a
        n = float(np.hypot(*d))
        if n < 4:
            return None
        t = (pts - a) @ d / (n * n)
        off = np.abs((pts - a) @ np.array([-d[1], d[0]]) / n)
        near = (t > (1 - SIDE_SPAN) / 2) & (t < (1 + SIDE_SPAN) / 2) & (off < 0.05 * n + 2)
        if np.count_nonzero(near) < 5:
            lines.append((a, d / n))
            continue
        vx, vy, x0, y0 = cv2.fitLine(pts[near].astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        lines.append((np.array([x0, y0], np.float64), np.array([vx, vy], np.float64)))
    corners = []
    for i in range(4):
        (p1, d1), (p2, d2) = lines[i - 1], lines[i]
        m = np.array([d1, -d2]).T
        if abs(np.linalg.det(m)) < 1e-6:
            return None
        s = np.linalg.solve(m, p2 - p1)
        corners.append(p1 + s[0] * d1)
    return np.asarray(corners, np.float64)


def jacobians(h: Homography, table_points: FloatArray) -> FloatArray:
    """``(N, 2, 2)`` derivative of pixels by table millimetres at each table point."""
    m = np.asarray(h.matrix, np.float64)
    x, y = table_points[:, 0], table_points[:, 1]
    w = m[2, 0] * x + m[2, 1] * y + m[2, 2]
    u = (m[0, 0] * x + m[0, 1] * y + m[0, 2]) / w
    v = (m[1, 0] * x + m[1, 1] * y + m[1, 2]) / w
    j = np.empty((len(x), 2, 2))
    j[:, 0, 0] = (m[0, 0] - u * m[2, 0]) / w
    j[:, 0, 1] = (m[0, 1] - u * m[2, 1]) / w
    j[:, 1, 0] = (m[1, 0] - v * m[2, 0]) / w
    j[:, 1, 1] = (m[1, 1] - v * m[2, 1]) / w
    return j


def anisotropy(j: FloatArray) -> FloatArray:
    """Smaller over larger singular value of each 2x2 Jacobian (1: seen straight on)."""
    s = np.linalg.svd(j, compute_uv=False)
    return np.asarray(s[..., 1] / np.maximum(s[..., 0], 1e-12), np.float64)


def plane_from_quad(quad: FloatArray, shape: tuple[int, int]) -> Homography | None:
    """Table millimetres to the quad's pixels, the table's length on the right pair of sides.

    A homography of a plane seen by a camera with square pixels and its principal point at the
    image's centre (``shape`` = rows, columns) has columns ``h1, h2`` of equal length once the
    focal length is divided out: ``f^2 = (|h1_xy|^2 - |h2_xy|^2) / (h2_z^2 - h1_z^2)``. With
    the length on the wrong sides this comes out negative (the table would be stretched), which
    holds however foreshortened the view is; where it cannot tell, the less skewed mapping wins.
    """
    rect = np.array([[0.0, 0.0], [TABLE.length, 0.0], [TABLE.length, TABLE.width], [0.0, TABLE.width]])
    centre = np.array([[TABLE.length / 2, TABLE.width / 2]])
    shift_to_centre = np.array([[1.0, 0.0, -shape[1] / 2], [0.0, 1.0, -shape[0] / 2], [0.0, 0.0, 1.0]])
    best: tuple[tuple[bool, float], Homography] | None = None
    for shift in (0, 1):
        try:
            h = Homography.from_points(rect, np.roll(quad, -shift, axis=0))
        except (ValueError, BaulklineError):
            continue
        m = shift_to_centre @ np.asarray(h.matrix, np.float64)
        h1, h2 = m[:, 0], m[:, 1]
        den = h2[2] ** 2 - h1[2] ** 2
        f2 = (h1[0] ** 2 + h1[1] ** 2 - h2[0] ** 2 - h2[1] ** 2) / den if abs(den) > 1e-18 else 0.0
        # Seen nearly straight down the constraint is 0/0: only a focal length a lens could
        # have (a fifth to ten image widths) decides; otherwise the less skewed mapping does.
        plausible = (F_RANGE[0] * shape[1]) ** 2 < f2 < (F_RANGE[1] * shape[1]) ** 2
        score = (plausible, float(anisotropy(jacobians(h, centre))[0]))
        if best is None or score > best[0]:
            best = (score, h)
    return None if best is None else best[1]


def radius_map(h: Homography, shape: tuple[int, int], step: int = 4) -> npt.NDArray[np.float32]:
    """Expected ball radius (pixels) at every pixel: the ball's radius times the plane's larger
    local scale (a sphere's silhouette is not foreshortened like the cloth under it)."""
    hh, ww = shape
    ys, xs = np.mgrid[0 : hh + step : step, 0 : ww + step : step]
    px = np.stack([xs.ravel(), ys.ravel()], axis=1).astype(np.float64)
    table = h.inverse().apply(px)
    s = np.linalg.svd(jacobians(h, table), compute_uv=False)[:, 0] * TABLE.ball_radius
    coarse = s.reshape(xs.shape).astype(np.float32)
    full = cv2.resize(coarse, (xs.shape[1] * step, xs.shape[0] * step), interpolation=cv2.INTER_LINEAR)
    return np.asarray(full[:hh, :ww], np.float32)


def pocket_pixels(h: Homography) -> FloatArray:
    """``(6, 2)`` the pockets' centres in pixels."""
    return h.apply(np.array([p.centre for p in TABLE.pockets.values()], np.float64))


def table_distance_to_pockets(h: Homography, pixels: FloatArray) -> FloatArray:
    """Millimetres on the cloth from each pixel to its nearest pocket centre."""
    table = h.inverse().apply(np.asarray(pixels, np.float64).reshape(-1, 2))
    pk = np.array([p.centre for p in TABLE.pockets.values()], np.float64)
    d = np.hypot(table[:, None, 0] - pk[None, :, 0], table[:, None, 1] - pk[None, :, 1])
    return np.asarray(d.min(axis=1), np.float64)


def foreshortening(h: Homography) -> float:
    """The plane's anisotropy at the table's centre."""
    return float(anisotropy(jacobians(h, np.array([[TABLE.length / 2, TABLE.width / 2]])))[0])


def width_along_rows(h: Homography) -> bool:
    """Whether the table's width runs along the image's rows (within about 15 degrees).

    Then each row's cloth width is the table's width at that depth, the most direct size prior.
    """
    c = np.array([[TABLE.length / 2, TABLE.width / 2], [TABLE.length / 2, TABLE.width / 2 + 100.0]])
    d = np.diff(h.apply(c), axis=0)[0]
    return bool(abs(d[0]) > 3.7 * abs(d[1]))
