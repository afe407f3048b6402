"""Which resting balls a ball come to rest can have pushed.

Why a module of its own: the video tracker re-measures those balls for a while after a ball
comes to rest against them (:meth:`~vision.tracking.video.VideoTracker._recheck_beside`), and
each re-measurement is a detector call (4 ms at 1080p); which balls qualify is plain geometry,
tested apart from the tracker.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]


def pushable(
    pos: FloatArray,
    radius: FloatArray,
    candidates: npt.NDArray[np.bool_],
    i: int,
    at: FloatArray,
    heading: FloatArray,
    reach_radii: float,
    ahead_cos: float = 0.0,
) -> npt.NDArray[np.bool_]:
    """Which ``candidates`` (balls at ``pos``) ball ``i``, come to rest at ``at`` heading
    ``heading`` (a unit vector; zero when not known), can have pushed.

    Within reach: a ball pushed by a rolling ball ends no farther than touching it plus the
    push, so its centre is within ``2 + reach_radii`` radii of ``at`` (a push farther than the
    tracker's ``hold_radii`` takes a ball off its anchor, and it is searched as moved anyway).
    In front: a ball pushes along the line of centres, which points the way it rolled; the
    balls behind it or level with it (a pack's reds beside a red come to rest in a break-off)
    were not pushed by it.

    Args:
        pos: ``(n, 2)`` ball centres (pixels).
        radius: ``(n,)`` ball radii (pixels).
        candidates: ``(n,)`` which balls may be looked at (at rest, on the table).
        i: the ball come to rest (never itself pushable).
        at: where it came to rest.
        heading: the way it rolled.
        reach_radii: farthest a push moves a ball, in radii, beyond touching.
    """
    rel = pos - at
    d = np.hypot(rel[:, 0], rel[:, 1])
    near = candidates & (d < (2.0 + reach_radii) * radius)
    if float(np.hypot(*heading)) > 0:
        near &= rel @ heading > ahead_cos * d * float(np.hypot(*heading))
    near[i] = False
    return np.asarray(near, bool)
