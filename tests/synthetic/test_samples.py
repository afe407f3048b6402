"""The committed sample clips (``sample_videos/``): valid truth, consistent tracks, decodable
video of the right size. These read the committed files; they never re-render.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import cv2
import numpy as np
import pytest

from adjudicator.eventlog import InputEvent, OffTable, Place, Pot, Rest, read_events
from calibration.table import TABLE
from vision.synthetic.cover import read_cover_csv
from vision.synthetic.samples_cli import MAX_BYTES, SAMPLES, Sample
from vision.tracks import Tracks, TrackState

ROOT = Path(__file__).resolve().parents[2] / "sample_videos"
IDS = [s.name for s in SAMPLES]


def _files(sample: Sample) -> dict[str, Path]:
    base = ROOT / sample.name
    return {
        k: Path(f"{base}{ext}")
        for k, ext in (
            ("video", ".mp4"),
            ("truth", ".truth.jsonl"),
            ("tracks", ".tracks.csv"),
            ("camera", ".camera.json"),
            ("cover", ".cover.csv"),
        )
    }


def _events(sample: Sample) -> list[InputEvent]:
    path = _files(sample)["truth"]
    return list(read_events(path.read_text().splitlines(), str(path)))


def test_at_least_eight_samples_listed_in_readme() -> None:
    readme = (ROOT / "README.md").read_text()
    assert len(SAMPLES) >= 8
    for s in SAMPLES:
        assert s.name in readme, f"{s.name} missing from sample_videos/README.md"


@pytest.mark.parametrize("sample", SAMPLES, ids=IDS)
def test_files_present_and_small(sample: Sample) -> None:
    for path in _files(sample).values():
        assert path.is_file(), f"missing {path}"
    assert _files(sample)["video"].stat().st_size <= MAX_BYTES


@pytest.mark.parametrize("sample", SAMPLES, ids=IDS)
def test_truth_log_validates(sample: Sample) -> None:
    events = _events(sample)
    assert events[0].type == "frame_start"
    assert any(e.type == "strike" for e in events)


@pytest.mark.parametrize("sample", SAMPLES, ids=IDS)
def test_positions_inside_playing_area(sample: Sample) -> None:
    """Every ball on the cloth has its centre on the bed; within a ball radius of a cushion
    only in a pocket's mouth, where a dropping ball crosses the cushion line."""
    tracks = Tracks.from_csv(_files(sample)["tracks"])
    seen = tracks.state == int(TrackState.SEEN)
    xy = tracks.position[seen]
    assert not np.isnan(xy).any()
    r = TABLE.ball_radius
    assert np.all((xy[:, 0] >= -r) & (xy[:, 0] <= TABLE.length + r))
    assert np.all((xy[:, 1] >= -r) & (xy[:, 1] <= TABLE.width + r))
    off_bed = ~(
        (xy[:, 0] >= r - 0.5)
        & (xy[:, 0] <= TABLE.length - r + 0.5)
        & (xy[:, 1] >= r - 0.5)
        & (xy[:, 1] <= TABLE.width - r + 0.5)
    )
    corners = np.array([p.corner for p in TABLE.pockets.values()])
    near = np.min(np.hypot(*(xy[off_bed, None, :] - corners[None]).transpose(2, 0, 1)), axis=1)
    assert np.all(near <= 2.5 * TABLE.ball_diameter)


@pytest.mark.parametrize("sample", SAMPLES, ids=IDS)
def test_cover_only_on_balls_on_the_cloth(sample: Sample) -> None:
    """The people cover only balls the tracks have on the cloth, and only while someone is at
    the table: the cover truth belongs to these very tracks."""
    tracks = Tracks.from_csv(_files(sample)["tracks"])
    cover = read_cover_csv(_files(sample)["cover"], tracks.ball_names, len(tracks.times))
    assert np.all(cover[tracks.state != int(TrackState.SEEN)] == 0.0)
    assert np.all((cover >= 0.0) & (cover <= 1.0))


@pytest.mark.parametrize("sample", SAMPLES, ids=IDS)
def test_frames_agree_with_events(sample: Sample) -> None:
    """A potted ball leaves the per-frame positions at its pot time and comes back only when
    placed, where it was placed; at each rest the tracks hold the rest positions."""
    tracks = Tracks.from_csv(_files(sample)["tracks"])
    events = _events(sample)
    col = {b: j for j, b in enumerate(tracks.ball_names)}
    times = tracks.times
    half = 0.5 / tracks.fps
    for k, e in enumerate(events):
        if isinstance(e, Pot | OffTable):
            j = col[e.ball]
            back = next((x.t for x in events[k:] if isinstance(x, Place) and x.ball == e.ball), math.inf)
            before = times < e.t - 1e-3
            after = (times > e.t + 1e-3) & (times < back - 1e-3)
            assert tracks.state[before, j][-1:].tolist() in ([int(TrackState.SEEN)], [])
            assert np.all(tracks.state[after, j] == int(TrackState.ABSENT)), f"{e.ball} seen after {e}"
        elif isinstance(e, Place):
            j = col[e.ball]
            i = int(np.searchsorted(times, e.t + 1e-6))
            if i < len(times):
                assert tracks.state[i, j] == int(TrackState.SEEN)
                np.testing.assert_allclose(tracks.position[i, j], e.position, atol=0.05)
        elif isinstance(e, Rest):
            i = int(np.searchsorted(times, e.t + half))
            if i >= len(times):
                continue
            for ball, xy in e.positions.items():
                np.testing.assert_allclose(tracks.position[i, col[ball]], xy, atol=0.5)
            on = {tracks.ball_names[j] for j in np.nonzero(tracks.state[i] == int(TrackState.SEEN))[0]}
            assert on == set(e.positions), f"rest at {e.t}: tracks {sorted(on)} vs log"


@pytest.mark.parametrize("sample", SAMPLES, ids=IDS)
def test_video_decodes_to_truth_size(sample: Sample) -> None:
    files = _files(sample)
    camera = json.loads(files["camera"].read_text())
    tracks = Tracks.from_csv(files["tracks"])
    cap = cv2.VideoCapture(str(files["video"]))
    w, h = camera["image_size"]
    assert (int(cap.get(cv2.CAP_PROP_FRAME_WIDTH)), int(cap.get(cv2.CAP_PROP_FRAME_HEIGHT))) == (w, h)
    assert (w, h) in ((1280, 720), (1920, 1080))
    count = 0
    while cap.grab():
        count += 1
    assert count == len(tracks.times) == camera["frames"]
    # The truth pixels are the camera's projection of the truth millimetres.
    from calibration.camera import Camera

    cam = Camera.from_dict(camera)
    seen = tracks.state == int(TrackState.SEEN)
    proj = cam.project(tracks.position[seen], TABLE.ball_radius)
    np.testing.assert_allclose(proj, tracks.pixel[seen], atol=0.02)
