"""The whole-table detection run on a worker thread beside the balls' own searches.

It must change nothing: the tracks of a clip are the same with it as with every detection
run in its turn, and a detection that changes what the searches read (the cloth model, the
cluster prior) is never run ahead.
"""

from __future__ import annotations

from concurrent.futures import Future
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from vision.balls_stage import LiveBalls
from vision.detection.classical import ClassicalDetector
from vision.detection.cloth import ClothModel
from vision.detection.cluster import ClusterPrior
from vision.detection.detections import BallDetections
from vision.source import FrameSource
from vision.tracking.video import VideoTracker

SAMPLES = Path(__file__).resolve().parents[2] / "sample_videos"
#: Clips and frames replayed: the 720p break-off (balls struck, lost and found again, so
#: whole-table searches for lost balls besides the periodic ones) and the 1080p50 random clip
#: (worked on at the working width).
CLIPS = [("01_break_off.mp4", 150), ("10_random_1080p50.mp4", 80)]


def _rows(clip: str, frames: int) -> list[tuple[npt.NDArray[np.float64], ...]]:
    """Every frame's ball rows (pixels, table positions, states) of the first ``frames``."""
    src = FrameSource(str(SAMPLES / clip))
    src.open()
    balls = LiveBalls.create(src.fps)
    out: list[tuple[npt.NDArray[np.float64], ...]] = []
    for i, frame in enumerate(src.frames()):
        if i >= frames:
            break
        got = balls.update(frame)
        if got is not None:
            out.append((got.pixel, got.position, np.asarray(got.state, np.float64)))
    return out


@pytest.mark.parametrize(("clip", "frames"), CLIPS)
def test_tracks_are_the_same_with_the_detection_run_ahead(
    clip: str, frames: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Frame by frame, bit for bit, and the worker thread was used on the clip."""
    ahead = VideoTracker._whole_table_ahead
    started: list[int] = []

    def counted(self: VideoTracker, frame: npt.NDArray[np.uint8]) -> Future[BallDetections] | None:
        job = ahead(self, frame)
        started.append(job is not None)
        return job

    monkeypatch.setattr(VideoTracker, "_whole_table_ahead", counted)
    overlapped = _rows(clip, frames)
    assert sum(started) > 0
    monkeypatch.setattr(VideoTracker, "_whole_table_ahead", lambda self, frame: None)
    serial = _rows(clip, frames)
    assert len(overlapped) == len(serial) > 0
    for a, b in zip(overlapped, serial, strict=True):
        for x, y in zip(a, b, strict=True):
            np.testing.assert_array_equal(x, y)


def _model() -> ClothModel:
    z = np.zeros((4, 4), np.uint8)
    return ClothModel(np.full(3, 1 / 3), 0.01, 100.0, np.zeros(3), z, z.astype(np.float32), np.ones(4), 0.5)


@pytest.mark.parametrize(
    ("cloth", "prior", "full_frames", "refresh_every", "changes"),
    [
        (False, True, 5, 900, True),  # no cloth model yet: the detection learns one
        (True, False, 5, 900, True),  # no cluster prior yet: the detection measures one
        (True, True, 900, 900, True),  # the refresh: cloth model and prior learned afresh
        (True, True, 0, 900, True),  # (the first whole-table detection is a refresh)
        (True, True, 5, 900, False),
        (True, True, 901, 900, False),
        (True, True, 900, 0, False),  # never refreshed
    ],
)
def test_a_detection_that_changes_the_model_or_prior_is_known(
    cloth: bool, prior: bool, full_frames: int, refresh_every: int, changes: bool
) -> None:
    """Such a detection is run in its turn: the searches' ROI detections read both."""
    det = ClassicalDetector(
        cloth=_model() if cloth else None,
        prior=ClusterPrior() if prior else None,
        refresh_every=refresh_every,
        full_frames=full_frames,
    )
    assert det.changes_on_whole_table() is changes
