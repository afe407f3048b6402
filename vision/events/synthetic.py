"""Tracks a camera would give of a simulated timeline: the development data of event inference.

A :class:`~vision.synthetic.timeline.Timeline` holds the true positions densely in time;
sampling it at frame times (with a random phase, so contacts fall anywhere between frames),
adding the tracker's Gaussian noise and dropping random samples (the state becomes
``predicted``, as a tracker reports a ball it did not measure) gives the :class:`Tracks`
the event inferer must turn back into the timeline's true event log.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from adjudicator.eventlog import FrameStart, InputEvent, Rest
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


def shot_timeline(
    ball_names: tuple[str, ...],
    times: FloatArray,
    positions: FloatArray,
    events: tuple[InputEvent, ...],
    touching: tuple[tuple[str, str], ...] = (),
    lead_s: float = 0.6,
    tail_s: float = 1.0,
) -> Timeline:
    """One simulated stroke (times from the strike at 0) as a timeline with still lead-in and
    tail, starting with a ``frame_start`` and ending with the true ``rest``.

    Args:
        ball_names: columns of ``positions``.
        times: ``(T,)`` stroke sample times, the strike at 0.
        positions: ``(T, B, 2)``; NaN from a ball's pot on.
        events: the stroke's true events (strike, contacts, pots), stroke-local times.
        touching: pairs touching at rest.
        lead_s: still time before the strike (the camera sees the position first).
        tail_s: still time after the last ball stopped.
    """
    step = 0.01
    pre_t = np.arange(0.0, lead_s, step)
    stroke_t = np.asarray(times, dtype=np.float64) + lead_s
    post_t = stroke_t[-1] + np.arange(step, tail_s, step)
    first, last = positions[0], positions[-1]
    all_t = np.concatenate([pre_t, stroke_t, post_t])
    all_p = np.concatenate(
        [np.repeat(first[None], len(pre_t), 0), positions, np.repeat(last[None], len(post_t), 0)]
    )
    start = {n: (float(first[j, 0]), float(first[j, 1])) for j, n in enumerate(ball_names)}
    on = [j for j in range(len(ball_names)) if not np.isnan(last[j, 0])]
    final = {ball_names[j]: (float(last[j, 0]), float(last[j, 1])) for j in on}
    log: list[InputEvent] = [FrameStart(t=0.0, players=("Player 1", "Player 2"), striker=0, positions=start)]
    log.extend(dataclasses.replace(e, t=e.t + lead_s) for e in events)
    log.append(Rest(t=float(stroke_t[-1]), positions=final, touching=touching or None))
    return Timeline(tuple(ball_names), all_t, all_p, tuple(log))
