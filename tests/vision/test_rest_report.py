"""A resting ball searched by its colour is reported at its rest spot while it stays there."""

from __future__ import annotations

import json

import numpy as np
import pytest

from benchmarks.tracking_synth import SAMPLES
from calibration.calibrate import Calibration
from calibration.camera import Camera
from vision.balls_stage import LiveBalls
from vision.detection.detections import BallDetections
from vision.source import FrameSource
from vision.tracking.rest_report import (
    CONFIRM_FRAMES,
    CONFIRM_RADII,
    OFFSET_RADII,
    at_rest,
    confirm,
    search_offset,
)
from vision.tracking.schedule import ScheduleConfig
from vision.tracking.tracker import Tracker, TrackerState
from vision.tracks import Tracks

R = 10.0
NAN = float("nan")


@pytest.mark.parametrize(
    ("blobs", "expected"),
    [
        ([(100.0, 103.0)], (0.0, 3.0)),  # the search's shadow-side offset
        ([(100.0, 103.0), (120.0, 100.0)], (0.0, 3.0)),  # a neighbour's blob is not it
        ([(101.0, 97.0), (99.0, 104.0)], (1.0, -3.0)),  # the nearest blob
        ([(100.0, 100.0 + OFFSET_RADII * R + 0.5)], (NAN, NAN)),  # too far: not its own blob
        ([], (NAN, NAN)),  # not found
    ],
)
def test_search_offset_is_the_nearest_blob_within_reach(
    blobs: list[tuple[float, float]], expected: tuple[float, float]
) -> None:
    found = BallDetections.build(np.array(blobs).reshape(-1, 2), np.full(len(blobs), R))
    got = search_offset(found, np.array([100.0, 100.0]), R)
    np.testing.assert_allclose(got, expected, equal_nan=True)


# Each case: tracked position minus (spot + offset), the spot and the offset known, eligible.
@pytest.mark.parametrize(
    ("away", "spot_known", "offset_known", "eligible", "expected"),
    [
        ((0.0, 0.0), True, True, True, True),  # where its search put it at rest
        ((0.9 * CONFIRM_RADII * R, 0.0), True, True, True, True),  # the offset drifting a little
        ((0.0, -1.1 * CONFIRM_RADII * R), True, True, True, False),  # moved: reported as tracked
        ((3.0, 3.0), True, True, True, False),  # struck
        ((0.0, 0.0), False, True, True, False),  # no rest spot (left it)
        ((0.0, 0.0), True, False, True, False),  # the offset never measured
        ((0.0, 0.0), True, True, False, False),  # carried, the cue ball, unseen
    ],
)
def test_at_rest_while_the_track_stays_where_the_search_put_it(
    away: tuple[float, float], spot_known: bool, offset_known: bool, eligible: bool, expected: bool
) -> None:
    spot = np.array([[200.0, 100.0]]) if spot_known else np.full((1, 2), np.nan)
    offset = np.array([[0.5, 3.0]]) if offset_known else np.full((1, 2), np.nan)
    pos = np.array([[200.5, 103.0]]) + np.array(away)
    got = at_rest(pos, spot, offset, np.array([R]), np.array([eligible]))
    assert bool(got[0]) is expected


# Each case: at rest (at_rest) frame by frame; reported at the spot frame by frame.
@pytest.mark.parametrize(
    ("rests", "reported"),
    [
        (
            [True] * (CONFIRM_FRAMES + 2),
            [False] * CONFIRM_FRAMES + [True, True],
        ),  # its first searched frame(s) as tracked
        (
            [True, False] + [True] * (CONFIRM_FRAMES + 1),
            [False] * (CONFIRM_FRAMES + 2) + [True],
        ),  # a step: counted anew
        ([False] * 3, [False] * 3),
    ],
)
def test_a_rest_is_reported_once_confirmed(rests: list[bool], reported: list[bool]) -> None:
    run = np.zeros(1, np.int64)
    got = []
    for r in rests:
        run, rows = confirm(run, np.array([r]))
        got.append(bool(rows[0]))
    assert got == reported


@pytest.mark.parametrize("rows", [[True, False], [False, True], [False, False]])
def test_report_changes_the_recorded_rows_not_the_state(rows: list[bool]) -> None:
    pos = np.array([[100.0, 100.0], [200.0, 100.0]])
    tracker = Tracker(TrackerState.seed(["a", "b"], pos, np.full(2, R)), fps=30.0)
    tracker.update()
    state = tracker.state
    spot = pos + np.array([[0.0, -3.0], [1.0, 1.0]])
    tracker.report(np.array(rows), spot)
    px = tracker.tracks().pixel[-1]
    np.testing.assert_allclose(px, np.where(np.array(rows)[:, None], spot, pos))
    np.testing.assert_allclose(tracker.state.pos, state.pos)


@pytest.mark.parametrize(("ball", "first", "last"), [("red4", 110, 135), ("red1", 136, 158)])
def test_reds_the_white_rolls_past_are_reported_on_their_spots_on_sample_05(
    ball: str, first: int, last: int
) -> None:
    """05_touching: while the white rolls past them, red4 and then red1 are searched by colour
    frame after frame, which put them 3 px (18-22 mm) towards their shadows; they are reported
    on their rest spots (measured by the detector), within a tenth of a radius of the truth,
    but in the first frame of each search."""
    name = "05_touching"
    truth = Tracks.from_csv(SAMPLES / f"{name}.tracks.csv")
    camera = Camera.from_dict(json.loads((SAMPLES / f"{name}.camera.json").read_text()))
    src = FrameSource(str(SAMPLES / f"{name}.mp4"))
    balls = LiveBalls(
        fps=src.fps, fixed=Calibration.from_camera(camera), schedule=ScheduleConfig().at_fps(src.fps)
    )
    errors = []
    k = -1
    for frame in src.frames():
        out = balls.update(frame)
        if out is None or frame.index < first:
            continue
        if frame.index > last:
            break
        at = out.pixel[out.names.index(ball)]
        if k < 0:  # (the tracker names the reds in its own order: the true red it is on)
            k = int(np.nanargmin(np.linalg.norm(truth.pixel[frame.index] - at, axis=1)))
        errors.append(float(np.linalg.norm(at - truth.pixel[frame.index, k])))
    assert len(errors) == last - first + 1
    # Only a search's first frame (the ball carried at rest before it) is reported as tracked.
    off = [e for e in errors if e >= 0.1 * balls.ball_radius_px]
    assert len(off) <= 3, errors
