"""An object ball is not hit before the white is struck: a red a few centimetres ahead of a
white put down in hand, hit 25 ms after the stroke, keeps its contact however noisy the tracks
(a rendered 960x540@60 in-off, seed 114: FOUL AND A MISS, no ball hit)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from adjudicator.eventlog import Collision, Strike
from calibration.table import TABLE
from tests.events.scenes import simulate
from vision.events.infer import infer_tracks
from vision.events.synthetic import CameraNoise, tracks_from_timeline
from vision.tracks import Tracks

FPS = 60.0
R = TABLE.ball_radius


def _dragged(tracks: Tracks, ball: str, mm: float, before_s: float, t_strike: float) -> Tracks:
    """``ball``'s track held ``mm`` off its spot (a hand beside it) for ``before_s`` up to the
    stroke, as the player put the white down by it."""
    b = tracks.ball_names.index(ball)
    pos = tracks.position.copy()
    on = (tracks.times > t_strike - before_s) & (tracks.times < t_strike - 2.0 / FPS)
    pos[on, b, 0] -= mm
    return Tracks(tracks.ball_names, tracks.times, pos, tracks.pixel, tracks.state)


@pytest.mark.parametrize("noise", [1.0, 2.5])
@pytest.mark.parametrize("drag_mm", [0.0, 14.0])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_red_hit_just_after_the_stroke_was_hit_by_the_white(
    noise: float, drag_mm: float, seed: int
) -> None:
    red = np.array([600.0, 1000.0])
    white = red + np.array([2.0 * R + 35.0, 0.0])
    t_strike = 1.5
    timeline = simulate(
        {"white": tuple(white), "red1": tuple(red)}, (-1500.0, 0.0), t_strike=t_strike, tail=1.5
    )
    tracks = tracks_from_timeline(
        timeline, CameraNoise(fps=FPS, noise_mm=noise, dropout=0.0), np.random.default_rng(seed)
    )
    events = infer_tracks(_dragged(tracks, "red1", drag_mm, 1.0, t_strike), noise_mm=noise)
    strikes = [e.t for e in events if isinstance(e, Strike)]
    hits = [e for e in events if isinstance(e, Collision)]
    assert len(strikes) == 1
    assert [e.balls for e in hits][:1] == [("white", "red1")]
    assert strikes[0] < hits[0].t < strikes[0] + 3.0 / FPS
    assert math.isfinite(hits[0].t)
