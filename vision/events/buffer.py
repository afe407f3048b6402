"""The frames the event inference buffers, and the still test every phase of it reads.

Why a module of its own: :class:`vision.events.infer.EventInferer` and the judgement of what a
"stroke" really was (:mod:`vision.events.replaced`) both read buffered frames and ask whether a
ball stood still over some of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from vision.events.config import EventConfig
from vision.tracks import TrackState

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class TrackFrame:
    """One frame of tracks as the event inference buffers it."""

    index: int
    t: float
    position: FloatArray
    state: npt.NDArray[np.int8]
    hidden: FloatArray | None = None
    #: Which balls were measured in this frame; computed once (it is read for every ball of
    #: every buffered frame, each frame: as a property it was most of the inferer's time).
    seen: npt.NDArray[np.bool_] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "seen", self.state == int(TrackState.SEEN))


def still_mean(
    cfg: EventConfig, frames: Sequence[TrackFrame], b: int, min_seen: int, creep: bool = True
) -> FloatArray | None:
    """Mean position of ball ``b`` over ``frames`` when it was seen in at least
    ``min_seen`` of them and stayed within the still radius (and, with ``creep``, its
    fitted speed passes the creep test); otherwise ``None``."""
    pts = np.array([f.position[b] for f in frames if f.seen[b]])
    if len(pts) < max(min_seen, 1):
        return None
    mean = pts.mean(axis=0)
    if float(np.max(np.hypot(*(pts - mean).T))) > cfg.still_mm:
        return None
    if creep and len(pts) >= 3:
        ts = np.array([f.t for f in frames if f.seen[b]])
        ts = ts - ts.mean()
        slope = (ts @ (pts - mean)) / float(ts @ ts)
        if float(np.hypot(*slope)) > cfg.rest_speed_mm_s:
            return None  # creeping to a stop: not at rest yet
    out: FloatArray = mean
    return out
