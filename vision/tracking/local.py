"""Finding a known ball near where it should be: a colour search inside its motion gate.

Why a second, local measurement next to the detector: the detector looks for round blobs
of any colour, which fails exactly where tracking matters most, on a ball smeared into a
streak by fast motion, half hidden by a cue tip or a hand, or pressed against another ball.
Inside a small window around the prediction, the tracker already knows what it is looking
for (the ball's remembered colour) and what the background is (the window's median colour,
which is the cloth under today's light), so each pixel can simply be asked: is it nearer to
this ball's colour than to the cloth? The resulting blobs are measured by their thickest
part (the distance transform's upper level), which is the ball itself and not the thin cue
touching it, and the middle of the streak for a blurred ball.
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from vision.detection.detections import BallDetections

FloatArray = npt.NDArray[np.float64]
Image = npt.NDArray[np.uint8]

#: Lab weights (lightness counts half: shading and blur move it most).
_W = np.array([0.5, 1.0, 1.0], np.float32)


def search(
    image: Image,
    roi: tuple[int, int, int, int],
    colour: FloatArray,
    radius: float,
    closer: float = 0.75,
    min_area: float = 0.25,
) -> BallDetections:
    """Blobs in ``roi`` that look like a ball of Lab colour ``colour`` rather than the cloth.

    Args:
        image: the BGR frame.
        roi: ``(x0, y0, x1, y1)`` pixels to search.
        colour: the ball's remembered Lab colour (OpenCV 8-bit scale).
        radius: its apparent radius (pixels).
        closer: a pixel belongs to the ball when its distance to the ball's colour is below
            ``closer`` times its distance to the cloth.
        min_area: smallest blob, as a fraction of the ball's disc area.

    Returns:
        The blobs as detections (colour unknown, confidence from the blob's thickness).
    """
    x0, y0, x1, y1 = roi
    crop = image[y0:y1, x0:x1]
    if crop.shape[0] < 3 or crop.shape[1] < 3:
        return BallDetections.empty()
    lab = cv2.cvtColor(crop, cv2.COLOR_BGR2LAB).astype(np.float32)
    cloth = np.median(lab.reshape(-1, 3), axis=0)
    d_ball = np.linalg.norm((lab - colour.astype(np.float32)) * _W, axis=2)
    d_cloth = np.linalg.norm((lab - cloth) * _W, axis=2)
    # The ball must also differ from the cloth clearly: a ball the colour of the cloth
    # (a green ball under dim light) is still darker than it.
    sep = float(np.linalg.norm((colour.astype(np.float32) - cloth) * _W))
    mask = ((d_ball < closer * d_cloth) & (d_cloth > 0.3 * sep)).astype(np.uint8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    centres: list[tuple[float, float]] = []
    scores: list[float] = []
    for i in range(1, n):
        if stats[i, cv2.CC_STAT_AREA] < min_area * np.pi * radius**2:
            continue
        bx, by, bw, bh = (int(v) for v in stats[i, :4])
        blob = np.pad((labels[by : by + bh, bx : bx + bw] == i).astype(np.uint8), 1)
        dt = cv2.distanceTransform(blob, cv2.DIST_L2, 3)
        peak = float(dt.max())
        if peak > 2.2 * radius:  # a hand or a shirt, not a ball
            continue
        core = dt >= 0.7 * peak
        ys, xs = np.nonzero(core)
        centres.append((x0 + bx + xs.mean() - 1, y0 + by + ys.mean() - 1))
        scores.append(min(1.0, peak / max(radius, 1e-6)))
    if not centres:
        return BallDetections.empty()
    return BallDetections.build(centres, np.full(len(centres), radius), confidence=scores)
