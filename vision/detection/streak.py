"""A moving ball smeared over the exposure: one ball, not a row of touching ones.

Why: a ball rolling fast crosses up to three of its own diameters while the shutter is open
(16 cm per frame at 10 m/s and 60 fps, issue 5), and the camera draws it as a streak: a
stadium as wide as the ball and several balls long. By area such a blob holds two to four
balls, and the cluster splitter (:mod:`vision.detection.cluster`) cut it into that many, each
a pale mix of the ball and the cloth that the colour assignment then handed another ball's
colour (a smeared yellow on a held-out render became a green, a white and a yellow, and the
real green, white and brown were renamed in turn). A row of touching balls is as long, but
it narrows where two balls meet; the streak keeps the ball's width along its middle. Its
centre is the middle of the streak: where the ball was at mid-exposure, the frame's time.
Nor does a streak show two lamp caps a ball apart (its cap is smeared into a line): balls
overlapping one behind the other at the far end of a broadcast view keep no narrowing
between them (their centres are a diameter apart on the cloth, under a radius on screen),
but each shows its cap (:mod:`vision.detection.cluster`).
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from vision.detection.cluster import MIN_STRENGTH, ClusterPrior, cap_map, cap_peaks
from vision.detection.detections import Image

BoolArray = npt.NDArray[np.bool_]

#: A streak is at least this many times longer than wide (a lone ball's blob is about 1).
MIN_ELONGATION = 1.5
#: Its width, in expected radii (the expected radius already holds the blur): a ball's diameter.
WIDTH = (1.5, 2.8)
#: Along its middle (half a width in from each end) the narrowest slice is at least this share
#: of the middle's median width: two touching balls narrow to well under it where they meet.
MIN_WAIST = 0.8


def is_streak(blob: BoolArray, r: float) -> bool:
    """Whether ``blob`` (its own pixels) is one ball smeared along a line, ``r`` its expected
    radius in the blob's pixels.

    The blob's pixels are projected on its principal axis and cut in one-pixel slices across it.
    """
    ys, xs = np.nonzero(blob)
    if len(xs) < 6:
        return False
    pts = np.stack([xs, ys], axis=1).astype(np.float64)
    pts -= pts.mean(axis=0)
    _, vecs = np.linalg.eigh(pts.T @ pts)
    t = pts @ vecs[:, 1]
    across = pts @ vecs[:, 0]
    slot = np.floor(t - t.min()).astype(np.int64)
    # Each slice's extent across the axis, not its pixel count: slanted slices meet the pixel
    # grid unevenly (8 and 17 pixels in turn across a 12-pixel streak at 47 degrees), but the
    # pixels of each still span its width. Three slices together smooth the rest.
    hi = np.full(int(slot.max()) + 1, -np.inf)
    lo = np.full(int(slot.max()) + 1, np.inf)
    np.maximum.at(hi, slot, across)
    np.minimum.at(lo, slot, across)
    widths = np.where(np.isfinite(hi), hi - lo + 1.0, 0.0)
    widths = np.asarray(np.convolve(widths, np.ones(3) / 3.0, mode="same"), np.float64)
    length = float(len(widths))
    centre = widths[int(0.25 * length) : max(int(0.75 * length), int(0.25 * length) + 1)]
    width = float(np.median(centre))
    if width <= 0 or length < MIN_ELONGATION * width or not WIDTH[0] * r <= width <= WIDTH[1] * r:
        return False
    half = int(np.ceil(width / 2))
    middle = widths[half : len(widths) - half]
    return bool(len(middle) and middle.min() >= MIN_WAIST * width and middle.max() <= width / MIN_WAIST)


def smeared(
    image: Image,
    blob: BoolArray,
    origin: tuple[int, int],
    r: float,
    scale: float,
    prior: ClusterPrior,
    squash: float = 1.0,
) -> bool:
    """Whether a working-scale ``blob`` at ``origin`` is one moving ball: a streak
    (:func:`is_streak`) with at most one lamp cap as strong as a ball's."""
    if not is_streak(blob, r):
        return False
    x0, y0 = origin
    h, w = blob.shape
    fx0, fy0 = int(x0 / scale), int(y0 / scale)
    fx1, fy1 = min(image.shape[1], int((x0 + w) / scale) + 1), min(image.shape[0], int((y0 + h) / scale) + 1)
    crop = image[fy0:fy1, fx0:fx1]
    if crop.shape[0] < 3 or crop.shape[1] < 3:
        return True
    full = cv2.resize(blob.astype(np.uint8), (crop.shape[1], crop.shape[0]), interpolation=cv2.INTER_NEAREST)
    rf = r / scale
    caps = cap_map(crop, rf)
    peaks = cap_peaks(caps, full > 0, rf, MIN_STRENGTH * prior.strength, squash)
    return len(peaks) <= 1
