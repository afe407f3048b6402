"""The fast classical ball detector: whatever is round, ball-sized and not cloth.

Why this works on broadcast footage: every ball differs from the cloth in chromaticity or is
far darker (:mod:`vision.detection.cloth`), and only pixels inside the playing surface count,
so the players, the floor and the score bar outside it are never looked at. Inside it, each
connected blob of non-cloth pixels is judged by its size against the expected ball radius on
its row:

* a blob of about one ball's area and round is one ball (its centroid is the centre);
* a larger blob away from the border is a cluster of touching balls, split by
  :mod:`vision.detection.cluster`: one ball per lamp cap (counted on the foreshortened cloth
  plane), checked against the blob's area and each ball's disc fill, plus any ball-thick
  remainder (a ball without a visible cap, such as the white); a compact blob well over one
  ball's area is split the same way (a ball half hidden behind another);
* a blob touching the playing surface's border that is dark (a pocket) is not a ball; one
  larger than a ball keeps only the capped balls that stand out of it (a ball against the
  cushion's shade, its cap looked for just beyond the bed's outline where the ball stands
  over it) when it is no thicker than a ball (an arm or a hand is);
* from a blob that is not balls as a whole (a cue's tip, a hand, a head, the cushion's strip)
  the ball-shaped pieces an opening or a brightness cut leaves are balls, and a detection
  from the border or from such a cut that has the cloth's own hue is cloth in shade
  (:mod:`vision.detection.occlusion`).

Everything runs on a downscaled copy (``scale``) and the centres are mapped back to full
resolution. No constant is set per image: the cloth model and the radius are measured from
the picture.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import cv2
import numpy as np
import numpy.typing as npt

from calibration.errors import BaulklineError
from vision.detection.cloth import (
    DARK_FRACTION,
    ClothModel,
    Mask,
    candidate_mask,
    channel_max,
    chroma_distance,
    chromaticity,
    downscale,
    learn_cloth,
    radius_correction,
)
from vision.detection.cluster import ClusterPrior, measure_prior, split_blob
from vision.detection.colour import ColourClassifier, colour_features
from vision.detection.detections import BallDetections, Image
from vision.detection.kernels import blob_border_median
from vision.detection.occlusion import (
    BORDER_SCORE,
    CUT_SCORE,
    FINE_RADIUS,
    POCKET_REACH,
    POCKET_REACH_BORDER,
    cloth_shade,
    cut_out,
    local_cloth,
    near_pocket,
    stand_out,
    stand_out_fine,
)
from vision.detection.pairs import rim_centre
from vision.detection.streak import smeared

FloatArray = npt.NDArray[np.float64]
Labels = npt.NDArray[np.int32]
BoolArray = npt.NDArray[np.bool_]

#: Full-frame detections between refreshes of a video's cloth model (about 30 s at 30 fps).
REFRESH_EVERY = 900
#: A blob thicker than this many radii is not balls: a full rack is 3.3 radii thick.
THICKEST_CLUSTER = 4.0
#: A lone ball's blob is less elongated than this: a ball near the cloth's colour (the green
#: at the far end) shows its dark half and its shadow only, nearly twice as tall as wide; two
#: touching balls are held apart by area (:data:`DOUBLE_AREA`), not by this.
SINGLE_ASPECT = 2.0
#: A compact blob this many times a lone ball's area is looked at as a possible pair.
DOUBLE_AREA = 1.35
#: Frame pixels within this many radii of a lone ball's rough centre are weighed to refine it.
REFINE_REACH = 1.0
#: The ball's middle (this many radii): its chromaticity distance is the full weight of a pixel.
REFINE_MIDDLE = 0.6
#: Re-centring passes (the first window is off by up to a working pixel).
REFINE_PASSES = 2
#: Largest refinement (working pixels) taken as a correction rather than a distraction.
REFINE_MAX_MOVE = 1.0
#: ... or this many of the ball's radii (frame pixels), where that is more. Why: at a working
#: scale of 1 (balls too small to halve) a working pixel is a frame pixel, and what touches a
#: ball (a chalk line, its shade) pulls its blob a pixel or more; on a rendered 1080p free ball
#: (balls five pixels in radius) the green's blob on the baulk-line and the D was 1.3 px off,
#: its refinement of 1.05 px refused: 9 mm off its spot all clip.
REFINE_MAX_RADII = 0.25
#: Diameter (radii) of the disc a lone ball's blob is opened by for its core (a ball, two
#: radii across, keeps its shape; a strip or wedge thinner than this beside it goes).
CORE_DIAMETER = 1.6
#: A ball with another ball's centre nearer than this many radii is refined beside it
#: (:func:`refine_beside`): their windows (a radius and a pixel each) overlap.
BESIDE_RADII = 2.6
#: A neighbour nearer than this many radii overlaps the ball in the picture (touching balls seen
#: from above are two true radii apart, about 1.7 of a blob's): the ball is not refitted.
BESIDE_APART = 1.4
#: Most neighbours a ball may have to be refined beside them.
BESIDE_MOST = 2
#: Largest refinement (radii) of a ball beside another: a ball split out of a pair's blob is
#: placed by its cap to a working pixel or two, more than :data:`REFINE_MAX_MOVE`.
BESIDE_MAX_MOVE = 0.5
#: A blob from the border holding a ball is a ball on a strip of shade: no thicker than a ball.
ATTACHED_THICKEST = 1.4
#: A detection within this many radii of the bed's outline is judged by colour as the cushion's
#: cloth could be (:func:`~vision.detection.occlusion.cloth_shade`): over the 50 Task1 stills
#: the named balls there are 6 degrees or more off the cloth's hue, the cushion 3 to 4.
CUSHION_REACH = 2.0
#: Blob radius over the bed's geometric radius of the blobs that correct it (:func:`calibrate_radius`).
CALIBRATE_RATIO = (0.75, 1.6)
#: A blob this many times longer than wide that fills this much of its rotated box is a band,
#: not balls (:func:`_band`).
BAND_LENGTH = 2.5
BAND_FILL = 0.86
#: Confidence of a ball found as a motion streak.
STREAK_SCORE = 0.7
#: Least typical ball radius (working pixels) the working scale may leave: below it a ball's
#: blob does not survive the candidate mask's 3x3 opening, and the picture is worked on at
#: full resolution instead (a wide view of the whole room: broadcasts give 4 to 6).
MIN_WORKING_RADIUS = 3.0
#: Typical ball radius (pixels) at full resolution below which the frame is worked on upscaled
#: (a 640x360 picture of the whole table: 1.8 to 2.5). Under :data:`MIN_WORKING_RADIUS`, not at
#: it: a rack 2.9 px in radius (a 960x540 render, :mod:`tests.vision.test_small_pack`) kept all
#: its reds at full resolution and lost two on the upscaled copy, whose doubled opening and
#: closing join its balls more.
UPSCALE_BELOW = 2.75
#: Typical ball radius (pixels) an upscaled copy of the frame aims at: the broadcasts' 4 to 6,
#: at which every stage's pixel constants were set.
UPSCALED_RADIUS = 4.0
#: Largest upscaling (its cost grows with the square).
MAX_UPSCALE = 2


@dataclass(frozen=True)
class Blobs:
    """Connected candidate blobs of one working-scale mask."""

    labels: Labels
    stats: npt.NDArray[np.int32]
    centroids: FloatArray

    @classmethod
    def of(cls, mask: Mask, box: tuple[int, int, int, int] | None = None) -> Blobs:
        """Label the mask's 8-connected components (only inside ``box`` = ``(x0, y0, x1, y1)``
        where the mask is 0 outside it: the labels, boxes and centroids are the same)."""
        h, w = mask.shape
        x0, y0, x1, y1 = (0, 0, w, h) if box is None else box
        _, part, st, cents = cv2.connectedComponentsWithStats(mask[y0:y1, x0:x1], connectivity=8)
        if (x0, y0, x1, y1) == (0, 0, w, h):
            labels = np.asarray(part, np.int32)
        else:
            labels = np.zeros((h, w), np.int32)
            labels[y0:y1, x0:x1] = part
        stats = np.array(st, np.int32)
        stats[:, cv2.CC_STAT_LEFT] += x0
        stats[:, cv2.CC_STAT_TOP] += y0
        return cls(labels, stats, np.asarray(cents, np.float64) + np.array([x0, y0], np.float64))

    def __len__(self) -> int:
        return len(self.stats) - 1


def calibrate_radius(small: Image, model: ClothModel) -> ClothModel:
    """Correct the model's radius prior by the median size of the image's compact blobs."""
    blobs = Blobs.of(candidate_mask(small, model), model.box)
    if len(blobs) == 0:
        return model
    st = blobs.stats[1:].astype(np.float64)
    w, h, a = st[:, cv2.CC_STAT_WIDTH], st[:, cv2.CC_STAT_HEIGHT], st[:, cv2.CC_STAT_AREA]
    expected = model.radius_at(blobs.centroids[1:])
    ratio = np.sqrt(a / math.pi) / expected
    # Only blobs near the bed's own size count: the geometric radius is within 5% of a render's
    # balls and the broadcasts' blur grows them by up to 1.36 (the 50 Task1 stills), while the
    # dashes of a chalk line at full resolution (0.6) or a middle pocket's mouth (1.55) are as
    # compact; from 0.5 to 2.2 they outvoted the balls in a few renders, which lost most of
    # their balls or found the dashes.
    compact = (
        (np.maximum(w, h) / np.maximum(np.minimum(w, h), 1.0) < 1.35)
        & (a / (w * h) > 0.6)
        & (ratio > CALIBRATE_RATIO[0])
        & (ratio < CALIBRATE_RATIO[1])
    )
    return model.with_radius_scale(radius_correction(a, expected, compact))


def learn_model(image: Image, scale: float, source: str = "image") -> ClothModel:
    """The cloth model of ``image`` at ``scale``, or at full resolution where the balls are
    too small at ``scale`` to keep their shape (:data:`MIN_WORKING_RADIUS`), or of an upscaled
    copy of ``image`` (:attr:`ClothModel.upscale`) where they are smaller still at full
    resolution (:data:`UPSCALE_BELOW`).

    Why upscale: a ball 2 pixels in radius (a 640x360 picture of the whole table) leaves a blob
    of a dozen pixels that the candidate mask's opening erodes away or breaks up, its cap is
    under a pixel, and its colour is sampled over a disc that takes in its rim and the cloth:
    on 42 rendered 640x360 clips the detector found half the balls of the first frame (whole
    packs of reds missed) and named a third of those it found wrong or not at all. On a copy
    upscaled to :data:`UPSCALED_RADIUS` every stage sees balls of the size it was built for
    (:class:`ClassicalDetector` maps the frames and the balls between the two).
    """
    model = calibrate_radius(downscale(image, scale), learn_cloth(image, scale, source))
    typical = _typical_radius(model)
    if scale < 1.0 and typical < MIN_WORKING_RADIUS:
        return learn_model(image, 1.0, source)
    if scale >= 1.0 and typical < UPSCALE_BELOW:
        up = min(MAX_UPSCALE, max(2, math.ceil(UPSCALED_RADIUS / max(typical * scale, 0.5))))
        big = downscale(image, float(up))
        return calibrate_radius(big, replace(learn_cloth(big, scale, source), upscale=float(up)))
    return model


def _typical_radius(model: ClothModel) -> float:
    """The median expected ball radius (working pixels) over the bed's rows."""
    rows = model.region.any(axis=1)
    return float(np.median(model.row_radius[rows])) if rows.any() else MIN_WORKING_RADIUS


def find_balls(
    image: Image,
    small: Image,
    mask: Mask,
    model: ClothModel,
    prior: ClusterPrior | None = None,
    remeasure: bool = True,
    fine: bool = False,
    fine_prior: bool = False,
) -> tuple[FloatArray, FloatArray, FloatArray, ClusterPrior | None]:
    """Ball centres ``(N, 2)``, radii and scores (working scale) from the candidate mask.

    Also returns the cluster prior measured on this image's lone balls (``None`` when there
    are too few, or when ``prior`` is given and ``remeasure`` is false); clusters are split
    with it, or with ``prior`` (a previous frame's) when the image has too few lone balls.

    ``fine``: the balls of clusters are placed at their caps to a fraction of a pixel, each
    with the cap offset the lone balls near it show (:func:`split_blob`), and the prior is
    measured so (the spot a resting ball is reported at; see
    :meth:`vision.tracking.rest_spots.RestSpots.fine_spot`). ``fine_prior``: the fine prior
    is measured too, beside the usual one, as its :attr:`ClusterPrior.fine`.
    """
    blobs = Blobs.of(mask, model.box)
    empty = np.zeros((0, 2)), np.zeros(0), np.zeros(0), None
    if len(blobs) == 0:
        return empty
    st = blobs.stats[1:]
    ws, hs, areas = (st[:, i].astype(np.float64) for i in (2, 3, 4))
    r_all = model.radius_at(blobs.centroids[1:])
    a1_all = math.pi * r_all * r_all
    # The least blob a ball leaves is judged by its core: on an upscaled copy the expected
    # radius is measured from blobs a source pixel wider all round than their balls (see
    # _colour_radius), a rim that only a colour that differs from the cloth in chromaticity
    # gets; a ball only darker than the cloth (the black, the green on green cloth) shows
    # none, and at two source pixels in radius its blob fell under the size test.
    bare = _colour_radius(r_all, model)
    full = (areas >= 0.55 * a1_all) & (np.minimum(ws, hs) >= r_all)
    keep = full | ((areas >= 0.55 * math.pi * bare * bare) & (np.minimum(ws, hs) >= bare))
    idx = np.flatnonzero(keep) + 1
    if not len(idx):
        return empty
    value = channel_max(small)
    # Brighter than the cloth: the white, yellow and pink against a dark occluder or shade.
    bright = (value > model.value).astype(np.uint8)
    singles: list[int] = []
    clusters: list[int] = []
    attached: list[int] = []
    dark_blobs: list[int] = []
    for k in idx:
        x0, y0, w, h, area = (int(s) for s in blobs.stats[k])
        r = float(r_all[k - 1])
        a1 = math.pi * r * r
        # Its least distance to the bed's border and its median brightness (one compiled pass).
        border, bright_median = blob_border_median(blobs.labels, model.inside, value, int(k), (x0, y0, w, h))
        dark = bright_median < DARK_FRACTION * model.value
        if not full[k - 1] and not bright_median < model.value:
            continue  # under a rimmed ball's size and not darker than the cloth: no ball
        if dark and border < 2.0 * r:
            # A pocket's mouth, or a dark head or sleeve over the table: only balls it touches.
            dark_blobs.append(k)
            continue
        if border < 1.5 and near_pocket(model, blobs.centroids[k], r, POCKET_REACH_BORDER):
            # A pocket's fall, leather or shadow (a ball in the jaws is given up); one larger than
            # a ball may hold a ball on the cloth beside the pocket, joined to its shade: only
            # the balls that stand out of it beyond the pocket's reach are kept (:func:`cut_out`).
            if area > 2.2 * a1:
                dark_blobs.append(k)
            continue
        aspect = max(w, h) / max(1, min(w, h))
        if border < 1.5 and area > 2.2 * a1:
            attached.append(k)  # reaching in from outside the bed, or a ball on the cushion's shade
        elif area <= 1.8 * a1 and aspect < SINGLE_ASPECT and area / (w * h) > 0.45:
            singles.append(k)
        else:
            clusters.append(k)
    s = model.scale
    single_c = blobs.centroids[singles].reshape(-1, 2)
    single_r = r_all[np.asarray(singles, np.int64) - 1] if singles else np.zeros(0)
    single_a = (
        areas[np.asarray(singles, np.int64) - 1] / a1_all[np.asarray(singles, np.int64) - 1]
        if singles
        else np.zeros(0)
    )
    core = _core_centroids(blobs, np.asarray(singles, np.int64), single_r)
    refined = refine_centres(image, model, single_c, single_r, core)
    # A video's prior is measured once in a while, not on every frame (it costs a crop per ball),
    # from the refined centres: the caps' offsets from them place the balls of clusters.
    # (Lone balls without a rim, under a rimmed ball's size, would tell the prior the balls of
    # clusters are smaller than they are: a 640x360 break-off's pack was split into more balls
    # than the game has, and dropped.)
    rimmed = full[np.asarray(singles, np.int64) - 1] if singles else np.zeros(0, bool)
    lone = _on_bed(model, single_c, single_r) & rimmed
    measured = (
        None
        if prior is not None and not remeasure
        else measure_prior(
            image,
            ((refined if fine else single_c)[lone] + 0.5) / s - 0.5,
            single_r[lone] / s,
            single_a[lone],
            fine,
        )
    )
    if measured is not None and not fine and fine_prior:
        fp = measure_prior(image, (refined[lone] + 0.5) / s - 0.5, single_r[lone] / s, single_a[lone], True)
        measured = replace(measured, fine=fp)
    use = measured or prior or ClusterPrior()
    # A "single" much larger than this frame's lone ball may be two balls, one half hiding the
    # other (foreshortening): it is split like a cluster (one cap and what is left).
    double = single_a > DOUBLE_AREA * use.single
    clusters += [k for k, d in zip(singles, double, strict=True) if d]
    centres = [tuple(c) for c in refined[~double]]
    radii = list(single_r[~double])
    scores = list(np.minimum(1.0, single_a[~double]))
    dt: npt.NDArray[np.float32] | None = None
    shadeless: npt.NDArray[np.uint8] | None = None
    for k in attached:
        if dt is None:
            dt = _distance(mask, model.box)
        x0, y0, w, h, _ = (int(v) for v in blobs.stats[k])
        sub = blobs.labels[y0 : y0 + h, x0 : x0 + w] == k
        if float(dt[y0 : y0 + h, x0 : x0 + w][sub].max()) > ATTACHED_THICKEST * float(r_all[k - 1]):
            # Thicker than a ball: a hand or an arm reaching in, not a ball on a strip; only
            # balls it touches are looked for.
            rk = float(r_all[k - 1])
            cut, cut_r = cut_out(model, sub, (x0, y0), rk, None, use)
            _add(centres, radii, scores, cut, cut_r, CUT_SCORE)
            _add(centres, radii, scores, *_finer(image, model, sub, (x0, y0), rk, use, cut), CUT_SCORE)
            continue
        r = float(r_all[k - 1])
        capped = np.asarray(
            split_blob(
                image,
                sub,
                (x0, y0),
                r,
                s,
                use,
                model.squash,
                attached=True,
                region=model.region > 0,
                fine=fine,
            )
        )
        capped = capped.reshape(-1, 2)
        # A ball without a cap (the white) on the strip stands out of it by its shape.
        _add(centres, radii, scores, capped, r, BORDER_SCORE)
        if shadeless is None:
            # Darker than any shade of the cloth: the black on the cushion's shade strip.
            shadeless = (value < DARK_FRACTION * model.value).astype(np.uint8)
        cut, cut_r = cut_out(model, sub, (x0, y0), r, bright, use, shadeless)
        new = np.array([not len(capped) or np.hypot(*(capped - c).T).min() > r for c in cut], bool).reshape(
            -1
        )
        _add(centres, radii, scores, cut[new], cut_r[new], CUT_SCORE)
    for k in dark_blobs:
        x0, y0, w, h, _ = (int(v) for v in blobs.stats[k])
        sub = blobs.labels[y0 : y0 + h, x0 : x0 + w] == k
        _add(
            centres,
            radii,
            scores,
            *cut_out(model, sub, (x0, y0), float(r_all[k - 1]), bright, use),
            CUT_SCORE,
        )
    for k in clusters:
        if dt is None:
            dt = _distance(mask, model.box)
        x0, y0, w, h, _ = (int(v) for v in blobs.stats[k])
        r = float(r_all[k - 1])
        sub = blobs.labels[y0 : y0 + h, x0 : x0 + w] == k
        if smeared(image, sub, (x0, y0), r, s, use, model.squash):
            # One ball smeared by its motion, not a row of balls (:mod:`vision.detection.streak`).
            _add(centres, radii, scores, blobs.centroids[k].reshape(1, 2), r, STREAK_SCORE)
            continue
        thickest = float(dt[y0 : y0 + h, x0 : x0 + w][sub].max())
        if thickest < 0.75 * r or thickest > THICKEST_CLUSTER * r or _band(sub):
            # A strip thinner than a ball (a cue, a cushion's shade), or a body: only balls
            # it touches are looked for.
            cut = stand_out(sub, (x0, y0), r, use)
            _add(centres, radii, scores, cut, model.radius_at(cut), CUT_SCORE)
            _add(centres, radii, scores, *_finer(image, model, sub, (x0, y0), r, use, cut), CUT_SCORE)
            continue
        # As thick as an arm: balls only if every ball shows its cap.
        found = split_blob(
            image, sub, (x0, y0), r, s, use, model.squash, need_caps=thickest > 2.6 * r, fine=fine
        )
        for c in found:
            centres.append(c)
            radii.append(r)
            scores.append(0.7)
    pts = np.asarray(centres, np.float64).reshape(-1, 2)
    rad = np.asarray(radii, np.float64)
    # Balls split out of a larger blob are checked against the pockets too.
    keep_ball = np.array(
        [not near_pocket(model, c, r, POCKET_REACH) for c, r in zip(pts, rad, strict=True)], bool
    )
    return pts[keep_ball], rad[keep_ball], np.asarray(scores, np.float64)[keep_ball], measured


def _on_bed(model: ClothModel, centres: FloatArray, radii: FloatArray) -> BoolArray:
    """Which lone blobs (working-scale ``centres`` and ``radii``) lie a ball's radius or more
    inside the bed's outline: the only ones the cluster prior may be measured from.

    Why: a ball's centre is never nearer the cushion's nose than its radius, but the nose, its
    shade strip, the rail's markings and the pockets' rings break into ball-sized blobs along
    the outline, and on a turned table the bed's box takes in long stretches of them. On a
    1280x720 render (balls 3.7 px in radius) 15 of a break-off's 21 lone blobs were such
    pieces: the prior took a lone ball's area as 0.73 of its disc (the balls' own: 1.0-1.7)
    and its cap strength as 13.6 (the balls': 45-66), and the pack, measured at 29 balls'
    area, was thrown out as more balls than the game has; the frame was seeded with no reds.
    """
    if not len(centres):
        return np.zeros(0, bool)
    return np.asarray(_depth_inside(model, centres) >= radii, bool)


def _depth_inside(model: ClothModel, work: FloatArray) -> FloatArray:
    """How far inside the bed's outline (working pixels, ``model.inside``) each working-scale
    point of ``work`` ``(N, 2)`` lies, read at its nearest pixel (clipped to the picture)."""
    h, w = model.inside.shape
    iy = np.clip(np.round(work[:, 1]).astype(np.int64), 0, h - 1)
    ix = np.clip(np.round(work[:, 0]).astype(np.int64), 0, w - 1)
    return np.asarray(model.inside[iy, ix], np.float64)


def _core_centroids(blobs: Blobs, labels: npt.NDArray[np.int64], radii: FloatArray) -> FloatArray:
    """The working centroids of the blobs ``labels`` opened by a disc :data:`CORE_DIAMETER`
    radii across: their round core, without the thinner things that touch the ball.

    Why: the blob's centroid is what a refined centre may move :data:`REFINE_MAX_MOVE` from,
    and the blob takes in whatever touches the ball. On two 1080p60 break-off renders the
    green on its spot had a wedge of tinted cloth at its foot and the baulk-line's stub in its
    blob, which put the blob's centroid 1.2 working pixels off: the refined centre (right to
    a millimetre) was refused as too far, and the green stood 12-16 mm off its spot for the
    whole clip, 40% of those clips' squared error at rest. A blob whose core keeps less than
    half of it keeps its centroid.
    """
    out = np.asarray(blobs.centroids[labels], np.float64).reshape(-1, 2).copy()
    for i, (k, r) in enumerate(zip(labels, radii, strict=True)):
        x0, y0, bw, bh, _ = (int(v) for v in blobs.stats[k])
        blob = (blobs.labels[y0 : y0 + bh, x0 : x0 + bw] == k).astype(np.uint8)
        size = max(3, int(CORE_DIAMETER * r) | 1)
        disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
        core = cv2.morphologyEx(np.pad(blob, size), cv2.MORPH_OPEN, disc)[size:-size, size:-size]
        ys, xs = np.nonzero(core)
        if len(xs) >= 0.5 * np.count_nonzero(blob):
            out[i] = (x0 + float(xs.mean()), y0 + float(ys.mean()))
    return out


def refine_centres(
    image: Image,
    model: ClothModel,
    centres: FloatArray,
    radii: FloatArray,
    core: FloatArray | None = None,
) -> FloatArray:
    """Lone balls' centres (working scale) re-measured on the full-resolution frame.

    Why: a working pixel is two frame pixels, about a centimetre of cloth; the centroid of the
    working mask is quantised to it. The frame's own pixels near the ball, weighed by how
    unlike the cloth they are (:func:`_refined`), give its centroid to a fraction of a frame
    pixel. All the balls are re-measured together, pass by pass (one set of array operations
    for the frame, not one per ball: this runs on every full-frame detection).

    ``core``: the blobs' round cores' centroids (:func:`_core_centroids`): a refinement within
    :data:`REFINE_MAX_MOVE` of it is taken too (the passes still start from ``centres``).
    """
    s = model.scale
    out = centres.copy()
    if not len(centres):
        return out
    u0 = (centres[:, 0] + 0.5) / s - 0.5
    v0 = (centres[:, 1] + 0.5) / s - 0.5
    rf = np.asarray(radii, np.float64) / s
    u, v = u0.copy(), v0.copy()
    live = np.ones(len(centres), bool)
    for _ in range(REFINE_PASSES):
        idx = np.flatnonzero(live)
        if not len(idx):
            break
        moved, ok = _refined(image, model, u[idx], v[idx], rf[idx])
        live[idx[~ok]] = False
        u[idx[ok]], v[idx[ok]] = moved[ok, 0], moved[ok, 1]
    # Refining corrects the quantisation (under a working pixel); a bigger move was pulled
    # by something beside the ball (a shadow, a cue's tip), so the blob's centroid stands;
    # unless it stays that near the blob's round core, which such things do not pull.
    limit = np.maximum(REFINE_MAX_MOVE / s, REFINE_MAX_RADII * rf)
    take = np.hypot(u - u0, v - v0) <= limit
    if core is not None:
        cu, cv = (core[:, 0] + 0.5) / s - 0.5, (core[:, 1] + 0.5) / s - 0.5
        take |= np.hypot(u - cu, v - cv) <= limit
    out[take, 0] = (u[take] + 0.5) * s - 0.5
    out[take, 1] = (v[take] + 0.5) * s - 0.5
    return out


def refine_beside(
    image: Image,
    model: ClothModel,
    centres: FloatArray,
    radii: FloatArray,
    balls: FloatArray,
    anchors: BoolArray,
) -> FloatArray:
    """Centres (working scale) of balls beside known balls, fitted to the rim they show.

    Why: a ball touching another is measured from the pair's blob, split at the balls' caps to
    a working pixel or two, or by a centroid that counts the neighbour's rim and the pair's
    shade; :func:`vision.detection.pairs.rim_centre` fits the rim facing away from the
    neighbours instead. The neighbours are the balls the caller knows (the tracker's), not the
    other detections: a cue's tip or a finger split out of a hand is no ball, and refining
    beside it moved the white it was addressing.

    Args:
        image: the frame (the detector's full resolution).
        model: the cloth model (working scale).
        centres: ``(N, 2)`` detected centres in working pixels.
        radii: ``(N,)`` their radii in working pixels.
        balls: ``(B, 2)`` the known balls' centres in working pixels (NaN: not on the table).
        anchors: ``(B,)`` known balls whose detection may be re-measured (the others are
            neighbours only).

    Returns:
        The centres; a detection within half a radius of an anchor ball with one or two other
        known balls beside it is refitted, unless the fit fails or moves it more than
        :data:`BESIDE_MAX_MOVE` radii.
    """
    out = centres.copy()
    if not len(centres) or len(balls) < 2:
        return out
    s = model.scale
    rf = np.asarray(radii, np.float64) / s
    u0 = (centres[:, 0] + 0.5) / s - 0.5
    v0 = (centres[:, 1] + 0.5) / s - 0.5
    bu = (balls[:, 0] + 0.5) / s - 0.5
    bv = (balls[:, 1] + 0.5) / s - 0.5
    d = np.nan_to_num(np.hypot(u0[:, None] - bu[None, :], v0[:, None] - bv[None, :]), nan=np.inf)
    own = d < 0.5 * rf[:, None]
    near = (d < BESIDE_RADII * rf[:, None]) & ~own
    # A neighbour overlapping it in the picture (a low view along the line of centres) hides
    # the rim beside the blind arcs as well: too little of it shows to fit.
    hidden = np.any(near & (d < BESIDE_APART * rf[:, None]), axis=1)
    # In a pack (the reds racked, or bunched after a break) no rim is left facing the cloth.
    count = np.count_nonzero(near, axis=1)
    for i in np.flatnonzero(
        np.any(own & anchors[None, :], axis=1) & (count >= 1) & (count <= BESIDE_MOST) & ~hidden
    ):
        guess = np.array([u0[i], v0[i]])
        iy = min(max(int(centres[i, 1] + 0.5), 0), model.region.shape[0] - 1)
        ix = min(max(int(centres[i, 0] + 0.5), 0), model.region.shape[1] - 1)
        cloth = np.asarray(model.chroma if model.background is None else model.background[iy, ix], np.float64)
        others = np.stack([bu[near[i]], bv[near[i]]], axis=1)
        c = rim_centre(image, guess, float(rf[i]), cloth, others)
        if c is not None and np.hypot(*(c - guess)) <= BESIDE_MAX_MOVE * rf[i]:
            out[i] = (c + 0.5) * s - 0.5
    return out


def _refined(
    image: Image, model: ClothModel, u: FloatArray, v: FloatArray, rf: FloatArray
) -> tuple[FloatArray, npt.NDArray[np.bool_]]:
    """The centroid (frame pixels) of each ball's disc around ``(u, v)``, each pixel weighed by
    how far its chromaticity is from the cloth's, as a share of the ball's middle's; and
    whether there was one (a ball too near the frame's edge, or too little of it unlike the
    cloth, keeps its centre).

    Why weighed, not thresholded: video stores colour at half resolution (4:2:0), so the
    chromaticity of a ball's rim comes in 2x2 blocks that mix ball and cloth; a threshold
    snaps the rim to the block grid, a fixed error of up to half a pixel per ball that no
    number of frames averages away. The distance grows with the share of the ball in the
    mix, so weighing by it puts each rim block at its coverage (sample clips at rest: lone
    balls 2.3 -> 1.4 mm RMS).

    Every ball's window (``REFINE_REACH`` radii and a pixel round its centre, clipped to the
    frame) is cut from one patch size; pixels outside a ball's own window weigh nothing.
    """
    s = model.scale
    n = len(u)
    h, w = image.shape[:2]
    half = np.ceil(REFINE_REACH * rf).astype(np.int64) + 1
    iu, iv = np.trunc(u).astype(np.int64), np.trunc(v).astype(np.int64)
    ok = (np.minimum(w, iu + half + 1) - np.maximum(0, iu - half) >= 3) & (
        np.minimum(h, iv + half + 1) - np.maximum(0, iv - half) >= 3
    )
    span = int(half.max())
    offs = np.arange(-span, span + 1)
    size = len(offs)
    xs, ys = iu[:, None] + offs, iv[:, None] + offs
    # Squared distances to the centre along each axis; beyond the ball's own window or the
    # frame, infinite (such a pixel is in no disc).
    dx2 = np.where((np.abs(offs) <= half[:, None]) & (xs >= 0) & (xs < w), (xs - u[:, None]) ** 2, np.inf)
    dy2 = np.where((np.abs(offs) <= half[:, None]) & (ys >= 0) & (ys < h), (ys - v[:, None]) ** 2, np.inf)
    r2 = dy2[:, :, None] + dx2[:, None, :]
    patches = np.empty((n, size, size, 3), np.uint8)
    for k in range(n):
        a, b = int(xs[k, 0]), int(ys[k, 0])
        if a >= 0 and b >= 0 and a + size <= w and b + size <= h:
            patches[k] = image[b : b + size, a : a + size]
        else:  # by the frame's edge: its nearest pixels repeated (they are outside every disc)
            patches[k] = image[np.clip(ys[k], 0, h - 1)[:, None], np.clip(xs[k], 0, w - 1)[None, :]]
    chroma, value = chromaticity(patches.reshape(n * size, size, 3))
    iy = np.minimum(np.trunc((v + 0.5) * s).astype(np.int64), model.region.shape[0] - 1)
    ix = np.minimum(np.trunc((u + 0.5) * s).astype(np.int64), model.region.shape[1] - 1)
    if model.background is None:
        ref = np.broadcast_to(np.asarray(model.chroma, np.float32), (n, 3))
    else:
        ref = model.background[np.maximum(iy, 0), np.maximum(ix, 0)]
    dist = chroma_distance(chroma, ref[:, None, :] if n == 1 else np.repeat(ref, size, axis=0)[:, None, :])
    dist = dist.reshape(n, size, size)
    disc = r2 <= ((REFINE_REACH * rf) ** 2)[:, None, None]
    ball = ((dist > model.threshold) | (value.reshape(n, size, size) < DARK_FRACTION * model.value)) & disc
    ok &= np.count_nonzero(ball, axis=(1, 2)) >= 0.5 * math.pi * rf * rf
    middle = r2 <= ((REFINE_MIDDLE * rf) ** 2)[:, None, None]
    # The median of each ball's middle: its pixels sorted to the front of its row.
    count = np.count_nonzero(middle, axis=(1, 2))
    srt = np.sort(np.where(middle, dist, np.float32(np.inf)).reshape(n, -1), axis=1)
    rows = np.arange(n)
    lo, hi = srt[rows, np.maximum(count - 1, 0) // 2], srt[rows, np.maximum(count, 1) // 2]
    med = np.where(count > 0, (lo.astype(np.float64) + hi) / 2.0, 0.0)
    full = np.maximum(med, 2.0 * model.threshold).astype(np.float32)
    weight = np.clip(dist / full[:, None, None], 0.0, 1.0) * disc
    total = weight.sum(axis=(1, 2), dtype=np.float64)
    ok &= total > 0.0
    safe = np.where(total > 0.0, total, 1.0)
    out = np.stack(
        [
            (weight.sum(axis=1, dtype=np.float64) * xs).sum(axis=1) / safe,
            (weight.sum(axis=2, dtype=np.float64) * ys).sum(axis=1) / safe,
        ],
        axis=1,
    )
    out[~ok] = np.stack([u, v], axis=1)[~ok]
    return out, ok


@dataclass
class ClassicalDetector:
    """Cloth-model ball detector; conforms to :class:`~vision.detection.detections.BallDetector`.

    Attributes:
        scale: working scale (0.5 halves 720p: balls stay about 5 px in radius).
        cloth: a cloth model to reuse (a video's); ``None`` learns one from each image.
        classifier: colour classifier run on the detections; ``None`` leaves colours unknown.
        prior: cluster prior of the last full-frame detection, reused by ROI detections.
        refresh_every: full-frame detections between re-learning a video's cloth model and
            cluster prior (the light drifts slowly; learning on every frame would cost more
            than detecting). 0: never.
        full_frames: full-frame detections so far.
    """

    scale: float = 0.5
    cloth: ClothModel | None = None
    classifier: ColourClassifier | None = field(default_factory=ColourClassifier)
    prior: ClusterPrior | None = None
    refresh_every: int = REFRESH_EVERY
    full_frames: int = 0

    def learn(self, image: Image, source: str = "image") -> ClothModel:
        """Learn (and keep) the cloth model of ``image``."""
        self.cloth = learn_model(image, self.scale, source)
        return self.cloth

    def expected_radius(self, pixels: FloatArray) -> FloatArray:
        """The radius (pixels) :meth:`detect` gives a ball found at frame ``pixels`` ``(N, 2)``:
        the cloth model's expectation there (NaN before a model is learned)."""
        pts = np.asarray(pixels, np.float64).reshape(-1, 2)
        model = self.cloth
        if model is None:
            return np.full(len(pts), np.nan)
        k = model.upscale * model.scale  # (frame pixels to the model's, as detect maps them back)
        return np.asarray(model.radius_at((pts + 0.5) * k - 0.5) / k, np.float64)

    def changes_on_whole_table(self) -> bool:
        """Whether the next whole-table :meth:`detect` changes the cloth model or the cluster
        prior (an ROI detection reads both): it re-learns them every :attr:`refresh_every`
        whole-table detections, and measures the prior while it has none."""
        return self.cloth is None or self.prior is None or self._refresh_due()

    def _refresh_due(self) -> bool:
        """Whether the next whole-table detection re-learns the cloth model and the prior."""
        return self.refresh_every > 0 and self.full_frames % self.refresh_every == 0

    def _relearn(self, image: Image) -> ClothModel:
        """A fresh cloth model of ``image``, or the old one where the cloth is hidden now."""
        assert self.cloth is not None
        try:
            return self.learn(image)
        except BaulklineError:
            return self.cloth

    def detect(
        self,
        image: Image,
        roi: tuple[int, int, int, int] | None = None,
        keep: Callable[[FloatArray], BoolArray] | None = None,
        fine: bool = False,
        white_in_hand: bool = False,
    ) -> BallDetections:
        """Balls in a BGR frame (optionally only inside ``roi`` = ``(x0, y0, x1, y1)`` pixels).

        ``keep``: which of the blobs found (their ``(N, 2)`` centres in ``image``'s pixels) may be
        balls, asked before the colours are assigned. Why before: the colours are assigned
        under the ball-set prior (one of each colour, the white always), so a blob that is no
        ball takes a colour from a ball that is one. A piece of a cushion's green nose beside a
        pocket, outside the bed, took the green, and the green on its spot was named the white
        (in hand at a break-off), for the whole clip (a rendered 1080p60 break-off).

        ``fine`` (with ``roi``): clusters split at their caps to a fraction of a pixel, with
        the local cap offsets of the video's fine prior (see :func:`find_balls`).

        ``white_in_hand``: the white may be off the table; no ball is named white only because
        the one-of-each rule left its name free (see :meth:`ColourClassifier.assign`).
        """
        model = self.cloth
        if model is None:
            model = learn_model(image, self.scale)
        elif roi is None and self.full_frames and self._refresh_due():
            # Re-learned from the frame itself, not from the copy :meth:`_detect` works on.
            model = self._relearn(image)
        u = model.upscale
        if u == 1.0:
            return self._detect(model, image, roi, keep, fine, white_in_hand)
        # Worked on the upscaled copy the model was learned on (see :func:`learn_model`): the
        # frame, the ROI and the balls are mapped between the two as by a resize.
        big_roi = (
            None
            if roi is None
            else (
                math.floor(roi[0] * u),
                math.floor(roi[1] * u),
                math.ceil(roi[2] * u),
                math.ceil(roi[3] * u),
            )
        )
        big_keep = None if keep is None else lambda px: keep((px + 0.5) / u - 0.5)
        det = self._detect(model, downscale(image, u), big_roi, big_keep, fine, white_in_hand)
        return replace(det, pixel=(det.pixel + 0.5) / u - 0.5, radius=det.radius / u)

    def _detect(
        self,
        model: ClothModel,
        image: Image,
        roi: tuple[int, int, int, int] | None,
        keep: Callable[[FloatArray], BoolArray] | None,
        fine: bool,
        white_in_hand: bool = False,
    ) -> BallDetections:
        """:meth:`detect` in the pixels of the picture ``model`` was learned on (``image``)."""
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
            # The prior's lone balls are placed in the whole frame; the crop's pixels start at its corner.
            prior = self.prior
            if fine and prior is not None and prior.fine is not None:
                prior = prior.fine
            prior = None if prior is None else prior.moved(int(x0 / s), int(y0 / s))
            centres, radii, scores, _ = find_balls(
                crop, small, candidate_mask(small, sub), sub, prior, fine=fine
            )
            centres = centres + np.array([x0, y0], np.float64)
        else:
            refresh = self._refresh_due()
            self.full_frames += 1
            small = downscale(image, s)
            # A picture on its own (no video's cloth model) borrows no other picture's prior: a
            # still with few lone balls split its clusters by the previous still's (Task1 still
            # 3 grew a green when scored after still 2 by one detector).
            prior = self.prior if self.cloth is not None else None
            centres, radii, scores, measured = find_balls(
                image,
                small,
                candidate_mask(small, model),
                model,
                prior,
                refresh or self.cloth is None,
                fine_prior=True,
            )
            if measured is not None:
                self.prior = measured
        det = BallDetections.build((centres + 0.5) / s - 0.5, radii / s, confidence=scores)
        if keep is not None and len(det):
            det = det[np.asarray(keep(det.pixel), bool)]
        if self.classifier is None or not len(det):
            return det
        feats = colour_features(image, det.pixel, _colour_radius(det.radius, model), model.lab)
        cut = _scored(det.confidence, CUT_SCORE) | _scored(det.confidence, BORDER_SCORE)
        work = (det.pixel + 0.5) * s - 0.5
        # By the bed's outline a lone blob may be the cushion's nose or shade strip (a lens's
        # curve bends the outline past its hull): judged by colour like a piece cut from it.
        cut |= _depth_inside(model, work) < CUSHION_REACH * det.radius * s
        local = local_cloth(image, model, det.pixel, det.radius, feats)
        shade = cloth_shade(model, work, det.radius * s, feats, cut, local)
        if shade.any():
            det, feats, local = det[~shade], feats[~shade], local[~shade]
        colour, conf = self.classifier.assign(feats, local, white_in_hand)
        return det.with_colour(colour, conf * det.confidence)

    def by_outline(self, pixel: FloatArray, radius: FloatArray) -> BoolArray:
        """Which balls (frame ``pixel`` ``(N, 2)``, ``radius`` ``(N,)``) lie within
        :data:`CUSHION_REACH` radii of the bed's outline or :data:`POCKET_REACH_BORDER` of a
        pocket: a window a few radii round them holds the cushion's nose, its shade strip or
        the pocket's fall (all of them, without a cloth model).

        Why: what the fine mode changes (:meth:`detect` with ``fine``) is a correction of
        caps and cap offsets only where the window round the ball is cloth and balls. By the
        outline the two modes split the ball out of the cushion's strip differently: on Task2
        clip 18 a red in the jaws of a corner pocket was put back 1.6 px to where it had lain
        before it crept towards the pocket, and its pot was lost.
        """
        pts = np.asarray(pixel, np.float64).reshape(-1, 2)
        model = self.cloth
        if model is None:
            return np.ones(len(pts), bool)
        s = model.scale * model.upscale
        rad = np.asarray(radius, np.float64).reshape(-1) * s
        work = (pts + 0.5) * s - 0.5
        out = _depth_inside(model, work) < CUSHION_REACH * rad
        pockets = np.array(
            [near_pocket(model, c, r, POCKET_REACH_BORDER) for c, r in zip(work, rad, strict=True)]
        )
        return np.asarray(out | pockets.reshape(-1).astype(bool), np.bool_)

    def remeasure(
        self, image: Image, det: BallDetections, balls: FloatArray, radii: FloatArray, anchors: BoolArray
    ) -> BallDetections:
        """``det`` (found in ``image`` by :meth:`detect`) with the detections of known balls that
        lie beside other known balls re-measured beside them (:func:`refine_beside`).

        Why a step of its own, not part of :meth:`detect`: only the caller knows which blobs are
        balls (on every detection it moved blobs split out of a cue and a hand as well, and the
        tracker's choice among them with them).

        Args:
            image: the frame ``det`` was found in.
            det: the detections.
            balls: ``(B, 2)`` the known balls' pixels (NaN: not on the table).
            radii: ``(B,)`` their radii (pixels).
            anchors: ``(B,)`` balls whose detections may be re-measured.
        """
        model = self.cloth
        if model is None or not len(det) or len(balls) < 2:
            return det
        # The model's picture is the frame upscaled (:attr:`ClothModel.upscale`), its working
        # copy that picture at its scale: frame pixels map to working ones by their product.
        u = model.upscale
        s = model.scale * u
        refined = refine_beside(
            downscale(image, u),
            model,
            (det.pixel + 0.5) * s - 0.5,
            det.radius * s,
            (balls + 0.5) * s - 0.5,
            anchors,
        )
        return replace(det, pixel=(refined + 0.5) / s - 0.5, position=None)


def _colour_radius(radius: FloatArray, model: ClothModel) -> FloatArray:
    """The radii (pixels of the model's picture) the balls' colours are sampled within.

    On an upscaled copy (:attr:`ClothModel.upscale`) a ball's blob is a source pixel wider all
    round than the ball (the blur and video's half-resolution colour mix its rim with the
    cloth), which on a ball two source pixels in radius is a third of it: its colour disc
    (:func:`~vision.detection.colour.colour_features`) is taken within the radius less that
    pixel. Sampled within the blob's radius, the reds of 640x360 renders were as yellow as the
    brown and the pink as pale as the white; on their first frames (seeds 105-116) the balls
    found but named wrong or not at all went from 79 to 37 (seeds 120-124, not looked at
    while choosing it: 70 to 38).
    """
    if model.upscale == 1.0:
        return radius
    return np.asarray(np.maximum(radius - model.upscale, 1.0), np.float64)


def _band(blob: BoolArray) -> bool:
    """Whether a blob is a straight-edged band (a caption strip drawn over the table, a rail's
    stretch): it fills its rotated bounding box almost whole and is several times longer than
    wide, where balls in a row fill at most pi/4 of theirs, a little more once blurred (a held-
    out render's score bar across the cloth was split into a row of eight balls)."""
    points = cv2.findNonZero(blob.astype(np.uint8))
    if points is None:
        return False
    (_, _), (a, b), _ = cv2.minAreaRect(points)
    long, short = max(a, b) + 1.0, min(a, b) + 1.0
    return bool(long >= BAND_LENGTH * short and np.count_nonzero(blob) >= BAND_FILL * long * short)


def _scored(confidence: FloatArray, score: float) -> BoolArray:
    """Rows whose confidence is ``score`` (``np.isclose``'s test, without its cost per call: this
    runs on every detection the tracker asks for)."""
    return np.asarray(np.abs(confidence - score) <= 1e-8 + 1e-5 * abs(score), np.bool_)


def _distance(mask: Mask, box: tuple[int, int, int, int]) -> npt.NDArray[np.float32]:
    """Distance of every candidate pixel to the nearest non-candidate, worked out inside ``box``
    only (the mask is 0 outside it, and its margin of zeros is nearer than anything beyond)."""
    x0, y0, x1, y1 = box
    out = np.zeros(mask.shape, np.float32)
    out[y0:y1, x0:x1] = cv2.distanceTransform(mask[y0:y1, x0:x1], cv2.DIST_L2, 3)
    return out


def _finer(
    image: Image,
    model: ClothModel,
    sub: BoolArray,
    origin: tuple[int, int],
    r: float,
    prior: ClusterPrior,
    cut: FloatArray,
) -> tuple[FloatArray, FloatArray]:
    """Balls a rejected blob gives up only at the frame's resolution, where its balls are
    small (:func:`~vision.detection.occlusion.stand_out_fine`), beyond a radius of those the
    working scale cut (``cut``) and of the pockets."""
    if r >= FINE_RADIUS:
        return np.zeros((0, 2)), np.zeros(0)
    fine = stand_out_fine(image, model, sub, origin, r, prior)
    rad = model.radius_at(fine)
    new = np.array(
        [
            (not len(cut) or float(np.hypot(*(cut - c).T).min()) > ri)
            and not near_pocket(model, c, ri, POCKET_REACH_BORDER)
            for c, ri in zip(fine, rad, strict=True)
        ],
        bool,
    ).reshape(-1)
    return fine[new], rad[new]


def _add(
    centres: list[tuple[float, float]],
    radii: list[float],
    scores: list[float],
    found: FloatArray,
    r: float | FloatArray,
    score: float,
) -> None:
    """Append balls found (working-scale centres) with their radius and score."""
    rs = np.broadcast_to(np.asarray(r, np.float64), (len(found),))
    for (u, v), ri in zip(found, rs, strict=True):
        centres.append((float(u), float(v)))
        radii.append(float(ri))
        scores.append(score)


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
        model.squash,
        None if model.background is None else model.background[y0 : y0 + h, x0 : x0 + w],
        None if model.radius_map is None else model.radius_map[y0 : y0 + h, x0 : x0 + w],
        None if model.pockets is None else model.pockets - np.array([x0, y0], np.float64),
        model.upscale,
    )
