"""Balls carried at rest: checked against the whole-table search, named as carried, not set moving.

A ball is carried at rest while the thumbnail round its spot stays unchanged. At the far end of a
1080p view a red is a pixel across in the thumbnail and differs from the green cloth by a few
grey levels, so its leaving does not show; these tests draw such a red (its grey level the
cloth's) and check what the tracker does about it.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import numpy.typing as npt
import pytest

from calibration.table import Colour
from vision.detection.detections import COLOURS, BallDetections
from vision.source import thumbnail
from vision.tracking.appearance import disc_appearance, thumbnail_contrast
from vision.tracking.detection_sets import named_as_held
from vision.tracking.schedule import ScheduleConfig
from vision.tracking.tracker import Tracker, TrackerState
from vision.tracking.video import VideoTracker, surface_edge
from vision.tracks import TrackState

R = 10.0
RED, WHITE, GREEN = (COLOURS.index(c) for c in (Colour.RED, Colour.WHITE, Colour.GREEN))
CLOTH = (40, 160, 30)
#: A red whose grey level is the cloth's within a few levels: its leaving changes no thumbnail.
DIM_RED = (20, 50, 255)
SLEEVE = (200, 200, 205)
Image = npt.NDArray[np.uint8]


def _table(balls: list[tuple[float, float]], cover: tuple[int, int, int, int] | None = None) -> Image:
    img = np.zeros((240, 320, 3), np.uint8)
    img[:] = CLOTH
    for x, y in balls:
        cv2.circle(img, (round(x), round(y)), round(R), DIM_RED, -1)
    if cover is not None:
        x0, y0, x1, y1 = cover
        img[y0:y1, x0:x1] = SLEEVE
    return img


class Oracle:
    """A detector that finds the reds the test says are on the table (within a window, if asked),
    named ``colour`` at ``confidence``."""

    def __init__(self, colour: int = RED, confidence: float = 1.0) -> None:
        self.reds: list[tuple[float, float]] = []
        self.colour, self.confidence = colour, confidence

    def detect(self, image: Image, roi: tuple[int, int, int, int] | None = None) -> BallDetections:
        pts = np.array(self.reds, np.float64).reshape(-1, 2)
        if roi is not None and len(pts):
            x0, y0, x1, y1 = roi
            pts = pts[(pts[:, 0] >= x0) & (pts[:, 0] < x1) & (pts[:, 1] >= y0) & (pts[:, 1] < y1)]
        n = len(pts)
        return BallDetections.build(
            pts, np.full(n, R), colour=np.full(n, self.colour), confidence=np.full(n, self.confidence)
        )


def test_the_dim_red_changes_no_thumbnail() -> None:
    """The premise: the red leaving its spot is under the change test's level."""
    sch = ScheduleConfig()
    before = thumbnail(_table([(100.0, 120.0)]), sch.thumb)
    after = thumbnail(_table([]), sch.thumb)
    assert int(np.abs(before - after).max()) <= sch.change


def _carried(oracle: Oracle, at: tuple[float, float], full_every: int) -> VideoTracker:
    img = _table([at])
    st = TrackerState.seed(
        ["red1" if oracle.colour == RED else "green"],
        np.array([at]),
        np.array([R]),
        colour=np.array([oracle.colour]),
        appearance=disc_appearance(img, np.array([at]), np.array([R])),
    )
    vt = VideoTracker(oracle, Tracker(st), ScheduleConfig(full_every=full_every))
    oracle.reds = [at]
    for _ in range(full_every + 1):
        vt.process(img)
    assert vt._carried[0]
    return vt


def test_a_ball_carried_on_bare_cloth_is_found_where_the_whole_table_search_sees_it() -> None:
    """The red rolled away unseen by the change test: the whole-table search finds no ball on its
    spot, which shows bare cloth, and the track is re-acquired where the red now rests."""
    oracle = Oracle()
    vt = _carried(oracle, (100.0, 120.0), full_every=5)
    gone_to = (230.0, 150.0)
    oracle.reds = [gone_to]
    img = _table([gone_to])
    for _ in range(40):
        out = vt.process(img)
    assert out.state[0] == TrackState.SEEN
    assert np.linalg.norm(out.pos[0] - gone_to) < 0.5 * R


def test_a_ball_carried_under_a_sleeve_stays_carried() -> None:
    """The whole-table search finds nothing on a spot a sleeve covers: the ball is still there."""
    oracle = Oracle()
    at = (100.0, 120.0)
    vt = _carried(oracle, at, full_every=5)
    oracle.reds = []
    img = _table([at], cover=(70, 90, 130, 150))
    # (The sleeve changes the thumbnail: the ball is searched, not carried, and held as covered.)
    for _ in range(20):
        out = vt.process(img)
    assert np.linalg.norm(out.pos[0] - np.array(at)) < 0.5 * R


@pytest.mark.parametrize(
    ("found", "held", "named"),
    [
        # A detection on a carried green's spot named the white: named green.
        ([(100.0, 100.0, WHITE)], [(100.5, 100.0, GREEN)], [GREEN]),
        # A radius and a half off: another ball's, its name kept.
        ([(115.0, 100.0, WHITE)], [(100.0, 100.0, GREEN)], [WHITE]),
        # A carried ball of unknown colour names nothing.
        ([(100.0, 100.0, WHITE)], [(100.0, 100.0, -1)], [WHITE]),
        # Each detection takes the nearest carried ball's name.
        (
            [(100.0, 100.0, RED), (130.0, 100.0, RED)],
            [(101.0, 100.0, GREEN), (129.0, 100.0, RED)],
            [GREEN, RED],
        ),
        # Nothing carried.
        ([(100.0, 100.0, WHITE)], [], [WHITE]),
    ],
)
def test_whole_table_detections_on_carried_balls_take_their_names(
    found: list[tuple[float, float, int]], held: list[tuple[float, float, int]], named: list[int]
) -> None:
    def build(rows: list[tuple[float, float, int]]) -> BallDetections:
        a = np.array(rows, np.float64).reshape(-1, 3)
        return BallDetections.build(a[:, :2], np.full(len(a), R), colour=a[:, 2].astype(np.int64))

    out = named_as_held(build(found), build(held))
    assert out.colour.tolist() == named


def test_a_carried_ball_measured_a_pixel_off_does_not_start_moving() -> None:
    """The whole-table search measures a carried ball a pixel off its carried spot (a blob joined
    to the chalk): its position may move to it, but it is at rest, not rolling at a pixel a frame."""
    oracle = Oracle()
    at = (100.0, 120.0)
    vt = _carried(oracle, at, full_every=5)
    oracle.reds = [(101.2, 120.6)]
    img = _table([at])
    for _ in range(12):
        out = vt.process(img)
        assert np.hypot(*out.vel[0]) < 0.05
        assert np.linalg.norm(out.pos[0] - np.array(at)) < 2.0


def test_a_resting_ball_a_moving_ball_can_reach_follows_its_measurements() -> None:
    """A red rolls into a resting red and stops; the struck red rolls on. Neither changes the
    thumbnail, so the struck red was carried at its spot while it rolled away (a rendered 1080p60
    break-off's pack, random camera). A moving ball within reach makes it searched instead, and
    once it is measured rolling it is searched as a moving ball."""
    a0, b0 = np.array([60.0, 120.0]), np.array([150.0, 120.0])
    img = _table([tuple(a0), tuple(b0)])
    st = TrackerState.seed(
        ["red1", "red2"],
        np.array([a0, b0]),
        np.full(2, R),
        colour=np.array([RED, RED]),
        appearance=disc_appearance(img, np.array([a0, b0]), np.full(2, R)),
    )
    oracle = Oracle()
    oracle.reds = [tuple(a0), tuple(b0)]
    vt = VideoTracker(oracle, Tracker(st), ScheduleConfig(full_every=0))
    for _ in range(4):
        vt.process(img)
    assert vt._carried[1]
    # red1 struck (the cue ball's stroke is not in this test): it is seen rolling from here on.
    vt.tracker.state = replace(vt.tracker.state, vel=np.array([[6.0, 0.0], [0.0, 0.0]]))
    a, b = a0.copy(), b0.copy()
    for _ in range(30):
        if a[0] < b0[0] - 2 * R:
            a = a + np.array([6.0, 0.0])  # red1 rolls in and stops against red2
        else:
            b = b + np.array([4.0, 0.0])  # red2 rolls on
        oracle.reds = [tuple(a), tuple(b)]
        out = vt.process(_table([tuple(a), tuple(b)]))
    assert b[0] - b0[0] > 4 * R  # (it did roll away)
    assert np.linalg.norm(out.pos[1] - b) < 0.5 * R
    assert np.linalg.norm(out.pos[0] - a) < 0.5 * R


def _lab(bgr: tuple[int, int, int]) -> npt.NDArray[np.float64]:
    return np.asarray(cv2.cvtColor(np.uint8([[bgr]]), cv2.COLOR_BGR2LAB)[0, 0], np.float64)


@pytest.mark.parametrize(
    ("ball", "radius", "faint"),
    [
        # A red at the far end of a 1080p view (4.7 working pixels): 9 levels measured, faint.
        ((61, 53, 252), 4.7, True),
        # The same red twice as large covers whole thumbnail pixels: its leaving shows.
        ((61, 53, 252), 10.0, False),
        # A white shows at any size the tracker works at.
        ((235, 235, 235), 4.7, False),
        # A green ball on the green cloth is faint even when large.
        ((60, 110, 25), 12.0, True),
    ],
)
def test_thumbnail_contrast_says_which_balls_may_leave_unseen(
    ball: tuple[int, int, int], radius: float, faint: bool
) -> None:
    cloth = _lab((35, 118, 22))
    sch = ScheduleConfig()
    c = thumbnail_contrast(_lab(ball), cloth, radius, sch.thumb)
    assert (c < 1.5 * sch.change) is faint


def test_thumbnail_contrast_of_an_unknown_colour_is_nan() -> None:
    assert np.isnan(thumbnail_contrast(np.full(3, np.nan), np.zeros(3), 5.0, 0.125))


def test_a_one_colour_ball_found_elsewhere_is_not_on_the_spot_it_is_carried_on() -> None:
    """The green's spot still shows a ball-like mark (the chalk where the baulk line meets the D,
    a spot mark), so it does not look bare; the whole-table search finds the green, confidently,
    far from it. The track goes to the green (a rendered red-then-colour, random camera)."""
    oracle = Oracle(GREEN, confidence=0.9)
    at, gone_to = (100.0, 120.0), (230.0, 150.0)
    vt = _carried(oracle, at, full_every=5)
    oracle.reds = [gone_to]
    img = _table([at, gone_to])  # (the mark on the spot looks as the ball did)
    for _ in range(12):
        out = vt.process(img)
    assert np.linalg.norm(out.pos[0] - np.array(gone_to)) < 0.5 * R


def test_a_pale_cue_named_as_the_carried_ball_elsewhere_does_not_take_its_track() -> None:
    """The converse: the whole-table search misses the ball on its spot (a cue's tip against
    it) and names the pale cue shaft beside it, confidently, in the ball's colour. The shaft
    does not look as the ball does, whole: the track stays on its spot (a rendered 1080p60
    touching ball: the white's track went onto the shaft, its stroke's departure was never
    found and TOUCHING BALL was missed)."""
    oracle = Oracle(GREEN, confidence=0.9)
    at, shaft = (100.0, 120.0), (112.0, 160.0)
    vt = _carried(oracle, at, full_every=5)
    oracle.reds = [shaft]
    img = _table([at])
    cv2.line(
        img,
        (round(shaft[0]) - 3, round(shaft[1]) - 25),
        (round(shaft[0]) + 3, round(shaft[1]) + 25),
        (170, 210, 235),
        3,
    )
    for _ in range(12):
        out = vt.process(img)
    assert np.linalg.norm(out.pos[0] - np.array(at)) < 0.5 * R


@pytest.mark.parametrize(
    ("heading", "step", "creeping"),
    [
        ((0.0, 1.0), (0.0, 1.0), True),  # on along the way it last rolled, off a cushion
        ((0.0, 1.0), (1.0, 0.0), True),  # on along the line from its stroke's spot, as ever
        ((0.0, 1.0), (0.0, -1.0), False),  # back the way it last rolled
        ((0.0, 0.0), (0.0, 1.0), False),  # no heading seen: only the line from its spot counts
    ],
)
def test_a_ball_off_a_cushion_creeps_on_along_its_last_heading(
    heading: tuple[float, float], step: tuple[float, float], creeping: bool
) -> None:
    """A white off two cushions and a ball creeps its last millimetres almost square to the
    line from where its stroke left; along the way it was last seen rolling, it is followed,
    not held where it first stopped as if a cue's tip dragged it (a rendered 1080p60 touching
    ball: rest 6.8 mm short of the red it touched, TOUCHING BALL missed)."""
    vt = _carried(Oracle(), (100.0, 120.0), full_every=5)
    vt._rolled[0] = True
    vt._anchor[0] = (100.0, 120.0)
    vt._origin[0] = (40.0, 120.0)  # its stroke left from the left
    vt._heading[0] = heading
    rested = np.array([100.0 + step[0], 120.0 + step[1]])
    assert vt._creeping(0, rested, R) is creeping


@pytest.mark.parametrize(
    ("rolled", "step", "creeping"),
    [
        (True, (1.0, 0.0), True),  # re-measured further along its path: still rolling to a stop
        (True, (0.0, 1.0), False),  # sideways: a cue's tip or a hand dragging its centre
        (True, (-1.0, 0.0), False),  # back the way it came: no rolling ball turns back
        (True, (0.1, 0.0), False),  # within the detector's jitter (settle_move)
        (False, (1.0, 0.0), False),  # never rolled here (placed, or at rest since the start)
        (True, None, False),  # not found where it was carried
    ],
)
def test_a_ball_rolled_to_rest_creeps_only_on_along_its_path(
    rolled: bool, step: tuple[float, float] | None, creeping: bool
) -> None:
    """At the far end of a 1080p view a ball slower than ``rest_speed`` still rolls on 20 cm: it
    is carried, re-measured, and must be followed while it creeps on (a rendered in-off's white
    was held 40-60 mm behind itself and its rest reported there), not held to its anchor."""
    vt = _carried(Oracle(), (100.0, 120.0), full_every=5)
    vt._rolled[0] = rolled
    vt._anchor[0] = (100.0, 120.0)
    vt._origin[0] = (40.0, 120.0)  # its stroke left from the left: it rolled in +x
    rested = None if step is None else np.array([100.0 + step[0], 120.0 + step[1]])
    assert vt._creeping(0, rested, R) is creeping


@pytest.mark.parametrize(
    ("step", "by_cushion", "creeping"),
    [
        ((0.7, 0.7), True, True),  # back off the cushion it rolled into: across reversed, along kept
        ((0.7, 0.7), False, False),  # the same step far from any cushion: a drag
        ((-0.7, 0.7), True, False),  # back the way it came: no bounce gives that
        ((0.7, -0.7), True, True),  # on into the cushion, as ever
    ],
)
def test_a_ball_rolled_into_a_cushion_creeps_back_off_it(
    step: tuple[float, float], by_cushion: bool, creeping: bool
) -> None:
    """A slow red that reaches the top cushion of a 1080p60 view comes back off it at a crawl
    (35 mm in 0.8 s): re-measured going back, it is followed, not held where it touched the
    cushion (its rest was reported there, 36 mm off, and the later correction read as a place)."""
    vt = _carried(Oracle(), (100.0, 120.0), full_every=5)
    top = 120.0 - 1.2 * R if by_cushion else 0.0  # the surface's top edge
    region = np.zeros((240, 320), bool)
    region[int(top) :, :] = True
    vt._edge = surface_edge(region)
    vt._rolled[0] = True
    vt._anchor[0] = (100.0, 120.0)
    vt._origin[0] = (40.0, 180.0)  # it rolled up and right, into the top cushion
    rested = np.array([100.0 + 2.0 * step[0], 120.0 + 2.0 * step[1]])
    assert vt._creeping(0, rested, R) is creeping


YELLOW, BROWN = (COLOURS.index(c) for c in (Colour.YELLOW, Colour.BROWN))


@pytest.mark.parametrize(
    ("ball", "named", "brown_at", "radius", "taken"),
    [
        (YELLOW, BROWN, (250.0, 150.0), R, True),  # the brown is elsewhere: the yellow, misnamed
        (YELLOW, BROWN, (118.0, 120.0), R, False),  # the brown beside it: it may be the brown
        (YELLOW, RED, (250.0, 150.0), R, False),  # a red: there are many
        (YELLOW, BROWN, (250.0, 150.0), 2.0 * R, False),  # no ball's size: a hand, a sleeve
        (WHITE, BROWN, (250.0, 150.0), R, False),  # the cue ball: the bridge hand is about it
    ],
)
def test_a_colour_misnamed_on_its_spot_is_taken_only_if_its_name_is_elsewhere(
    ball: int, named: int, brown_at: tuple[float, float], radius: float, taken: bool
) -> None:
    """A yellow in the baulk cushion's shade was named brown by the detector at every
    re-measurement at rest, its look (learned from shadow-biased searches) refused it too, and
    it was carried 60 mm off: a blob of a ball's size on its spot, named a one-ball colour whose
    ball is elsewhere, is the ball itself."""
    names = ["white" if ball == WHITE else "yellow", "brown"]
    st = TrackerState.seed(
        names,
        np.array([(100.0, 120.0), brown_at]),
        np.array([R, R]),
        colour=np.array([ball, BROWN]),
        appearance=np.full((2, 3), np.nan),
    )
    vt = VideoTracker(Oracle(), Tracker(st), ScheduleConfig())
    found = BallDetections.build(
        np.array([(101.0, 121.0)]), np.array([radius]), colour=np.array([named]), confidence=np.ones(1)
    )
    assert bool(vt.spots.named_elsewhere(found, 0, R)[0]) is taken
