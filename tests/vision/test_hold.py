"""The cue ball's rest hold: a small drift of its blob (cue tip, hand) is not a move; a stroke is."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.detection.detections import BallDetections
from vision.tracking.departure import find_departure, pure_rows, purity
from vision.tracking.detection_sets import hold, shadowed
from vision.tracking.schedule import ScheduleConfig
from vision.tracking.tracker import TrackerState

R = 10.0


@pytest.mark.parametrize(
    ("shift", "held"),
    [
        ((0.0, 0.0), True),
        ((2.7, 0.0), True),  # the cue tip merged with the blob
        ((0.0, -4.9), True),
        ((5.1, 0.0), False),  # the stroke's first frame
        ((30.0, 10.0), False),
    ],
)
def test_hold(shift: tuple[float, float], held: bool) -> None:
    rest = np.array([[100.0, 50.0]])
    other = np.array([300.0, 40.0])
    det = BallDetections.build(np.array([rest[0] + shift, other]), np.full(2, R))
    out = hold(det, rest, np.array([0.5 * R]))
    assert np.allclose(out.pixel[0], rest[0]) is held
    assert np.allclose(out.pixel[1], other)  # other balls untouched


def test_hold_with_nothing_to_hold() -> None:
    det = BallDetections.build(np.array([[1.0, 2.0]]), np.full(1, R))
    assert np.allclose(hold(det, np.zeros((0, 2)), np.zeros(0)).pixel, det.pixel)
    assert len(hold(BallDetections.empty(), np.array([[1.0, 2.0]]), np.array([5.0]))) == 0


@pytest.mark.parametrize(
    ("look", "t", "pure"),
    [
        ((200.0, 128.0, 128.0), 1.0, True),  # the ball itself
        ((150.0, 100.0, 155.0), 0.5, True),  # a streak: half ball, half cloth
        ((100.0, 72.0, 182.0), 0.0, True),  # the cloth
        ((200.0, 150.0, 160.0), 1.0, False),  # skin: off the segment in chroma
    ],
)
def testpurity(look: tuple[float, float, float], t: float, pure: bool) -> None:
    ball, cloth = np.array([200.0, 128.0, 128.0]), np.array([100.0, 72.0, 182.0])
    got_t, off = purity(np.array([look]), ball, cloth)
    assert got_t[0] == pytest.approx(t, abs=0.15)
    assert bool(off[0] < 0.2) is pure


def test_shadowed() -> None:
    """A whole-table detection on a ball's own measurement is shadowed; a lone one is not."""
    det = BallDetections.build(np.array([[10.0, 10.0], [100.0, 10.0], [12.0, 11.0]]), np.full(3, R))
    whole = np.array([True, True, False])
    assert shadowed(det, whole).tolist() == [True, False, False]


@pytest.mark.parametrize(
    ("bgr", "pure"),
    [
        ((235, 240, 240), True),  # the white itself
        ((138, 200, 135), True),  # its streak: half white, half cloth
        ((120, 160, 215), False),  # the bridge hand's skin
        ((70, 140, 190), False),  # the cue's wood
    ],
)
def test_only_a_blurred_ball_is_pure(bgr: tuple[int, int, int], pure: bool) -> None:
    """In the stroke's first frame a blob by the white's spot is taken for the departing white
    only when it lies on the mix of the white and the cloth; the cue's wood and tip and the
    bridge hand's skin lie off it (see find_departure)."""
    cloth = (40, 160, 30)
    frame = np.zeros((120, 160, 3), np.uint8)
    frame[:] = cloth
    cv2.circle(frame, (80, 60), round(R), bgr, -1)
    white = cv2.cvtColor(np.array([[(235, 240, 240)]], np.uint8), cv2.COLOR_BGR2LAB)[0, 0].astype(np.float64)
    found = BallDetections.build(np.array([[80.0, 60.0]]), np.array([R]))
    got = pure_rows(frame, found, white, R, (0, 0, 160, 120), ScheduleConfig())
    assert got.tolist() == [pure]


def _departure_frame(
    ball: tuple[int, int] | None, tip: tuple[int, int] | None, piece: tuple[int, int] | None
) -> np.ndarray:
    """Cloth with the white at ``ball``, the cue's wood at ``tip`` and a white-ish piece (a
    cue's ferrule, a cuff) at ``piece``."""
    frame = np.zeros((160, 200, 3), np.uint8)
    frame[:] = (40, 160, 30)
    if ball is not None:
        cv2.circle(frame, ball, round(R), (235, 240, 240), -1, cv2.LINE_AA)
    if tip is not None:
        cv2.circle(frame, tip, round(R), (70, 140, 190), -1, cv2.LINE_AA)
    if piece is not None:
        cv2.circle(frame, piece, round(R), (225, 235, 235), -1, cv2.LINE_AA)
    return frame


@pytest.mark.parametrize(
    ("ball", "tip", "piece", "side", "expected"),
    [
        # Still on its spot: the wide search finds it there, which is no departure.
        ((100, 80), None, None, (0.0, 0.0), None),
        # Gone down, the cue's tip (impure) above the spot: the white below.
        ((100, 105), (100, 62), None, (0.0, 0.0), (100, 105)),
        # Gone down, an impure blob below the spot (the ball half under the tip), the changes
        # long from above: the side the changes came from wins over that blob.
        ((100, 112), (100, 93), (100, 42), (0.0, -2.0 * R), (100, 112)),
    ],
)
def test_where_the_white_went(
    ball: tuple[int, int],
    tip: tuple[int, int] | None,
    piece: tuple[int, int] | None,
    side: tuple[float, float],
    expected: tuple[int, int] | None,
) -> None:
    spot = np.array([[100.0, 80.0]])
    frame = _departure_frame(ball, tip, piece)
    look = cv2.cvtColor(np.array([[(235, 240, 240)]], np.uint8), cv2.COLOR_BGR2LAB)[0, 0].astype(np.float64)
    state = TrackerState.seed(["white"], spot, [R], colour=[0], appearance=look[None, :])
    beside = (
        BallDetections.build(np.array([tip], np.float64), np.array([R])) if tip else BallDetections.empty()
    )
    got = find_departure(frame, state, 0, ScheduleConfig(), None, None, beside, np.array(side))
    if expected is None:
        assert got is None
    else:
        assert got is not None
        assert np.hypot(*(got.pixel[0] - expected)) < 0.3 * R


@pytest.mark.parametrize(("side", "tip_taken"), [((0.0, 0.5 * R), False), ((0.0, 0.1 * R), True)])
def test_a_hard_struck_white_impure_by_blur_does_not_send_the_search_to_the_cue(
    side: tuple[float, float], tip_taken: bool
) -> None:
    """A hard stroke's white is a streak of white and cloth that can lie off the colour segment
    (impure), while the cue's ferrule that followed through onto the spot looks white (pure).
    An impure blob beside the spot is the cue's end, unless it lies on the far side from where
    the changes round the addressed ball came from (more than their noise): then it is the
    white, and the cue's side is the changes' (a rendered 1080p60 break-off's white followed
    the cue back to baulk). With changes too weak to tell, the impure blob still says."""
    spot = np.array([[100.0, 80.0]])
    frame = _departure_frame(None, None, (100, 104))
    cv2.ellipse(frame, (100, 50), (round(R), round(2 * R)), 0, 0, 360, (200, 230, 120), -1, cv2.LINE_AA)
    look = cv2.cvtColor(np.array([[(235, 240, 240)]], np.uint8), cv2.COLOR_BGR2LAB)[0, 0].astype(np.float64)
    state = TrackerState.seed(["white"], spot, [R], colour=[0], appearance=look[None, :])
    beside = BallDetections.build(np.array([[100.0, 50.0], [100.0, 104.0]]), np.full(2, R))
    assert pure_rows(frame, beside, look, R, (0, 0, 200, 160), ScheduleConfig()).tolist() == [False, True]
    got = find_departure(frame, state, 0, ScheduleConfig(), None, None, beside, np.array(side))
    took_tip = got is not None and bool(np.hypot(*(got.pixel[0] - (100.0, 104.0))) < 0.3 * R)
    assert took_tip is tip_taken
