"""Red identity switches: a ball carried where it no longer is, two reds struck unseen the same
frame, and a lost red's grown gate over another ball's misnamed blob."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from calibration.table import Colour
from vision.detection.detections import COLOURS, BallDetections
from vision.tracking.detection_sets import cluster_box, nearer_another
from vision.tracking.local import search
from vision.tracking.strays import strayed_to
from vision.tracking.tracker import Tracker, TrackerState
from vision.tracking.uncross import crosses, uncross
from vision.tracks import TrackState

RED = COLOURS.index(Colour.RED)
PINK = COLOURS.index(Colour.PINK)
CLOTH_BGR = (40, 150, 30)
RED_BGR = (30, 30, 190)
#: A red's specular highlight: lighter than the cloth.
SHINE_BGR = (170, 170, 235)


def _lab(bgr: tuple[int, int, int]) -> np.ndarray:
    return cv2.cvtColor(np.array([[bgr]], np.uint8), cv2.COLOR_BGR2LAB)[0, 0].astype(np.float64)


R = 5.0


@pytest.mark.parametrize(
    ("pixels", "colours", "others", "own", "expect"),
    [
        ([], [], [], RED, None),  # nothing found: under a hand, or gone
        ([(6.0, 0.0)], [RED], [], RED, 0),  # a red 1.2 radii on: it rolled on
        ([(0.0, -7.0)], [RED], [], RED, 0),  # any way (a push, not only along its heading)
        ([(6.0, 0.0)], [RED], [(6.5, 0.5)], RED, None),  # another red's track is on it
        ([(6.0, 0.0)], [RED], [(np.nan, np.nan)], RED, 0),  # (a ball off the table is nowhere)
        ([(2.0, 0.0)], [RED], [], RED, None),  # where it is carried: not strayed
        ([(12.0, 0.0)], [RED], [], RED, None),  # farther than a gentle roll
        ([(6.0, 0.0)], [PINK], [], RED, None),  # another colour
        ([(9.0, 0.0), (0.0, 6.0)], [RED, RED], [], RED, 1),  # the nearest
        ([(6.0, 0.0)], [RED], [], -1, None),  # a ball of unknown colour
    ],
)
def test_strayed_to(
    pixels: list[tuple[float, float]],
    colours: list[int],
    others: list[tuple[float, float]],
    own: int,
    expect: int | None,
) -> None:
    """The detection a ball carried at (0, 0), not found there, has rolled on to."""
    got = strayed_to(
        np.array(pixels, np.float64).reshape(-1, 2),
        np.array(colours, np.int64),
        np.zeros(2),
        own,
        R,
        np.array(others, np.float64).reshape(-1, 2),
        near_radii=0.8,
        reach_radii=2.0,
    )
    assert got == expect


@pytest.mark.parametrize(
    ("pixels", "others", "expect"),
    [
        ([(0.5, 0.0)], [(5.5, 4.5)], [False]),  # on the ball measured, its neighbour beside it
        # The pack's far corner at a slant: the neighbour 1.1 radii off, a blob 0.8 radii off the
        # ball measured and 0.3 off the neighbour is the neighbour's.
        ([(3.6, 2.3)], [(5.5, 3.5)], [True]),
        ([(0.5, 0.0), (3.6, 2.3)], [(5.5, 3.5)], [False, True]),  # each blob to its nearer ball
        ([(3.6, 2.3)], [(np.nan, np.nan)], [False]),  # (a ball off the table is nowhere)
        ([(3.6, 2.3)], [], [False]),  # no other ball
        ([], [(5.5, 3.5)], []),  # no blob
    ],
)
def test_nearer_another(
    pixels: list[tuple[float, float]], others: list[tuple[float, float]], expect: list[bool]
) -> None:
    """Which blobs round a ball measured at (0, 0) are another ball's: nearer its track."""
    got = nearer_another(
        np.array(pixels, np.float64).reshape(-1, 2), np.zeros(2), np.array(others, np.float64).reshape(-1, 2)
    )
    assert got.tolist() == expect


@pytest.mark.parametrize(
    ("points", "box"),
    [
        ([], (0.0, 0.0, 0.0, 0.0)),  # a lone ball: its own centre
        ([(20.0, 0.0)], (0.0, 0.0, 0.0, 0.0)),  # a ball farther than the reach is not touched
        ([(8.0, 3.0)], (0.0, 0.0, 8.0, 3.0)),  # a neighbour
        # A row chained by touching neighbours, the far end out of the first ball's reach.
        ([(8.0, 0.0), (16.0, 0.0), (24.0, -4.0)], (0.0, -4.0, 24.0, 0.0)),
        ([(8.0, 0.0), (np.nan, np.nan), (30.0, 0.0)], (0.0, 0.0, 8.0, 0.0)),  # (off the table; a gap)
    ],
)
def test_cluster_box(points: list[tuple[float, float]], box: tuple[float, float, float, float]) -> None:
    """The box of a ball at (0, 0) and the balls chained to it, steps shorter than 10 pixels."""
    assert cluster_box(np.array(points, np.float64).reshape(-1, 2), np.zeros(2), 10.0) == box


RT = 12.0


def _reds_lost(pos: list[tuple[float, float]], unseen: list[int]) -> Tracker:
    colours = np.full(len(pos), RED)
    names = [f"red{k + 1}" for k in range(len(pos))]
    looks = np.tile(_lab(RED_BGR), (len(pos), 1))
    state = TrackerState.seed(names, pos, np.full(len(pos), RT), colour=colours, appearance=looks)
    on = np.array(unseen) == 0
    return Tracker(
        replace(
            state,
            unseen=np.array(unseen, np.int64),
            state=np.where(on, TrackState.SEEN, TrackState.PREDICTED).astype(np.int8),
        )
    )


@pytest.mark.parametrize(
    ("b", "to_a", "to_b"),
    [
        # A pack's reds 2.3 radii apart, struck in the frame they went unseen: the nearer blob
        # lies within both un-grown gates (synthetic 01_break_off at frame 133).
        ((22.0, 18.0), (24.5, -6.0), (34.0, -2.0)),
        ((22.0, 18.0), (25.0, -4.0), (40.0, 0.0)),
        ((24.0, 0.0), (22.0, 14.0), (36.0, 6.0)),
    ],
)
def test_two_reds_lost_together_do_not_cross(
    b: tuple[float, float], to_a: tuple[float, float], to_b: tuple[float, float]
) -> None:
    """Two reds lost at rest the same frame and found again each take the blob that keeps
    their paths from crossing, not the one the un-grown gate decided."""
    a = (0.0, 0.0)
    tracker = _reds_lost([a, b], [1, 1])
    blob_a = np.add(a, to_a)
    blob_b = np.add(b, to_b)
    det = BallDetections.build(np.array([blob_a, blob_b]), np.full(2, RT), colour=np.full(2, RED))
    tracker.update(det, np.tile(_lab(RED_BGR), (2, 1)))
    np.testing.assert_allclose(tracker.state.pos[0], blob_a, atol=0.5 * RT)
    np.testing.assert_allclose(tracker.state.pos[1], blob_b, atol=0.5 * RT)


@pytest.mark.parametrize(
    ("a0", "a1", "b0", "b1", "expect"),
    [
        ((0, 0), (10, 10), (0, 10), (10, 0), True),  # an X
        ((0, 0), (10, 0), (0, 5), (10, 5), False),  # parallel
        ((0, 0), (10, 0), (5, 1), (5, 8), False),  # one stops short of the other
        ((0, 0), (10, 0), (10, 0), (10, 8), False),  # touching at an end
        ((0, 0), (10, 0), (5, 0), (20, 0), False),  # along one line (one ball after the other)
        ((0, 0), (0, 0), (-1, -1), (1, 1), False),  # a ball that did not move
    ],
)
def test_crosses(
    a0: tuple[float, float],
    a1: tuple[float, float],
    b0: tuple[float, float],
    b1: tuple[float, float],
    expect: bool,
) -> None:
    """Only paths crossing inside both count as tangled."""
    pts = [np.asarray(p, np.float64) for p in (a0, a1, b0, b1)]
    assert crosses(*pts) is expect
    assert crosses(pts[2], pts[3], pts[0], pts[1]) is expect


@pytest.mark.parametrize(
    ("lost", "allowed", "expect", "swaps"),
    [
        # Balls 0 and 1 cross (an X); ball 2 runs apart and crosses neither.
        ((True, True, True), (True, True, True), (0, 1, 2), 1),
        ((True, False, True), (True, True, True), (1, 0, 2), 0),  # one of the pair not lost
        ((True, True, True), (True, False, True), (1, 0, 2), 0),  # the gates do not admit the swap
    ],
)
def test_uncross(
    lost: tuple[bool, ...], allowed: tuple[bool, ...], expect: tuple[int, ...], swaps: int
) -> None:
    """Crossing paths of lost balls swap their blobs; nothing else moves."""
    start = np.array([(0.0, 0.0), (0.0, 10.0), (50.0, 0.0)])
    found = np.array([(10.0, 0.0), (10.0, 10.0), (60.0, 0.0)])  # (matched crossed: 0->1, 1->0)
    match = np.array([1, 0, 2], np.int64)
    ok = np.ones((3, 3), bool)
    ok[1, 1] = allowed[1]
    got = uncross(start, found, match, np.array(lost), ok)
    assert got == swaps
    assert tuple(int(m) for m in match) == expect


@pytest.mark.parametrize(
    ("radius", "shine", "shift"),
    [
        (4.5, 1.5, (0.0, 0.0)),  # the far end of a steep view: a ring two pixels wide
        (4.5, 1.5, (0.5, -0.5)),  # the highlight between pixels
        (5.0, 1.8, (0.0, -1.0)),  # lit from above: the highlight high on the ball
    ],
)
def test_search_finds_a_small_red_round_its_highlight(
    radius: float, shine: float, shift: tuple[float, float]
) -> None:
    """A small red whose highlight (lighter than the cloth, so no part of it by the lightness
    test) leaves a thin ring of its colour is still found, at its centre (larger balls are not
    filled: see vision.tracking.local._FILL_BELOW)."""
    scale = 16  # (drawn at 16x and shrunk: anti-aliased edges, as a render's)
    big = np.zeros((60 * scale, 60 * scale, 3), np.uint8)
    big[:] = CLOTH_BGR
    c = np.array([30.3, 29.6])
    cv2.circle(big, tuple((c * scale).round().astype(int)), round(radius * scale), RED_BGR, -1)
    h = (c + np.array(shift)) * scale
    cv2.circle(big, tuple(h.round().astype(int)), round(shine * scale), SHINE_BGR, -1)
    img = np.asarray(cv2.resize(big, (60, 60), interpolation=cv2.INTER_AREA), np.uint8)
    # (Centres of the shrunk picture: pixel (x + 0.5) * scale - 0.5 of the big one.)
    centre = (c * scale + 0.5) / scale - 0.5
    found = search(img, (5, 5, 56, 56), _lab(RED_BGR), radius)
    assert len(found) == 1
    assert float(np.hypot(*(found.pixel[0] - centre))) < 1.0
