"""The cloth: its colour, learned from the picture itself, and the playing surface it covers.

Broadcasts differ in white balance, exposure and cloth shade, and the light falls off towards
the far cushion, so no fixed colour threshold survives. The cloth is modelled in normalised
chromaticity (each pixel's B, G, R divided by their sum), which a shadow or a dimmer lamp
leaves unchanged, plus its brightness: the dominant saturated hue of the picture's centre
picks the cloth pixels (the table fills the centre of an overhead shot, while the floor and
crowd may cover more of the whole frame) and robust statistics (median, MAD) of those pixels
set every threshold. A ball differs from the cloth in chromaticity (every colour, the green
ball included: it is bluer) or is much darker (the black).

The expected ball radius on each image row comes from the width of the playing surface on
that row (the idea of a concurrent helper's first draft): under perspective the two shrink
together, so one regulation ratio gives a perspective-aware size prior; it is then corrected
by the median size of the clearly single balls of the image, since blur and compression make
broadcast balls look larger than their 52.5 mm.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

import cv2
import numpy as np
import numpy.typing as npt

from calibration.errors import BaulklineError
from calibration.table import TABLE
from vision.detection.detections import Image
from vision.detection.kernels import not_cloth_mask
from vision.detection.plane import (
    bed_quad,
    foreshortening,
    plane_from_quad,
    pocket_pixels,
    radius_map,
    width_along_rows,
)

FloatArray = npt.NDArray[np.float64]
Mask = npt.NDArray[np.uint8]

#: Ball radius over the playing surface's width (the cloth between the cushion noses).
RADIUS_PER_WIDTH = TABLE.ball_radius / TABLE.width
#: A pixel darker than this fraction of the cloth's brightness is never cloth (the black ball,
#: a pocket); shadows of players and the far-end fall-off stay above it.
DARK_FRACTION = 0.35
#: Smallest chromaticity distance that counts as not cloth (JPEG noise on a uniform cloth).
MIN_THRESHOLD = 0.06
#: Smoothing of the cloth background, in expected ball radii: wide enough that a rack of reds
#: (masked out anyway) leaves no trace, narrow enough to follow the lamps' fall-off.
BACKGROUND_SIGMA = 4.0
#: Middle part of the bed's rows whose widths set the radius on every row (:func:`_row_widths`).
WIDTH_SPAN = 0.8
#: The bed is brighter than this fraction of the cloth's median brightness everywhere.
BED_FRACTION = 0.6
#: Pixels round the region's bounding box (:attr:`ClothModel.box`) worked on with it: the
#: reach of the candidate mask's opening and closing together, per half-side of their kernel
#: (:func:`mask_kernel`).
BOX_MARGIN = 2


@dataclass(frozen=True)
class ClothModel:
    """What the empty cloth looks like in one image (or one video, refreshed now and then).

    Attributes:
        chroma: median normalised chromaticity ``(b, g, r)`` of the cloth.
        chroma_sigma: robust spread (1.4826 MAD) of the cloth's chromaticity distance.
        value: median brightness (HSV value) of the cloth.
        lab: median Lab colour of the cloth (reference for colour features).
        region: playing-surface mask at the working scale (1 inside).
        inside: distance (working pixels) of each pixel to the region's border.
        row_radius: ``(H,)`` expected ball radius (working pixels) on each working row.
        scale: working pixels per full-resolution pixel.
        squash: vertical over horizontal image scale of the cloth plane (the camera looks down
            at an angle, so the table's length, seen along the image's rows, is foreshortened:
            two touching balls one behind the other are less than a diameter apart on screen).
        background: ``(H, W, 3)`` the empty cloth's chromaticity at each working pixel (the
            lamps' fall-off and the cushions' shade tint it differently across the bed), or
            ``None`` for :attr:`chroma` everywhere.
        radius_map: ``(H, W)`` expected ball radius at each working pixel from the bed's
            outline as a plane (:mod:`vision.detection.plane`: any orientation of the table),
            or ``None`` to use :attr:`row_radius`.
        pockets: ``(6, 2)`` the pockets' centres (working pixels), or ``None`` if unknown.
        upscale: the frame's pixels per source pixel: where the balls are too small even at
            the source's resolution the detector works on a copy upscaled this many times (see
            :func:`vision.detection.classical.learn_model`), which is "the frame" to this model.
    """

    chroma: FloatArray
    chroma_sigma: float
    value: float
    lab: FloatArray
    region: Mask
    inside: npt.NDArray[np.float32]
    row_radius: FloatArray
    scale: float
    squash: float = 1.0
    background: npt.NDArray[np.float32] | None = None
    radius_map: npt.NDArray[np.float32] | None = None
    pockets: FloatArray | None = None
    upscale: float = 1.0

    @property
    def threshold(self) -> float:
        """Chromaticity distance beyond which a pixel is not cloth."""
        return max(MIN_THRESHOLD, 6.0 * self.chroma_sigma)

    @cached_property
    def box(self) -> tuple[int, int, int, int]:
        """``(x0, y0, x1, y1)``: the region's bounding box grown by :data:`BOX_MARGIN` pixels,
        clipped to the picture (the whole picture when the region is empty).

        Why: nothing outside the playing surface is a candidate, and on a broadcast frame the
        bed covers about half of the picture; the per-pixel work is done inside this box only.
        The margin keeps the box's edge out of the 3x3 opening and closing of
        :func:`candidate_mask` (two pixels), so the mask is the same as over the whole picture.
        """
        h, w = self.region.shape
        rows = np.flatnonzero(self.region.any(axis=1))
        cols = np.flatnonzero(self.region.any(axis=0))
        if not len(rows):
            return 0, 0, w, h
        m = BOX_MARGIN * (mask_kernel(self) // 2)
        # An even corner: OpenCV labels connected components in 2x2 blocks, so the box keeps
        # the picture's block grid and the labels their order.
        return (
            max(0, (int(cols[0]) - m) // 2 * 2),
            max(0, (int(rows[0]) - m) // 2 * 2),
            min(w, int(cols[-1]) + 1 + m),
            min(h, int(rows[-1]) + 1 + m),
        )

    @property
    def reference(self) -> FloatArray | npt.NDArray[np.float32]:
        """The cloth chromaticity each pixel is compared with (per pixel where known)."""
        return self.chroma if self.background is None else self.background

    def radius_at(self, points: npt.ArrayLike) -> FloatArray:
        """Expected ball radius (working pixels) at working pixels ``(N, 2)``."""
        pts = np.asarray(points, np.float64).reshape(-1, 2)
        rows = np.clip(pts[:, 1].astype(np.int64), 0, len(self.row_radius) - 1)
        if self.radius_map is None:
            return np.asarray(self.row_radius[rows], np.float64)
        cols = np.clip(pts[:, 0].astype(np.int64), 0, self.radius_map.shape[1] - 1)
        return np.asarray(self.radius_map[rows, cols], np.float64)

    def with_radius_scale(self, factor: float) -> ClothModel:
        """The same model with every expected radius multiplied by ``factor``."""
        return ClothModel(
            self.chroma,
            self.chroma_sigma,
            self.value,
            self.lab,
            self.region,
            self.inside,
            self.row_radius * factor,
            self.scale,
            self.squash,
            self.background,
            None if self.radius_map is None else self.radius_map * np.float32(factor),
            self.pockets,
            self.upscale,
        )


def downscale(image: Image, scale: float) -> Image:
    """The working-resolution copy of a frame (an upscaled one where ``scale`` > 1: bicubic,
    which keeps a small ball's disc round where the nearest pixel makes it a square)."""
    if scale == 1.0:
        return image
    h, w = image.shape[:2]
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    how = cv2.INTER_AREA if scale < 1.0 else cv2.INTER_CUBIC
    return np.asarray(cv2.resize(image, size, interpolation=how), np.uint8)


_ONES = np.ones((1, 3), np.float32)


def channel_max(image: Image) -> Image:
    """Per-pixel largest of B, G, R (OpenCV: numpy's ``max(axis=2)`` is many times slower)."""
    b, g, r = cv2.split(np.ascontiguousarray(image))
    return np.asarray(cv2.max(cv2.max(b, g), r), np.uint8)


def channel_min(image: Image) -> Image:
    """Per-pixel smallest of B, G, R."""
    b, g, r = cv2.split(np.ascontiguousarray(image))
    return np.asarray(cv2.min(cv2.min(b, g), r), np.uint8)


def chromaticity(small: Image) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """Normalised chromaticity ``(H, W, 3)`` and brightness (max channel) of a BGR image.

    Channel sums and maxima go through OpenCV: numpy's reductions over the last axis of an
    image are several times slower, and this runs on every frame.
    """
    f = small.astype(np.float32)
    total = np.asarray(cv2.transform(f, _ONES), np.float32).reshape(f.shape[:2]) + 3.0
    chroma = f * (1.0 / total)[..., None]
    value = channel_max(small).astype(np.float32)
    return np.asarray(chroma, np.float32), value


def chroma_distance(
    chroma: npt.NDArray[np.float32], ref: FloatArray | npt.NDArray[np.float32]
) -> npt.NDArray[np.float32]:
    """Euclidean chromaticity distance of every pixel to ``ref`` (one colour or one per pixel)."""
    d = chroma - np.asarray(ref, np.float32)
    sq = np.asarray(cv2.transform(d * d, _ONES), np.float32).reshape(chroma.shape[:2])
    return np.asarray(cv2.sqrt(sq), np.float32).reshape(chroma.shape[:2])


def learn_cloth(image: Image, scale: float = 0.5, source: str = "image") -> ClothModel:
    """Learn the cloth model from one BGR frame.

    Raises:
        BaulklineError: no saturated dominant colour in the frame's centre, or too small a
            cloth region to be a table (naming ``source``).
    """
    small = downscale(image, scale)
    hsv = cv2.cvtColor(small, cv2.COLOR_BGR2HSV)
    h, w = hsv.shape[:2]
    hue = hsv[..., 0].astype(np.int16)
    centre = np.zeros((h, w), bool)
    centre[h // 5 : 4 * h // 5, w // 5 : 4 * w // 5] = True
    coloured = (hsv[..., 1] > 80) & (hsv[..., 2] > 40)
    if np.count_nonzero(coloured & centre) < 0.2 * np.count_nonzero(centre):
        raise BaulklineError(f"{source}: no cloth found (the frame's centre is not one saturated colour)")
    # Weighed by brightness squared: the lamps light the bed, so a dim floor filling most of
    # a wide view's centre (a whole room in the frame) does not outvote the table.
    pick0 = coloured & centre
    hist = np.bincount(hue[pick0], weights=hsv[..., 2][pick0].astype(np.float64) ** 2, minlength=180)
    hist = np.convolve(np.concatenate([hist[-3:], hist, hist[:3]]), np.ones(7), "valid")
    h0 = int(np.argmax(hist))
    pick = coloured & centre & (np.abs(((hue - h0 + 90) % 180) - 90) <= 8)
    chroma, value = chromaticity(small)
    ref = np.median(chroma[pick], axis=0).astype(np.float64)
    dist = chroma_distance(chroma, ref)
    sigma = float(1.4826 * np.median(np.abs(dist[pick] - np.median(dist[pick]))))
    v0 = float(np.median(value[pick]))
    lab = np.median(cv2.cvtColor(small, cv2.COLOR_BGR2Lab)[pick], axis=0).astype(np.float64)
    probe = ClothModel(
        ref, sigma, v0, lab, np.zeros((1, 1), np.uint8), np.zeros((1, 1), np.float32), np.zeros(1), scale
    )
    # The bed only: the cushions' faces are the same cloth in shade, darker than the far end
    # of the bed under the lamps' fall-off.
    bed = ((dist < probe.threshold) & (value > BED_FRACTION * v0)).astype(np.uint8)
    # Closing bridges the chalk lines (baulk line, D) that would cut the cloth in parts.
    closed = cv2.morphologyEx(bed, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    cloth = np.asarray(cv2.morphologyEx(closed, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)), np.uint8)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(cloth, connectivity=8)
    if n < 2:
        raise BaulklineError(f"{source}: no cloth region found")
    k = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    if stats[k, cv2.CC_STAT_AREA] < 0.08 * h * w:
        raise BaulklineError(f"{source}: the cloth covers too little of the frame to be a table")
    hull = cv2.convexHull(cv2.findNonZero((labels == k).astype(np.uint8)))
    region = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(region, hull, 1)
    inside = np.asarray(cv2.distanceTransform(region, cv2.DIST_L2, 3), np.float32)
    row_radius = _row_widths(region) * RADIUS_PER_WIDTH
    clean = (dist < probe.threshold) & (value > BED_FRACTION * v0) & (region > 0)
    background = _background(chroma, clean, ref, BACKGROUND_SIGMA * float(np.median(row_radius)))
    local = chroma_distance(chroma, background)[clean]
    if len(local) > 100:
        sigma = float(1.4826 * np.median(np.abs(local - np.median(local))) + np.median(local) / 3.0)
    quad = bed_quad(region)
    plane = None if quad is None else plane_from_quad(quad, (h, w))
    if plane is None:
        return ClothModel(
            ref, sigma, v0, lab, region, inside, row_radius, scale, squash_of(region), background
        )
    rmap: npt.NDArray[np.float32] | None = None
    squash = squash_of(region)
    # Where the table's width runs along the rows, the rows' widths and the outline's aspect
    # measure size and foreshortening directly (no fitted corners in between); otherwise
    # (a rotated table) only the plane knows them.
    if not width_along_rows(plane):
        rmap = radius_map(plane, (h, w))
        squash = foreshortening(plane)
        rows = np.ma.median(np.ma.masked_where(region == 0, rmap), axis=1)
        row_radius = np.asarray(rows.filled(float(np.median(rmap[region > 0]))), np.float64)
    return ClothModel(
        ref,
        sigma,
        v0,
        lab,
        region,
        inside,
        row_radius,
        scale,
        squash,
        background,
        rmap,
        pocket_pixels(plane),
    )


def _row_widths(region: Mask) -> FloatArray:
    """The bed's width on every row: a straight line through the widths of its middle rows.

    Why a line: the bed's long sides are straight, so under perspective its width changes
    linearly down the image; the rows near its ends are narrowed by the corner pockets'
    chamfers (a ball against the far cushion there would be given too small a radius, and
    the pockets' reach with it), so only the middle WIDTH_SPAN of its rows is fitted.
    """
    widths = region.sum(axis=1).astype(np.float64)
    rows = np.flatnonzero(widths > 0)
    if len(rows) < 10:
        fallback = float(np.median(widths[rows])) if len(rows) else 1.0
        return np.full(len(widths), fallback)
    lo, hi = rows[0], rows[-1]
    margin = (1.0 - WIDTH_SPAN) / 2.0 * (hi - lo)
    mid = rows[(rows >= lo + margin) & (rows <= hi - margin)]
    slope, offset = np.polyfit(mid.astype(np.float64), widths[mid], 1)
    fitted = offset + slope * np.arange(len(widths), dtype=np.float64)
    return np.asarray(np.maximum(fitted, 0.5 * float(np.median(widths[mid]))), np.float64)


def _background(
    chroma: npt.NDArray[np.float32], clean: npt.NDArray[np.bool_], ref: FloatArray, sigma: float
) -> npt.NDArray[np.float32]:
    """The cloth's chromaticity at each pixel: a blur of the clean cloth pixels only.

    Normalised convolution: balls, shadows and chalk are left out of both the sum and the
    weight, so they do not bleed into the background; far from any cloth it is ``ref``.
    """
    w = clean.astype(np.float32)
    s = max(1.0, sigma)
    num = cv2.GaussianBlur(chroma * w[..., None], (0, 0), s)
    den = cv2.GaussianBlur(w, (0, 0), s)[..., None]
    ref32 = ref.astype(np.float32)
    out = np.where(den > 0.05, num / np.maximum(den, 1e-6), ref32)
    return np.asarray(out, np.float32)


def squash_of(region: Mask) -> float:
    """Foreshortening of the cloth from its outline: its height over width against the table's.

    Seen straight down, the bed is twice as long as wide. A camera tilted about the image's
    horizontal axis only shrinks rows, so an outline taller than half its width has the
    table's length along the rows (squash = ratio / 2), and a flatter one has it along the
    columns (squash = 2 * ratio); either way the squash is at most 1.
    """
    rows = np.count_nonzero(region.any(axis=1))
    widths = region.sum(axis=1)
    width = float(np.median(widths[widths > 0])) if rows else 0.0
    if rows == 0 or width <= 0:
        return 1.0
    ratio = rows / width
    aspect = TABLE.length / TABLE.width
    squash = ratio / aspect if ratio > 1.0 / aspect else ratio * aspect
    return float(np.clip(squash, 0.25, 1.0))


def candidate_mask(small: Image, model: ClothModel) -> Mask:
    """Pixels of the playing surface that are not cloth (working scale, 1 = candidate).

    Only the region's box (:attr:`ClothModel.box`) is looked at; the rest of the mask is 0
    (outside the playing surface, as it was when the whole picture was looked at).
    """
    x0, y0, x1, y1 = model.box
    h, w = small.shape[:2]
    if (x0, y0, x1, y1) == (0, 0, w, h):
        return _candidates(small, model.reference, model)
    ref = model.reference
    if model.background is not None:
        ref = model.background[y0:y1, x0:x1]
    out = np.zeros((h, w), np.uint8)
    out[y0:y1, x0:x1] = _candidates(small[y0:y1, x0:x1], ref, model, (x0, y0, x1, y1))
    return out


def not_cloth(
    image: Image, ref: FloatArray | npt.NDArray[np.float32], model: ClothModel
) -> npt.NDArray[np.bool_]:
    """Pixels of ``image`` that are not the cloth: off its chromaticity ``ref`` (one colour or one
    per pixel) by more than the model's threshold, or darker than any shade of it. At any scale:
    the working mask and the full-resolution cut (:func:`vision.detection.occlusion.stand_out_fine`)
    ask the same question."""
    # One compiled pass (bit for bit not_cloth_reference's float32 steps; it releases the GIL).
    return not_cloth_mask(image, ref, model.threshold, DARK_FRACTION * model.value)


def not_cloth_reference(
    image: Image, ref: FloatArray | npt.NDArray[np.float32], model: ClothModel
) -> npt.NDArray[np.bool_]:
    """:func:`not_cloth` in NumPy and OpenCV (the compiled version's test oracle)."""
    chroma, value = chromaticity(image)
    return np.asarray(
        (chroma_distance(chroma, ref) > model.threshold) | (value < DARK_FRACTION * model.value)
    )


def _candidates(
    small: Image,
    ref: FloatArray | npt.NDArray[np.float32],
    model: ClothModel,
    box: tuple[int, int, int, int] | None = None,
) -> Mask:
    """:func:`candidate_mask` of ``small`` (the model's ``box`` of the picture, or all of it)."""
    region = model.region if box is None else model.region[box[1] : box[3], box[0] : box[2]]
    mask = not_cloth(small, ref, model) & (region > 0)
    m = mask.astype(np.uint8)
    # Opening removes the chalk lines (baulk line, D: one or two pixels wide) that would
    # otherwise join the balls standing on them; closing fills a ball's highlight.
    k = np.ones((mask_kernel(model),) * 2, np.uint8)
    opened = cv2.morphologyEx(m, cv2.MORPH_OPEN, k)
    return np.asarray(cv2.morphologyEx(opened, cv2.MORPH_CLOSE, k), np.uint8)


def mask_kernel(model: ClothModel) -> int:
    """Side (working pixels) of the candidate mask's opening and closing: 3, and on an upscaled
    copy (:attr:`ClothModel.upscale`) two more for every further working pixel a source pixel
    spans.

    Why: what the opening removes is a chalk line one or two source pixels wide; on a copy
    upscaled twice it is three or four pixels wide and survived a 3x3 opening, which joined
    the baulk line, the D and the three colours on them into one blob (42 rendered 640x360
    clips: a 5x5 opening found 25 more of their first frames' balls and 16 fewer extras).
    """
    grain = model.scale * model.upscale
    return 3 if grain <= 1.0 else 2 * math.ceil(grain) + 1


def radius_correction(areas: FloatArray, expected: FloatArray, compact: npt.NDArray[np.bool_]) -> float:
    """Factor from the prior radius to the measured one: median over the compact blobs."""
    if np.count_nonzero(compact) < 3:
        return 1.0
    ratio = np.sqrt(areas[compact] / math.pi) / expected[compact]
    return float(np.clip(np.median(ratio), 0.6, 2.0))
