"""The tracking stack's per-frame gains and gates, kept in physical rates at any frame rate."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from calibration.table import Colour
from vision.detection.detections import COLOURS, BallDetections
from vision.tracking.motion import REFERENCE_FPS, MotionConfig
from vision.tracking.schedule import ScheduleConfig
from vision.tracking.tracker import TrackerConfig, TrackerState, step
from vision.tracks import TrackState

BLUE = COLOURS.index(Colour.BLUE)


def test_reference_rate_changes_nothing() -> None:
    assert MotionConfig().at_fps(REFERENCE_FPS) == MotionConfig()
    assert TrackerConfig().at_fps(REFERENCE_FPS) == TrackerConfig()
    assert ScheduleConfig().at_fps(REFERENCE_FPS) == ScheduleConfig()


@given(fps=st.sampled_from([25.0, 50.0, 60.0, 120.0]), seconds=st.floats(0.05, 2.0))
def test_rates_per_second_are_kept(fps: float, seconds: float) -> None:
    """Over the same stretch of time, a hidden ball's velocity decays and its gate grows by the
    same amounts whatever the frame rate."""
    ref, cfg = MotionConfig(), MotionConfig().at_fps(fps)
    n_ref, n = seconds * REFERENCE_FPS, seconds * fps
    assert cfg.unseen_decay**n == pytest.approx(ref.unseen_decay**n_ref)
    assert cfg.gate_growth * n == pytest.approx(ref.gate_growth * n_ref)
    assert cfg.gate_growth_rest * n == pytest.approx(ref.gate_growth_rest * n_ref)
    # Speeds per frame: a ball at the "moving" threshold moves as far per second.
    assert cfg.moving_radii[0] * fps == pytest.approx(ref.moving_radii[0] * REFERENCE_FPS)


@pytest.mark.parametrize(
    ("fps", "absent_after", "full_every", "lost_every"),
    [(30.0, 45, 30, 3), (60.0, 90, 60, 6), (50.0, 75, 50, 5)],
)
def test_frame_counts_follow_the_rate(
    fps: float, absent_after: int, full_every: int, lost_every: int
) -> None:
    assert TrackerConfig().at_fps(fps).absent_after == absent_after
    sch = ScheduleConfig().at_fps(fps)
    assert (sch.full_every, sch.lost_every) == (full_every, lost_every)


def _rolling_blue(unseen: int) -> TrackerState:
    st0 = TrackerState.seed(["blue"], np.array([[400.0, 100.0]]), np.full(1, 10.0), colour=np.array([BLUE]))
    return replace(
        st0,
        vel=np.array([[-3.0, -1.0]]),
        state=np.array([TrackState.PREDICTED], np.int8),
        unseen=np.array([unseen]),
    )


@pytest.mark.parametrize(("offset", "taken"), [((-20.0, -5.0), True), ((-100.0, 180.0), False)])
def test_lost_rolling_ball_is_taken_only_within_its_reach(offset: tuple[float, float], taken: bool) -> None:
    """A blue lost while rolling is found again near its line, not 200 px away in a pocket's
    shade (re-acquired by colour anywhere, it was potted there)."""
    state = _rolling_blue(unseen=5)
    det = BallDetections.build(
        np.array([[400.0 + offset[0], 100.0 + offset[1]]]), np.full(1, 10.0), colour=np.array([BLUE])
    )
    out = step(state, det)
    assert bool(out.state[0] == TrackState.SEEN) is taken
