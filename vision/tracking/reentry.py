"""Where a colour taken off the table can come back onto it: a spot, its own spot's line, or
where it was.

Why: a colour leaves the table only into a pocket (or forced off it), and comes back only by a
hand that puts it down (Section 3 Rule 7): on its own spot; on the highest value spot free when
its own is occupied; when every spot is taken, as near its own spot as possible between the spot
and the nearest part of the top cushion (on the spot's line up the table); or, after FOUL AND A
MISS when the non-offender asks for the balls to be replaced, where it was before the stroke.
A colour measured anywhere else is something else: the whole-table search finds a player's
knuckles as a brown or a cuff as a green near the cushions, and a potted brown re-acquired there
followed the hand about, was held at rest where the hand left the view, and put a brown back on
the table for the referee (a rendered 1080p60 clearance).

The white (placed anywhere in the D, Section 3 Rule 9, or wrongly outside it, which the referee
must see to call it) and the reds (never re-spotted) are not restricted here.

Everything is in table millimetres (:data:`calibration.table.TABLE`).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from calibration.table import TABLE, Colour, TableSpec
from vision.detection.detections import COLOURS

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]
IntArray = npt.NDArray[np.int64]

#: How far (ball radii) from a spot, a spot's line or its last position a colour put back may be
#: measured: the hand's placement is exact to a few millimetres; the rest is the calibration's
#: and the detector's error at the far end of an oblique view (8 mm a pixel there).
REENTRY_RADII = 2.0


def reentry_allowed(
    colour: IntArray, last_xy: FloatArray, det_xy: FloatArray, table: TableSpec = TABLE
) -> BoolArray:
    """Which detections each ball may come back onto the table at.

    Args:
        colour: ``(B,)`` each ball's index into :data:`~vision.detection.detections.COLOURS`
            (-1: unknown colour, not restricted).
        last_xy: ``(B, 2)`` where each ball was last on the table (NaN: never seen).
        det_xy: ``(N, 2)`` the detections' table positions (NaN: unknown, allowed).

    Returns:
        ``(B, N)``: True where detection ``j`` is a place ball ``i`` can be put back.
    """
    b, n = len(colour), len(det_xy)
    out = np.ones((b, n), dtype=bool)
    if not n:
        return out
    tol = REENTRY_RADII * table.ball_radius
    spots = np.array(list(table.spots.values()), dtype=np.float64)
    d_spot = np.linalg.norm(det_xy[:, None, :] - spots[None, :, :], axis=2)
    any_spot = np.any(d_spot <= tol, axis=1)
    known = np.isfinite(det_xy).all(axis=1)
    for i in range(b):
        c = int(colour[i])
        if c < 0 or COLOURS[c] in (Colour.WHITE, Colour.RED):
            continue
        sx, sy = table.spots[COLOURS[c]]
        on_line = (np.abs(det_xy[:, 1] - sy) <= tol) & (det_xy[:, 0] >= sx - tol)
        ok = any_spot | on_line
        if np.all(np.isfinite(last_xy[i])):
            ok |= np.linalg.norm(det_xy - last_xy[i], axis=1) <= tol
        out[i] = ok | ~known
    return out
