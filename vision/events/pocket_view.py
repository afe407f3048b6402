"""How much of each pocket's approach the camera sees, frame by frame.

Why: a ball the tracker loses a few frames before a pocket's mouth, rolling towards it, was
potted only if nothing else could have hidden it: the detector refuses centres in a
pocket's shade (its jaws and leather are as dark as a ball's shadow), so a ball dropping is
last measured some way short of the mouth, while a ball behind a player's arm or body is
lost the same way. The difference is in the image: the cloth around the pocket is in view,
or a player covers it. This module measures that from the frame itself, independently of
the detector, so the pot inference (:mod:`vision.events.exits`) can tell the two apart.

The approach of a pocket is the bed within :data:`APPROACH_MM` of its mouth's midpoint (one
ball radius in from the cushion noses). Points on that bed are projected once into the
image. A point is first taken for cloth when its chromaticity is within
:data:`CHROMA_TOL` of the cloth's and its brightness within :data:`VALUE_RANGE` times the
cloth's, both the medians over every approach point when the view starts (most of an
approach is bare cloth); from then on it is cloth when it is that close to its own cloth
colour, the colour it had when last seen as cloth (followed slowly: :data:`REF_RATE`). The
cloth's colour is not one colour across a table: the lighting falls off towards the ends
and the camera's colour along the edges, so points near the table-wide tolerance flicker in
and out of it with the codec's noise, and a ball rolling through (its shadow, its blur)
joined them into a patch the size of a hand on real footage. Only points seen as cloth at
least once count (a cushion's shade, a calibration a few pixels off, a ball that never
moves are nothing a player hides). A
ball covers a few percent of an approach; an arm, a hand or a body covers a large part.
A point is hidden when it is not cloth in this frame and the one before (a ball rolling in,
blurred, with its shadow, moves on; a hand or an arm stays). Only patches of hidden points
larger than a few balls count (:data:`OCCLUDER_BALLS`): a ball at rest or rolling slowly,
with its shadow, hides nothing.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import cv2
import numpy as np
import numpy.typing as npt

from calibration.errors import BaulklineError
from calibration.table import TABLE, TableSpec

FloatArray = npt.NDArray[np.float64]
Image = npt.NDArray[np.uint8]

#: Radius of the bed in front of a mouth whose view is measured (mm): the stretch over which
#: the detector loses a ball about to drop (the pocket's shade reaches some 3.5 radii from the
#: fall's centre) and the ball's last few frames of travel at a medium pace.
APPROACH_MM = 300.0
#: Spacing of the sampled bed points (mm): a ball covers about ten of them.
GRID_MM = 15.0
#: The sampled bed keeps this far inside the cushion noses (mm): the nose's shade is no
#: cloth colour, and a calibration a few pixels off moves it by a centimetre or two.
NOSE_MARGIN_MM = 50.0
#: A patch of hidden points counts as an occluder only when it is larger than this many ball
#: discs: a ball, its blurred streak and its shadow, or two balls together, are no player.
OCCLUDER_BALLS = 4.0
#: A pocket's projection moving by more than this (pixels) is a new calibration.
MOVED_PX = 2.0
#: A point is cloth when its normalised chromaticity is within this of the cloth's (the cloth
#: is strongly green; shirts, skin, wood and balls are not) ...
CHROMA_TOL = 0.08
#: ... and its brightness within this range of the cloth's (a shadow, a dark sleeve).
VALUE_RANGE = (0.55, 1.8)
#: Share of a frame's sample a point's own cloth colour takes each frame it is seen as cloth:
#: a few seconds' memory follows the light (a cloud of broadcast exposure changes) without
#: being drawn by a single noisy frame.
REF_RATE = 0.05


def approach_points(table: TableSpec = TABLE) -> dict[str, FloatArray]:
    """Table points (mm) on the bed within :data:`APPROACH_MM` of each pocket's mouth."""
    return {name: pts for name, (pts, _) in _approach_grids(table).items()}


def _approach_grids(table: TableSpec) -> dict[str, tuple[FloatArray, npt.NDArray[np.intp]]]:
    """Per pocket, the approach's table points and their ``(row, col)`` cells on the grid."""
    m = NOSE_MARGIN_MM
    xs = np.arange(m, table.length - m + 1e-9, GRID_MM)
    ys = np.arange(m, table.width - m + 1e-9, GRID_MM)
    gx, gy = np.meshgrid(xs, ys)
    ii, jj = np.meshgrid(np.arange(len(ys)), np.arange(len(xs)), indexing="ij")
    grid = np.stack([gx, gy], axis=-1).reshape(-1, 2)
    cells = np.stack([ii, jj], axis=-1).reshape(-1, 2)
    out: dict[str, tuple[FloatArray, npt.NDArray[np.intp]]] = {}
    for name, pocket in table.pockets.items():
        mid = np.asarray(pocket.mouth_midpoint)
        near = np.hypot(*(grid - mid).T) <= APPROACH_MM
        c = cells[near]
        out[name] = (grid[near], c - c.min(axis=0))
    return out


def occluders(
    hidden: npt.NDArray[np.bool_], cells: npt.NDArray[np.intp], min_points: float
) -> npt.NDArray[np.bool_]:
    """Which hidden points belong to a 4-connected patch of more than ``min_points`` points."""
    shape = tuple(int(v) + 1 for v in cells.max(axis=0))
    img = np.zeros(shape, np.uint8)
    img[cells[hidden, 0], cells[hidden, 1]] = 1
    n, labels = cv2.connectedComponents(img, connectivity=4)
    sizes = np.bincount(labels.ravel(), minlength=n)
    big = sizes > min_points
    big[0] = False
    out: npt.NDArray[np.bool_] = big[labels[cells[:, 0], cells[:, 1]]] & hidden
    return out


def _samples(image: Image, v: npt.NDArray[np.int64], u: npt.NDArray[np.int64]) -> FloatArray:
    """``(N, 3)`` the BGR pixels at rows ``v`` and columns ``u``, as float64.

    Why not ``image[v, u]``: two-index gathers from a frame cost five times one ``take`` of
    whole pixels from the frame seen as a list of them (the pocket view reads two thousand a
    frame).
    """
    if image.ndim == 3 and image.shape[2] == 3 and image.flags.c_contiguous:
        return np.asarray(image.reshape(-1, 3).take(v * image.shape[1] + u, axis=0), np.float64)
    return np.asarray(image[v, u], np.float64)


class PocketView:
    """Per frame, the share of each pocket's approach hidden by something larger than a few
    balls (a player, an arm, a hand).

    Args:
        to_pixels: table millimetres on the cloth ``(N, 2)`` -> image pixels ``(N, 2)`` (the
            calibration of the view; a new one after the camera moves needs a new view).
        table: the table geometry.

    Attributes:
        pockets: pocket names, in the order of :meth:`update`'s values.
    """

    def __init__(self, to_pixels: Callable[[FloatArray], FloatArray], table: TableSpec = TABLE) -> None:
        grids = _approach_grids(table)
        self.pockets = tuple(grids)
        pixels = [np.asarray(to_pixels(p), dtype=np.float64) for p, _ in grids.values()]
        self._cells = [c for _, c in grids.values()]
        self._min_points = OCCLUDER_BALLS * math.pi * table.ball_radius**2 / GRID_MM**2
        self._chroma: FloatArray | None = None
        self._value = 0.0
        # Every pocket's points in one run (pocket k is ``_bounds[k]:_bounds[k + 1]``): a
        # frame's colour test is one pass over all of them, not one per pocket. Each point's
        # pixel is rounded once (-1 where it does not project): every frame reads them.
        uv = np.round(np.nan_to_num(np.concatenate(pixels), nan=-1.0)).astype(np.int64)
        self._u, self._v = uv[:, 0], uv[:, 1]
        self._sizes = np.array([len(p) for p in pixels])
        self._bounds = np.concatenate([[0], np.cumsum(self._sizes)])
        n = int(self._bounds[-1])
        # Per point, its own cloth colour (chromaticity and brightness: the table's until it
        # is first seen as cloth) and whether it has been: a point on a cushion's shade (or
        # under a ball that never moves) is no part of what a player can hide.
        self._ref_chroma = np.zeros((n, 3))
        self._ref_value = np.zeros(n)
        self._known = np.zeros(n, dtype=bool)
        # Per point, whether it was not cloth in the previous frame.
        self._before = np.zeros(n, dtype=bool)

    def update(self, image: Image) -> FloatArray:
        """``(P,)`` share of each pocket's approach points (those ever seen as cloth) that lie
        in a patch of not-cloth points larger than :data:`OCCLUDER_BALLS` balls in ``image``
        (NaN for a pocket whose approach is not wholly in the frame)."""
        h, w = image.shape[:2]
        u, v = self._u, self._v
        ok = (u >= 0) & (u < w) & (v >= 0) & (v < h)
        n_ok = np.add.reduceat(ok.astype(np.int64), self._bounds[:-1])
        out = np.full(len(self.pockets), np.nan)
        if self._chroma is None:
            usable = np.flatnonzero(ok & np.repeat(n_ok >= 10, self._sizes))
            if len(usable) == 0:
                return out
            allpx = image[v[usable], u[usable]].astype(np.float64)
            self._chroma = np.median(allpx / (allpx.sum(axis=1, keepdims=True) + 1e-9), axis=0)
            self._value = float(np.median(allpx.max(axis=1)))
            self._ref_chroma[:] = self._chroma
            self._ref_value[:] = self._value
        whole = n_ok == self._sizes
        idx = np.flatnonzero(np.repeat(whole, self._sizes))
        if len(idx) == 0:
            return out
        s = _samples(image, v[idx], u[idx])
        # (Channel by channel: NumPy's reductions along a row of three cost more than the sums
        # and maxima of three columns, which are the same numbers: sums of whole numbers.)
        blue, green, red = s[:, 0], s[:, 1], s[:, 2]
        chroma = s / ((blue + green + red)[:, None] + 1e-9)
        value = np.maximum(np.maximum(blue, green), red)
        # Against the point's own cloth colour where it has one, else the table's.
        base_v = self._ref_value[idx]
        off = chroma - self._ref_chroma[idx]
        # (``np.linalg.norm``'s own steps along the rows: the squares summed in order, the root.)
        sq = off * off
        cloth = np.sqrt(sq[:, 0] + sq[:, 1] + sq[:, 2]) <= CHROMA_TOL
        cloth &= (value >= VALUE_RANGE[0] * base_v) & (value <= VALUE_RANGE[1] * base_v)
        sel = idx[cloth]
        rate = np.where(self._known[sel], REF_RATE, 1.0)
        ref = self._ref_chroma[sel]
        self._ref_chroma[sel] = ref + rate[:, None] * (chroma[cloth] - ref)
        self._ref_value[sel] += rate * (value[cloth] - self._ref_value[sel])
        self._known[sel] = True
        # Hidden now and in the frame before: a rolling ball's patch (the ball blurred along
        # its path, its shadow, the codec's colour bleeding round it) can pass the size of a
        # few balls at the speed of a pot, but it moves on by its own length in a frame or
        # two; a player's hand or arm stays put from one frame to the next.
        now = self._known[idx] & ~cloth
        hidden = np.zeros(len(self._known), dtype=bool)
        hidden[idx] = now & self._before[idx]
        self._before[idx] = now
        for k in np.flatnonzero(whole):
            a, b = int(self._bounds[k]), int(self._bounds[k + 1])
            known = int(self._known[a:b].sum())
            if known >= 10:
                # (Nothing hidden there covers nothing: no patches to label.)
                hid = hidden[a:b]
                covered = 0
                if hid.any():
                    covered = int(np.count_nonzero(occluders(hid, self._cells[k], self._min_points)))
                out[k] = float(covered) / float(known)
        return out


class PocketWatch:
    """A :class:`PocketView` kept in step with a calibration that may change (the camera
    moved and re-calibrated): the view is rebuilt when the pockets' projections move by more
    than :data:`MOVED_PX`, and there is none while the table is not calibrated.

    Args:
        table: the table geometry.
    """

    def __init__(self, table: TableSpec = TABLE) -> None:
        self.table = table
        self._view: PocketView | None = None
        self._anchors: FloatArray | None = None
        self._centres = np.array([p.centre for p in table.pockets.values()], dtype=np.float64)

    def update(self, image: Image, to_pixels: Callable[[FloatArray], FloatArray] | None) -> FloatArray | None:
        """The frame's ``(P,)`` hidden shares (:meth:`PocketView.update`), or ``None`` when
        ``to_pixels`` (the current calibration's projection onto the cloth) is ``None`` or
        fails."""
        if to_pixels is None:
            return None
        try:
            anchors = np.asarray(to_pixels(self._centres), dtype=np.float64)
            if not np.isfinite(anchors).all():
                return None
            moved = self._anchors is None or float(np.max(np.abs(anchors - self._anchors))) > MOVED_PX
            if self._view is None or moved:
                self._view = PocketView(to_pixels, self.table)
                self._anchors = anchors
        except (ValueError, RuntimeError, BaulklineError):
            return None  # not calibrated (yet, or any more), or a projection it cannot make
        return self._view.update(image)
