"""Where a resting ball that is searched for is reported: at its rest spot, not its searched centre.

Why: a resting ball that a moving ball can reach is searched for by its colour every frame (it
must follow at once when struck), and the colour search places a ball lit from above 2-4
pixels towards its shadow (on the synthetic clips 10-20 mm; a red for 40 frames while the white
rolled past it on 05_touching, the blue before it was struck on 01_break_off). Those frames
were 44% of the squared position error at rest on the sample clips. The offset is the light's
on that ball there: it is measured once when the detector settles the ball (the search at the
detector's centre, minus that centre), and while the track stays where the search put it at
rest (its rest spot plus that offset, within :data:`CONFIRM_RADII`) the ball has not moved and,
from the second such frame (:data:`CONFIRM_FRAMES`), is reported at its rest spot.

Only the report changes: the tracker keeps following the searched centre, so a strike's first
frames, the gates and the matching are what they were. Taking the offset off the searched
centre itself (a previous attempt) took back most of a struck red's first step on a real clip,
where the offset had been measured with the white beside it: the track fell behind the red
and its pot was lost. A ball that leaves its spot by more than the tolerance is reported where
the tracker has it, as before.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from vision.detection.detections import BallDetections

FloatArray = npt.NDArray[np.float64]

#: Largest offset (radii) of a resting ball's colour search from the detector's centre taken for
#: the search's offset on it: farther, the blob found is another ball's (or the ball's with a
#: neighbour's merged in), which says nothing about the light on it.
OFFSET_RADII = 0.6
#: How near (radii) the track must stay to its rest spot plus the search's offset for the ball to
#: count as still at rest. The offset drifts by up to 0.1 radius as a ball rolls up beside it
#: (05_touching); a ball set moving leaves this in a frame or two.
CONFIRM_RADII = 0.15
#: Frames a searched ball must have stayed where its search put it at rest before it is reported
#: at its rest spot. The first frame it is searched in (carried at rest until then: something
#: now moves near it) may be the one it starts to move in, by less than :data:`CONFIRM_RADII`,
#: and is reported as tracked: on 06_free_ball the events see the white's gentle contact with
#: the brown, at the far end of a steep view, only as the brown's step in that frame (reported
#: at its spot from the first frame on, the stroke was read as the white placed by hand).
CONFIRM_FRAMES = 1
#: Farthest (radii) the detector's finer centre of a resting ball may lie from its anchor to be
#: reported instead: the two measure the same ball (sub-pixel caps move a pack's red by up to
#: half a pixel); farther, the finer one found something else.
SPOT_RADII = 0.3
#: Farthest (radii) a resting ball's anchor may move from where the fine mode's change was
#: measured for the change to hold (:func:`reported_spot`): a re-measure at rest moves it by
#: hundredths of a pixel; a push or a new settle by a tenth of a radius or more.
SPOT_HELD_RADII = 0.05


def search_offset(found: BallDetections, rested: FloatArray, radius: float) -> FloatArray:
    """The colour search's offset on a resting ball: the nearest blob of ``found`` (the search
    run round the detector's centre ``rested``) minus ``rested``; NaN where no blob lies within
    :data:`OFFSET_RADII` radii of it."""
    if not len(found):
        return np.full(2, np.nan)
    off = found.pixel - rested
    k = int(np.argmin(np.hypot(off[:, 0], off[:, 1])))
    if float(np.hypot(*off[k])) >= OFFSET_RADII * radius:
        return np.full(2, np.nan)
    return np.asarray(off[k], np.float64)


def confirm(
    run: npt.NDArray[np.int64], rows: npt.NDArray[np.bool_]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_]]:
    """Per ball, consecutive frames ``rows`` (:func:`at_rest`) has held, ``run`` the count before
    this frame; and which balls are reported at their rest spots: those past
    :data:`CONFIRM_FRAMES`."""
    out = np.where(rows, run + 1, 0).astype(np.int64)
    report: npt.NDArray[np.bool_] = rows & (out > CONFIRM_FRAMES)
    return out, report


def at_rest(
    pos: FloatArray,
    spot: FloatArray,
    offset: FloatArray,
    radius: FloatArray,
    eligible: npt.NDArray[np.bool_],
) -> npt.NDArray[np.bool_]:
    """Per ball, whether it is reported at its rest spot: ``eligible``, with a rest ``spot`` and
    a search ``offset`` known (finite), and its tracked ``pos`` within :data:`CONFIRM_RADII`
    radii of ``spot + offset``."""
    with np.errstate(invalid="ignore"):
        d = np.hypot(*(pos - spot - offset).T)
        near = np.nan_to_num(d, nan=np.inf) < CONFIRM_RADII * radius
    out: npt.NDArray[np.bool_] = eligible & near
    return out


def reported_spot(
    anchor: FloatArray,
    spot: FloatArray,
    measured_at: FloatArray,
    radius: FloatArray,
    absolute: npt.NDArray[np.bool_] | None = None,
) -> FloatArray:
    """Per ball, where it is reported at rest: its ``anchor`` moved by the fine mode's change
    measured at ``measured_at`` (``spot - measured_at``) while the anchor stays within
    :data:`SPOT_HELD_RADII` of that place and the change is under :data:`SPOT_RADII` radii;
    else the ``anchor``.

    Why while it stays: the change is the detector's correction there; re-measured at rest
    (a whole-table centre a hundredth of a pixel off) the anchor keeps it, but anchored
    elsewhere (re-settled, pushed) it belongs to another place. Why under: the two modes
    measure the same ball; farther, the fine one found something else.

    ``absolute``: balls whose ``spot`` is a centre of its own (the limb fit's), reported as it
    is while the anchor holds, not as a change: re-measured a few tenths of a pixel off at
    rest (a hand beside it), the anchor would carry the change along and count it twice (on
    sample 08 the green's limb correction of half a pixel, added again to a re-measure).
    """
    change = spot - measured_at
    with np.errstate(invalid="ignore"):
        held = np.hypot(*(anchor - measured_at).T) < SPOT_HELD_RADII * radius
        near = np.hypot(*change.T) < SPOT_RADII * radius
    ok = held & near & np.all(np.isfinite(change), axis=1) & np.all(np.isfinite(anchor), axis=1)
    moved = anchor + np.nan_to_num(change)
    if absolute is not None:
        moved = np.where(absolute[:, None], np.nan_to_num(spot), moved)
    out: FloatArray = np.where(ok[:, None], moved, anchor)
    return out
