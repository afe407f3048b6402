"""The still test of a ball over a rest window (vision.events.buffer.still_mean).

Why: whether a stroke is over is decided by it; a ball that creeps to a stop while the tracker
re-measures it in steps must hold up the rest, and a ball at rest, jittering or carried, must not.
"""

from __future__ import annotations

import numpy as np
import pytest

from vision.events.buffer import TrackFrame, still_mean
from vision.events.config import EventConfig
from vision.tracks import TrackState

FPS = 50.0
CFG = EventConfig.derive(fps=FPS, noise_mm=1.5)


def _frames(xs: np.ndarray) -> list[TrackFrame]:
    """One ball seen at ``(x, 0)`` mm in each frame."""
    return [
        TrackFrame(
            index=k,
            t=k / FPS,
            position=np.array([[float(x), 0.0]]),
            state=np.array([TrackState.SEEN], np.int8),
        )
        for k, x in enumerate(xs)
    ]


def _steps(*levels: float) -> np.ndarray:
    """A carried ball re-measured at ``levels`` in equal runs over the rest window."""
    ends = np.linspace(0, CFG.rest_frames, len(levels) + 1).round().astype(int)
    return np.concatenate([np.full(n, v) for n, v in zip(np.diff(ends), levels, strict=True)])


CASES = [
    # (what, positions, still by the stated noise, still by its own scatter)
    ("carried at rest", np.full(CFG.rest_frames, 100.0), True, True),
    ("jittering at rest", 100.0 + np.random.default_rng(3).normal(0.0, 1.5, CFG.rest_frames), True, True),
    ("creeping 2.4 mm in two re-measured steps", _steps(100.0, 101.2, 102.4), True, False),
    ("re-measured once 1 mm on (under the floor)", _steps(100.0, 101.0), True, True),
    ("rolling 3 mm a frame", 100.0 + 3.0 * np.arange(CFG.rest_frames), False, False),
]


@pytest.mark.parametrize(("what", "xs", "stated", "own"), CASES, ids=[c[0] for c in CASES])
def test_a_ball_creeping_in_steps_is_not_still_by_its_own_scatter(
    what: str, xs: np.ndarray, stated: bool, own: bool
) -> None:
    frames = _frames(xs)
    assert (still_mean(CFG, frames, 0, min_seen=1) is not None) == stated, what
    assert (still_mean(CFG, frames, 0, min_seen=1, own_scatter=True) is not None) == own, what
