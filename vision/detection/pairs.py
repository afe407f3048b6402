"""The centre of a ball pressed against other balls, from the rim it shows against the cloth.

Why not the usual weighed centroid (:func:`vision.detection.classical.refine_centres`): beside
the cloth a pixel mixes two colours, and how far its chromaticity lies from the cloth's is how
much of the ball covers it; at a contact a pixel mixes three (cloth, this ball, its neighbour),
and the neighbour's colour is far from the cloth too, so the neighbour's rim counts as this ball.
Each ball also shades the other where they touch, and a shaded white is grey, nearer the cloth's
chromaticity: the pair's centres come out pulled together or pushed apart by up to a pixel,
2-3 mm on a 1080p table, the size of the gap that decides TOUCHING BALL (Section 3 Rule 13).
Leaving the neighbour's disc out of the centroid does not help along the line of centres: what
is left is symmetric about wherever the centre is guessed, so the guess is never corrected along
that line.

The rim facing away from the neighbours is the ball's own silhouette against the cloth. Along
rays from the guessed centre, the point where the ball's share of a pixel falls through a half
is the rim (blur moves both sides of it alike); a circle fitted to those points, the arcs that
face a neighbour left out, is centred on the ball.
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from vision.detection.cloth import chromaticity

FloatArray = npt.NDArray[np.float64]
Image = npt.NDArray[np.uint8]

#: Rays cast from the guessed centre.
RAYS = 48
#: Rays within this angle (degrees) of the direction of a neighbour are left out: the contact,
#: its shade and the neighbour's own rim lie there.
BLIND_DEG = 60.0
#: Samples along a ray (pixels apart), from the ball's middle to beyond its rim.
STEP_PX = 0.25
#: The middle of a ball (radii) whose median chromaticity is taken for its colour, and where a ray
#: starts (a blob's radius, which the first pass starts from, runs up to a third large).
MIDDLE = 0.35
#: Least share of the rays that must find the rim for the fit to stand.
LEAST_RAYS = 0.4
#: Fitting passes (the rays are cast again from the fitted centre).
PASSES = 2


def rim_centre(
    image: Image, guess: FloatArray, r: float, cloth: FloatArray, neighbours: FloatArray
) -> FloatArray | None:
    """The centre (image pixels) of the ball near ``guess``, fitted to the rim it shows.

    Args:
        image: the frame (BGR).
        guess: ``(2,)`` its centre to a pixel or two.
        r: its radius (pixels).
        cloth: the cloth's chromaticity there.
        neighbours: ``(K, 2)`` the centres of the balls beside it (their side of it is not used).

    Returns:
        The centre, or None: too little rim found, a fitted radius unlike ``r``, or the frame's
        edge in the way.
    """
    h, w = image.shape[:2]
    size = r
    reach = r + 3.0
    centre = np.asarray(guess, np.float64).copy()
    for _ in range(PASSES):
        x0, y0 = int(np.floor(centre[0] - reach)) - 1, int(np.floor(centre[1] - reach)) - 1
        x1, y1 = int(np.ceil(centre[0] + reach)) + 2, int(np.ceil(centre[1] + reach)) + 2
        if x0 < 0 or y0 < 0 or x1 > w or y1 > h:
            return None
        origin = np.array([x0, y0], np.float64)
        chroma, _ = chromaticity(image[y0:y1, x0:x1])
        share = _share(chroma, centre - origin, r, cloth)
        if share is None:
            return None
        rim = _rim_points(share, centre - origin, r, reach, neighbours - origin)
        if len(rim) < LEAST_RAYS * RAYS:
            return None
        fitted = _circle(rim)
        if fitted is None:
            return None
        c, radius = fitted
        if not 0.5 * size <= radius <= 1.3 * size:
            return None
        centre = c + origin
        # A blob's radius runs large (shade, blur); the next rays start from the rim found.
        r = radius
    return centre


def _share(
    chroma: npt.NDArray[np.float32], centre: FloatArray, r: float, cloth: FloatArray
) -> npt.NDArray[np.float32] | None:
    """The ball's share of each pixel: its chromaticity's place between the cloth's (0) and the
    ball's middle's (1), along the line joining them."""
    ys, xs = np.mgrid[0 : chroma.shape[0], 0 : chroma.shape[1]]
    middle = (xs - centre[0]) ** 2 + (ys - centre[1]) ** 2 <= (MIDDLE * r) ** 2
    if not np.any(middle):
        return None
    ball = np.median(chroma[middle].astype(np.float64), axis=0)
    axis = ball - np.asarray(cloth, np.float64)
    span = float(axis @ axis)
    if span < 1e-6:
        return None
    out = ((chroma.astype(np.float64) - cloth) @ (axis / span)).astype(np.float32)
    return out


def _rim_points(
    share: npt.NDArray[np.float32], centre: FloatArray, r: float, reach: float, neighbours: FloatArray
) -> FloatArray:
    """Where each ray from ``centre`` not facing a neighbour first falls through a half share."""
    angles = np.arange(RAYS) * (2.0 * np.pi / RAYS)
    dirs = np.stack([np.cos(angles), np.sin(angles)], axis=1)
    if len(neighbours):
        to = neighbours - centre
        to = to / np.maximum(np.linalg.norm(to, axis=1, keepdims=True), 1e-9)
        facing = np.any(dirs @ to.T > np.cos(np.radians(BLIND_DEG)), axis=1)
        dirs = dirs[~facing]
    t = np.arange(MIDDLE * r, reach, STEP_PX)
    if not len(dirs) or len(t) < 2:
        return np.zeros((0, 2))
    pts = centre[None, None, :] + t[None, :, None] * dirs[:, None, :]  # (rays, samples, 2)
    mapx = pts[..., 0].astype(np.float32)
    mapy = pts[..., 1].astype(np.float32)
    prof = cv2.remap(share, mapx, mapy, cv2.INTER_LINEAR)
    below = prof < 0.5
    # The first sample under a half, with the one before it over: the crossing between them.
    first = np.argmax(below, axis=1)
    ok = below.any(axis=1) & (first > 0) & (prof[:, 0] >= 0.5)
    rows = np.flatnonzero(ok)
    k = first[rows]
    a, b = prof[rows, k - 1], prof[rows, k]
    frac = (a - 0.5) / np.maximum(a - b, 1e-6)
    dist = t[k - 1] + frac * STEP_PX
    out: FloatArray = centre[None, :] + dist[:, None] * dirs[rows]
    return out


def _circle(points: FloatArray) -> tuple[FloatArray, float] | None:
    """Least-squares circle through ``points`` (algebraic fit): centre and radius."""
    x, y = points[:, 0], points[:, 1]
    a = np.stack([x, y, np.ones_like(x)], axis=1)
    rhs = -(x * x + y * y)
    sol, *_ = np.linalg.lstsq(a, rhs, rcond=None)
    cx, cy = -sol[0] / 2.0, -sol[1] / 2.0
    rr = cx * cx + cy * cy - sol[2]
    if not np.isfinite(rr) or rr <= 0:
        return None
    return np.array([cx, cy]), float(np.sqrt(rr))
