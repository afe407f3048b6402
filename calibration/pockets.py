"""The middle pockets as a marking: where the table's length is halved.

The cushions fix the table's outline and the baulk-line and D fix the baulk end, but along the
table nothing else is marked: a top cushion seen from behind (its nose faint, its edge only
loosely known) leaves the table's length to a 737 mm lever between the baulk cushion and the
baulk-line, and a millimetre there is five at the top cushion. The middle pockets sit exactly
half-way (Section 1 Rule 1(e)), and a pocket cut into a cushion is a mirror-symmetric pattern
(jaws, leathers, the hole) that a camera sees at any angle, lit any way. So along each long
cushion, in a few rows across the cushion top at the nose's height, the centre of mirror
symmetry of the brightness profile around the middle is found; each is an image point on the
line ``x = length / 2``.
"""

from __future__ import annotations

import numpy as np

from calibration.fit import NOSE_HEIGHT
from calibration.homography import FloatArray
from calibration.markings import ToImage, UInt8Array, sample
from calibration.table import TABLE

#: Rows across the cushion top (mm outside the face line) in which the symmetry is measured.
ROWS = (8.0, 18.0, 28.0, 38.0)

#: How far either side of the middle the profile runs, and how far the centre may be sought
#: from where the camera puts it (mm).
SPAN = 300.0
SEARCH = 90.0

#: Half-width of the mirror compared about each candidate centre (mm): the mouth and its jaws.
HALF = 150.0

#: Sample spacing along the cushion (mm).
STEP = 2.0

#: The rows of one cushion must agree on its pocket's centre to within this (mm), at least two
#: of them: a row that found the symmetry of a ball, a cue or a hand beside the mouth does not.
AGREE_MM = 12.0

#: A centre is taken only where the profile is this much more symmetric about it than about
#: the median candidate, and the pocket stands out (grey levels of spread along the row).
SHARPNESS = 0.5
MIN_SPREAD = 6.0


def _symmetry_centre(prof: FloatArray) -> float | None:
    """Sub-sample index of the centre of mirror symmetry of a 1-D profile, or None."""
    n = len(prof)
    k = round(HALF / STEP)
    reach = round(SEARCH / STEP)
    mid = n // 2
    centres = np.arange(max(k, mid - reach), min(n - k, mid + reach + 1))
    if len(centres) < 5 or not np.all(np.isfinite(prof)):
        return None
    if float(np.std(prof)) < MIN_SPREAD:
        return None
    u = np.arange(1, k + 1)
    diff = np.abs(prof[centres[:, None] + u[None, :]] - prof[centres[:, None] - u[None, :]]).mean(axis=1)
    i = int(np.argmin(diff))
    if diff[i] > SHARPNESS * float(np.median(diff)) or i == 0 or i == len(diff) - 1:
        return None
    a, b, c = diff[i - 1], diff[i], diff[i + 1]
    denom = a - 2 * b + c
    off = 0.5 * (a - c) / denom if denom > 0 else 0.0
    return float(centres[i] + np.clip(off, -0.5, 0.5))


def middle_points(image: UInt8Array, to_image: ToImage) -> FloatArray:
    """Image points ``(N, 2)`` on the plane ``x = length / 2`` at the nose's height: one per row
    of each long cushion where its middle pocket shows clearly (none where it is hidden)."""
    xs = TABLE.length / 2.0 + np.arange(-SPAN, SPAN + 1e-9, STEP)
    ys = np.array(
        [face + outward * row for face, outward in ((0.0, -1.0), (TABLE.width, 1.0)) for row in ROWS]
    )
    grid = np.stack(np.broadcast_arrays(xs[None, :], ys[:, None]), axis=-1)  # (rows, len(xs), 2)
    profiles = sample(image, to_image(grid.reshape(-1, 2), NOSE_HEIGHT).reshape(grid.shape))
    sides = []
    for side in range(2):  # the rows of one long cushion, then the other's
        rows = slice(side * len(ROWS), (side + 1) * len(ROWS))
        here = []
        for y, prof in zip(ys[rows], profiles[rows], strict=True):
            centre = _symmetry_centre(prof)
            if centre is not None:
                here.append([float(np.interp(centre, np.arange(len(xs)), xs)), y])
        if len(here) < 2:
            continue
        pts = np.asarray(here)
        agree = np.abs(pts[:, 0] - np.median(pts[:, 0])) <= AGREE_MM
        if agree.sum() >= 2:
            sides.append(pts[agree])
    found = _agreeing(sides)
    if not len(found):
        return np.zeros((0, 2))
    out: FloatArray = to_image(found, NOSE_HEIGHT)
    return out


def _agreeing(sides: list[FloatArray]) -> FloatArray:
    """The long cushions' pocket centres (table mm), both only where they agree.

    Both pockets lie on one line across the table, so two that disagree by more than
    :data:`AGREE_MM` cannot both be pockets: one is a symmetric thing beside a mouth (a player's
    forearm over it gave four rows agreeing with each other 65 mm from the pocket, held-out
    synthetic seed 2013, and pulled the fit's length by 10 mm). The one nearer the middle that
    the current camera predicts is kept: it is a few millimetres out at worst where the other is
    tens.
    """
    if not sides:
        return np.zeros((0, 2))
    if len(sides) == 2:
        xs = [float(np.median(s[:, 0])) for s in sides]
        if abs(xs[0] - xs[1]) > AGREE_MM:
            sides = [sides[int(np.argmin([abs(x - TABLE.length / 2.0) for x in xs]))]]
    out: FloatArray = np.vstack(sides)
    return out
