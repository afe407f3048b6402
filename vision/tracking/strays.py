"""Whether a ball carried at rest has rolled on from where it is carried.

Why a module of its own: the video tracker carries a ball whose speed fell under ``rest_speed``
at the spot it was last measured, and has the detector re-measure it there
(:meth:`~vision.tracking.rest_spots.RestSpots.settle`). A ball still rolling slowly (a red at
the far end of a steep view, a fifth of a radius a frame, its measured speed wiped out by one
biased measurement between two frames it was not found) is not at that spot any more: the
detector finds nothing there and finds it a radius or so on. Which detection that is, is plain
geometry, tested apart from the tracker.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]


def strayed_to(
    pixel: FloatArray,
    colour: npt.NDArray[np.int64],
    at: FloatArray,
    own: int,
    radius: float,
    others: FloatArray,
    near_radii: float,
    reach_radii: float,
) -> int | None:
    """The row of ``pixel`` (detections, with their ``colour``) that a ball of colour ``own`` and
    ``radius``, carried at ``at`` and not found within ``near_radii`` radii of it, has rolled on
    to: the nearest of its colour farther than ``near_radii`` and nearer than ``reach_radii``
    radii, not within ``near_radii`` radii of another ball (``others``, ``(m, 2)``; NaN rows are
    ignored), which is that ball's. ``None``: none (the ball is under a hand or a cue, or gone
    farther than a gentle roll takes it, and is left to what handles those).

    Why another ball's detection is not it: in a pack the detector finds the neighbour two radii
    away while it merges the carried red with it, and the neighbour's track is on it.
    """
    if own < 0 or not len(pixel):
        return None
    d = np.linalg.norm(pixel - at, axis=1)
    cand = (colour == own) & (d >= near_radii * radius) & (d < reach_radii * radius)
    if len(others):
        to_others = np.linalg.norm(pixel[:, None, :] - others[None, :, :], axis=2)
        cand &= ~np.any(np.nan_to_num(to_others, nan=np.inf) < near_radii * radius, axis=1)
    if not np.any(cand):
        return None
    return int(np.flatnonzero(cand)[np.argmin(d[cand])])
