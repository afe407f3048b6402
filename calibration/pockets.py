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
    centre = float(_symmetry_centres(prof[None, :])[0])
    return None if np.isnan(centre) else centre


def _symmetry_centres(profiles: FloatArray) -> FloatArray:
    """:func:`_symmetry_centre` of each row of ``profiles`` ``(R, N)``, NaN for None: the rows
    in one batch (eight per call, twice a calibration: their per-row calls cost more than the
    arithmetic)."""
    rows, n = profiles.shape
    out = np.full(rows, np.nan)
    k = round(HALF / STEP)
    reach = round(SEARCH / STEP)
    mid = n // 2
    centres = np.arange(max(k, mid - reach), min(n - k, mid + reach + 1))
    if len(centres) < 5:
        return out
    usable = np.all(np.isfinite(profiles), axis=1)
    usable[usable] = np.std(profiles[usable], axis=1) >= MIN_SPREAD
    if not usable.any():
        return out
    prof = profiles[usable]
    # Windows of k samples: the one after each centre against the one before it, read backwards
    # (views on the rows, not gathered copies).
    win = np.lib.stride_tricks.sliding_window_view(prof, k, axis=1)
    after = win[:, centres[0] + 1 : centres[-1] + 2, :]
    before = win[:, centres[0] - k : centres[-1] - k + 1, ::-1]
    diff = np.abs(after - before).mean(axis=2)
    i = np.argmin(diff, axis=1)
    r = np.arange(len(prof))
    sharp = diff[r, i] <= SHARPNESS * np.median(diff, axis=1)
    found = sharp & (i > 0) & (i < len(centres) - 1)
    j = np.clip(i, 1, len(centres) - 2)
    a, b, c = diff[r, j - 1], diff[r, j], diff[r, j + 1]
    denom = a - 2 * b + c
    with np.errstate(divide="ignore", invalid="ignore"):
        off = np.where(denom > 0, 0.5 * (a - c) / np.where(denom > 0, denom, 1.0), 0.0)
    out[np.flatnonzero(usable)[found]] = (centres[j] + np.clip(off, -0.5, 0.5))[found]
    return out


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
        centre = _symmetry_centres(profiles[rows])
        ok = ~np.isnan(centre)
        if ok.sum() < 2:
            continue
        pts = np.stack([np.interp(centre[ok], np.arange(len(xs)), xs), ys[rows][ok]], axis=1)
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
