"""A ball rolling too slowly to blur is measured by the detector, not by its colour search.

Why: the colour search takes the pixels between a ball's remembered look and the cloth's, and a
ball lit from above lies off that segment: its top lighter and yellower than its mean, its
underside darker. At the far end of a steep broadcast view the search's blob of a rolling yellow
was its shaded underside, a third of a radius low, the look learnt from there fell from
lightness 127 to 75, and the search then took the cushion's shade for the yellow (a rendered
1080p60 stroke). Where the detector finds nothing near the ball, the colour search still does.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import numpy.typing as npt
import pytest

from calibration.table import Colour
from tests.vision.blind import Blind
from vision.detection.detections import COLOURS, UNKNOWN, BallDetections
from vision.tracking.appearance import disc_appearance, lab_distance
from vision.tracking.schedule import ScheduleConfig
from vision.tracking.tracker import Tracker, TrackerState
from vision.tracking.video import VideoTracker
from vision.tracks import TrackState

Image = npt.NDArray[np.uint8]
R = 10.0
# BGR of the Lab colours a rendered far-end yellow showed (broadcast camera): the cloth (109, 79,
# 174); the yellow's lit top (235, 112, 205), its middle (150, 123, 185), its underside (75, 125, 162).
CLOTH = (4, 118, 0)
LIT = (70, 238, 245)
MIDDLE = (29, 142, 160)
SHADED = (10, 69, 79)
YELLOW = COLOURS.index(Colour.YELLOW)
PINK = COLOURS.index(Colour.PINK)
S = 16  # sub-pixel drawing


def _frame(x: float, y: float = 120.0) -> Image:
    """A yellow lit from above at ``(x, y)``: lit on top, in shade below, a band between."""
    img = np.zeros((240, 480, 3), np.uint8)
    img[:] = CLOTH
    ball = np.zeros_like(img)
    ball[: round(y - 0.3 * R)] = LIT
    ball[round(y - 0.3 * R) : round(y + 0.3 * R)] = MIDDLE
    ball[round(y + 0.3 * R) :] = SHADED
    disc = np.zeros((240, 480), np.uint8)
    cv2.circle(disc, (round(x * S), round(y * S)), round(R * S), 255, -1, cv2.LINE_AA, 4)
    alpha = (disc.astype(np.float32) / 255.0)[..., None]
    return np.asarray(np.round(alpha * ball + (1.0 - alpha) * img), np.uint8)


class _Follows:
    """A detector that measures the ball where it is (the test moves it), named ``colour``."""

    def __init__(self, colour: int) -> None:
        self.at = np.zeros(2)
        self.colour = colour
        self.calls = 0

    def detect(self, image: Image, roi: tuple[int, int, int, int] | None = None) -> BallDetections:
        self.calls += 1
        x0, y0, x1, y1 = roi if roi is not None else (0, 0, image.shape[1], image.shape[0])
        if not (x0 <= self.at[0] < x1 and y0 <= self.at[1] < y1):
            return BallDetections.empty()
        return BallDetections.build(self.at[None, :], np.array([R]), colour=np.array([self.colour]))


def _roll(
    detector: _Follows | Blind, speed: float, frames: int
) -> tuple[list[float], list[float], TrackerState]:
    """The yellow rolling east at ``speed`` px a frame (its track told so): per frame, its
    track's distance from the ball and its look's (weighted Lab) from its first."""
    first = _frame(100.0)
    px = np.array([[100.0, 120.0]])
    look = disc_appearance(first, px, np.array([R]))
    seed = TrackerState.seed(["yellow"], px, [R], colour=[YELLOW], appearance=look)
    seed = replace(seed, vel=np.array([[speed, 0.0]]))
    vt = VideoTracker(detector, Tracker(seed), ScheduleConfig(full_every=0))
    errors, drift = [], []
    for f in range(1, frames + 1):
        x = 100.0 + speed * f
        if isinstance(detector, _Follows):
            detector.at = np.array([x, 120.0])
        st = vt.process(_frame(x))
        errors.append(float(np.hypot(st.pos[0, 0] - x, st.pos[0, 1] - 120.0)))
        drift.append(float(lab_distance(st.appearance[0], look[0])))
    return errors, drift, st


@pytest.mark.parametrize("speed", [1.0, 2.5, 4.0])
def test_a_slowly_rolling_ball_is_measured_by_the_detector(speed: float) -> None:
    errors, drift, st = _roll(_Follows(YELLOW), speed, 40)
    assert st.state[0] == TrackState.SEEN
    assert max(errors) < 0.3
    assert max(drift) < 3.0


@pytest.mark.parametrize(("speed", "asked"), [(4.0, True), (8.0, False)])
def test_a_ball_fast_enough_to_blur_is_left_to_the_colour_search(speed: float, asked: bool) -> None:
    """Past ``measure_radii`` (half a radius a frame) the detector is not asked: a streak is
    the colour search's (see :func:`vision.tracking.local.search`)."""
    detector = _Follows(YELLOW)
    _roll(detector, speed, 10)
    assert (detector.calls > 0) == asked


@pytest.mark.parametrize(("named", "exact"), [(YELLOW, True), (UNKNOWN, True), (PINK, False)])
def test_only_a_blob_that_may_be_the_ball_is_taken(named: int, exact: bool) -> None:
    """Named another colour, however weakly, the detector's blob is left (the tracker would
    refuse it, the ball going unseen): the colour search finds the ball."""
    errors, _, st = _roll(_Follows(named), 2.5, 40)
    assert st.state[0] == TrackState.SEEN
    assert (max(errors) < 0.3) == exact
    assert max(errors) < 0.5 * R


def test_where_the_detector_sees_nothing_the_colour_search_finds_it() -> None:
    errors, _, st = _roll(Blind(), 2.5, 40)
    assert st.state[0] == TrackState.SEEN
    assert max(errors) < 0.5 * R


def test_the_colour_search_alone_is_biased_by_the_light() -> None:
    """Why the detector is asked: searched by its colour, the ball's centre lies a third of a
    radius off, and its look, learnt there, fades."""
    errors, drift, _ = _roll(Blind(), 2.5, 40)
    assert np.median(errors) > 0.25 * R
    assert max(drift) > 10.0
