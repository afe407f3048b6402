"""A struck ball's faint ghost on the cloth: found as new colour of the ball's kind and a ball's
shape, nothing else (a cue, a player's shadow, a hand, a mark that was there before)."""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt
import pytest

from tests.vision.blind import Blind
from vision.detection.detections import BallDetections
from vision.tracking.appearance import disc_appearance
from vision.tracking.schedule import ScheduleConfig
from vision.tracking.streaks import StreakConfig, blend_share, find_streaks, on_cloth, pick_ghost
from vision.tracking.tracker import Tracker, TrackerState
from vision.tracking.video import VideoTracker
from vision.tracks import TrackState

Image = npt.NDArray[np.uint8]
R = 12.0
CLOTH = np.array([40.0, 150.0, 30.0])  # BGR
BLACK = np.array([20.0, 22.0, 20.0])
SKIN = np.array([150.0, 170.0, 220.0])


def _lab(bgr: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    return cv2.cvtColor(np.array([[bgr]], np.uint8), cv2.COLOR_BGR2LAB)[0, 0].astype(np.float64)


def _cloth(shape: tuple[int, int] = (240, 320), seed: int = 0) -> Image:
    """Cloth with a codec's few levels of noise."""
    rng = np.random.default_rng(seed)
    img = CLOTH[None, None, :] + rng.normal(0.0, 1.5, (*shape, 3))
    return np.asarray(np.clip(img, 0, 255), np.uint8)


def _paint(
    img: Image,
    a: tuple[float, float],
    b: tuple[float, float],
    width: float,
    colour: npt.NDArray[np.float64],
    t: float,
) -> Image:
    """``img`` with a stadium from ``a`` to ``b`` (``width`` across) blended ``t`` of the way to
    ``colour``."""
    mask = np.zeros(img.shape[:2], np.uint8)
    cv2.line(mask, (round(a[0]), round(a[1])), (round(b[0]), round(b[1])), 1, max(1, round(width)))
    cv2.circle(mask, (round(a[0]), round(a[1])), round(width / 2), 1, -1)
    cv2.circle(mask, (round(b[0]), round(b[1])), round(width / 2), 1, -1)
    out = img.astype(np.float64)
    m = mask.astype(bool)
    out[m] = (1.0 - t) * out[m] + t * colour
    return np.asarray(np.clip(out, 0, 255), np.uint8)


def test_blend_share_reads_the_mix() -> None:
    """A pixel a third of the way from its old colour to the ball's is read as 0.33 of the ball,
    on the segment."""
    before = _lab(CLOTH)[None, :].astype(np.float32)
    ball = _lab(BLACK)
    now = (before + 0.33 * (ball - before)).astype(np.float32)
    t, off = blend_share(now, before, ball)
    assert abs(float(t[0]) - 0.33) < 0.01 and float(off[0]) < 0.01


# Each case: what is painted on this frame (a, b, width in diameters, colour, share), what the
# frame before shows there too (None: bare cloth), and whether a ghost is found at its middle.
GHOST_CASES = [
    # a struck black a third of its colour, a diameter wide, one and a half long, heading away
    ("black ghost", ((130.0, 120.0), (148.0, 124.0), 1.0, BLACK, 0.33), None, True),
    ("fainter black ghost", ((130.0, 120.0), (148.0, 124.0), 0.9, BLACK, 0.22), None, True),
    ("long streak pointing back to the spot", ((120.0, 120.0), (190.0, 120.0), 1.0, BLACK, 0.3), None, True),
    (
        "long streak across the line from the spot",
        ((150.0, 80.0), (150.0, 160.0), 1.0, BLACK, 0.3),
        None,
        False,
    ),
    ("a dark mark that was there before", ((130.0, 120.0), (148.0, 124.0), 1.0, BLACK, 0.33), "same", False),
    ("a cue's shadow: a fifth of a diameter", ((100.0, 150.0), (200.0, 160.0), 0.2, BLACK, 0.5), None, False),
    (
        "a player's shadow: several balls across",
        ((120.0, 60.0), (200.0, 180.0), 4.0, BLACK, 0.4),
        None,
        False,
    ),
    ("a hand: off the segment", ((130.0, 120.0), (148.0, 124.0), 1.0, SKIN, 0.8), None, False),
    ("the codec's noise level", ((130.0, 120.0), (148.0, 124.0), 1.0, BLACK, 0.06), None, False),
]


@pytest.mark.parametrize(("name", "paint", "before", "found"), GHOST_CASES, ids=[c[0] for c in GHOST_CASES])
@pytest.mark.parametrize("roi", [(40, 40, 280, 200), (0, 0, 320, 240)])
def test_ghosts_and_what_is_not_one(
    name: str,
    paint: tuple[tuple[float, float], tuple[float, float], float, npt.NDArray[np.float64], float],
    before: str | None,
    found: bool,
    roi: tuple[int, int, int, int],
) -> None:
    """A ghost of the black (last seen at (100, 120)) is found at its middle; the rest is not a ball's."""
    a, b, width, colour, t = paint
    back = _cloth(seed=1)
    img = _paint(_cloth(seed=2), a, b, width * 2 * R, colour, t)
    if before == "same":
        back = _paint(back, a, b, width * 2 * R, colour, t)
    out = find_streaks(img, back, roi, _lab(BLACK), R, origin=np.array([100.0, 120.0]))
    middle = 0.5 * (np.array(a) + np.array(b))
    hit = bool(len(out)) and float(np.min(np.linalg.norm(out.pixel - middle, axis=1))) < 0.3 * R
    assert hit == found
    if not found:
        assert len(out) == 0


def test_ghost_outside_the_surface_is_not_looked_at() -> None:
    """The playing-surface mask bounds the search: a ghost beyond it (a dark shirt passing the
    rail) is nothing."""
    img = _paint(_cloth(seed=2), (130.0, 120.0), (148.0, 124.0), 2 * R, BLACK, 0.33)
    region = np.zeros(img.shape[:2], bool)
    region[:, 200:] = True
    assert len(find_streaks(img, _cloth(seed=1), (0, 0, 320, 240), _lab(BLACK), R, region=region)) == 0


@pytest.mark.parametrize(
    ("others", "expected"),
    [
        (np.zeros((0, 2)), (150.0, 120.0)),  # no other ball: the one nearest the prediction
        (np.array([[152.0, 118.0]]), (200.0, 120.0)),  # the nearer one is beside another ball: its shadow
        (np.array([[np.nan, np.nan]]), (150.0, 120.0)),  # a ball off the table is nowhere
        (np.array([[150.0, 100.0], [202.0, 130.0]]), None),  # both beside one
    ],
)
def test_pick_ghost(others: npt.NDArray[np.float64], expected: tuple[float, float] | None) -> None:
    found = BallDetections.build(np.array([[200.0, 120.0], [150.0, 120.0]]), np.full(2, R))
    out = pick_ghost(found, np.array([140.0, 120.0]), others, np.full(len(others), R))
    if expected is None:
        assert len(out) == 0
    else:
        assert len(out) == 1 and np.allclose(out.pixel[0], expected)


@pytest.mark.parametrize(
    ("rested", "share", "followed"),
    [
        (20, 0.2, True),
        (20, 0.05, False),  # a ghost under the codec's noise is no sighting: it is lost
        (3, 0.2, False),  # no spot it rested on to leave: a wandering track's, not a strike
    ],
)
def test_struck_black_followed_by_its_ghost(rested: int, share: float, followed: bool) -> None:
    """A black at rest on its spot for ``rested`` frames, struck, travels as a ghost of ``share``
    of its colour, 3 radii a frame: the tracker follows it."""
    spot = np.array([60.0, 120.0])
    rest = cv2.circle(_cloth(seed=3), (60, 120), round(R), tuple(int(c) for c in BLACK), -1)
    px = spot[None, :]
    seed = TrackerState.seed(
        ["black"], px, [R], colour=[7], appearance=disc_appearance(rest, px, np.array([R]))
    )
    vt = VideoTracker(Blind(), Tracker(seed), ScheduleConfig(full_every=0))
    for _ in range(rested):
        vt.process(rest)
    at = spot.copy()
    for f in range(6):
        at = spot + np.array([3.0 * R * (f + 1), 0.0])
        img = _paint(
            _cloth(seed=20 + f), (at[0] - 0.5 * R, at[1]), (at[0] + 0.5 * R, at[1]), 2 * R, BLACK, share
        )
        st = vt.process(img)
    if followed:
        assert st.state[0] == TrackState.SEEN
        assert np.linalg.norm(st.pos[0] - at) < 0.5 * R
    else:
        assert st.state[0] != TrackState.SEEN
        assert np.linalg.norm(st.pos[0] - at) > 3.0 * R


JACKET = np.array([60.0, 30.0, 25.0])  # BGR: a dark navy suit


@pytest.mark.parametrize(
    ("jacket", "found"),
    [
        (False, True),  # the ghost on bare cloth
        (True, False),  # the same patch inside a dark jacket over the table: a fold moving
    ],
)
def test_ghost_must_lie_on_the_cloth(jacket: bool, found: bool) -> None:
    """A ball-sized darkening on the black's segment counts only where the cloth shows round it
    (Task2 clip 20: a player walked past the black, and the folds of his jacket were ghosts)."""
    back, img = _cloth(seed=1), _cloth(seed=2)
    if jacket:
        for im in (back, img):
            cv2.rectangle(im, (90, 60), (260, 200), tuple(int(c) for c in JACKET), -1)
    img = _paint(img, (130.0, 120.0), (148.0, 124.0), 2 * R, BLACK, 0.33)
    region = np.ones(img.shape[:2], bool)
    out = find_streaks(
        img, back, (40, 40, 280, 200), _lab(BLACK), R, np.array([100.0, 120.0]), region, cloth=_lab(CLOTH)
    )
    assert bool(len(out)) == found


@pytest.mark.parametrize(
    ("jacket_from", "surface", "expected"),
    [
        (None, False, True),  # all cloth round it
        (0, False, False),  # all jacket
        (72, False, True),  # the jacket takes the ring's far side: most of it is cloth
        (45, False, False),  # the jacket takes most of it
        (45, True, True),  # ... beyond the playing surface (a cushion, the rail): not counted
    ],
)
def test_on_cloth(jacket_from: int | None, surface: bool, expected: bool) -> None:
    """The ring round a ghost at (60, 60) shows the cloth, or not, with a jacket from a column on."""
    img = _cloth(seed=4)
    region = np.ones(img.shape[:2], bool)
    if jacket_from is not None:
        img[:, jacket_from:] = JACKET
        if surface:
            region[:, jacket_from:] = False
    lab = cv2.cvtColor(img, cv2.COLOR_BGR2LAB).astype(np.float32)
    assert on_cloth(lab, np.array([60.0, 60.0]), R, _lab(CLOTH)[1:], region, StreakConfig()) == expected
