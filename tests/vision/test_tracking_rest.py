"""Resting balls: covered spots, the cue's side before a stroke, and matches a ball may refuse."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt
import pytest

from benchmarks.balls_synthetic import read_tracks
from calibration.table import Colour
from vision.balls_stage import LiveBalls
from vision.detection.detections import COLOURS, BallDetections
from vision.source import FrameSource
from vision.tracking.appearance import disc_appearance
from vision.tracking.departure import change_pull
from vision.tracking.schedule import ScheduleConfig
from vision.tracking.tracker import Tracker, TrackerConfig, TrackerState, step
from vision.tracking.video import VideoTracker
from vision.tracks import TrackState

R = 10.0
RED, WHITE, PINK = (COLOURS.index(c) for c in (Colour.RED, Colour.WHITE, Colour.PINK))
CLOTH = (40, 160, 30)
SLEEVE = (200, 200, 205)
Image = npt.NDArray[np.uint8]


def _state(
    pos: list[tuple[float, float]], colours: list[int], unseen: list[int] | None = None
) -> TrackerState:
    b = len(pos)
    st = TrackerState.seed(
        [f"b{i}" for i in range(b)], np.array(pos), np.full(b, R), colour=np.array(colours)
    )
    return st if unseen is None else replace(st, unseen=np.array(unseen))


@pytest.mark.parametrize("stop", [2.0, 4.0])
def test_resting_ball_does_not_take_the_arriving_balls_place(stop: float) -> None:
    """A white stopping dead at a resting ball's side, the struck ball's streak on the white's line.

    Paired to match as many balls as possible, the resting ball took the white (its only
    candidate) and the white the streak; a ball may stay unmatched at ``miss_cost``.
    """
    white, red = np.array([100.0, 100.0]), np.array([120.0, 100.0])
    looks = np.array([[250.0, 128.0, 128.0], [210.0, 140.0, 140.0]])
    st = replace(
        _state([(100.0, 100.0), (120.0, 100.0)], [-1, -1]),
        vel=np.array([[18.0, 0.0], [0.0, 0.0]]),
        appearance=looks,
    )
    stopped, streak = white + np.array([stop, 0.0]), red + np.array([25.0, 0.0])
    det = BallDetections.build(np.array([stopped, streak]), np.full(2, R))
    app = np.array([[248.0, 128.0, 128.0], [170.0, 150.0, 145.0]])
    # Without the contact prediction (which catches this one when the contact falls on the line).
    out = step(st, det, app, TrackerConfig(physics=False))
    assert np.linalg.norm(out.pos[0] - stopped) < 0.5 * R
    assert np.linalg.norm(out.pos[1] - red) < np.linalg.norm(out.pos[1] - stopped)


@pytest.mark.parametrize("unseen", [3, 8])
def test_covered_ball_stays_and_is_not_reacquired(unseen: int) -> None:
    """A resting pink under a player's arm is not re-acquired on a pink-coloured blob elsewhere."""
    st = _state([(200.0, 200.0), (400.0, 300.0)], [PINK, RED], unseen=[unseen, 0])
    det = BallDetections.build(
        np.array([[260.0, 230.0], [400.0, 300.0]]), np.full(2, R), colour=np.array([PINK, RED])
    )
    free = step(st, det)
    held = step(st, det, hidden=np.array([True, False]))
    assert np.linalg.norm(free.pos[0] - [260.0, 230.0]) < 1.0
    assert np.linalg.norm(held.pos[0] - [200.0, 200.0]) < 1.0
    assert held.state[0] == TrackState.PREDICTED


def test_covered_ball_by_a_pocket_is_not_potted() -> None:
    """Hidden past ``absent_after`` frames beside a pocket, a covered ball is still on the table."""
    st = _state([(30.0, 30.0)], [RED], unseen=[100])
    pockets = np.array([[20.0, 20.0]])
    assert step(st, BallDetections.empty(), pockets=pockets).state[0] == TrackState.ABSENT
    held = step(st, BallDetections.empty(), pockets=pockets, hidden=np.array([True]))
    assert held.state[0] == TrackState.PREDICTED


def _table(
    balls: list[tuple[tuple[int, int], tuple[int, int, int]]], cover: tuple[int, int, int, int] | None
) -> Image:
    img = np.zeros((200, 300, 3), np.uint8)
    img[:] = CLOTH
    for (x, y), bgr in balls:
        cv2.circle(img, (x, y), round(R), bgr, -1)
    if cover is not None:
        x0, y0, x1, y1 = cover
        img[y0:y1, x0:x1] = SLEEVE
    return img


@pytest.mark.parametrize(
    ("cover", "hidden"),
    [((120, 80, 200, 140), True), (None, False)],
)
def test_spot_under_an_arm_is_covered_and_an_empty_spot_is_not(
    cover: tuple[int, int, int, int] | None, hidden: bool
) -> None:
    """The red vanished from its spot: under a sleeve it is hidden; on bare cloth it is gone."""
    pink = (150, 120, 230)
    first = _table([((150, 110), pink)], None)
    st = TrackerState.seed(
        ["pink"],
        np.array([[150.0, 110.0]]),
        np.array([R]),
        colour=np.array([PINK]),
        appearance=disc_appearance(first, np.array([[150.0, 110.0]]), np.array([R])),
    )

    class Nothing:
        def detect(self, image: Image, roi: tuple[int, int, int, int] | None = None) -> BallDetections:
            return BallDetections.empty()

    vt = VideoTracker(Nothing(), Tracker(st), ScheduleConfig(full_every=0))
    vt._cloth_at[0] = disc_appearance(first, np.array([[150.0, 110.0 + 3 * R]]), np.array([R]))[0]
    later = _table([], cover)
    assert bool(vt._hidden(later, vt.tracker.state)[0]) is hidden


@pytest.mark.parametrize(("side", "sign"), [((-1, 0), -1), ((1, 0), 1), ((0, 1), 1)])
def test_change_pull_points_to_the_side_that_changed(side: tuple[int, int], sign: int) -> None:
    """A cue feathering on one side of a resting ball pulls towards that side; the ball's own
    disc (a stroke's first frame moves it a little) does not count."""
    sch = ScheduleConfig()
    at = np.array([160.0, 120.0])
    before = np.full((30, 40), 60, np.int16)
    after = before.copy()
    cx, cy = int((at[0] + 3 * R * side[0]) * sch.thumb), int((at[1] + 3 * R * side[1]) * sch.thumb)
    after[cy, cx] = 200
    after[int(at[1] * sch.thumb), int(at[0] * sch.thumb)] = 200
    pull = change_pull(after, before, sch, at, R)
    k = 0 if side[0] else 1
    assert np.sign(pull[k]) == sign
    assert abs(pull[1 - k]) < abs(pull[k])


def test_no_change_no_pull() -> None:
    sch = ScheduleConfig()
    thumb = np.full((30, 40), 60, np.int16)
    assert np.all(change_pull(thumb, thumb, sch, np.array([160.0, 120.0]), R) == 0)


@pytest.mark.parametrize("unseen", [2, 4])
def test_lost_balls_search_does_not_take_a_resting_ball(unseen: int) -> None:
    """A lost red's search window grows a diameter a frame and its colour search finds a resting
    ball of a like colour (a brown). The brown, carried at rest, keeps its place and stays still;
    the blob is the brown's, not a red re-found (a rendered 1080p60 break-off: the brown set
    moving by it was never at rest again, and the frame never started)."""
    brown_bgr = (30, 60, 140)
    img = _table([((150, 60), brown_bgr)], None)
    at = np.array([[150.0, 150.0], [150.0, 60.0]])  # the lost red first, as red15 is before brown
    look = disc_appearance(img, at[1:], np.array([R]))[0]
    st = replace(
        TrackerState.seed(
            ["red1", "brown"], at, np.full(2, R), colour=np.array([RED, COLOURS.index(Colour.BROWN)])
        ),
        appearance=np.array([look, look]),
        state=np.array([TrackState.PREDICTED, TrackState.SEEN], np.int8),
        unseen=np.array([unseen, 0]),
    )

    class Nothing:
        def detect(self, image: Image, roi: tuple[int, int, int, int] | None = None) -> BallDetections:
            return BallDetections.empty()

    vt = VideoTracker(Nothing(), Tracker(st), ScheduleConfig(full_every=0))
    for _ in range(3):
        out = vt.process(img)
        assert np.linalg.norm(out.pos[1] - at[1]) < 0.5
        assert np.linalg.norm(out.vel[1]) < 0.1
    assert out.state[0] != TrackState.SEEN


def _resting(names: list[str], at: npt.NDArray[np.float64], colours: list[int], img: Image) -> VideoTracker:
    """A video tracker with ``names`` resting at ``at`` in ``img``, carried for a few frames."""
    st = TrackerState.seed(
        names,
        at,
        np.full(len(names), R),
        colour=np.array(colours),
        appearance=disc_appearance(img, at, np.full(len(names), R)),
    )

    class Nothing:
        def detect(self, image: Image, roi: tuple[int, int, int, int] | None = None) -> BallDetections:
            return BallDetections.empty()

    vt = VideoTracker(Nothing(), Tracker(st), ScheduleConfig(full_every=0))
    for _ in range(4):
        vt.process(img)
    return vt


def test_a_sleeve_over_a_resting_ball_does_not_carry_it_off() -> None:
    """A sleeve sliding over a resting pink leaves part of it showing, then none: the pink's
    search found the uncovered part, then the sleeve's edge, and followed the sleeve away
    (sample 05). No ball can reach the pink, so it is where it rests: held there, covered."""
    pink = np.array([[150.0, 110.0]])
    colour = (150, 120, 230)
    clean = _table([((150, 110), colour)], None)
    vt = _resting(["pink"], pink, [PINK], clean)
    for k in range(12):
        x0 = 110 + 4 * k  # the sleeve's edge moves right over the pink, 4 px a frame
        img = _table([((150, 110), colour)], (60, 95, x0, 125))
        out = vt.process(img)
        assert np.linalg.norm(out.pos[0] - pink[0]) < 0.5 * R, k


SAMPLES = Path(__file__).resolve().parents[2] / "sample_videos"


def test_the_white_addressed_and_the_pink_under_a_sleeve_stay_put_on_sample_05() -> None:
    """05_touching, before its stroke (frame 82): the cue's tip feathers on the white and the
    player's sleeve slides over the pink. The white's measurements, dragged by the tip and
    each taken from where the last put it, crept 25 mm (a phantom stroke 0.7 s early), then
    its search took the sleeve's end for it; the pink followed the sleeve off the table.
    Every tracked position stays within half a radius of the truth."""
    video = SAMPLES / "05_touching.mp4"
    truth = read_tracks(video.with_name("05_touching.tracks.csv"))
    src = FrameSource(str(video))
    balls = LiveBalls.create(fps=src.fps)
    for frame in src.frames():
        if frame.index > 80:
            break
        out = balls.update(frame)
        if out is None or frame.index < 40:
            continue
        for name in ("white", "pink"):
            k = out.names.index(name)
            true = np.array(truth[frame.index][name].pixel)
            assert np.linalg.norm(out.pixel[k] - true) < 0.5 * out_radius(balls, k), (frame.index, name)


def out_radius(balls: LiveBalls, k: int) -> float:
    """Ball ``k``'s apparent radius in the tracker (working pixels equal source pixels at 720p)."""
    video = balls._video
    assert video is not None
    return float(video.tracker.state.radius[k])


def test_a_ball_gone_from_its_bare_spot_is_followed_into_its_streak() -> None:
    """Struck by a white the tracker lost in its own streak, a resting black leaves its spot as
    a faint streak: no tracked ball can reach it, but its spot shows bare cloth, so it left, and
    its search's finds away from the spot are its streak (Task2 clip 6: held to its spot, the
    black was never found again and its pot was missed)."""
    black_bgr = (20, 20, 20)
    black = np.array([[150.0, 110.0]])
    clean = _table([((150, 110), black_bgr)], None)
    vt = _resting(["black"], black, [COLOURS.index(Colour.BLACK)], clean)
    streak = clean.copy()
    streak[:] = CLOTH
    # A streak four diameters long: each pixel is half ball, half cloth.
    overlay = streak.copy()
    cv2.ellipse(overlay, (215, 110), (round(4 * R), round(R)), 0, 0, 360, black_bgr, -1)
    streak = cv2.addWeighted(overlay, 0.5, streak, 0.5, 0)
    vt.process(streak)
    out = vt.process(streak)
    assert np.linalg.norm(out.pos[0] - black[0]) > 3 * R


@pytest.mark.parametrize(
    ("name", "ball", "moved", "cue_side", "neighbour_age", "pushed"),
    [
        # The cue ball, measured 0.3 r away from the side the cue came from: a gentle stroke.
        ("white pushed away from the cue", "white", (3.0, 0.0), (-1.0, 0.0), None, True),
        # Towards the cue: its tip or the bridge hand dragging the centre.
        ("white dragged towards the cue", "white", (-3.0, 0.0), (-1.0, 0.0), None, False),
        ("white moved under its noise", "white", (1.0, 0.0), (-1.0, 0.0), None, False),
        ("white, no cue seen", "white", (3.0, 0.0), (0.0, 0.0), None, False),
        ("white pushed sideways", "white", (0.0, 3.0), (-1.0, 0.0), None, False),
        # An object ball moved away from a ball that came to rest against it since it stopped.
        ("red pushed by the white rolled up", "red1", (3.0, 0.0), (0.0, 0.0), 5, True),
        # ... but not by a neighbour that was there all along (a pack's split moves it).
        ("red beside an old neighbour", "red1", (3.0, 0.0), (0.0, 0.0), 500, False),
        ("red moved towards the white", "red1", (-3.0, 0.0), (0.0, 0.0), 5, False),
    ],
)
def test_a_ball_long_at_rest_is_pushed_only_away_from_what_pushed_it(
    name: str,
    ball: str,
    moved: tuple[float, float],
    cue_side: tuple[float, float],
    neighbour_age: int | None,
    pushed: bool,
) -> None:
    names = ["white", "red1"]
    red_at = 121.0 if ball == "red1" else 300.0  # touching the white, or far off
    px = np.array([[100.0, 120.0], [red_at, 120.0]])
    img = np.zeros((240, 400, 3), np.uint8)
    img[:] = (40, 160, 30)
    vt = _resting(names, px, [COLOURS.index(Colour.WHITE), COLOURS.index(Colour.RED)], img)
    i = names.index(ball)
    vt._anchor[:] = px
    vt._anchor_age[:] = 400
    if neighbour_age is not None:
        vt._anchor_age[1 - i] = neighbour_age
    vt._cue_side[i] = cue_side
    rested = px[i] + np.array(moved)
    assert vt._pushed(vt.tracker.state, i, rested, vt.schedule.push_radii) == pushed, name
