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
from vision.tracking.appearance import LAB_W
from vision.tracking.kernels import (
    channel_medians,
    colour_mask,
    label_sums,
    local_peaks,
    mask_box,
    plateau_sums,
    split_nearest,
)

FloatArray = npt.NDArray[np.float64]
Image = npt.NDArray[np.uint8]

#: The Lab weights of colour distances (:data:`vision.tracking.appearance.LAB_W`: lightness
#: counts half, shading and blur move it most), in the float32 the window's Lab is worked in.
_W = LAB_W.astype(np.float32)
#: Weights of the off-segment residual: a ball lit from above is far brighter on top and darker
#: below than its mean colour, a change mostly of lightness, so lightness off the segment counts
#: a little (a hand is told from the white by its chroma, not its lightness).
_SHADE = np.array([0.3, 1.0, 1.0], np.float32)


def search(
    image: Image,
    roi: tuple[int, int, int, int],
    colour: FloatArray,
    radius: float,
    cloth: FloatArray | None = None,
    region: npt.NDArray[np.bool_] | None = None,
    mix: float = 0.4,
    min_area: float = 0.04,
    min_thickness: float = 0.4,
    min_half: float | None = None,
) -> BallDetections:
    """Blobs in ``roi`` that look like a ball of Lab colour ``colour`` rather than the cloth.

    Args:
        image: the BGR frame.
        roi: ``(x0, y0, x1, y1)`` pixels to search.
        colour: the ball's remembered Lab colour (OpenCV 8-bit scale).
        radius: its apparent radius (pixels).
        cloth: the cloth's Lab colour; by default the window's median (right unless the
            window lies mostly off the cloth, e.g. over a cushion).
        region: full-frame mask of the playing surface; pixels outside it are never ball (a
            red against the red-brown rail would otherwise merge with it).
        mix: smallest share of the ball's colour in a pixel's mix with the cloth (a ball
            blurred over twice its length still colours each pixel by about a half).
        min_area: smallest core, as a fraction of the ball's disc (a whole ball's core is
            about a fifth of it).
        min_thickness: smallest distance-transform peak, in radii: a cue shaft or its tip
            (a fifth of a ball across) is thinner than any ball, even a blurred one.
        min_half: smallest peak, in radii, of a blob with no core as thick as ``min_thickness``
            (None: no such blob is a ball). For a ball beside a cushion: the cushion's nose hides
            up to half of it as the camera sees it (a half disc is half a radius thick at most,
            less its blurred edge), and a rolling dark ball's blurred highlight, lighter than the
            cloth, takes off its top as well (Task3 clips 14, 22, 24: a red along the near
            cushion went unseen and its track took a resting red). Such a blob is kept whole; a
            blob with a core is cut at ``min_thickness`` as before (touching reds stay apart).

    Returns:
        The blobs as detections (colour unknown, confidence from the blob's thickness).
    """
    x0, y0, x1, y1 = roi
    crop = image[y0:y1, x0:x1]
    if crop.shape[0] < 6 or crop.shape[1] < 6:
        return BallDetections.empty()
    # Wide windows (fast or lost balls) are searched at half resolution (a 10-pixel ball is 5 there), a
    # quarter of the work; centres are mapped back to full-resolution pixels.
    s = 0.5 if radius >= 7.0 and crop.shape[0] * crop.shape[1] > 90 * 90 else 1.0
    full_radius = radius
    if s != 1.0:
        crop = np.asarray(cv2.resize(crop, None, fx=s, fy=s, interpolation=cv2.INTER_AREA), np.uint8)
        radius = radius * s
        if region is not None:
            region = region[y0:y1, x0:x1][::2, ::2][: crop.shape[0], : crop.shape[1]]
    elif region is not None:
        region = region[y0:y1, x0:x1]
    ox, oy = roi[0], roi[1]
    lab8 = np.asarray(cv2.cvtColor(crop, cv2.COLOR_BGR2LAB), np.uint8)
    # The median of a subsample is the cloth as surely as the median of all, at a tenth of the cost.
    ref = channel_medians(lab8[::3, ::3]) if cloth is None else cloth.astype(np.float32)
    # A pixel of a (possibly motion-blurred) ball is a mix of the ball's colour and the
    # cloth's: it lies on the segment from cloth to ball in colour space. Its position along
    # the segment (``t``: 0 cloth, 1 ball) is the fraction of the exposure the ball covered it;
    # its distance off the segment says it is something else (another ball, a hand).
    u = (colour.astype(np.float32) - ref) * _W
    sep = float(np.linalg.norm(u))
    # A ball much lighter than the cloth (the white, the yellow, the pink) has nothing lighter of
    # its own colour beyond it: its remembered mean may be a darker blend (taken in shade or
    # with cloth at its rim), and in brighter light all of it lies past ``_T_MAX`` (Task3 clip 3:
    # the white under the far cushion's lights at t 1.6-2.0 went unseen for 15 frames).
    t_max = _T_MAX_LIGHT if float(colour[0] - ref[0]) > 20.0 else _T_MAX
    # Lightness is down-weighted above (shading), but a pixel on the wrong side of the cloth's
    # lightness is no part of this ball: a hand or cuff (lighter than the cloth) is not a red or
    # the black (darker), however the chroma mixes. A ball lighter than the cloth (the white, the
    # yellow) is lit from above and its lower side falls darker than the cloth, so for it only a
    # pixel much darker is refused (the test kept just its lit top, half a ball, and a white
    # rolling past was found only every other frame).
    c_l = float(colour[0] - ref[0])
    l_mode, l_bound = (-1, 0.25 * -c_l) if c_l < -20.0 else (1, -_SHADED * c_l) if c_l > 20.0 else (0, 0.0)
    # One compiled pass per pixel (the same float32 arithmetic as the NumPy chain it replaced).
    inside = colour_mask(
        lab8, ref, u, _W, _SHADE, max(sep * sep, 1e-6), mix, t_max, 0.3 * sep + 8.0, l_mode, l_bound
    ).view(np.bool_)
    if region is not None and region.shape == inside.shape:
        inside &= region
    mask = inside.view(np.uint8)  # the kernel's own 0/1 bytes, no copy
    # A small ball darker than the cloth loses its highlight to the lightness test: the hole is
    # filled before the opening, which round a small ball wipes out the ring left (see
    # _fill_holes and _FILL_BELOW).
    if l_mode < 0 and full_radius < _FILL_BELOW:
        mask = _fill_holes(mask, _HOLE * np.pi * radius**2)
    mask = np.asarray(cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)), np.uint8)
    # The specular highlight is not the ball's colour: close the hole it leaves.
    k = max(3, round(0.6 * radius) | 1)
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    mask = np.asarray(cv2.morphologyEx(mask, cv2.MORPH_CLOSE, disc), np.uint8)
    # Keep only what is at least ``min_thickness`` radii inside the blobs: the cue and its
    # tip fall away, a ball pressed against the cue or a hand becomes a separate core, and
    # a blurred streak keeps its centre line.
    dt = np.asarray(cv2.distanceTransform(mask, cv2.DIST_L2, 3), np.float32)
    core = (dt >= min_thickness * radius).astype(np.uint8)
    # A shallower bound than the core's only (``min_half`` at or above it adds nothing).
    half = min_half if min_half is not None and min_half < min_thickness else None
    if half is not None:
        # Specks of core too small to be a ball (a half ball's thickest spots) do not count as one.
        _, cl, stats, _ = cv2.connectedComponentsWithStats(core, connectivity=8)
        small = stats[:, cv2.CC_STAT_AREA] < min_area * np.pi * radius**2
        small[0] = False
        core[small[cl]] = 0
    labels = _ball_labels(core, dt, radius)
    if half is not None:
        labels = _add_shallow(labels, (dt >= half * radius).astype(np.uint8), core)
    area, mean_x, mean_y, peak = _label_stats(labels, dt)
    ok = (area >= min_area * np.pi * radius**2) & (peak <= 2.2 * radius)  # over 2.2: a hand, a shirt
    ok[0] = False
    if not np.any(ok):
        return BallDetections.empty()
    centres = np.stack([ox + (mean_x[ok] + 0.5) / s - 0.5, oy + (mean_y[ok] + 0.5) / s - 0.5], axis=1)
    scores = np.minimum(1.0, peak[ok].astype(np.float64) / max(radius, 1e-6))
    return BallDetections.build(centres, np.full(len(centres), full_radius), confidence=scores)


def _fill_holes(mask: npt.NDArray[np.uint8], max_area: float) -> npt.NDArray[np.uint8]:
    """``mask`` with its holes (cloth-coloured pixels it encloses, not touching the window's
    edge) of at most ``max_area`` pixels set.

    Why: a red or the black is darker than the cloth, and a pixel lighter than the cloth is no
    part of it (see :func:`search`), but its specular highlight is lighter: the ball's pixels
    are a ring round it. At the far end of a steep view (a ball 4-5 pixels in radius) the ring is
    two pixels wide, and the 3x3 opening that clears specks wiped it out whole: a slowly
    rolling red was found only in the frames its highlight fell between pixels (every other
    frame on a rendered 1080p60 break-off), its speed was misread as rest and its track was
    left behind (red identity switches). A hole no larger than a share of the ball's disc is
    its highlight, not cloth between two balls (which is open to the window's edge unless
    balls ring it).
    """
    n, labels, stats, _ = cv2.connectedComponentsWithStats((mask == 0).view(np.uint8), connectivity=4)
    if n <= 2:
        return mask
    h, w = mask.shape
    x, y = stats[:, cv2.CC_STAT_LEFT], stats[:, cv2.CC_STAT_TOP]
    x1, y1 = x + stats[:, cv2.CC_STAT_WIDTH], y + stats[:, cv2.CC_STAT_HEIGHT]
    hole = (x > 0) & (y > 0) & (x1 < w) & (y1 < h) & (stats[:, cv2.CC_STAT_AREA] <= max_area)
    hole[0] = False  # (label 0: the mask's own pixels)
    if not np.any(hole):
        return mask
    return np.asarray(np.where(hole[labels], 1, mask), np.uint8)


def _label_stats(
    labels: npt.NDArray[np.int32], dt: npt.NDArray[np.float32]
) -> tuple[FloatArray, FloatArray, FloatArray, npt.NDArray[np.float32]]:
    """Per label (index 0: background): pixel count, mean column, mean row, largest ``dt``.

    One pass over the window instead of a mask per label (the per-label ``labels == i`` scans
    were a third of the tracker's search); sums of integer coordinates are exact in float64, so
    the means equal ``np.nonzero``'s.
    """
    area, sx, sy, peak = label_sums(labels, dt)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean_x = sx / area
        mean_y = sy / area
    return area, mean_x, mean_y, peak


def _ball_labels(
    core: npt.NDArray[np.uint8], dt: npt.NDArray[np.float32], radius: float
) -> npt.NDArray[np.int32]:
    """Label image of the cores, touching balls given one label each.

    Why: two balls in contact (a red beside a red) share one blob whose centroid lies between
    them, so a ball followed by its core drifts to the pair's middle and then takes the other
    ball's name. A whole ball's distance transform has one peak near a radius deep at its centre;
    a blob with two such peaks more than a radius apart is two balls, and each pixel goes to its
    nearest peak. A blurred streak's peak is shallow (under ``_DEEP`` radii) and is never split.
    """
    n, labels = cv2.connectedComponents(core, connectivity=8)
    out = np.asarray(labels, np.int32)
    found = _peaks(core, dt, radius)
    if found is None:
        return out
    peaks, (by0, by1, bx0, bx1) = found
    # Peak plateaus labelled once for the whole window: each lies inside one core blob (peaks are
    # core pixels, and 8-connected peak pixels share their blob), and raster order numbers a
    # blob's plateaus as labelling that blob alone would. Only blobs with two or more are visited.
    pn, plab = cv2.connectedComponents(peaks.view(np.uint8), connectivity=8)
    if pn <= 2:
        return out
    # Every plateau lies in the peaks' box: its sums are taken there (one compiled pass).
    plateaus: npt.NDArray[np.int32] = np.asarray(plab, np.int32)[by0:by1, bx0:bx1]
    owner, count, srow, scol = plateau_sums(plateaus, out[by0:by1, bx0:bx1], pn)
    multi = np.flatnonzero(np.bincount(owner[1:], minlength=n) >= 2)
    if not len(multi):
        return out
    parea = np.maximum(count, 1).astype(np.float64)
    # Sums of whole-window coordinates: integers, exact in float64 (as ``np.bincount``'s were).
    prow = (srow + count * float(by0)) / parea
    pcol = (scol + count * float(bx0)) / parea
    nxt = n
    for i in multi:
        js = np.flatnonzero(owner == i)
        js = js[js > 0]
        cen = np.stack([prow[js], pcol[js]], axis=1)
        # Plateau fragments of one peak closer than a radius are one ball.
        keep: list[npt.NDArray[np.float64]] = []
        for c in cen:
            if all(np.hypot(*(c - q)) > radius for q in keep):
                keep.append(c)
        if len(keep) < 2:
            continue
        # Each pixel of the blob goes to its nearest peak (one compiled pass, in place: the new
        # labels are all above every blob's, so no later blob's pixels are mistaken).
        split_nearest(out, out, int(i), np.array(keep), nxt)
        nxt += len(keep) - 1
    return out


def _peaks(
    core: npt.NDArray[np.uint8], dt: npt.NDArray[np.float32], radius: float
) -> tuple[npt.NDArray[np.bool_], tuple[int, int, int, int]] | None:
    """Core pixels at least ``_DEEP`` radii deep that are their neighbourhood's maximum of ``dt``,
    and the box ``(y0, y1, x0, x1)`` (exclusive ends) that holds them all (None where fewer than
    two pixels are that deep: no blob can then hold two peaks).

    The local maximum is needed only at deep pixels, so it is taken there only (one compiled pass,
    the whole window's dilation's value at each; the window's own border stays the border).
    """
    deep = (dt >= _DEEP * radius) & (core > 0)
    count, ymin, ymax, xmin, xmax = mask_box(deep)
    if count < 2:
        return None
    k = 2 * max(1, round(0.8 * radius)) + 1
    m = k // 2
    by0, by1 = max(0, ymin - m), min(dt.shape[0], ymax + m + 1)
    bx0, bx1 = max(0, xmin - m), min(dt.shape[1], xmax + m + 1)
    peaks = local_peaks(dt, deep, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)), 1e-3)
    return peaks, (by0, by1, bx0, bx1)


def _add_shallow(
    labels: npt.NDArray[np.int32],
    shallow: npt.NDArray[np.uint8],
    core: npt.NDArray[np.uint8],
) -> npt.NDArray[np.int32]:
    """``labels`` with the blobs of ``shallow`` that hold no ``core`` pixel added as new labels."""
    n, lab = cv2.connectedComponents(shallow, connectivity=8)
    if n <= 1:
        return labels
    out = labels.copy()
    nxt = int(labels.max()) + 1
    for i in range(1, n):
        sel = lab == i
        if not np.any(core[sel]):
            out[sel] = nxt
            nxt += 1
    return out


#: Largest hole (share of the ball's disc) in a ball's colour mask that is its highlight (see
#: :func:`_fill_holes`).
_HOLE = 0.3

#: Apparent radius (pixels) below which a dark ball's highlight hole is filled (see
#: :func:`_fill_holes`). Below it the ring the highlight leaves is at most about three pixels
#: wide, and the 3x3 opening can wipe it out; above it the ring survives the opening and the
#: closing that follows shuts the highlight. Filling larger balls too moved a struck red's
#: first measured centre by 3 px on real footage (Task3 clip 16, a 10 px red), out of the
#: gate its track allowed: its track took another red (Task3 clips 16 and 25 lost).
_FILL_BELOW = 6.0

#: Smallest distance-transform peak, in radii, of a whole ball's core (a streak's is shallower).
_DEEP = 0.6


#: Largest position along the cloth-to-ball colour segment that is still the ball: a pixel
#: "beyond" the ball's mean colour is its lit side (the mean is taken without the highlight).
_T_MAX = 1.8
#: The same for a ball much lighter than the cloth (see :func:`search`).
_T_MAX_LIGHT = 3.0

#: How much darker than the cloth (as a share of the ball's own lift above it) the shaded
#: side of a ball lighter than the cloth may be.
_SHADED = 1.0
