"""The cue ball leaving its spot: telling the struck white's first streak from the cue.

Why a module of its own: the stroke's first frame is the one place where the white, the cue's
tip that followed through and the player's hand all sit in one window, and telling them apart
takes colour geometry (the cloth-to-ball segment) and the history of where the changes round
the resting ball came from; the tracker only asks "where did it go?".
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from vision.detection.detections import BallDetections
from vision.tracking.appearance import LAB_W, disc_appearance
from vision.tracking.detection_sets import concat, window
from vision.tracking.local import search
from vision.tracking.schedule import ScheduleConfig
from vision.tracking.tracker import TrackerState

FloatArray = npt.NDArray[np.float64]
Image = npt.NDArray[np.uint8]

#: Smallest pull of the changes round an addressed cue ball (:func:`change_pull`, in radii)
#: that outweighs an impure blob beside its spot as the cue's side (see :func:`find_departure`).
SIDE_FLOOR_RADII = 0.25


def find_departure(
    frame: Image,
    state: TrackerState,
    i: int,
    sch: ScheduleConfig,
    region: npt.NDArray[np.bool_] | None,
    cloth: FloatArray | None,
    beside: BallDetections,
    side: FloatArray,
) -> BallDetections | None:
    """Where the resting cue ball went when it is no longer on its spot (None: hidden).

    Why: in the stroke's first frame the white is a streak a few radii off its spot and the
    cue's tip and shaft have followed through onto the spot behind it. Searched only around
    its spot, the white took the nearest cue-coloured piece of the cue and then followed the
    cue back to the player's sleeve. The white leaves along the cue, away from it, by up to
    ``strike_radii`` radii. What tells the ball from the cue, the hand and the sleeve is its
    colour: a blurred ball is a mix of the ball and the cloth, on the colour segment between
    them, while the cue's wood, skin and cloth sleeves lie off it (:func:`purity`). So an
    impure blob found ``beside`` the spot is the cue's end, the ball is on the far side of
    the spot from it, and of the pure blobs there the nearest to the spot is the ball (a
    stroke's first frame moves it least). With no impure blob beside it, ``side`` (where the
    changes round the ball came from while it rested disturbed, :func:`change_pull`) is the
    cue's side.
    """
    if sch.strike_radii <= 0:
        return None
    u, v = state.pos[i]
    r = float(state.radius[i])
    roi = window(u, v, u, v, sch.strike_radii * r, frame.shape)
    wide = search(frame, roi, state.appearance[i], r, cloth, region, mix=sch.streak_mix)
    cand = concat([beside, wide])
    if not len(cand):
        return None
    others = state.others_on_table(i)
    if np.any(others):
        d = np.linalg.norm(cand.pixel[:, None, :] - state.pos[others][None, :, :], axis=2).min(axis=1)
        cand = cand[d > state.radius[others].min()]
    if not len(cand):
        return None
    pure = pure_rows(frame, cand, state.appearance[i], r, roi, sch)
    cue = cand.pixel[: len(beside)][~pure[: len(beside)]]
    # Within ``hold_radii`` of its spot it has not left: the wide search, its cloth reference
    # taken over a larger window, can find the resting ball itself there, and taken as the
    # departure it set the white's velocity from a one-pixel step (a rendered 1080p60 in-off:
    # the next frame's window then missed it).
    ok = pure & (np.linalg.norm(cand.pixel - state.pos[i], axis=1) > sch.hold_radii * r)
    # The cue's side: where an impure blob beside the spot lies, unless the changes round the
    # resting ball came from one side by more than a radius (``side``): then that side. An
    # impure blob beside it can be the ball itself, half under the cue's tip (a rendered 1080p60
    # stroke: the white 5 px down its path was taken for the cue, and a piece of the cue up the
    # other way for the white).
    back = np.mean(cue - state.pos[i], axis=0) if len(cue) and float(np.hypot(*side)) <= r else side
    # Nor where that blob lies on the far side from where the changes came, by more than their
    # noise (:data:`SIDE_FLOOR_RADII`): the struck white itself, a streak of white and cloth a
    # hard stroke's blur leaves impure (a rendered 1080p60 break-off: 0.33 off the segment,
    # the cue's tip behind it 0.15), while the cue feathered on the other side. Taken for the
    # cue, it sent the search to the tip, and the white followed the cue back to baulk.
    if len(cue) and float(back @ side) < 0 and float(np.hypot(*side)) > SIDE_FLOOR_RADII * r:
        back = side
    if np.any(back != 0):
        ok &= (cand.pixel - state.pos[i]) @ back < 0
    if not np.any(ok):
        return None
    cand = cand[ok]
    k = int(np.argmin(np.linalg.norm(cand.pixel - state.pos[i], axis=1)))
    return cand[k : k + 1]


def pure_rows(
    frame: Image,
    cand: BallDetections,
    ball: FloatArray,
    r: float,
    roi: tuple[int, int, int, int],
    sch: ScheduleConfig,
) -> npt.NDArray[np.bool_]:
    """Which of ``cand`` look like a ball of Lab look ``ball``, blurred or not: within
    ``purity`` of the segment from the cloth (the median of ``roi``) to the ball, and at least
    ``streak_mix`` of the way to the ball (:func:`purity`). The cue's wood and tip, skin and a
    sleeve lie off that segment."""
    if not len(cand):
        return np.zeros(0, bool)
    crop = frame[roi[1] : roi[3], roi[0] : roi[2]]
    ref = np.median(cv2.cvtColor(crop, cv2.COLOR_BGR2LAB).reshape(-1, 3)[::9], axis=0)
    look = disc_appearance(frame, cand.pixel, np.full(len(cand), r))
    t, off = purity(look, ball, ref)
    return np.asarray((off < sch.purity) & (t > sch.streak_mix), bool)


def change_pull(
    thumb: npt.NDArray[np.int16], ref: npt.NDArray[np.int16], sch: ScheduleConfig, at: FloatArray, r: float
) -> FloatArray:
    """Where, relative to ``at`` (full-frame pixels), the thumbnail changed between 1.5 and 4
    radii from it, as the change-weighted sum of offsets (zero when nothing changed past
    ``sch.change``). Nearer, the change is the ball's own (a stroke's first frame can move it
    less than ``hold_radii``).

    Why: before a stroke the cue feathers and the bridge hand settles behind the cue ball, and
    every change round the resting ball is on that side; the ball leaves on the other. In the
    stroke's first frame the cue's end has followed through beside the ball's streak and both
    can look like a blurred white (synthetic 03_colours_clearance: the cue 0.19 off the
    cloth-to-white segment, the streak 0.14), so the side the changes came from tells them apart.
    """
    th, tw = thumb.shape
    k = sch.thumb
    x0, y0 = int(max(0, (at[0] - 4 * r) * k)), int(max(0, (at[1] - 4 * r) * k))
    x1, y1 = int(min(tw, (at[0] + 4 * r) * k + 1)), int(min(th, (at[1] + 4 * r) * k + 1))
    if x1 <= x0 or y1 <= y0:
        return np.zeros(2)
    diff = np.abs(thumb[y0:y1, x0:x1] - ref[y0:y1, x0:x1]).astype(np.float64)
    yy, xx = np.mgrid[y0:y1, x0:x1]
    dx, dy = (xx + 0.5) / k - at[0], (yy + 0.5) / k - at[1]
    w = np.maximum(diff - sch.change, 0.0) * (np.hypot(dx, dy) > 1.5 * r)
    total = float(w.sum())
    if total <= 0:
        return np.zeros(2)
    return np.array([float((dx * w).sum()), float((dy * w).sum())]) / total * min(total / 255.0, 1.0)


def purity(look: FloatArray, ball: FloatArray, cloth: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Where each Lab colour in ``look`` lies on the cloth-to-ball segment (``t``: 0 cloth, 1 ball)
    and how far off it, as a share of the segment's length (lightness counts half)."""
    u = (ball - cloth) * LAB_W
    sep = max(float(np.linalg.norm(u)), 1e-6)
    d = (look - cloth) * LAB_W
    t = d @ u / sep**2
    off = np.linalg.norm(d - t[:, None] * u, axis=1) / sep
    return np.nan_to_num(t, nan=-1.0), np.nan_to_num(off, nan=np.inf)
