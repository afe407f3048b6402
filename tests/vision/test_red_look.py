"""A one-colour ball refuses unnamed blobs that look like a red (vision.tracking.red_look)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import numpy.typing as npt
import pytest

from calibration.table import Colour
from vision.detection.detections import COLOURS, UNKNOWN, BallDetections
from vision.tracking.red_look import looks_coloured, looks_red
from vision.tracking.tracker import Tracker, TrackerState
from vision.tracks import TrackState

RED = COLOURS.index(Colour.RED)
BROWN = COLOURS.index(Colour.BROWN)
PINK = COLOURS.index(Colour.PINK)
W = np.array([0.5, 1.0, 1.0])
#: Lab looks (OpenCV 8-bit) as a broadcast render's far end shows them: the brown and a red there
#: differ by less than a fifth of the tracker's appearance limit; a red near the camera is redder.
BROWN_LOOK = (38.0, 137.0, 147.0)
FAR_RED = (44.0, 142.0, 151.0)
NEAR_RED = (65.0, 171.0, 160.0)
PINK_LOOK = (170.0, 160.0, 130.0)
NAN3 = (np.nan, np.nan, np.nan)
#: A far red's blob, and where the balls lie.
RB = (43.0, 141.0, 151.0)
AT, NEXT, FAR = (0.0, 0.0), (20.0, 0.0), (500.0, 500.0)


def _ball_rows(
    balls: list[tuple[int, tuple[float, float, float], tuple[float, float]]],
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.bool_]]:
    """The tracked balls' colour, look, pixel and sharpness rows (every ball sharp)."""
    return (
        np.array([c for c, _, _ in balls], np.int64),
        np.array([lk for _, lk, _ in balls], np.float64),
        np.array([p for _, _, p in balls], np.float64),
        np.ones(len(balls), bool),
    )


@pytest.mark.parametrize(
    ("balls", "dets", "expect"),
    [
        # balls: (colour, look, pixel); dets: (colour, look, pixel); expect: refused (ball, det)
        # The far red's blob is nearer the far red's look than the brown's: refused to the brown.
        ([(BROWN, BROWN_LOOK, AT), (RED, FAR_RED, NEXT)], [(UNKNOWN, RB, NEXT)], [(0, 0)]),
        # The brown's own blob is not.
        ([(BROWN, BROWN_LOOK, AT), (RED, FAR_RED, NEXT)], [(UNKNOWN, (37, 136, 146), AT)], []),
        # The red the blob is compared with is the one nearest it in the picture: against the
        # pack's redder red far off, the far red's blob would pass for the brown.
        (
            [(BROWN, BROWN_LOOK, AT), (RED, FAR_RED, NEXT), (RED, NEAR_RED, FAR)],
            [(UNKNOWN, RB, NEXT)],
            [(0, 0)],
        ),
        ([(BROWN, BROWN_LOOK, AT), (RED, NEAR_RED, FAR)], [(UNKNOWN, RB, NEXT)], []),
        # A named blob is left to its name; a red takes what it likes; an unmeasured blob or a
        # ball of unknown look refuses nothing.
        ([(BROWN, BROWN_LOOK, AT), (RED, FAR_RED, NEXT)], [(BROWN, RB, NEXT)], []),
        ([(RED, BROWN_LOOK, AT), (RED, FAR_RED, NEXT)], [(UNKNOWN, RB, NEXT)], []),
        ([(BROWN, BROWN_LOOK, AT), (RED, FAR_RED, NEXT)], [(UNKNOWN, NAN3, NEXT)], []),
        ([(BROWN, NAN3, AT), (RED, FAR_RED, NEXT)], [(UNKNOWN, RB, NEXT)], []),
        # No red of known look and place: nothing to compare with.
        ([(BROWN, BROWN_LOOK, AT), (RED, NAN3, NEXT)], [(UNKNOWN, RB, NEXT)], []),
        # The pink's own blob beside a red is its own; the red's blob is refused to it.
        (
            [(PINK, PINK_LOOK, AT), (RED, NEAR_RED, NEXT)],
            [(UNKNOWN, (168, 158, 131), AT), (UNKNOWN, (66, 170, 160), NEXT)],
            [(0, 1)],
        ),
    ],
)
def test_looks_red(
    balls: list[tuple[int, tuple[float, float, float], tuple[float, float]]],
    dets: list[tuple[int, tuple[float, float, float], tuple[float, float]]],
    expect: list[tuple[int, int]],
) -> None:
    """Which unnamed blobs each sharp one-colour ball refuses as reds."""
    got = looks_red(
        *_ball_rows(balls),
        np.array([p for _, _, p in dets], np.float64),
        np.array([c for c, _, _ in dets], np.int64),
        np.array([lk for _, lk, _ in dets], np.float64),
        W,
    )
    want = np.zeros((len(balls), len(dets)), bool)
    for b, n in expect:
        want[b, n] = True
    assert np.array_equal(got, want)


def test_looks_red_streak_and_no_appearance() -> None:
    """A streaking ball (not sharp) and a frame without looks refuse nothing."""
    args = (
        np.array([BROWN, RED], np.int64),
        np.array([BROWN_LOOK, FAR_RED], np.float64),
        np.array([(0.0, 0.0), (20.0, 0.0)]),
    )
    det = (np.array([(20.0, 0.0)]), np.array([UNKNOWN], np.int64))
    assert not looks_red(*args, np.zeros(2, bool), *det, np.array([(43.0, 141.0, 151.0)]), W).any()
    assert not looks_red(*args, np.ones(2, bool), *det, None, W).any()


def test_tracker_brown_refuses_a_reds_blob() -> None:
    """Lost a frame, the brown's grown gate holds only a passing red's unnamed blob: it stays
    unmatched instead of following the red (the rendered break-off's far-end brown)."""
    names = ["brown", "red1"]
    pos = np.array([[100.0, 100.0], [140.0, 100.0]])
    state = TrackerState.seed(
        names, pos, np.full(2, 6.0), colour=np.array([BROWN, RED]), appearance=np.array([BROWN_LOOK, FAR_RED])
    )
    state = _unseen(state, np.array([1, 0]))
    tracker = Tracker(state)
    det = BallDetections.build(np.array([[112.0, 100.0]]), np.array([6.0]), colour=np.array([UNKNOWN]))
    new = tracker.update(det, np.array([(43.0, 141.0, 151.0)]))
    assert new.state[0] == TrackState.PREDICTED


def _unseen(state: TrackerState, unseen: np.ndarray) -> TrackerState:
    """``state`` with ``unseen`` frames per ball (those unseen predicted)."""
    st = np.where(unseen > 0, TrackState.PREDICTED, TrackState.SEEN).astype(np.int8)
    return replace(state, unseen=unseen.astype(np.int64), state=st)


PINK_BLOB = (165.0, 158.0, 132.0)
RED_AT_REST = (92.0, 184.0, 172.0)


@pytest.mark.parametrize(
    ("balls", "dets", "expect"),
    [
        # balls: (colour, look, pixel); dets: (look, pixel); expect: refused (ball, det)
        # The pink's blob beside the pack is refused to a red, whatever the detector named it.
        ([(RED, RED_AT_REST, AT), (PINK, PINK_LOOK, NEXT)], [(PINK_BLOB, NEXT)], [(0, 0)]),
        # A red's own blob is not.
        ([(RED, RED_AT_REST, AT), (PINK, PINK_LOOK, NEXT)], [((90.0, 182.0, 170.0), AT)], []),
        # The one-colour ball compared with is the one nearest the blob: a far red's blob, beside
        # the far-end brown, is its red's (its own look is the far light's), not the brown's.
        ([(RED, FAR_RED, AT), (BROWN, BROWN_LOOK, NEXT), (PINK, PINK_LOOK, FAR)], [(RB, AT)], []),
        # Unmeasured blobs, reds of unknown look and tables without a placed one-colour ball
        # refuse nothing.
        ([(RED, RED_AT_REST, AT), (PINK, PINK_LOOK, NEXT)], [(NAN3, NEXT)], []),
        ([(RED, NAN3, AT), (PINK, PINK_LOOK, NEXT)], [(PINK_BLOB, NEXT)], []),
        ([(RED, RED_AT_REST, AT), (PINK, PINK_LOOK, (np.nan, np.nan))], [(PINK_BLOB, NEXT)], []),
        # A one-colour ball is not refused by this rule (see looks_red).
        ([(PINK, PINK_LOOK, AT), (RED, RED_AT_REST, NEXT)], [(RB, NEXT)], []),
    ],
)
def test_looks_coloured(
    balls: list[tuple[int, tuple[float, float, float], tuple[float, float]]],
    dets: list[tuple[tuple[float, float, float], tuple[float, float]]],
    expect: list[tuple[int, int]],
) -> None:
    """Which blobs each sharp red refuses as the nearest one-colour ball's."""
    got = looks_coloured(
        *_ball_rows(balls),
        np.array([p for _, p in dets], np.float64),
        np.array([lk for lk, _ in dets], np.float64),
        W,
    )
    want = np.zeros((len(balls), len(dets)), bool)
    for b, n in expect:
        want[b, n] = True
    assert np.array_equal(got, want)


def test_looks_coloured_streak() -> None:
    """A rolling red (not sharp: its blob mixed with the cloth) refuses nothing."""
    got = looks_coloured(
        np.array([RED, PINK], np.int64),
        np.array([RED_AT_REST, PINK_LOOK], np.float64),
        np.array([AT, NEXT], np.float64),
        np.zeros(2, bool),
        np.array([NEXT], np.float64),
        np.array([PINK_BLOB], np.float64),
        W,
    )
    assert not got.any()


def test_tracker_red_refuses_the_pinks_blob() -> None:
    """A red lost a frame at rest does not take the blob the detector named red beside it that
    looks more like the pink than like it (synthetic 01_break_off, frame 190), though within
    the tracker's look limit of both."""
    names = ["red1", "pink"]
    pos = np.array([[100.0, 100.0], [112.0, 100.0]])
    state = TrackerState.seed(
        names,
        pos,
        np.full(2, 6.0),
        colour=np.array([RED, PINK]),
        appearance=np.array([RED_AT_REST, PINK_LOOK]),
    )
    state = _unseen(state, np.array([1, 1]))
    det = BallDetections.build(np.array([[112.0, 100.0]]), np.array([6.0]), colour=np.array([RED]))
    new = Tracker(state).update(det, np.array([(130.0, 170.0, 150.0)]))
    assert new.state[0] == TrackState.PREDICTED
