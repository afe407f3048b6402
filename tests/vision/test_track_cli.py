"""``baulkline track`` end to end on a few frames of real footage, and its input errors."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.cli import main
from vision.tracks import Tracks, TrackState


@pytest.mark.footage
def test_track_writes_tracks_csv(footage: Path, tmp_path: Path) -> None:
    out = tmp_path / "t.csv"
    status = main(["track", str(footage / "Task3" / "1.mp4"), "--tracks", str(out), "--max-frames", "12"])
    assert status == 0
    tracks = Tracks.from_csv(out)
    assert len(tracks.times) == 12
    assert {"white", "blue", "black"} <= set(tracks.ball_names)
    blue = tracks.ball_names.index("blue")
    # The blue rests on its spot through this clip's first frames (about pixel 638, 278).
    assert np.all(tracks.state[:, blue] == TrackState.SEEN)
    np.testing.assert_allclose(tracks.pixel[:, blue], [[638.0, 278.5]] * 12, atol=4)


def test_track_missing_video_is_one_line_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["track", str(tmp_path / "nope.mp4")])
    assert status != 0
    err = capsys.readouterr().err.strip()
    assert "nope.mp4" in err and "\n" not in err
