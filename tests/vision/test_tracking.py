"""Tracker identities on synthetic point trajectories (table-driven), plus invariance properties."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calibration.table import Colour
from vision.detection.detections import COLOURS, BallDetections
from vision.tracking.tracker import Tracker, TrackerState, name_balls
from vision.tracks import TrackState

R = 10.0
RED, WHITE, BLUE, PINK = (COLOURS.index(c) for c in (Colour.RED, Colour.WHITE, Colour.BLUE, Colour.PINK))


def _line(p0: tuple[float, float], v: tuple[float, float], frames: int, start: int = 0) -> np.ndarray:
    """Positions of a ball resting at p0 until ``start``, then moving at v pixels/frame."""
    t = np.clip(np.arange(frames) - start, 0, None)[:, None]
    return np.asarray(p0) + t * np.asarray(v)


def _run(traj: np.ndarray, colours: list[int], hidden: np.ndarray | None = None, seed: int = 0) -> Tracker:
    """Feed the tracker detections made from ``traj`` (F, B, 2), shuffled, minus hidden ones."""
    rng = np.random.default_rng(seed)
    f, b, _ = traj.shape
    names = name_balls(np.array(colours))
    tracker = Tracker(TrackerState.seed(names, traj[0], np.full(b, R), colour=np.array(colours)))
    for i in range(1, f):
        vis = np.ones(b, bool) if hidden is None else ~hidden[i]
        idx = rng.permutation(np.flatnonzero(vis))
        det = BallDetections.build(traj[i, idx], np.full(len(idx), R), colour=np.array(colours)[idx])
        tracker.update(det)
    return tracker


def _assert_follows(
    tracker: Tracker, traj: np.ndarray, hidden: np.ndarray | None = None, tol: float = R
) -> None:
    tracks = tracker.tracks()
    seen = tracks.state == TrackState.SEEN
    err = np.linalg.norm(tracks.pixel - traj[1:], axis=2)
    assert np.all(err[seen] < tol), (
        f"identity lost: max error {np.nanmax(np.where(seen, err, np.nan)):.1f} px"
    )
    if hidden is not None:
        assert np.all(tracks.state[hidden[1:]] == TrackState.PREDICTED)


CASES = {
    # A cue ball struck at ~100 px/frame (10 m/s at 30 fps) past resting balls.
    "fast_ball": (
        np.stack(
            [_line((100, 300), (95, 4), 10, 2), _line((400, 250), (0, 0), 10), _line((700, 360), (0, 0), 10)],
            1,
        ),
        [WHITE, RED, RED],
        None,
    ),
    # Two reds crossing on almost the same line, at 15 px/frame each.
    "reds_crossing": (
        np.stack([_line((100, 300), (15, 0.5), 40), _line((700, 310), (-15, -0.5), 40)], 1),
        [RED, RED],
        None,
    ),
    # Two reds crossing at right angles through the same point.
    "reds_cross_square": (
        np.stack([_line((100, 300), (12, 0), 40), _line((340, 60), (0, 12), 40)], 1),
        [RED, RED],
        None,
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_identities_kept(name: str) -> None:
    traj, colours, hidden = CASES[name]
    tracker = _run(traj, colours, hidden)
    _assert_follows(tracker, traj, hidden)


@pytest.mark.parametrize("speed", [0.0, 6.0, 20.0])
def test_hidden_behind_occluder_keeps_identity(speed: float) -> None:
    """A red hidden for 10 frames next to another red is named the same when it reappears."""
    f = 40
    traj = np.stack([_line((200, 300), (speed, 0), f), _line((200, 340), (speed * 0.9, 0.5), f)], 1)
    hidden = np.zeros((f, 2), bool)
    hidden[15:25, 0] = True
    tracker = _run(traj, [RED, RED], hidden)
    _assert_follows(tracker, traj, hidden, tol=R)
    assert np.all(tracker.tracks().state[25:, 0] == TrackState.SEEN)


def test_lifted_colour_reacquired_elsewhere() -> None:
    """A pink lifted by a hand and re-spotted across the table keeps its name."""
    f = 60
    traj = np.stack([_line((500, 300), (0, 0), f), _line((200, 200), (0, 0), f)], 1)
    traj[30:, 0] = (900, 500)
    hidden = np.zeros((f, 2), bool)
    hidden[10:30, 0] = True
    tracker = _run(traj, [PINK, WHITE], hidden)
    tracks = tracker.tracks()
    np.testing.assert_allclose(tracks.pixel[-1, 0], (900, 500))
    assert tracks.state[-1, 0] == TrackState.SEEN


def test_no_detections_predicts_everything() -> None:
    tracker = Tracker(
        TrackerState.seed(["white", "blue"], [[10, 10], [50, 50]], [R, R], colour=[WHITE, BLUE])
    )
    for _ in range(5):
        tracker.update(None)
    tracks = tracker.tracks()
    assert tracks.pixel.shape == (5, 2, 2)
    assert np.all(tracks.state == TrackState.PREDICTED)


def test_potted_ball_becomes_absent() -> None:
    pocket = np.array([[0.0, 0.0]])
    tracker = Tracker(
        TrackerState.seed(["red1"], [[20, 20]], [R], colour=[RED]),
        pockets=pocket,
    )
    for _ in range(tracker.config.absent_after + 2):
        tracker.update(BallDetections.empty())
    assert tracker.state.state[0] == TrackState.ABSENT


def test_state_validates_shapes() -> None:
    with pytest.raises(ValueError, match=r"pos must have shape \(2, 2\)"):
        TrackerState.seed(["white", "red1"], [[1, 2]], [R, R])


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    vx=st.floats(-30, 30),
    vy=st.floats(-30, 30),
)
def test_detection_order_does_not_matter(seed: int, vx: float, vy: float) -> None:
    """Shuffling the detections of each frame never changes who is who."""
    traj = np.stack(
        [_line((300, 300), (vx, vy), 12), _line((100, 100), (0, 0), 12), _line((600, 150), (0, 0), 12)], 1
    )
    a = _run(traj, [WHITE, RED, RED], seed=seed).tracks()
    b = _run(traj, [WHITE, RED, RED], seed=seed + 1).tracks()
    np.testing.assert_allclose(a.pixel, b.pixel)
