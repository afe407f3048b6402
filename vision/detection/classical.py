"""The fast classical ball detector: whatever is round, ball-sized and not cloth.

Why this works on broadcast footage: every ball differs from the cloth in chromaticity or is
far darker (:mod:`vision.detection.cloth`), and only pixels inside the playing surface count,
so the players, the floor and the score bar outside it are never looked at. Inside it, each
connected blob of non-cloth pixels is judged by its size against the expected ball radius on
its row:

* a blob of about one ball's area and round is one ball (its centroid is the centre);
* a larger blob away from the border is a cluster of touching balls: each ball has its own
  bright cap facing the lights, so the balls are the brightness peaks inside the blob, at
  least 1.5 radii apart, kept where the blob is at least half a radius thick (the distance
  transform), which also rejects a cue lying on the table (too thin);
* a blob touching the playing surface's border that is dark (a pocket) or larger than a ball
  (a player's arm, a cue from outside, the score bar) is not a ball.

Everything runs on a downscaled copy (``scale``) and the centres are mapped back to full
resolution. No constant is set per image: the cloth model and the radius are measured from
the picture.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np
import numpy.typing as npt

from vision.detection.cloth import (
    DARK_FRACTION,
    ClothModel,
    candidate_mask,
    downscale,
    learn_cloth,
    radius_correction,
)
from vision.detection.colour import ColourClassifier, colour_features
from vision.detection.detections import BallDetections, Image

FloatArray = npt.NDArray[np.float64]
Mask = npt.NDArray[np.uint8]
Labels = npt.NDArray[np.int32]


@dataclass(frozen=True)
class Blobs:
    """Connected candidate blobs of one working-scale mask."""

    labels: Labels
    stats: npt.NDArray[np.int32]
    centroids: FloatArray

    @classmethod
    def of(cls, mask: Mask) -> Blobs:
        """Label the mask's 8-connected components."""
        _, labels, stats, cents = cv2.connectedComponentsWithStats(mask, connectivity=8)
        return cls(np.asarray(labels, np.int32), np.asarray(stats, np.int32), np.asarray(cents, np.float64))

    def __len__(self) -> int:
        return len(self.stats) - 1


def calibrate_radius(small: Image, model: ClothModel) -> ClothModel:
    """Correct the model's radius prior by the median size of the image's compact blobs."""
    blobs = Blobs.of(candidate_mask(small, model))
    if len(blobs) == 0:
        return model
    st = blobs.stats[1:].astype(np.float64)
    w, h, a = st[:, cv2.CC_STAT_WIDTH], st[:, cv2.CC_STAT_HEIGHT], st[:, cv2.CC_STAT_AREA]
    expected = model.radius_at(blobs.centroids[1:, 1])
    ratio = np.sqrt(a / math.pi) / expected
    compact = (
        (np.maximum(w, h) / np.maximum(np.minimum(w, h), 1.0) < 1.35)
        & (a / (w * h) > 0.6)
        & (ratio > 0.5)
        & (ratio < 2.2)
    )
    return model.with_radius_scale(radius_correction(a, expected, compact))


def find_balls(
    image: Image, small: Image, mask: Mask, model: ClothModel
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Ball centres ``(N, 2)``, radii and scores (working scale) from the candidate mask."""
    blobs = Blobs.of(mask)
    centres: list[tuple[float, float]] = []
    radii: list[float] = []
    scores: list[float] = []
    if len(blobs) == 0:
        return np.zeros((0, 2)), np.zeros(0), np.zeros(0)
    value = small.max(axis=2)
    dt: npt.NDArray[np.float32] | None = None
    areas: list[float] = []
    clusters: list[tuple[int, float]] = []
    for k in range(1, len(blobs) + 1):
        x0, y0, w, h, area = (int(s) for s in blobs.stats[k])
        cx, cy = blobs.centroids[k]
        r = float(model.radius_at(cy))
        a1 = math.pi * r * r
        if area < 0.55 * a1 or min(w, h) < r:
            continue  # smaller or thinner than any ball: a pocket's edge, a cushion's shade
        sub = blobs.labels[y0 : y0 + h, x0 : x0 + w] == k
        border = float(model.inside[y0 : y0 + h, x0 : x0 + w][sub].min())
        dark = float(np.median(value[y0 : y0 + h, x0 : x0 + w][sub])) < DARK_FRACTION * model.value
        if (dark and border < 2.0 * r) or (border < 1.5 and area > 2.2 * a1):
            continue  # a pocket's mouth, or something reaching in from outside the bed
        aspect = max(w, h) / max(1, min(w, h))
        if area <= 1.8 * a1 and aspect < 1.8 and area / (w * h) > 0.45:
            centres.append((cx, cy))
            radii.append(r)
            scores.append(min(1.0, area / a1))
            areas.append(area / a1)
            continue
        if dt is None:
            dt = np.asarray(cv2.distanceTransform(mask, cv2.DIST_L2, 3), np.float32)
        clusters.append((k, r))
    single = float(np.median(areas)) if len(areas) >= 2 else None
    for k, r in clusters:
        assert dt is not None
        x0, y0, w, h, area = (int(s) for s in blobs.stats[k])
        sub = blobs.labels[y0 : y0 + h, x0 : x0 + w] == k
        for px, py in _split_cluster(image, dt, sub, (x0, y0), r, model.scale, area, single):
            centres.append((px, py))
            radii.append(r)
            scores.append(0.7)
    return np.asarray(centres, np.float64).reshape(-1, 2), np.asarray(radii), np.asarray(scores)


def _cluster_peaks(
    image: Image,
    dt: npt.NDArray[np.float32],
    sub: npt.NDArray[np.bool_],
    origin: tuple[int, int],
    r: float,
    scale: float,
) -> list[tuple[float, float]]:
    """One point per ball of a cluster blob: the specular highlights, found at full resolution.

    Each ball reflects the lamps above the table in a small bright cap, brighter than its
    surroundings even where balls touch (the top-hat of the brightness with a disc smaller
    than a ball isolates them). Peaks at least 1.4 radii apart, where the blob is at least
    half a radius thick (so not on a cue), are the balls.
    """
    x0, y0 = origin
    h, w = sub.shape
    thickest = float(dt[y0 : y0 + h, x0 : x0 + w][sub].max())
    if thickest > 2.6 * r or thickest < 0.75 * r:
        return []  # a body or an arm, or a strip thinner than a ball (a cue, a cushion's shade)
    fx0, fy0 = int(x0 / scale), int(y0 / scale)
    fx1, fy1 = int((x0 + w) / scale) + 1, int((y0 + h) / scale) + 1
    crop = image[fy0:fy1, fx0:fx1]
    value = crop.max(axis=2).astype(np.float32)
    rf = r / scale
    k = max(3, int(1.2 * rf) | 1)
    tophat = value - cv2.morphologyEx(
        value, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    )
    smooth = cv2.GaussianBlur(tophat, (0, 0), max(0.6, 0.2 * rf))
    size = max(3, int(rf) | 1)
    inner = cv2.resize(
        (sub & (dt[y0 : y0 + h, x0 : x0 + w] >= 0.5 * r)).astype(np.uint8),
        (crop.shape[1], crop.shape[0]),
        interpolation=cv2.INTER_NEAREST,
    ).astype(bool)
    peak = (smooth >= cv2.dilate(smooth, np.ones((size, size), np.uint8))) & inner & (smooth > 8.0)
    ys, xs = np.nonzero(peak)
    order = np.argsort(-smooth[ys, xs], kind="stable")
    kept: list[tuple[float, float]] = []
    for i in order:
        x, y = float(xs[i]), float(ys[i])
        if all((x - a) ** 2 + (y - b) ** 2 >= (1.4 * rf) ** 2 for a, b in kept):
            kept.append((x, y))
    return [((x + fx0 + 0.5) * scale - 0.5, (y + fy0 + 0.5) * scale - 0.5) for x, y in kept]


def _split_cluster(
    image: Image,
    dt: npt.NDArray[np.float32],
    sub: npt.NDArray[np.bool_],
    origin: tuple[int, int],
    r: float,
    scale: float,
    area: int,
    single: float | None,
) -> list[tuple[float, float]]:
    """Centres of the touching balls of one blob.

    The number of balls is the blob's area over a single ball's (the median area of this
    image's lone balls, in units of the expected area, measured rather than assumed: a ball's
    rim blends with the cloth) or the number of highlights, whichever is larger; the centres
    are k-means of the blob's pixels started from the highlights.
    """
    peaks = _cluster_peaks(image, dt, sub, origin, r, scale)
    thickest = float(
        dt[origin[1] : origin[1] + sub.shape[0], origin[0] : origin[0] + sub.shape[1]][sub].max()
    )
    if thickest > 2.6 * r or thickest < 0.75 * r:
        return []
    a1 = math.pi * r * r * (single if single is not None else 1.0)
    n_area = max(1, round(area / (1.1 * a1)))
    n = max(n_area, len(peaks))
    if n > max(2, round(1.6 * area / a1)):
        return []  # far more highlights than the area holds balls: a textured occluder
    ys, xs = np.nonzero(sub)
    pts = np.stack([xs + origin[0], ys + origin[1]], axis=1).astype(np.float32)
    if n == 1 or len(pts) < n:
        return [(float(pts[:, 0].mean()), float(pts[:, 1].mean()))]
    crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.1)
    _, _, cents = cv2.kmeans(pts, n, np.zeros((len(pts), 1), np.int32), crit, 3, cv2.KMEANS_PP_CENTERS)
    return [(float(x), float(y)) for x, y in cents]


@dataclass
class ClassicalDetector:
    """Cloth-model ball detector; conforms to :class:`~vision.detection.detections.BallDetector`.

    Attributes:
        scale: working scale (0.5 halves 720p: balls stay about 5 px in radius).
        cloth: a cloth model to reuse (a video's); ``None`` learns one from each image.
        classifier: colour classifier run on the detections; ``None`` leaves colours unknown.
    """

    scale: float = 0.5
    cloth: ClothModel | None = None
    classifier: ColourClassifier | None = field(default_factory=ColourClassifier)

    def learn(self, image: Image, source: str = "image") -> ClothModel:
        """Learn (and keep) the cloth model of ``image``."""
        model = learn_cloth(image, self.scale, source)
        self.cloth = calibrate_radius(downscale(image, self.scale), model)
        return self.cloth

    def detect(self, image: Image, roi: tuple[int, int, int, int] | None = None) -> BallDetections:
        """Balls in a BGR frame (optionally only inside ``roi`` = ``(x0, y0, x1, y1)`` pixels)."""
        model = self.cloth
        if model is None:
            model = calibrate_radius(downscale(image, self.scale), learn_cloth(image, self.scale))
        s = model.scale
        if roi is not None:
            x0, y0, x1, y1 = (round(c * s) for c in roi)
            hh, ww = model.region.shape
            x0, y0, x1, y1 = max(0, x0), max(0, y0), min(ww, x1), min(hh, y1)
            if x1 <= x0 or y1 <= y0:
                return BallDetections.empty()
            crop = image[int(y0 / s) : int(y1 / s), int(x0 / s) : int(x1 / s)]
            small = downscale(crop, s)[: y1 - y0, : x1 - x0]
            sub = _crop_model(model, x0, y0, small.shape[1], small.shape[0])
            centres, radii, scores = find_balls(crop, small, candidate_mask(small, sub), sub)
            centres = centres + np.array([x0, y0], np.float64)
        else:
            small = downscale(image, s)
            centres, radii, scores = find_balls(image, small, candidate_mask(small, model), model)
        det = BallDetections.build((centres + 0.5) / s - 0.5, radii / s, confidence=scores)
        if self.classifier is None or not len(det):
            return det
        feats = colour_features(image, det.pixel, det.radius, model.lab)
        colour, conf = self.classifier.assign(feats)
        return det.with_colour(colour, conf * det.confidence)


def _crop_model(model: ClothModel, x0: int, y0: int, w: int, h: int) -> ClothModel:
    return ClothModel(
        model.chroma,
        model.chroma_sigma,
        model.value,
        model.lab,
        model.region[y0 : y0 + h, x0 : x0 + w],
        model.inside[y0 : y0 + h, x0 : x0 + w],
        model.row_radius[y0 : y0 + h],
        model.scale,
    )
