"""Operations on detection sets and search windows that the video tracker composes.

Why: the tracker gathers detections from several searches a frame (carried resting balls,
colour searches, region and whole-table detections) and must stack them, drop duplicates,
put resting balls back on their spots and bound windows to the frame; these are pure
functions of arrays, tested on their own.
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from calibration.table import TABLE, Colour
from vision.detection.detections import COLOURS, BallDetections

FloatArray = npt.NDArray[np.float64]

#: The reds' colour index (:data:`COLOURS`).
RED = COLOURS.index(Colour.RED)
#: Each colour's spot (mm, rows by detector colour index; NaN: the white and the reds have none).
_SPOTS = np.array([TABLE.spots.get(c, (np.nan, np.nan)) for c in COLOURS], np.float64)
#: A colour measured within this of its own spot (mm) is on it (re-spotted, or never moved):
#: a radius and a half, for the far end of a slanted broadcast view, where the calibration
#: and the detector err by centimetres (Task2 clip 20's pink, on its spot, measured 27 mm off
#: it), yet short of the pack's apex red behind the pink (a diameter and more from the spot).
ON_SPOT_MM = 1.5 * TABLE.ball_radius


def region_mask(
    region: npt.NDArray[np.uint8], shape: tuple[int, ...], grow: int = 0
) -> npt.NDArray[np.bool_]:
    """A working-scale playing-surface mask brought to full resolution ``shape``.

    ``grow`` dilates it by that many pixels (a ball against a cushion overhangs the cloth's edge
    as the camera sees it); on Task3, 8 pixels fixed one clip and broke two, so the default is 0.
    """
    full = cv2.resize(region, (shape[1], shape[0]), interpolation=cv2.INTER_NEAREST)
    if grow > 0:
        full = cv2.dilate(full, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * grow + 1, 2 * grow + 1)))
    return np.asarray(full) > 0


def merge_windows(rois: list[tuple[int, int, int, int]]) -> list[tuple[int, int, int, int]]:
    """Merge overlapping rectangles (detecting twice in one place costs twice and duplicates)."""
    out = list(rois)
    merged = True
    while merged:
        merged = False
        for i in range(len(out)):
            for j in range(i + 1, len(out)):
                a, b = out[i], out[j]
                if a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]:
                    out[i] = (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))
                    del out[j]
                    merged = True
                    break
            if merged:
                break
    return out


def concat(parts: list[BallDetections]) -> BallDetections:
    """Stack detection sets (the container itself has no concatenation)."""
    if not parts:
        return BallDetections.empty()
    pos = None
    if all(p.position is not None for p in parts):
        pos = np.concatenate([p.position for p in parts if p.position is not None])
    return BallDetections(
        np.concatenate([p.pixel for p in parts]),
        np.concatenate([p.radius for p in parts]),
        np.concatenate([p.colour for p in parts]),
        np.concatenate([p.confidence for p in parts]),
        pos,
    )


def hold(det: BallDetections, rest: FloatArray, reach: FloatArray) -> BallDetections:
    """Detections with the one nearest each resting ball, within ``reach`` pixels, put back on it.

    Why: a ball at rest moves only when struck, and a struck ball leaves its spot by more than a
    fraction of its radius in the stroke's first frame; a smaller shift of its measured centre
    is the cue tip, a hand or a shadow merging with its blob. Left in, the drift reads as the
    white creeping before the stroke (an early strike) and as a worse rest position.
    """
    if not len(det) or not len(rest):
        return det
    d = np.linalg.norm(det.pixel[None, :, :] - rest[:, None, :], axis=2)
    j = np.argmin(d, axis=1)
    near = d[np.arange(len(rest)), j] < reach
    if not np.any(near):
        return det
    pixel = det.pixel.copy()
    pixel[j[near]] = rest[near]
    return BallDetections(pixel, det.radius, det.colour, det.confidence, None)


def window(
    x0: float, y0: float, x1: float, y1: float, ext: float, shape: tuple[int, ...]
) -> tuple[int, int, int, int]:
    """The box ``(x0, y0)``-``(x1, y1)`` grown by ``ext`` pixels on every side, clipped to a frame
    of ``shape`` (rows, columns), as an integer ROI ``(x0, y0, x1, y1)``."""
    h, w = shape[:2]
    return int(max(0, x0 - ext)), int(max(0, y0 - ext)), int(min(w, x1 + ext)), int(min(h, y1 + ext))


def cluster_box(points: FloatArray, at: FloatArray, reach: float) -> tuple[float, float, float, float]:
    """The bounding box ``(x0, y0, x1, y1)`` of ``at`` and of the ``points`` (``(n, 2)``; NaN rows
    are ignored) chained to it by steps shorter than ``reach``: the cluster of balls whose blobs
    join the one at ``at`` in the picture.

    Why: the detector splits a blob of touching balls by its outline as a whole, and a window
    that cuts the blob splits what it holds of it otherwise (see
    :meth:`vision.tracking.rest_spots.RestSpots.rest_window`).
    """
    pts = points[np.all(np.isfinite(points), axis=1)]
    inside = np.zeros(len(pts), bool)
    frontier = [np.asarray(at, np.float64)]
    while frontier:
        p = frontier.pop()
        new = ~inside & (np.linalg.norm(pts - p, axis=1) < reach)
        inside |= new
        frontier.extend(pts[new])
    box = np.vstack([np.asarray(at, np.float64)[None], pts[inside]])
    x0, y0 = box.min(axis=0)
    x1, y1 = box.max(axis=0)
    return float(x0), float(y0), float(x1), float(y1)


def shadowed(det: BallDetections, whole: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_]:
    """Rows from the whole-table search (``whole``) with a ball's own measurement within a radius."""
    out = np.zeros(len(det), bool)
    own = np.flatnonzero(~whole)
    if not len(own) or not np.any(whole):
        return out
    for i in np.flatnonzero(whole):
        out[i] = bool(np.any(np.linalg.norm(det.pixel[own] - det.pixel[i], axis=1) < det.radius[i]))
    return out


def named_as_held(found: BallDetections, held: BallDetections) -> BallDetections:
    """``found`` with each detection within a radius of a ball carried at rest (``held``) named as
    that ball (where the carried ball's colour is known).

    Why: a ball is carried at rest only while the picture round it is unchanged since the detector
    last measured it there, so what lies on its spot is that ball. The whole-table search's
    centre wins the dedupe over the carried one (it measures a resting ball to a fraction of a
    pixel), but its colour is named under the ball-set prior, across the whole table: a green at
    the end of the baulk line, its blob joined to the chalk and split in two, came out as the
    white beside a green (a rendered 1080p60 break-off, random camera); the green's track took
    the half named green, off its spot, and wandered off after it.
    """
    if not len(found) or not len(held):
        return found
    d = np.linalg.norm(found.pixel[:, None, :] - held.pixel[None, :, :], axis=2)  # (found, held)
    k = np.argmin(d, axis=1)
    on = (d[np.arange(len(found)), k] < found.radius) & (held.colour[k] >= 0)
    if not np.any(on & (found.colour != held.colour[k])):
        return found
    return found.with_colour(np.where(on, held.colour[k], found.colour), found.confidence)


def near(points: FloatArray, p: FloatArray, reach: float) -> bool:
    """Whether any of ``points`` lies within ``reach`` of ``p``."""
    return bool(near_rows(points, p, reach).any())


def near_rows(points: FloatArray, p: FloatArray, reach: float) -> npt.NDArray[np.bool_]:
    """Which of ``points`` lie within ``reach`` of ``p``."""
    return np.asarray(np.linalg.norm(points - p, axis=1) < reach, dtype=bool)


def nearer_another(pixel: FloatArray, at: FloatArray, others: FloatArray) -> npt.NDArray[np.bool_]:
    """Which of ``pixel`` (``(n, 2)``) lie nearer one of ``others`` (``(m, 2)`` balls' tracked
    centres; NaN rows are ignored) than ``at``, the ball measured's own centre.

    Why: a detection nearer another ball's track is that ball's, however close it lies to
    ``at``. A pack seen at a slant overlaps its balls to about a radius apart in the picture,
    and a window's detection round one red splits the pack by the window's crop: round a red at
    the pack's far corner it found no blob on that red but one on the red touching it (0.8
    radii off the first, 0.3 off its own), which the first red's re-measurement at rest took.
    Carried there, its row won the dedupe over the neighbour's own, the neighbour went unseen
    and the two tracks swapped, again at each re-measurement (a rendered 1080p60 break-off,
    broadcast camera: 65 red identity switches).
    """
    if not len(pixel) or not len(others):
        return np.zeros(len(pixel), bool)
    to_others = np.nan_to_num(np.linalg.norm(pixel[:, None, :] - others[None, :, :], axis=2), nan=np.inf)
    return np.asarray(to_others.min(axis=1) < np.linalg.norm(pixel - at, axis=1), dtype=bool)


#: Two detections farther apart than this on the table (mm) are two balls, however close the
#: picture puts them: balls' centres lie a diameter (52.5 mm) apart at least, less a few
#: millimetres of each measurement's error.
APART_MM = 1.75 * TABLE.ball_radius


def dedupe(
    det: BallDetections, table: FloatArray | None = None, apart_mm: float = APART_MM
) -> npt.NDArray[np.bool_]:
    """Rows to keep: a detection closer than one radius to an earlier one is its duplicate,
    unless both are reds, or a red and a colour on its own spot, whose table positions
    (``table``, ``(N, 2)`` mm, NaN unknown) lie more than ``apart_mm`` apart.

    Why the table: a view at a slant foreshortens the table along the line of sight, and the
    balls of a pack seen so overlap to under a radius apart in the picture (a rendered 1080p60
    break-off, the broadcast camera: 0.9 radii). Judged by the picture alone the ball behind
    was its neighbour's duplicate, never tracked, and a red's track swung between the two at
    every whole-table search, logging a collision each time. Seen from above, a radius in the
    picture is a radius on the table, and the picture's test decides alone. Only a red and a
    red, or a red and a colour on its own spot: reds lie in packs, round the pink's and the
    black's spots; a red half hidden behind the black on its spot (real broadcast Task2 clip
    10, 55 mm apart on the table, 11 px in the picture) was the black's duplicate in every
    frame, never tracked, and searched for by a whole-table detection every third frame. A
    colour anywhere else may be a red of the pack the colour model misnamed (a "brown" in a
    rendered 1080p60 break-off's pack, kept beside the red it was, swapped two reds' tracks
    every whole-table search). Never the white: a white beside the hand placing it, let apart
    so, followed the hand away (a 1080p60 break-off render); nor two of one colour, which is
    one ball.
    """
    n = len(det)
    keep = np.ones(n, bool)
    if n < 2:
        return keep
    # Every pair's test at once (``[i, j]``: row ``j`` measured from row ``i``, the differences
    # and norms each row's own test took); only the order of the keeping stays a loop.
    rows = np.arange(n)
    dup_of = np.linalg.norm(det.pixel[None, :, :] - det.pixel[:, None, :], axis=2) <= det.radius[:, None]
    apart = two_balls_apart(det, table, rows, rows, apart_mm)  # [j, i]
    for i in range(n - 1):
        if not keep[i]:
            continue
        dup = dup_of[i, i + 1 :] & ~apart[i + 1 :, i]
        keep[i + 1 :] &= ~dup
    return keep


def two_balls_apart(
    det: BallDetections,
    table: FloatArray | None,
    rows: npt.NDArray[np.intp],
    cols: npt.NDArray[np.intp],
    apart_mm: float = APART_MM,
) -> npt.NDArray[np.bool_]:
    """``(len(rows), len(cols))``: which pairs of detections are two reds, or a red and a colour
    on its own spot (:data:`ON_SPOT_MM`), whose table positions (``table``, ``(N, 2)`` mm) lie
    more than ``apart_mm`` apart, and so two balls whatever the picture says (see
    :func:`dedupe`). All False without table positions; NaN (unknown) is never apart."""
    if table is None:
        return np.zeros((len(rows), len(cols)), bool)
    mm = np.linalg.norm(table[rows][:, None, :] - table[cols][None, :, :], axis=2)
    colour = np.asarray(det.colour)
    red = colour == RED
    spot = _SPOTS[np.clip(colour, 0, len(_SPOTS) - 1)]
    with np.errstate(invalid="ignore"):
        on_spot = (colour >= 0) & (np.hypot(*(table - spot).T) <= ON_SPOT_MM)
    ra, rb, sa, sb = red[rows][:, None], red[cols][None, :], on_spot[rows][:, None], on_spot[cols][None, :]
    pair = (ra & rb) | (ra & sb) | (sa & rb)
    return np.asarray((mm > apart_mm) & pair, dtype=bool)
