"""Tracks container and its CSV round trip."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from calibration.errors import BaulklineError
from vision.tracks import Tracks, TrackState


def _tracks() -> Tracks:
    times = np.array([0.0, 0.04])
    pos = np.array([[[100.0, 200.0], [np.nan, np.nan]], [[110.0, 205.5], [300.0, 400.0]]])
    pix = pos * 0.3
    state = np.array([[1, 0], [2, 1]], dtype=np.int8)
    return Tracks(("white", "red1"), times, pos, pix, state)


def test_csv_round_trip(tmp_path: Path) -> None:
    tracks = _tracks()
    path = tmp_path / "t.csv"
    tracks.to_csv(path)
    again = Tracks.from_csv(path)
    assert again.ball_names == tracks.ball_names
    np.testing.assert_allclose(again.position, tracks.position, atol=0.01)
    np.testing.assert_array_equal(again.state, tracks.state)
    assert TrackState(int(again.state[1, 0])) is TrackState.PREDICTED


def test_shape_is_validated() -> None:
    with pytest.raises(ValueError, match=r"position must have shape \(2, 2, 2\)"):
        Tracks(("a", "b"), np.zeros(2), np.zeros((2, 3, 2)), np.zeros((2, 2, 2)), np.zeros((2, 2), np.int8))


def test_bad_row_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.csv"
    path.write_text(
        "frame,t,ball,x_mm,y_mm,u_px,v_px,state\n0,0.0,white,1,2,3,4,seen\n1,x,white,,,,,absent\n"
    )
    with pytest.raises(BaulklineError, match=r"bad.csv:3:"):
        Tracks.from_csv(path)
