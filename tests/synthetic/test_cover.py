"""The people-cover truth (``NAME.cover.csv``): how much of a ball the renderer's people hide.

Small frames (640x360: a ball about 5 px across) and hand-placed capsules, so the file runs in about a second.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from calibration.errors import BaulklineError
from calibration.table import TABLE
from vision.synthetic.conditions import broadcast
from vision.synthetic.cover import covered_shares, people_mask, read_cover_csv, write_cover_csv
from vision.synthetic.occluders import SKIN, Capsule
from vision.synthetic.render import BallPainter, cast_rays

_COND = broadcast(640, 360)
_PAINTER = BallPainter(_COND, cast_rays(_COND))
_BALL = (1800.0, 900.0)
_R = TABLE.ball_radius


def _share(capsules: list[Capsule]) -> float:
    mask = people_mask(_COND.camera, (_COND.width, _COND.height), capsules) if capsules else None
    return float(covered_shares(_PAINTER, ("red1",), np.array([_BALL]), mask)[0])


@pytest.mark.parametrize(
    ("capsules", "low", "high"),
    [
        # A forearm-thick capsule lying right over the ball: all of it hidden.
        (
            [Capsule((_BALL[0] - 300, _BALL[1], 2 * _R), (_BALL[0] + 300, _BALL[1], 2 * _R), 80, 80, SKIN)],
            0.99,
            1.0,
        ),
        # No one at the table.
        ([], 0.0, 0.0),
        # A hand at the far end of the table: the ball is not touched.
        ([Capsule((3000.0, 300.0, 50.0), (3100.0, 300.0, 50.0), 45, 40, SKIN)], 0.0, 0.0),
        # A long capsule along the table at ball-centre height, as far to the side as its
        # radius, so its edge runs through the ball's centre: half (to the drawing's
        # whole-pixel thickness; the table's width is not foreshortened in the broadcast view).
        (
            [
                Capsule(
                    (_BALL[0] - 600, _BALL[1] + 150, _R), (_BALL[0] + 600, _BALL[1] + 150, _R), 150, 150, SKIN
                )
            ],
            0.4,
            0.6,
        ),
    ],
    ids=["over", "none", "away", "half"],
)
def test_covered_share_of_a_ball(capsules: list[Capsule], low: float, high: float) -> None:
    assert low <= _share(capsules) <= high


@pytest.mark.parametrize(
    ("side", "expected"),
    [("left", 0.5), ("all", 1.0), ("nothing", 0.0)],
)
def test_covered_share_is_the_silhouettes_share_under_the_mask(side: str, expected: float) -> None:
    """A mask covering the image left of the ball's true pixel hides half its (symmetric) disc
    (pixel ``k`` spans ``k - 0.5`` to ``k + 0.5``, as the renderer's rays)."""
    u = _COND.camera.project(np.array([_BALL]), _R)[0][0]
    mask = np.zeros((_COND.height, _COND.width), np.float32)
    if side == "left":
        k = round(u)
        mask[:, :k] = 1.0
        mask[:, k] = u - (k - 0.5)
    elif side == "all":
        mask[:] = 1.0
    got = covered_shares(_PAINTER, ("red1",), np.array([_BALL]), mask)
    assert got[0] == pytest.approx(expected, abs=0.03)


def test_a_ball_off_the_cloth_has_no_share() -> None:
    mask = np.ones((_COND.height, _COND.width), np.float32)
    got = covered_shares(_PAINTER, ("red1", "red2"), np.array([[np.nan, np.nan], _BALL]), mask)
    assert np.isnan(got[0]) and got[1] == pytest.approx(1.0)


def test_cover_csv_round_trip(tmp_path: Path) -> None:
    names = ("white", "red1", "red2")
    cover = np.array([[0.0, 0.25, np.nan], [1.0, 0.0001, 0.6666]])
    path = tmp_path / "c.cover.csv"
    write_cover_csv(path, names, cover)
    back = read_cover_csv(path, names, 2)
    np.testing.assert_allclose(back, [[0.0, 0.25, 0.0], [1.0, 0.0, 0.667]])
    # Only covered balls have rows.
    assert len(path.read_text().splitlines()) == 1 + 3


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("frame,ball\n", ":1:"),
        ("frame,ball,covered\n0,pink,0.5\n", ":2:"),
        ("frame,ball,covered\n5,red1,0.5\n", ":2:"),
        ("frame,ball,covered\n0,red1,1.5\n", ":2:"),
    ],
    ids=["header", "unknown-ball", "frame-out-of-range", "share-over-one"],
)
def test_bad_cover_csv_names_the_line(tmp_path: Path, text: str, needle: str) -> None:
    path = tmp_path / "bad.cover.csv"
    path.write_text(text)
    with pytest.raises(BaulklineError, match=needle):
        read_cover_csv(path, ("white", "red1"), 2)


@pytest.mark.parametrize("tracks_changed", [False, True], ids=["same-tracks", "changed-tracks"])
def test_cover_only_rewrites_a_committed_samples_cover(tmp_path: Path, tracks_changed: bool) -> None:
    """``baulkline samples --cover-only`` gives the committed cover again from the committed
    tracks alone, and refuses (writing nothing) when the tracks are not the timeline's."""
    from vision.cli import main

    root = Path(__file__).resolve().parents[2] / "sample_videos"
    name = "05_touching"
    tracks = (root / f"{name}.tracks.csv").read_bytes().decode()  # (keeps the CSV's \r\n)
    if tracks_changed:  # the first ball 0.01 mm elsewhere in the first frame
        lines = tracks.splitlines(keepends=True)
        row = lines[1].split(",")
        row[3] = f"{float(row[3]) + 0.01:.2f}"
        lines[1] = ",".join(row)
        tracks = "".join(lines)
    (tmp_path / f"{name}.tracks.csv").write_bytes(tracks.encode())
    status = main(["samples", "--out", str(tmp_path), "--cover-only", "--only", name])
    written = tmp_path / f"{name}.cover.csv"
    if tracks_changed:
        assert status != 0 and not written.exists()
    else:
        assert status == 0 and written.read_bytes() == (root / f"{name}.cover.csv").read_bytes()


def test_a_cached_render_without_cover_gets_its_cover_and_keeps_its_video(tmp_path: Path) -> None:
    """The renders bench adds the cover truth to a clip cached before it existed, from the
    timeline alone: the video (minutes to render at 1080p60) is neither rendered nor touched."""
    from benchmarks.referee_renders import Render, render
    from vision.synthetic.clip import frame_times, truth_tracks
    from vision.synthetic.scenarios import simulate_sequence

    clip = Render("touching", 101, 320, 180, 30.0, "broadcast", 2.0)
    cond = broadcast(clip.width, clip.height, clip.fps)
    timeline = simulate_sequence(clip.scenario, clip.seed)
    times = frame_times(timeline, cond.fps)
    times = times[times <= clip.max_seconds]
    truth_tracks(timeline, cond, times).to_csv(tmp_path / f"{clip.name}.tracks.csv")
    video = tmp_path / f"{clip.name}.mp4"
    video.write_bytes(b"cached video")
    (tmp_path / f"{clip.name}.truth.jsonl").write_text("")

    assert render(clip, tmp_path) == video
    assert video.read_bytes() == b"cached video"
    cover = read_cover_csv(tmp_path / f"{clip.name}.cover.csv", timeline.ball_names, len(times))
    assert cover.shape == (len(times), len(timeline.ball_names))
    assert np.nanmax(cover) > 0.0  # the player's cue and hand do cover a ball while addressing it
