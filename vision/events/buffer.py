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
    cfg: EventConfig,
    frames: Sequence[TrackFrame],
    b: int,
    min_seen: int,
    creep: bool = True,
    own_scatter: bool = False,
) -> FloatArray | None:
    """Mean position of ball ``b`` over ``frames`` when it was seen in at least
    ``min_seen`` of them and stayed within the still radius (and, with ``creep``, its
    fitted speed passes the creep test); otherwise ``None``.

    With ``own_scatter`` the creep test's speed limit is 3 standard deviations of the fitted
    speed as the samples' own scatter about their line gives it, when that is under the
    tracker's stated noise (never under ``creep_floor_mm_s``). Why: a tracker that carries a
    resting ball re-measures it only now and then, so a ball creeping to a stop is reported as
    a few steps with no jitter between them; judged against the stated noise (1.5 mm a frame),
    a white creeping into a red, re-measured 3 mm on in two steps within the rest window (8.0
    mm/s fitted, under the 3-sigma 8.7 mm/s at 50 fps), passed for still: the rest was called
    0.3 s before it stopped, its gap taken from where it had been (5 mm; 1.4 mm measured once
    it stopped), and TOUCHING BALL was missed (a rendered 960x540@50 touching ball, seed 121).
    """
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
        limit = cfg.rest_speed_mm_s
        if own_scatter and len(pts) > 3:
            resid = pts - mean - ts[:, None] * slope[None, :]
            scatter = float(np.sqrt(np.sum(resid**2) / (2.0 * (len(pts) - 2))))
            limit = max(cfg.creep_floor_mm_s, min(limit, 3.0 * scatter / float(np.sqrt(ts @ ts))))
        if float(np.hypot(*slope)) > limit:
            return None  # creeping to a stop: not at rest yet
    out: FloatArray = mean
    return out
