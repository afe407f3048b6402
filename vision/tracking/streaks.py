"""A struck ball's faint streak: found as new colour on the cloth, not as a ball.

Why: on broadcast footage a fast ball is a ghost. The frames are blends (25 to 30 frames a
second, a streak over the exposure), and a black struck from its spot towards a pocket shows
as a ball-sized patch of darker cloth that holds a third of the ball's colour at most (Task2
clips 6 and 12: 0.25-0.37 of the way from the cloth to the black in Lab). The detector names
such a patch green, or misses it, and the colour search (:func:`vision.tracking.local.search`)
measures each pixel against the window's median cloth, where a third of the way is within the
lighting's spread over a window a struck ball's lost gate covers; the black was lost on its
spot and no pot was called.

What tells the ghost apart is that the cloth under it was bare a moment ago. Each pixel is
measured against its own colour in the frame the ball was last seen in (the ``before`` image):
a pixel of the ghost lies on the Lab segment from that colour towards the ball's (its share of
the exposure the ball covered it, ``t``), near the segment. Everything that did not change is
``t`` = 0 whatever its colour: the cushions' shade, a pocket's leather, the balls at rest, the
lighting's fall-off. What did change is the struck ball, the other balls moving, the cue and
the player. The patch must then have a ball's size and shape (:func:`streak_shape`): about a
diameter across (a cue or its shadow is a fifth of that; an arm, a sleeve or a player's shadow
several), no longer than a diameter plus a frame's fastest travel, and a streak long enough to
show its direction must point back to where the ball was last seen (a ball rolls straight).
And it must lie on the cloth, which shows round it (:func:`on_cloth`): a fold of a player's
dark jacket moving over the table is on a black's segment too, inside the jacket. What is
left beside a moving ball (its shadow moves with it) is the caller's to refuse
(:class:`vision.tracking.video.VideoTracker`: within two radii of another ball).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.detection.detections import BallDetections
from vision.tracking.appearance import LAB_W

FloatArray = npt.NDArray[np.float64]
Float32Array = npt.NDArray[np.float32]
Image = npt.NDArray[np.uint8]

#: The Lab weights of colour distances (:data:`vision.tracking.appearance.LAB_W`), in the
#: float32 the frame's Lab is worked in.
_LAB_W32 = LAB_W.astype(np.float32)


@dataclass(frozen=True)
class StreakConfig:
    """What a struck ball's ghost is.

    Attributes:
        t_min: smallest share of the ball's colour in a ghost pixel's blend with the cloth
            under it: under the ghosts' 0.25-0.37 at their darkest (Task2 clips 6 and 12), over
            the codec's noise on still cloth (a hundredth to a twentieth of a black's segment).
        off_max: largest distance off the cloth-to-ball segment, as a share of the segment: a
            blend stays on it (the ghosts: 0.06-0.07); a hand, a shirt or the white are far
            off a black's segment.
        width: a ghost's width across its axis, in ball diameters (four times the spread of its
            pixels across the axis, a disc's diameter for a disc): the thresholded ghosts were
            0.6-0.85 of one; a white's crescent of shadow and a cue 0.2-0.45, an arm more than 2.
        max_length: longest a ghost is along its axis, in diameters: a diameter plus a
            frame's travel at the fastest a ball is struck (10 m/s at 30 fps crosses about 6
            diameters; the broadcast's exposure is much shorter than a frame).
        min_area: smallest ghost, as a share of the ball's disc (the thresholded ghosts held
            0.6-1.1 of it; half a ball at the edge of the cloth still counts). The width and the
            length bound the largest.
        elongated: length over width beyond which a ghost shows its direction of travel ...
        max_angle: ... and its axis must then point within this many degrees of the line
            from where the ball was last seen (a shadow or a cue's ghost lies any way).
        ring: radii (from the ghost's centre, in ball radii) of the ring round it that must
            show the cloth ...
        cloth_ab: ... a pixel's Lab chroma (``a``, ``b``) within this of the cloth's ...
        cloth_ring: ... in at least this share of the ring's pixels on the playing surface. A
            ball rolls over bare cloth; a fold of a dark jacket moving over the table is on a
            black's segment and ball-sized at times, but what is round it is the jacket
            (Task2 clip 20: a player walking past the black, rings 0-24% cloth; the ghosts of
            clips 6 and 12, 72-100%, the lower ones by a cushion).
    """

    t_min: float = 0.15
    off_max: float = 0.35
    width: tuple[float, float] = (0.5, 1.6)
    max_length: float = 7.0
    min_area: float = 0.4
    elongated: float = 1.6
    max_angle: float = 35.0
    ring: tuple[float, float] = (1.5, 2.5)
    cloth_ab: float = 12.0
    cloth_ring: float = 0.5


def blend_share(now: Float32Array, before: Float32Array, ball: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Per pixel, where its Lab colour ``now`` lies on the segment from its colour ``before``
    to the ball's Lab colour (``t``: 0 unchanged, 1 the ball) and how far off it, as a share
    of the segment's length (lightness counts half). ``now`` and ``before`` are ``(..., 3)``."""
    u = (np.asarray(ball, np.float32) - before) * _LAB_W32
    sep2 = np.maximum(np.einsum("...k,...k->...", u, u), 1e-6)
    d = (now - before) * _LAB_W32
    t = np.einsum("...k,...k->...", d, u) / sep2
    off = np.sqrt(np.maximum(np.einsum("...k,...k->...", d, d) - t * t * sep2, 0.0) / sep2)
    return np.asarray(t, np.float64), np.asarray(off, np.float64)


def streak_shape(
    blob: npt.NDArray[np.bool_], radius: float, toward: FloatArray | None, cfg: StreakConfig
) -> FloatArray | None:
    """The centre (in ``blob``'s pixels) of a patch that has a ball's ghost's size and shape,
    or None.

    Args:
        blob: the patch's pixels (one connected component).
        radius: the ball's apparent radius, in the blob's pixels.
        toward: where the ball was last seen, in the blob's pixels (None: unknown): an
            elongated patch must point at it.
        cfg: the limits.
    """
    ys, xs = np.nonzero(blob)
    area = float(len(xs))
    disc = math.pi * radius * radius
    if area < cfg.min_area * disc:
        return None
    pts = np.stack([xs, ys], axis=1).astype(np.float64)
    centre = pts.mean(axis=0)
    pts -= centre
    vals, vecs = np.linalg.eigh(pts.T @ pts / area)
    width = 4.0 * math.sqrt(max(float(vals[0]), 0.0))
    length = 4.0 * math.sqrt(max(float(vals[1]), 0.0))
    diameter = 2.0 * radius
    if not cfg.width[0] * diameter <= width <= cfg.width[1] * diameter or length > cfg.max_length * diameter:
        return None
    if toward is not None and length > cfg.elongated * width:
        way = centre - np.asarray(toward, np.float64)
        dist = float(np.hypot(*way))
        if dist > radius:
            cos = abs(float(way @ vecs[:, 1])) / dist
            if cos < math.cos(math.radians(cfg.max_angle)):
                return None
    return np.asarray(centre, np.float64)


def on_cloth(
    lab: Float32Array,
    at: FloatArray,
    radius: float,
    cloth_ab: FloatArray,
    region: npt.NDArray[np.bool_] | None,
    cfg: StreakConfig,
) -> bool:
    """Whether the ring round ``at`` (pixels of ``lab``, a Lab image) shows the cloth: the share
    of its pixels (those on the playing surface ``region``, when given) whose chroma is within
    :attr:`StreakConfig.cloth_ab` of ``cloth_ab`` is at least :attr:`StreakConfig.cloth_ring`."""
    h, w = lab.shape[:2]
    outer = cfg.ring[1] * radius
    x0, y0 = max(0, int(at[0] - outer)), max(0, int(at[1] - outer))
    x1, y1 = min(w, int(at[0] + outer) + 2), min(h, int(at[1] + outer) + 2)
    if x1 <= x0 or y1 <= y0:
        return False
    yy, xx = np.mgrid[y0:y1, x0:x1]
    d = np.hypot(xx - at[0], yy - at[1])
    ring = (d >= cfg.ring[0] * radius) & (d <= outer)
    if region is not None and region.shape == lab.shape[:2]:
        ring &= region[y0:y1, x0:x1]
    if not np.any(ring):
        return False
    ab = lab[y0:y1, x0:x1][ring][:, 1:].astype(np.float64)
    share = float(np.mean(np.hypot(*(ab - np.asarray(cloth_ab, np.float64)).T) <= cfg.cloth_ab))
    return share >= cfg.cloth_ring


def find_streaks(
    image: Image,
    before: Image,
    roi: tuple[int, int, int, int],
    ball: FloatArray,
    radius: float,
    origin: FloatArray | None = None,
    region: npt.NDArray[np.bool_] | None = None,
    cfg: StreakConfig | None = None,
    cloth: FloatArray | None = None,
) -> BallDetections:
    """Ghosts of a ball of Lab colour ``ball`` (OpenCV 8-bit scale) in ``roi`` of ``image``
    (BGR), against the same pixels of ``before``, a frame in which the ball was elsewhere.

    Args:
        image: this frame.
        before: a frame of the same size in which the ball was last seen (the cloth it crossed
            since was bare then, or showed something else that is no blend with the ball).
        roi: ``(x0, y0, x1, y1)`` pixels to search.
        ball: the ball's remembered Lab colour.
        radius: its apparent radius (pixels).
        origin: where it was last seen (pixels; None: unknown).
        region: full-frame mask of the playing surface (None: everywhere).
        cfg: the limits.
        cloth: the cloth's Lab colour (None: the median of ``before`` over the window's
            playing surface), for the ring round a ghost (:func:`on_cloth`).

    Returns:
        The ghosts found (colour unknown, confidence the mean blend share over the ghost, doubled
        and capped at 1), nearest ``origin`` first.
    """
    cfg = cfg or StreakConfig()
    x0, y0, x1, y1 = roi
    crop, back = image[y0:y1, x0:x1], before[y0:y1, x0:x1]
    if crop.shape[0] < 6 or crop.shape[1] < 6 or back.shape != crop.shape:
        return BallDetections.empty()
    # A wide window (a ball lost for a few frames) is searched at half resolution: a ghost is
    # two dozen pixels across at 720p, a dozen there.
    s = 0.5 if radius >= 7.0 and crop.shape[0] * crop.shape[1] > 160 * 160 else 1.0
    mask_region = None if region is None else region[y0:y1, x0:x1]
    if s != 1.0:
        crop = np.asarray(cv2.resize(crop, None, fx=s, fy=s, interpolation=cv2.INTER_AREA), np.uint8)
        back = np.asarray(cv2.resize(back, None, fx=s, fy=s, interpolation=cv2.INTER_AREA), np.uint8)
        if mask_region is not None:
            mask_region = mask_region[::2, ::2][: crop.shape[0], : crop.shape[1]]
    now = np.asarray(cv2.cvtColor(crop, cv2.COLOR_BGR2LAB), np.float32)
    was = np.asarray(cv2.cvtColor(back, cv2.COLOR_BGR2LAB), np.float32)
    t, off = blend_share(now, was, ball)
    mask = ((t >= cfg.t_min) & (off <= cfg.off_max)).astype(np.uint8)
    surface = mask_region if mask_region is not None and mask_region.shape == mask.shape else None
    if surface is not None:
        mask &= surface.astype(np.uint8)
    if cloth is None:
        bed = was[surface] if surface is not None and np.any(surface) else was.reshape(-1, 3)
        cloth = np.median(bed[:: max(1, len(bed) // 4000)], axis=0).astype(np.float64)
    # Specks of codec noise and the thin lines of a cue or its shadow fall away.
    mask = np.asarray(cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)), np.uint8)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    r = radius * s
    toward = None if origin is None else (np.asarray(origin, np.float64) - (x0, y0) + 0.5) * s - 0.5
    centres: list[FloatArray] = []
    scores: list[float] = []
    for k in range(1, n):
        if stats[k, cv2.CC_STAT_AREA] < cfg.min_area * math.pi * r * r:
            continue
        bx, by, bw, bh = (int(v) for v in stats[k, :4])
        blob = labels[by : by + bh, bx : bx + bw] == k
        at = streak_shape(blob, r, None if toward is None else toward - (bx, by), cfg)
        if at is None:
            continue
        at = at + np.array([bx, by], np.float64)  # the window's (scaled) pixels
        if not on_cloth(now, at, r, np.asarray(cloth)[1:], surface, cfg):
            continue
        centres.append((at + 0.5) / s - 0.5 + (x0, y0))
        scores.append(min(1.0, 2.0 * float(t[by : by + bh, bx : bx + bw][blob].mean())))
    if not centres:
        return BallDetections.empty()
    pix = np.array(centres)
    conf = np.array(scores)
    if origin is not None:
        order = np.argsort(np.linalg.norm(pix - np.asarray(origin, np.float64), axis=1))
        pix, conf = pix[order], conf[order]
    return BallDetections.build(pix, np.full(len(pix), radius), confidence=conf)


def pick_ghost(
    found: BallDetections,
    pred: FloatArray,
    others: FloatArray,
    other_radii: FloatArray,
    beside_radii: float = 2.0,
) -> BallDetections:
    """The one ghost of ``found`` taken for the ball: the nearest its prediction ``pred``
    (pixels) of those not within ``beside_radii`` of another ball's predicted centre
    (``others``, ``(M, 2)`` pixels, with their radii; NaN rows are ignored).

    Why: a moving ball's own shadow, the crescent under the white, moves with it and is as
    new on the cloth as a ghost (Task2 clip 6: 1.2 radii from the white's centre, and
    a third of a diameter wide beside it).
    """
    if not len(found):
        return found
    keep = np.ones(len(found), bool)
    ok = np.all(np.isfinite(others), axis=1)
    if np.any(ok):
        d = np.linalg.norm(found.pixel[:, None, :] - others[ok][None, :, :], axis=2)
        keep = np.all(d >= beside_radii * other_radii[ok][None, :], axis=1)
    if not np.any(keep):
        return BallDetections.empty()
    found = found[keep]
    k = int(np.argmin(np.linalg.norm(found.pixel - pred, axis=1)))
    return found[k : k + 1]
