"""The video tracker's local search at a cushion and its test for a resting ball."""

from __future__ import annotations

from dataclasses import replace as dataclass_replace

import cv2
import numpy as np
import numpy.typing as npt
import pytest

from tests.vision.blind import Blind
from vision.detection.detections import BallDetections
from vision.tracking.appearance import disc_appearance
from vision.tracking.local import search
from vision.tracking.schedule import ScheduleConfig
from vision.tracking.tracker import Tracker, TrackerState
from vision.tracking.video import VideoTracker
from vision.tracks import TrackState

R = 10.0
CLOTH = (40, 160, 30)
RED = (30, 30, 190)
Image = npt.NDArray[np.uint8]


def _lab(bgr: tuple[int, int, int]) -> npt.NDArray[np.float64]:
    return cv2.cvtColor(np.array([[bgr]], np.uint8), cv2.COLOR_BGR2LAB)[0, 0].astype(np.float64)


def _half_ball(visible: float) -> tuple[Image, npt.NDArray[np.float64]]:
    """A red whose lower part is hidden by a cushion's nose: ``visible`` of its height shows."""
    img = np.zeros((100, 120, 3), np.uint8)
    img[:] = CLOTH
    centre = np.array([60.0, 50.0])
    cv2.circle(img, (60, 50), round(R), RED, -1)
    cut = round(centre[1] - R + visible * 2 * R)
    img[cut:] = CLOTH
    ys, xs = np.nonzero(np.all(img == RED, axis=2))
    return img, np.array([xs.mean(), ys.mean()])


@pytest.mark.parametrize("visible", [0.35, 0.4, 0.45])
def test_half_hidden_ball_found_beside_a_cushion(visible: float) -> None:
    """A ball cut to under half its height by the cushion is found where its visible part is."""
    img, middle = _half_ball(visible)
    found = search(img, (0, 0, 120, 100), _lab(RED), R, min_half=0.3).pixel
    assert len(found) == 1
    assert np.linalg.norm(found[0] - middle) < 2.0


def test_half_hidden_ball_needs_min_half() -> None:
    """Away from a cushion a blob that thin is no ball (a cue's shaft is about as thin)."""
    img, _ = _half_ball(0.35)
    assert len(search(img, (0, 0, 120, 100), _lab(RED), R).pixel) == 0


@pytest.mark.parametrize(("dx", "dy"), [(20.0, 0.0), (14.0, 14.0), (0.0, 21.0)])
def test_touching_balls_stay_apart_with_min_half(dx: float, dy: float) -> None:
    """The half-ball rule adds thin blobs only; two touching reds are still two centres."""
    img = np.zeros((120, 120, 3), np.uint8)
    img[:] = CLOTH
    a = np.array([50.0, 50.0])
    b = a + np.array([dx, dy])
    for c in (a, b):
        cv2.circle(img, (round(c[0]), round(c[1])), round(R), RED, -1)
    found = search(img, (0, 0, 120, 120), _lab(RED), R, min_half=0.3).pixel
    assert len(found) == 2
    for c in (a, b):
        assert np.min(np.linalg.norm(found - c, axis=1)) < 2.0


def _frame(x: float) -> Image:
    img = np.zeros((240, 320, 3), np.uint8)
    img[:] = CLOTH
    # Sub-pixel centre (shift=4: 1/16 pixel) so a slow ball moves a little in every frame.
    cv2.circle(img, (round(x * 16), 120 * 16), round(R * 16), RED, -1, cv2.LINE_AA, 4)
    return img


@pytest.mark.parametrize("speed", [0.2, 0.35])
def test_creeping_ball_is_not_frozen(speed: float) -> None:
    """A ball creeping slower than ``rest_speed`` is re-measured once it has moved, not carried.

    Frame to frame it changes the thumbnail too little to count as motion; against the frame it
    was last measured in it does, after a few frames.
    """
    first = _frame(100.0)
    px = np.array([[100.0, 120.0]])
    seed = TrackerState.seed(["red1"], px, [R], appearance=disc_appearance(first, px, np.array([R])))
    vt = VideoTracker(Blind(), Tracker(seed), ScheduleConfig(full_every=0))
    n = 80
    for f in range(n):
        st = vt.process(_frame(100.0 + speed * f))
    assert abs(st.pos[0, 0] - (100.0 + speed * (n - 1))) < 0.5 * R


class _Exact:
    """A detector that measures one known ball exactly, in the colour it is given."""

    def __init__(self, centre: tuple[float, float], colour: int) -> None:
        self.centre = centre
        self.colour = colour

    def detect(self, image: Image, roi: tuple[int, int, int, int] | None = None) -> BallDetections:
        return BallDetections.build(np.array([self.centre]), np.array([R]), colour=np.array([self.colour]))


@pytest.mark.parametrize(("colour", "settles"), [(1, True), (-1, False)])
@pytest.mark.parametrize("shift", [(2.0, 1.5), (-3.0, 2.0)])
def test_ball_come_to_rest_takes_the_detector_centre(
    colour: int, settles: bool, shift: tuple[float, float]
) -> None:
    """A resting ball of known colour takes the detector's centre (within ``settle_radii`` of its
    searched one) once it is at rest, at rest; one of unknown colour keeps its searched centre."""
    frame = np.zeros((240, 320, 3), np.uint8)
    frame[:] = CLOTH
    cv2.circle(frame, (100, 120), round(R), RED, -1)
    detector_says = (100.0 + shift[0], 120.0 + shift[1])
    px = np.array([[100.0, 120.0]])
    seed = TrackerState.seed(
        ["red1"], px, [R], colour=[colour], appearance=disc_appearance(frame, px, np.array([R]))
    )
    vt = VideoTracker(_Exact(detector_says, colour), Tracker(seed), ScheduleConfig(full_every=0))
    for _ in range(5):
        st = vt.process(frame)
    err = float(np.linalg.norm(st.pos[0] - np.array(detector_says)))
    assert (err < 0.01) == settles
    assert np.hypot(*st.vel[0]) < 0.1


@pytest.mark.parametrize("share", [0.4, 0.5])
def test_white_brighter_than_remembered_is_found(share: float) -> None:
    """A white remembered as a darker blend with the cloth (taken in shade, or with cloth at its
    rim) is still found where it shows brighter: nothing of its colour lies beyond it."""
    white = (235, 240, 240)
    img = np.zeros((100, 120, 3), np.uint8)
    img[:] = CLOTH
    cv2.circle(img, (60, 50), round(R), white, -1)
    remembered = share * _lab(white) + (1 - share) * _lab(CLOTH)
    found = search(img, (0, 0, 120, 100), remembered, R).pixel
    assert len(found) == 1
    assert np.linalg.norm(found[0] - np.array([60.0, 50.0])) < 1.5


class _Counting(_Exact):
    """An exact detector that counts the times it is asked."""

    def __init__(self, centre: tuple[float, float], colour: int) -> None:
        super().__init__(centre, colour)
        self.calls = 0

    def detect(self, image: Image, roi: tuple[int, int, int, int] | None = None) -> BallDetections:
        self.calls += 1
        return super().detect(image, roi)


@pytest.mark.parametrize("creeps", [False, True])
def test_a_ball_at_rest_is_re_measured_only_while_its_picture_changes(creeps: bool) -> None:
    """A ball that rolled to rest is re-measured every ``settle_every`` frames for ``settle_for``
    frames while it may still creep; with the picture round it unchanged the detector would say
    what it said, so it is not asked again (a 720p frame of re-settling cost 1.2 ms)."""
    sch = ScheduleConfig(full_every=0)
    # It rolls 5 px a frame (plainly moving to the change test), stops, then stays or creeps.
    x = [100.0 + 5.0 * f for f in range(6)] + [127.0] * (sch.settle_for + 6)
    if creeps:  # it creeps on a tenth of a pixel a frame: the picture keeps changing
        x = x[:6] + [127.0 + 0.1 * k for k in range(sch.settle_for + 6)]
    px = np.array([[x[0], 120.0]])
    det = _Counting((x[0], 120.0), 1)
    first = _frame(x[0])
    seed = TrackerState.seed(
        ["red1"], px, [R], colour=[1], appearance=disc_appearance(first, px, np.array([R]))
    )
    vt = VideoTracker(det, Tracker(seed), sch)
    asked = []
    for xf in x:
        det.centre = (xf, 120.0)
        before = det.calls
        slowed = np.hypot(*vt.tracker.state.vel[0]) < sch.rest_speed
        vt.process(_frame(xf))
        asked.append(det.calls > before and slowed)
    # (While its track still slows after the stop it rolls, measured as a rolling ball is.)
    at_rest = asked[8:]
    if creeps:
        # Asked again each time the creep has changed the picture: it is followed to its end.
        assert sum(at_rest) >= 3
        assert abs(vt.tracker.state.pos[0, 0] - x[-1]) < 0.6
    else:
        assert sum(at_rest) <= 2


def test_a_ball_just_taken_off_the_table_is_looked_for_as_a_lost_one() -> None:
    """For ``gone_for`` frames after the tracker takes a ball off the table the whole table is
    searched every ``lost_every`` frames (a ball measured once over a pocket's mouth, that in fact
    struck the jaw and rolled on, is found again within a few frames); then no more."""
    frame = np.zeros((240, 320, 3), np.uint8)
    frame[:] = CLOTH
    cv2.circle(frame, (100, 120), round(R), RED, -1)
    px = np.array([[100.0, 120.0]])
    seed = TrackerState.seed(["red1"], px, [R], appearance=disc_appearance(frame, px, np.array([R])))
    sch = ScheduleConfig(full_every=0, lost_every=3, gone_for=12)
    vt = VideoTracker(Blind(), Tracker(seed), sch)
    vt.process(frame)
    real_update = vt.tracker.update

    def pot_it(*args: object, **kwargs: object) -> TrackerState:
        st = real_update(*args, **kwargs)  # type: ignore[arg-type]
        vt.tracker.state = dataclass_replace(st, state=np.full(1, TrackState.ABSENT, np.int8))
        return vt.tracker.state

    vt.tracker.update = pot_it  # type: ignore[method-assign]
    vt.process(frame)  # the ball leaves the table in this frame
    before = vt.full_detections
    for _ in range(12):
        vt.process(frame)
    assert vt.full_detections - before == 4  # every third frame of the twelve
    before = vt.full_detections
    for _ in range(12):
        vt.process(frame)
    assert vt.full_detections == before


@pytest.mark.parametrize(("moved", "asked_again"), [(0.0, False), (3.0, True)])
def test_a_ball_still_again_as_it_was_keeps_its_measured_centre(moved: float, asked_again: bool) -> None:
    """A resting ball disturbed by motion beside it (a hand passing by) is measured again by the
    detector when all is still once more only if the picture round it changed: the same picture
    measures the same (in a break-off most of these measurements found the ball where it was)."""
    sch = ScheduleConfig(full_every=0, thumb=0.5)
    big = 3 * R

    def table(x: float, hand: bool) -> Image:
        img = np.zeros((240, 320, 3), np.uint8)
        img[:] = CLOTH
        cv2.circle(img, (round(x), 120), round(big), RED, -1)
        if hand:  # beside the ball: inside its change window, outside ``rest_radii`` of it
            cv2.rectangle(img, (round(x + 1.7 * big), 100), (round(x + 1.95 * big), 140), (200, 200, 200), -1)
        return img

    px = np.array([[100.0, 120.0]])
    det = _Counting((100.0, 120.0), 1)
    first = table(100.0, False)
    seed = TrackerState.seed(
        ["red1"], px, [big], colour=[1], appearance=disc_appearance(first, px, np.array([big]))
    )
    vt = VideoTracker(det, Tracker(seed), sch)
    for _ in range(4):
        vt.process(first)
    assert det.calls >= 1  # measured once it was at rest
    det.centre = (100.0 + moved, 120.0)
    before = det.calls
    for _ in range(3):  # the hand comes (and moves the ball or not), stays, then goes
        vt.process(table(100.0 + moved, True))
    for _ in range(4):
        st = vt.process(table(100.0 + moved, False))
    assert (det.calls > before) == asked_again
    assert vt.settles_reused >= 1  # (still again as when last measured, at least once)
    assert abs(st.pos[0, 0] - (100.0 + moved)) < 0.5


@pytest.mark.parametrize(("name", "searches"), [("white", 8), ("red1", 0)])
def test_the_white_in_hand_is_looked_for_as_a_lost_ball(name: str, searches: int) -> None:
    """A white off the table since the video began (a break-off's, in hand) is searched for
    every ``lost_every`` frames, not only by the periodic search: it is put down in the D within
    seconds, and may be covered by the cue's arm soon after. Another ball off the table since the
    video began is left to the periodic search."""
    frame = np.zeros((240, 320, 3), np.uint8)
    frame[:] = CLOTH
    seed = TrackerState.seed([name], np.full((1, 2), np.nan), [R])
    vt = VideoTracker(Blind(), Tracker(seed), ScheduleConfig(full_every=0, lost_every=3))
    for _ in range(24):
        vt.process(frame)
    assert vt.full_detections == searches
