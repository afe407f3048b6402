"""Touching balls: counting and placing the balls of one blob by their highlights and its area.

Why highlights: every ball reflects the lamps above the table in a small, nearly white cap that
sits at the same offset from the ball's centre on every ball of a frame (the lamps are far
away compared with a ball's size). Where balls touch, their coloured bodies merge into one
blob, but their caps stay apart by a ball's diameter. The cap is found as a peak of the
white top-hat of the *smallest* channel: a red, pink, brown or black body is dark in at least
one channel while the cap is bright in all three, so the cap stands out even on the pink.

Why the area as well: a cap can be hidden (a ball in the shade of another, a worn highlight)
or doubled (two lamps), so the count of caps is accepted only when the blob's area agrees
with it (the area of one ball is measured on the frame's lone balls, never assumed); where
they disagree the area decides, and the caps found seed a k-means of the blob's pixels.

Everything a frame teaches (single-ball area, cap strength, cap offset) is a
:class:`ClusterPrior`, measured on the lone balls of a full-frame detection and reused for
ROI detections of the same video.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import cv2
import numpy as np
import numpy.typing as npt

from vision.detection.cloth import channel_max, channel_min
from vision.detection.detections import Image

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]

#: Caps closer than this many radii on the cloth plane are one ball's (a cap has two lamps).
MIN_SEPARATION = 1.3
#: A cap weaker than this fraction of the lone balls' median cap is noise on a ball's body.
MIN_STRENGTH = 0.5
#: A cap on the blob's rim counts only this strong (relative to the lone balls' median cap).
RIM_STRENGTH = 0.9
#: A cap's smallest channel is at least this fraction of its largest (lamps are white).
WHITENESS = 0.4
#: ... or the light it adds is: it raises the pixel's two lesser channels alike (the smaller rise
#: at least this share of the larger), each at least WHITENESS of its largest channel's rise.
GREY_ADDED = 0.7
#: A ball's inner disc (this many radii) is at least MIN_FILL blob (a strip of shade fills less).
FILL_RADIUS = 0.8
MIN_FILL = 0.9
#: ... or MIN_FILL_CAPPED where the centre comes from a cap (a ball's own evidence).
MIN_FILL_CAPPED = 0.7
#: The balls' discs (this many radii, a little over one for blur) cover MIN_COVER of the blob.
COVER_RADIUS = 1.3
MIN_COVER = 0.75
#: A lone ball attached to a strip has cloth on most of its surrounding ring.
MAX_RING = 0.45
#: A ball against the bed's outline has at least this much of its inner disc on the bed.
IN_VIEW = 0.35
#: What is left of a blob outside its balls holds another (capless) ball where it is this many
#: radii thick (a ball's own half-thickness is one radius; a shadow's crescent far less).
CAPLESS_THICK = 0.65
#: ... outside this many radii of the balls found (the expected radius already has the blur in it).
CAPLESS_CLEAR = 1.1
#: A row of at least STICK_BALLS centres within STICK_OFFSET radii (RMS) of a line is a cue.
STICK_BALLS = 3
STICK_OFFSET = 0.3
#: Offsets of lone balls nearer than this many radii to a cap weigh alike (:meth:`ClusterPrior.offsets_at`).
SAMPLE_REACH = 1.0
#: A lone ball's cap offset further than this many radii from what the others give at its cap
#: (their plane, :func:`consistent_offsets`) is not a lone ball's (two balls taken for one, a
#: ball's cap hidden).
SAMPLE_SPREAD = 0.15
#: ... nor one further than this from the median of them all, whatever the plane.
SAMPLE_FAR = 0.35
#: Most balls a blob may hold (all 22): a bigger blob is a person or an object, not balls.
MAX_BALLS = 22


@dataclass(frozen=True)
class ClusterPrior:
    """What one frame's lone balls say about balls in clusters.

    Attributes:
        single: a lone ball's blob area over the expected disc area (rims blend with the cloth).
        strength: median cap strength (top-hat of the smallest channel) of lone balls.
        offset: median centre-minus-cap offset, in expected radii (u, v).
        samples: the lone balls' caps and offsets, ``(cap u, cap v, offset u, offset v)`` in
            pixels of the picture they were measured in (see :meth:`offsets_at`).
    """

    single: float = 1.0
    strength: float = 60.0
    offset: tuple[float, float] = (0.0, 0.2)
    samples: tuple[tuple[float, float, float, float], ...] = ()
    #: The same measured for rest reports (:func:`subpixel` caps, local offsets; None: not measured).
    fine: ClusterPrior | None = None

    def offsets_at(self, points: FloatArray, rf: float) -> FloatArray:
        """Centre-minus-cap offsets (pixels) of balls whose caps are at ``points`` ``(N, 2)``.

        Why local: the cap is the lamps' reflection, and where it sits on a ball changes across
        the table with the ball's place under the lamps and its distance from the camera (on
        the broadcast view from 0.48 radii at the far end to 0.44 near the camera, a pixel's
        difference that placed a pack's reds half a pixel to a pixel towards the camera). The
        lone balls' own offsets (:attr:`samples`), weighed by nearness, follow it; with none,
        the median offset in radii stands.
        """
        pts = np.asarray(points, np.float64).reshape(-1, 2)
        base = np.broadcast_to(np.array(self.offset) * rf, pts.shape)
        if not self.samples or not len(pts):
            return np.array(base, np.float64)
        smp = np.asarray(self.samples, np.float64)
        d2 = (pts[:, None, 0] - smp[None, :, 0]) ** 2 + (pts[:, None, 1] - smp[None, :, 1]) ** 2
        w = 1.0 / (d2 + (SAMPLE_REACH * rf) ** 2)
        out: FloatArray = rf * (w @ smp[:, 2:]) / w.sum(axis=1, keepdims=True)
        return out

    def moved(self, du: float, dv: float) -> ClusterPrior:
        """The prior for a crop whose origin is at ``(du, dv)`` in the picture it was measured in."""
        if not self.samples:
            return self
        return replace(self, samples=tuple((u - du, v - dv, ou, ov) for u, v, ou, ov in self.samples))


def cap_map(crop: Image, rf: float, low: Image | None = None) -> npt.NDArray[np.float32]:
    """Cap evidence of a full-resolution crop: top-hat of the smallest channel, smoothed.

    ``low``: the crop's :func:`channel_min` when the caller has it already. The opening runs on
    the 8-bit channel and is converted after: an opening takes minima and maxima only, which
    a conversion to float keeps exactly, and on 8 bits it costs half as much.
    """
    low8 = channel_min(crop) if low is None else low
    k = max(3, int(1.3 * rf) | 1)
    opened = cv2.morphologyEx(low8, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    top = low8.astype(np.float32) - np.asarray(opened, np.uint8).astype(np.float32)
    return np.asarray(cv2.GaussianBlur(top, (0, 0), max(0.7, 0.15 * rf)), np.float32)


def added_white(crop: Image, rf: float) -> BoolArray:
    """Where the light a cap adds to the body is white, though the pixel itself is not.

    Why: a cap narrower than a pixel (a ball a few pixels across, at the far end of a wide
    view; video's colour at half resolution) is mixed with its body in every pixel it
    touches, and on a red ball the mix is pink: on a 1080p render worked at 1280x720 (radius
    4.5 px) the far corner red of the rack showed a cap as strong as its neighbours' but its
    brightest pixel was 0.36 white, and the rack was seeded with 14 reds. White light raises
    the channels its body leaves room in alike, and the body's own (largest, near full) no
    more than those: each channel's top-hat (as :func:`cap_map`) at a cap on the renders'
    reds rose 0.85-1.0 alike in blue and green. A brighter stripe of the body's own hue (a
    cushion's nose) rises in the body's proportions, the lesser channels far less than the
    largest; the cloth at a dark ball's rim (a Task1 still) rose in green twice as much as in
    blue, and not in red.
    """
    t0, t1, t2 = (cap_map(crop, rf, np.ascontiguousarray(crop[:, :, c])) for c in range(3))
    # The pixel's largest channel (the last of equals, as a stable sort puts them) and its two
    # lesser ones, picked without sorting each pixel's three channels (a sort along an axis of
    # three cost a whole-table detection 4 ms at 720p, a fifth of it).
    top = 2 - np.argmax(crop[:, :, ::-1], axis=2)
    a = np.where(top == 0, t1, t0)
    b = np.where(top == 2, t1, t2)
    big = np.where(top == 0, t0, np.where(top == 1, t1, t2))
    lo = np.minimum(a, b)
    hi = np.maximum(a, b)
    return np.asarray((lo > 0.0) & (lo >= GREY_ADDED * hi) & (lo >= WHITENESS * big), np.bool_)


def cap_peaks(
    caps: npt.NDArray[np.float32], allowed: BoolArray, rf: float, floor: float, squash: float = 1.0
) -> FloatArray:
    """Cap centres ``(N, 3)`` = ``(x, y, strength)``, strongest first, non-maximum suppressed.

    Separation is measured on the cloth plane (rows divided by ``squash``): caps of two balls
    touching one behind the other are a diameter apart there, much less on screen.
    """
    size = max(3, int(rf) | 1)
    tall = max(3, int(squash * rf) | 1)
    window = np.ones((tall, size), np.uint8)
    peak = (caps >= cv2.dilate(caps, window)) & allowed & (caps > floor)
    ys, xs = np.nonzero(peak)
    if not len(xs):
        return np.zeros((0, 3))
    s = caps[ys, xs].astype(np.float64)
    order = np.argsort(-s, kind="stable")
    pts = np.stack([xs[order], ys[order], s[order]], axis=1).astype(np.float64)
    kept: list[int] = []
    min_d2 = (MIN_SEPARATION * rf) ** 2
    for i in range(len(pts)):
        if all(
            (pts[i, 0] - pts[j, 0]) ** 2 + ((pts[i, 1] - pts[j, 1]) / squash) ** 2 >= min_d2 for j in kept
        ):
            kept.append(i)
    return pts[kept]


def subpixel(caps: npt.NDArray[np.float32], ix: int, iy: int) -> tuple[float, float]:
    """The peak of ``caps`` near its maximum at pixel ``(ix, iy)``, to a fraction of a pixel
    (a parabola through the pixel and its two neighbours along each axis).

    Why: a cap is a few pixels across and its pixel peak is a cap's place only to half a pixel,
    a quarter of a ball's radius on a broadcast; the parabola's vertex puts it within a tenth.
    """
    h, w = caps.shape
    x, y = float(ix), float(iy)
    if 0 < ix < w - 1:
        a, b, c = float(caps[iy, ix - 1]), float(caps[iy, ix]), float(caps[iy, ix + 1])
        den = a - 2.0 * b + c
        if den < 0.0:
            x += min(0.5, max(-0.5, 0.5 * (a - c) / den))
    if 0 < iy < h - 1:
        a, b, c = float(caps[iy - 1, ix]), float(caps[iy, ix]), float(caps[iy + 1, ix])
        den = a - 2.0 * b + c
        if den < 0.0:
            y += min(0.5, max(-0.5, 0.5 * (a - c) / den))
    return x, y


def lone_cap(
    image: Image, centre: tuple[float, float], rf: float, fine: bool = False
) -> tuple[float, float, float] | None:
    """Strength and offset (centre minus cap, in radii) of the cap of one lone ball."""
    u, v = centre
    h, w = image.shape[:2]
    x0, y0 = max(0, int(u - 1.6 * rf)), max(0, int(v - 1.6 * rf))
    x1, y1 = min(w, int(u + 1.6 * rf) + 1), min(h, int(v + 1.6 * rf) + 1)
    if x1 - x0 < 3 or y1 - y0 < 3:
        return None
    caps = cap_map(image[y0:y1, x0:x1], rf)
    yy, xx = np.mgrid[y0:y1, x0:x1]
    inside = (xx - u) ** 2 + (yy - v) ** 2 <= (0.8 * rf) ** 2
    if not inside.any():
        return None
    masked = np.where(inside, caps, -1.0)
    iy, ix = np.unravel_index(int(np.argmax(masked)), masked.shape)
    px, py = subpixel(caps, int(ix), int(iy)) if fine else (float(ix), float(iy))
    return float(masked[iy, ix]), (u - (px + x0)) / rf, (v - (py + y0)) / rf


def consistent_offsets(caps: FloatArray, offsets: FloatArray) -> BoolArray:
    """Which lone balls' cap offsets (``offsets`` ``(N, 2)`` radii, caps at ``caps`` ``(N, 2)``
    pixels) are a lone ball's: within :data:`SAMPLE_FAR` of their median, and within
    :data:`SAMPLE_SPREAD` of the plane (offset affine in the cap's place) the others fit.

    Why a plane, not the median: the cap is the lamps' reflection, and its offset from the
    centre drifts steadily across the table with the ball's place under the lamps and towards
    the camera. On a rendered 1080p60 break-off (random camera) it ran from -0.12 radii (the
    yellow) to +0.16 (the black), and the black, 0.22 from the median, was dropped: the pack
    between the pink and the black took the offset of the blue, three metres away, and every
    red was reported 4-7 mm off. A ball two balls make, or one whose cap is hidden, lies off
    the plane as it lies off the median. Worst first, while more than three remain.
    """
    off = np.asarray(offsets, np.float64).reshape(-1, 2)
    keep = np.hypot(*(off - np.median(off, axis=0)).T) <= SAMPLE_FAR
    while np.count_nonzero(keep) > 3:
        rows = np.flatnonzero(keep)
        resid = np.full(len(off), 0.0)
        for i in rows:
            others = rows[rows != i]
            resid[i] = float(np.hypot(*(off[i] - _plane(caps[others], off[others], caps[i : i + 1])[0])))
        worst = int(rows[np.argmax(resid[rows])])
        if resid[worst] <= SAMPLE_SPREAD:
            break
        keep[worst] = False
    return keep


def _plane(at: FloatArray, values: FloatArray, query: FloatArray) -> FloatArray:
    """``values`` (``(N, 2)``) at points ``at`` extended to ``query`` by a least-squares plane
    in the point's place, its slopes damped (a few balls along one line, the colours on their
    spots, fix no slope across it): the median where they fix none."""
    centre = at.mean(axis=0)
    spread = max(float(np.sqrt(np.mean(np.sum((at - centre) ** 2, axis=1)))), 1e-6)
    x = (at - centre) / spread
    base = np.median(values, axis=0)
    if len(at) < 3:
        return np.broadcast_to(base, (len(query), 2)).copy()
    # Damped slopes: a tenth of the points' own spread as a ridge on the two slope terms.
    a = np.column_stack([x, np.ones(len(x))])
    ridge = np.diag([0.1 * len(x), 0.1 * len(x), 0.0])
    coef = np.linalg.solve(a.T @ a + ridge, a.T @ values)
    q = (np.asarray(query, np.float64).reshape(-1, 2) - centre) / spread
    out: FloatArray = np.column_stack([q, np.ones(len(q))]) @ coef
    return out


def measure_prior(
    image: Image, centres: FloatArray, rf: FloatArray, areas: FloatArray, fine: bool = False
) -> ClusterPrior | None:
    """The prior from a frame's lone balls (full-resolution centres and radii); None if too few."""
    if len(centres) < 3:
        return None
    caps = [
        lone_cap(image, (float(c[0]), float(c[1])), float(r), fine) for c, r in zip(centres, rf, strict=True)
    ]
    ok = np.array([c is not None and c[0] > 5.0 for c in caps], bool)
    if np.count_nonzero(ok) < 3:
        return None
    good = np.array([c for c, k in zip(caps, ok, strict=True) if k])
    offset = np.median(good[:, 1:], axis=0)
    r_ok = np.asarray(rf, np.float64)[ok]
    cap_at = np.asarray(centres, np.float64)[ok] - good[:, 1:] * r_ok[:, None]
    near = consistent_offsets(cap_at, good[:, 1:])
    rs = r_ok[near]
    cs = np.asarray(centres, np.float64)[ok][near]
    off = good[near, 1:]
    return ClusterPrior(
        single=float(np.clip(np.median(areas), 0.5, 1.5)),
        strength=float(np.median(good[:, 0])),
        offset=(float(offset[0]), float(offset[1])),
        samples=tuple(
            (float(c[0] - o[0] * r), float(c[1] - o[1] * r), float(o[0]), float(o[1]))
            for c, o, r in zip(cs, off, rs, strict=True)
        )
        if fine
        else (),
    )


def split_blob(
    image: Image,
    blob: BoolArray,
    origin: tuple[int, int],
    r: float,
    scale: float,
    prior: ClusterPrior,
    squash: float = 1.0,
    need_caps: bool = False,
    attached: bool = False,
    region: BoolArray | None = None,
    fine: bool = False,
) -> list[tuple[float, float]]:
    """Working-scale centres of the balls of one blob (``blob`` at working scale, at ``origin``).

    Returns an empty list when the blob cannot be balls: more balls than the game has, or far
    more caps than its area holds (a textured occluder such as a patterned shirt), or, with
    ``need_caps`` (a blob as thick as an arm), caps that do not agree with its area. With
    ``attached`` (a blob reaching in from the border: a ball against a cushion's shade, a
    hand) only the caps count, and only where the ball stands out of the blob; given the
    working-scale ``region`` (the bed), a ball against the far cushion, whose top and cap
    stand out of the bed's outline, is found by its cap beyond it.
    """
    inside: BoolArray | None = None
    if attached and region is not None:
        blob, origin, inside = _padded(blob, origin, region, math.ceil(1.2 * r))
    x0, y0 = origin
    h, w = blob.shape
    area = float(np.count_nonzero(blob))
    n_area = area / (prior.single * math.pi * r * r)
    if n_area > MAX_BALLS + 0.5 and not attached:
        return []  # (a strip of cushion shade along a whole side is that large, and holds balls)
    fx0, fy0 = int(x0 / scale), int(y0 / scale)
    fx1, fy1 = min(image.shape[1], int((x0 + w) / scale) + 1), min(image.shape[0], int((y0 + h) / scale) + 1)
    crop = image[fy0:fy1, fx0:fx1]
    rf = r / scale
    full = cv2.resize(blob.astype(np.uint8), (crop.shape[1], crop.shape[0]), interpolation=cv2.INTER_NEAREST)
    # Inside the blob, off its rim: a chalk line crossing a ball's edge is white too ...
    rim = max(3, int(0.5 * rf) | 1)
    allowed = cv2.erode(full, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (rim, rim))).astype(bool)
    low = channel_min(crop)
    caps = cap_map(crop, rf, low)
    # ... but a cap as strong as a lone ball's is no chalk: the black's cap sits on its rim
    # (its dark top blends with the cloth's shade and is left out of the blob).
    allowed |= (full > 0) & (caps >= RIM_STRENGTH * prior.strength)
    if inside is not None:
        # Beyond the bed's outline only a strong cap counts (the cushion's rail is no ball).
        beyond = cv2.resize(
            (~inside).astype(np.uint8), (crop.shape[1], crop.shape[0]), interpolation=cv2.INTER_NEAREST
        )
        allowed |= (beyond > 0) & (caps >= RIM_STRENGTH * prior.strength)
    # A cap is nearly white: a bright stripe of cloth (a cushion's nose) is bright in one channel.
    white = (low.astype(np.float32) >= WHITENESS * channel_max(crop).astype(np.float32)) | added_white(
        crop, rf
    )
    white = cv2.dilate(white.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
    peaks = cap_peaks(caps, allowed & white, rf, MIN_STRENGTH * prior.strength, squash)
    n_caps = len(peaks)
    if fine:
        at = np.array([subpixel(caps, int(x), int(y)) for x, y, _ in peaks], np.float64).reshape(-1, 2)
        at += np.array([fx0, fy0], np.float64)
        # Caps to working-scale centres: shift by the cap offset lone balls show there.
        centres = (at + prior.offsets_at(at, rf) + 0.5) * scale - 0.5
    else:
        ou, ov = prior.offset
        centres = np.stack(
            [
                (peaks[:, 0] + fx0 + ou * rf + 0.5) * scale - 0.5,
                (peaks[:, 1] + fy0 + ov * rf + 0.5) * scale - 0.5,
            ],
            axis=1,
        )
    if attached:
        good, _ = explained(blob, origin, r, centres, MIN_FILL_CAPPED, inside)
        found = centres[good & ~surrounded(blob, origin, r, centres)]
        if stick(found, r):
            return []
        return [(float(a), float(b)) for a, b in found]
    # Foreshortened, touching balls hide each other: a packed cluster shows as little as one
    # hexagonal cell (2 sqrt(3) r^2, squashed) per ball, not a whole disc.
    packing = max(1.35, math.pi / (2.0 * math.sqrt(3.0) * squash))
    if n_caps > max(2.0, 1.2 * packing * n_area + 1.0):
        return []
    min_fill = MIN_FILL
    if n_caps >= 1 and 0.75 * n_area - 0.6 <= n_caps <= packing * n_area + 0.6:
        candidates, min_fill = centres, MIN_FILL_CAPPED
    elif need_caps:
        return []
    else:
        n = max(1, round(n_area))
        ys, xs = np.nonzero(blob)
        pts = np.stack([xs + x0, ys + y0], axis=1).astype(np.float32)
        candidates = np.asarray(_kmeans(pts, n, centres) if len(pts) >= n else [], np.float64).reshape(-1, 2)
    good, covered = explained(blob, origin, r, candidates, min_fill)
    if not covered:
        # More than balls in the blob (a ball on a strip of shade, a hand): keep only the
        # balls that stand out of it.
        good &= ~surrounded(blob, origin, r, candidates)
    kept = candidates[good]
    return [(float(a), float(b)) for a, b in np.concatenate([kept, capless(blob, origin, r, kept)])]


def _padded(
    blob: BoolArray, origin: tuple[int, int], region: BoolArray, pad: int
) -> tuple[BoolArray, tuple[int, int], BoolArray]:
    """The blob in a box ``pad`` larger each way (clipped to the frame), with the bed there."""
    x0, y0 = origin
    h, w = blob.shape
    hh, ww = region.shape
    nx0, ny0 = max(0, x0 - pad), max(0, y0 - pad)
    nx1, ny1 = min(ww, x0 + w + pad), min(hh, y0 + h + pad)
    out = np.zeros((ny1 - ny0, nx1 - nx0), bool)
    out[y0 - ny0 : y0 - ny0 + h, x0 - nx0 : x0 - nx0 + w] = blob
    return out, (nx0, ny0), np.asarray(region[ny0:ny1, nx0:nx1], bool)


def capless(blob: BoolArray, origin: tuple[int, int], r: float, centres: FloatArray) -> FloatArray:
    """Balls without a visible cap: what is left of the blob outside the balls found, where
    it is as thick as a ball (the white beside a red shows no cap: it is bright all over).

    A shadow or a ball's blurred rim left over is a thin crescent, never that thick.
    """
    h, w = blob.shape
    left = blob.copy()
    ys, xs = np.arange(h), np.arange(w)
    for u, v in centres:
        left &= _grid_d2(xs, ys, u - origin[0], v - origin[1]) > (CAPLESS_CLEAR * r) ** 2
    found: list[tuple[float, float]] = []
    for _ in range(MAX_BALLS):
        if not left.any():
            break
        padded = np.pad(left.astype(np.uint8), 1)
        dt = cv2.distanceTransform(padded, cv2.DIST_L2, 3)[1:-1, 1:-1]
        iy, ix = np.unravel_index(int(np.argmax(dt)), dt.shape)
        if float(dt[iy, ix]) < CAPLESS_THICK * r:
            break
        found.append((float(ix + origin[0]), float(iy + origin[1])))
        left &= _grid_d2(xs, ys, float(ix), float(iy)) > (2.0 * r) ** 2
    return np.asarray(found, np.float64).reshape(-1, 2)


def _grid_d2(xs: npt.NDArray[np.int64], ys: npt.NDArray[np.int64], u: float, v: float) -> FloatArray:
    """``(len(ys), len(xs))`` squared distances of the grid's pixels to ``(u, v)``, the same
    numbers as ``(xx - u) ** 2 + (yy - v) ** 2`` over a meshgrid: each axis squared once and
    the two added (the sum of the same two numbers), not squared at every pixel."""
    dx2 = (xs - u) ** 2
    dy2 = (ys - v) ** 2
    return np.asarray(dx2[None, :] + dy2[:, None], np.float64)


def _centres_d2(h: int, w: int, u: FloatArray, v: FloatArray) -> FloatArray:
    """``(N, h, w)`` squared distances of an ``h`` x ``w`` grid's pixels to each of the ``N``
    points ``(u, v)``, as :func:`_grid_d2` makes them for one point."""
    dx2 = (np.arange(w)[None, :] - u[:, None]) ** 2
    dy2 = (np.arange(h)[None, :] - v[:, None]) ** 2
    return np.asarray(dx2[:, None, :] + dy2[:, :, None], np.float64)


def explained(
    blob: BoolArray,
    origin: tuple[int, int],
    r: float,
    centres: FloatArray,
    min_fill: float = MIN_FILL,
    inside: BoolArray | None = None,
) -> tuple[BoolArray, bool]:
    """Which centres' ball-sized discs the blob fills, and whether those discs cover the blob.

    A ball is a filled disc: a centre whose disc lies partly on the cloth was put on a strip
    (a cushion's shade, a finger) beside the balls; a blob the good discs leave largely
    uncovered is not only balls (a hand, a sleeve, a strip of shade). With ``inside`` (the
    bed, same shape as ``blob``) only the part of a disc on the bed is judged, and at least
    IN_VIEW of it must be.
    """
    if not len(centres):
        return np.zeros(0, bool), False
    h, w = blob.shape
    u = centres[:, 0] - origin[0]
    v = centres[:, 1] - origin[1]
    d2 = _centres_d2(h, w, u, v)
    inner = d2 <= (FILL_RADIUS * r) ** 2
    seen = inner if inside is None else inner & inside[None]
    fill = (inner & blob[None]).sum(axis=(1, 2)) / np.maximum(seen.sum(axis=(1, 2)), 1)
    good = np.asarray(fill >= min_fill, bool)
    if inside is not None:
        good &= seen.sum(axis=(1, 2)) >= IN_VIEW * math.pi * (FILL_RADIUS * r) ** 2
    covered = (d2[good] <= (COVER_RADIUS * r) ** 2).any(axis=0)
    return good, bool(np.count_nonzero(covered & blob) >= MIN_COVER * np.count_nonzero(blob))


def stick(centres: FloatArray, r: float) -> bool:
    """Whether centres found on a blob from the border lie along one straight line.

    A cue's shaft has a highlight along its length: read as caps it gives a row of evenly
    spaced "balls" on a dead straight line. Three or more balls in a perfect line, touching a
    strip that reaches in from the border, are far less likely than a cue.
    """
    if len(centres) < STICK_BALLS:
        return False
    c = centres - centres.mean(axis=0)
    s = np.linalg.svd(c, compute_uv=False)
    return bool(s[1] / math.sqrt(len(centres)) < STICK_OFFSET * r)


def surrounded(blob: BoolArray, origin: tuple[int, int], r: float, centres: FloatArray) -> BoolArray:
    """Centres whose ring just outside a ball (1.3 to 1.8 radii) is mostly blob: not a lone ball."""
    if not len(centres):
        return np.zeros(0, bool)
    h, w = blob.shape
    u = centres[:, 0] - origin[0]
    v = centres[:, 1] - origin[1]
    d2 = _centres_d2(h, w, u, v)
    ring = (d2 >= (1.3 * r) ** 2) & (d2 <= (1.8 * r) ** 2)
    # Pixels of the ring outside the crop are not blob (the crop is the blob's bounding box).
    full = np.pi * ((1.8 * r) ** 2 - (1.3 * r) ** 2)
    return np.asarray((ring & blob[None]).sum(axis=(1, 2)) > MAX_RING * full, bool)


def _kmeans(pts: npt.NDArray[np.float32], n: int, seeds: FloatArray) -> list[tuple[float, float]]:
    """k-means of the blob's pixels into ``n`` balls, started from the caps where there are any."""
    crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.1)
    # k-means++ draws from OpenCV's global generator: seeded, a frame's answer does not depend
    # on what was detected before it (the benchmark's stills, a video's earlier frames).
    cv2.setRNGSeed(0)
    if len(seeds) >= n:
        seeds = seeds[:n]
    if len(seeds) == n:
        d = ((pts[:, None, :] - seeds[None, :, :].astype(np.float32)) ** 2).sum(axis=2)
        labels = np.argmin(d, axis=1).astype(np.int32).reshape(-1, 1)
        _, _, cents = cv2.kmeans(pts, n, labels, crit, 1, cv2.KMEANS_USE_INITIAL_LABELS)
    else:
        _, _, cents = cv2.kmeans(pts, n, np.zeros((len(pts), 1), np.int32), crit, 3, cv2.KMEANS_PP_CENTERS)
    return [(float(x), float(y)) for x, y in cents]
