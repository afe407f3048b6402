"""Tracks a camera would give of a simulated timeline: the development data of event inference.

A :class:`~vision.synthetic.timeline.Timeline` holds the true positions densely in time;
sampling it at frame times (with a random phase, so contacts fall anywhere between frames),
adding the tracker's Gaussian noise and dropping random samples (the state becomes
``predicted``, as a tracker reports a ball it did not measure) gives the :class:`Tracks`
the event inferer must turn back into the timeline's true event log.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from vision.synthetic.timeline import Timeline
from vision.tracks import Tracks, TrackState

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class CameraNoise:
    """How the simulated tracker degrades the truth.

    Attributes:
        fps: frame rate.
        noise_mm: standard deviation of each position coordinate (mm).
        dropout: probability that a ball on the cloth is not measured in a frame.
        phase: offset of the first frame from the timeline's start (s); ``None`` draws one.
    """

    fps: float = 30.0
    noise_mm: float = 1.0
    dropout: float = 0.02
    phase: float | None = None


def tracks_from_timeline(
    timeline: Timeline,
    noise: CameraNoise,
    rng: np.random.Generator,
    hidden: npt.NDArray[np.bool_] | None = None,
) -> Tracks:
    """Sample a timeline at frame times as a tracker would report it.

    Args:
        timeline: the truth.
        noise: frame rate and measurement degradation.
        rng: random source (noise, dropouts, frame phase).
        hidden: optional ``(F, B)`` mask of samples hidden by an occluder (``predicted``,
            at the last measured position), for tests of occlusion.
    """
    dt = 1.0 / noise.fps
    phase = float(rng.uniform(0.0, dt)) if noise.phase is None else noise.phase
    times = np.arange(timeline.times[0] + phase, timeline.duration, dt)
    truth = np.stack([timeline.positions_at(float(t)) for t in times])
    f, b = truth.shape[:2]
    on = ~np.isnan(truth).any(axis=2)
    measured = on & (rng.random((f, b)) >= noise.dropout)
    if hidden is not None:
        measured &= ~hidden[:f]
    pos = truth + rng.normal(0.0, noise.noise_mm, truth.shape)
    state = np.where(on, np.where(measured, TrackState.SEEN, TrackState.PREDICTED), TrackState.ABSENT)
    # A predicted ball sits where it was last measured (what a simple tracker reports).
    for j in range(b):
        last = np.full(2, np.nan)
        for i in range(f):
            if state[i, j] == TrackState.SEEN:
                last = pos[i, j]
            elif state[i, j] == TrackState.PREDICTED:
                pos[i, j] = last if not np.isnan(last[0]) else truth[i, j]
            else:
                pos[i, j] = np.nan
    return Tracks(
        ball_names=timeline.ball_names,
        times=times,
        position=pos,
        pixel=np.full_like(pos, np.nan),
        state=state.astype(np.int8),
    )
