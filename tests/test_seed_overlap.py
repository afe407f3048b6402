"""Seeding with the first frame's cloth learned on a worker thread while it is calibrated.

The seed must be the one learned in turn: the same cloth model, the same tracks, whether the
first frame calibrates (the guess is used) or not (the guess is dropped, the seed frame learns
its own).
"""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from vision.balls_stage import LiveBalls
from vision.detection.classical import ClassicalDetector
from vision.source import Frame, FrameSource
from vision.tracking.bed import fall_pixels
from vision.tracking.detection_sets import region_mask
from vision.tracking.tracker import Tracker
from vision.tracking.video import VideoTracker

CLIP = Path(__file__).resolve().parents[1] / "sample_videos" / "05_touching.mp4"
FRAMES = 40


def _frames(blank_first: bool) -> list[Frame]:
    """The clip's first frames, after a frame of bare floor that calibrates to nothing."""
    src = FrameSource(str(CLIP))
    out: list[Frame] = []
    for i, frame in enumerate(src.frames()):
        if i >= FRAMES:
            break
        out.append(frame)
    if blank_first:
        blank = np.full_like(out[0].image, 40)
        out = [Frame(0, 0.0, blank)] + [Frame(f.index + 1, f.t, f.image, f.small, f.thumb) for f in out]
    return out


def _rows(frames: list[Frame], guess: bool) -> tuple[LiveBalls, list[tuple[npt.NDArray[np.float64], ...]]]:
    balls = LiveBalls.create(30.0)
    balls._guessed = not guess  # (set: no guess is made)
    rows = []
    for frame in frames:
        got = balls.update(frame)
        if got is not None:
            rows.append((got.pixel, got.position, np.asarray(got.state, np.float64)))
    return balls, rows


@pytest.mark.parametrize("blank_first", [False, True])
def test_tracks_are_the_same_with_the_cloth_learned_ahead(blank_first: bool) -> None:
    frames = _frames(blank_first)
    ahead, with_guess = _rows(frames, guess=True)
    _, in_turn = _rows(frames, guess=False)
    assert ahead._guessed
    assert len(with_guess) == len(in_turn) > 0
    for a, b in zip(with_guess, in_turn, strict=True):
        for x, y in zip(a, b, strict=True):
            np.testing.assert_array_equal(x, y)


def test_the_cloth_learned_on_the_worker_is_the_detectors() -> None:
    """Field by field, the model learned on the worker thread is ``ClassicalDetector.learn``'s."""
    stage = LiveBalls.create(30.0)
    image = stage.working(_frames(False)[0])
    got = stage._learning(0, image).result()
    want = ClassicalDetector().learn(image)
    for f in fields(want):
        a, b = getattr(got, f.name), getattr(want, f.name)
        if a is None or b is None:
            assert a is b, f.name
        else:
            np.testing.assert_array_equal(np.asarray(a), np.asarray(b), err_msg=f.name)


def test_the_surface_made_on_the_worker_is_the_video_trackers() -> None:
    """The playing surface's mask, cushions and edge distance made on the worker while the seed
    frame is detected are what the video tracker makes of the cloth's region itself."""
    stage, rows = _rows(_frames(False), guess=True)
    assert rows and stage._video is not None
    video = stage._video
    assert video.region is not None and video.tracker.cushions is not None and video._edge is not None
    cloth = stage.detector.cloth
    assert cloth is not None
    region = region_mask(cloth.region, video.region.shape)
    # (The searches' mask leaves the pockets' holes out; the cushions and edge are the surface's.)
    cal = stage.calibration
    assert cal is not None
    falls = fall_pixels(lambda xy: cal.table_to_pixels(xy, 0.0), region.shape)
    np.testing.assert_array_equal(video.region, region & ~falls)
    own = VideoTracker(stage.detector, Tracker(video.tracker.state), region=region)
    assert own.tracker.cushions is not None and own._edge is not None
    np.testing.assert_array_equal(video._edge, own._edge)
    np.testing.assert_array_equal(video.tracker.cushions.distance, own.tracker.cushions.distance)
    np.testing.assert_array_equal(video.tracker.cushions.grad, own.tracker.cushions.grad)
