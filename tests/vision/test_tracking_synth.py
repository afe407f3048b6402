"""tracking_synth's recall counts visible balls only (issue 5: "recall ... on VISIBLE balls")."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from benchmarks.tracking_synth import MAX_COVERED, load_cover, visible_balls
from vision.synthetic.cover import write_cover_csv
from vision.tracks import Tracks, TrackState


@pytest.mark.parametrize(
    ("on_cloth", "cover", "counted"),
    [
        (True, 0.0, True),
        (True, MAX_COVERED, True),  # half hidden: still visible
        (True, MAX_COVERED + 0.001, False),
        (True, 1.0, False),  # under the player's body
        (False, 0.0, False),  # potted
        (True, None, True),  # no cover truth: every ball on the cloth
        (False, None, False),
    ],
)
def test_visible_filter(on_cloth: bool, cover: float | None, counted: bool) -> None:
    got = visible_balls(np.array([[on_cloth]]), None if cover is None else np.array([[cover]]))
    assert bool(got[0, 0]) is counted


def _truth(frames: int) -> Tracks:
    names = ("white", "red1")
    pos = np.full((frames, 2, 2), 500.0)
    state = np.full((frames, 2), int(TrackState.SEEN), np.int8)
    return Tracks(names, np.arange(frames) / 30.0, pos, pos.copy(), state)


def test_load_cover_reads_the_clips_file(tmp_path: Path) -> None:
    truth = _truth(3)
    write_cover_csv(tmp_path / "clip.cover.csv", truth.ball_names, np.array([[0, 0], [0, 1.0], [0.3, 0]]))
    cover = load_cover("clip", truth, tmp_path)
    assert cover is not None
    vis = visible_balls(truth.state == int(TrackState.SEEN), cover)
    assert vis.tolist() == [[True, True], [True, False], [True, True]]


def test_missing_cover_falls_back_with_a_note(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert load_cover("clip", _truth(2), tmp_path) is None
    assert "no clip.cover.csv" in capsys.readouterr().out
