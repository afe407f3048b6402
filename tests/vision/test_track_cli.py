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


def _still_clip(out: Path, width: int) -> Path:
    """One second of a broadcast view of balls at rest, ``width`` pixels wide."""
    from adjudicator.eventlog import FrameStart
    from vision.synthetic.clip import render_clip
    from vision.synthetic.conditions import broadcast
    from vision.synthetic.scenarios import scattered
    from vision.synthetic.timeline import Timeline

    balls = scattered(np.random.default_rng(1), 6)
    names = tuple(balls)
    times = np.linspace(0.0, 1.0, 3)
    pos = np.repeat(np.array([balls[n] for n in names], float)[None], len(times), axis=0)
    start = FrameStart(t=0.0, players=("A", "B"), striker=0, reds=6, positions=dict(balls))
    timeline = Timeline(names, times, pos, (start,))
    return render_clip(timeline, broadcast(width, width * 9 // 16, fps=25.0), out, f"still{width}").video


@pytest.mark.parametrize(("width", "warned"), [(320, True), (640, False)])
def test_track_warns_once_when_the_balls_are_too_small_to_referee(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], width: int, warned: bool
) -> None:
    video = _still_clip(tmp_path, width)
    assert main(["track", str(video), "--tracks", str(tmp_path / "t.csv")]) == 0
    lines = [line for line in capsys.readouterr().err.splitlines() if "warning" in line]
    assert len(lines) == (1 if warned else 0), lines
    if warned:
        assert str(video) in lines[0] and "px in radius" in lines[0]
