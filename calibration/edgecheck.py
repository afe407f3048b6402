"""An independent check of a calibration: do the projected cushion lines lie on the cushion
edges that are visible in the picture?

Independent of the fitter on purpose: the fitter's residual measures its own detected points
against its own model, so a detector bias (the wrong edge found) would pass unnoticed. Here the
fitted camera projects each cushion line (clear of the pocket jaws) at the height its edge is
seen at (:func:`calibration.fit.edge_height`), a cushion whose face the camera sees moved by the
one offset the calibration fitted for all such faces (``Calibration.edge_offset_mm``: where on
the cushion's profile its visible step lies, within about a pixel; one number for three or four
sides, so a wrong camera cannot hide in it), and along the image normal of that projected
line the brightness profile of the ORIGINAL frame is searched for the strongest edge within
:data:`SEARCH_PX`. The signed pixel distance to that edge is the error of the sample. Samples
where no clear edge exists (a player, a cue, the score bar, a ball on the cushion) are left out
as occluded; the figure is the median absolute error over the rest, in pixels.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from calibration.calibrate import Calibration
from calibration.fit import SIDE_ORDER, edge_height, seen_faces
from calibration.homography import FloatArray
from calibration.markings import UInt8Array, sample
from calibration.table import TABLE

#: Half-length of the search along each normal (px).
SEARCH_PX = 8.0

#: An edge weaker than this (grey levels per pixel) is no visible cushion edge: occluded.
MIN_STEP = 4.0

#: Keep the samples this far (mm) from the pocket jaws: the jaws curve away into the pocket.
JAW_CLEARANCE = 60.0

_SIDE_OF = {"baulk": "baulk", "top": "top", "left_baulk": "left", "left_top": "left"}
_SIDE_OF |= {"right_baulk": "right", "right_top": "right"}


@dataclass(frozen=True)
class EdgeCheck:
    """Per-sample results of the check.

    Attributes:
        offsets: ``(N,)`` signed distance (px) from the projected line to the visible edge; NaN
            where the sample was occluded or outside the frame.
        sides: ``(N,)`` cushion name of each sample.
    """

    offsets: FloatArray
    sides: list[str]

    def __post_init__(self) -> None:
        if self.offsets.ndim != 1 or len(self.offsets) != len(self.sides):
            raise ValueError(f"offsets {self.offsets.shape} and sides ({len(self.sides)}) must align")

    @property
    def valid(self) -> int:
        """Samples with a visible edge."""
        return int(np.isfinite(self.offsets).sum())

    @property
    def median_px(self) -> float:
        """Median absolute distance (px) over the unoccluded samples; NaN if there are none."""
        ok = np.isfinite(self.offsets)
        return float(np.median(np.abs(self.offsets[ok]))) if ok.any() else float("nan")


def check_cushion_edges(image: UInt8Array, cal: Calibration, step_mm: float = 20.0) -> EdgeCheck:
    """Measure how far the projected cushion lines are from the visible cushion edges."""
    centre = cal.camera_centre
    seen = seen_faces(centre)
    offs = np.arange(-SEARCH_PX, SEARCH_PX + 1e-9, 0.25)
    all_off: list[FloatArray] = []
    names: list[str] = []
    h, w = image.shape[:2]
    for seg in TABLE.cushions:
        a, b = np.asarray(seg.start), np.asarray(seg.end)
        length = float(np.hypot(*(b - a)))
        t = np.arange(JAW_CLEARANCE, length - JAW_CLEARANCE, step_mm) / length
        side = _SIDE_OF[seg.name]
        # A seen face's visible edge lies where the calibration fitted it, its shared offset in.
        inward = cal.edge_offset_mm if seen[SIDE_ORDER.index(side)] else 0.0
        pts = a + t[:, None] * (b - a) + inward * np.asarray(seg.normal)
        z = edge_height(side, centre)
        try:
            p = cal.table_to_pixels(pts, z)
            q = cal.table_to_pixels(pts + 10.0 * np.asarray(seg.normal), z)
        except Exception:  # a line behind the camera: nothing to check
            continue
        n = q - p
        n /= np.maximum(np.hypot(n[:, 0], n[:, 1]), 1e-9)[:, None]
        prof = sample(image, p[:, None, :] + offs[None, :, None] * n[:, None, :])
        grad = np.abs(np.gradient(prof, 0.25, axis=1))
        inside = (p[:, 0] >= SEARCH_PX) & (p[:, 0] < w - SEARCH_PX) & (p[:, 1] >= SEARCH_PX)
        inside &= p[:, 1] < h - SEARCH_PX
        g = np.where(np.isfinite(grad), grad, -1.0)
        i = np.argmax(g, axis=1)
        peak = g[np.arange(len(g)), i]
        found = np.where(inside & (peak >= MIN_STEP), offs[i], np.nan)
        all_off.append(found)
        names += [seg.name] * len(found)
    offsets = np.concatenate(all_off) if all_off else np.zeros(0)
    return EdgeCheck(offsets=offsets, sides=names)
