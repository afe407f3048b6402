"""A pack's balls measured by the detector win over another ball's colour-search blob on them.

At 01_break_off's break-off the white's colour search, beside the pack, found blobs of unknown
colour a few pixels off the reds; coming first, they won the dedupe over the detector's reds,
whose tracks then took neighbours' blobs as the break spread them (9 red identity switches
through the live stage, 4 with the detector's reds first).
"""

from __future__ import annotations

from dataclasses import replace as dataclass_replace

import cv2
import numpy as np
import numpy.typing as npt
import pytest

import vision.tracking.video as video
from vision.detection.detections import BallDetections, colour_index
from vision.tracking.appearance import disc_appearance
from vision.tracking.schedule import ScheduleConfig
from vision.tracking.tracker import Tracker, TrackerState
from vision.tracking.video import VideoTracker

R = 10.0
CLOTH = (40, 160, 30)
REDS = np.array([[100.0, 120.0], [120.0, 120.0]])  # touching: a pack of two
WHITE_AT = np.array([170.0, 120.0])
Image = npt.NDArray[np.uint8]


class _Reds:
    """A detector that measures the two reds exactly, wherever it is asked to look."""

    def detect(self, image: Image, roi: tuple[int, int, int, int] | None = None) -> BallDetections:
        return BallDetections.build(REDS.copy(), np.full(2, R), colour=np.full(2, colour_index("red")))


@pytest.mark.parametrize("bias", [(2.5, 1.0), (-2.0, 2.0)])
def test_pack_red_keeps_the_detector_centre(
    monkeypatch: pytest.MonkeyPatch, bias: tuple[float, float]
) -> None:
    frame = np.zeros((240, 320, 3), np.uint8)
    frame[:] = CLOTH
    for c in REDS:
        cv2.circle(frame, (round(c[0]), round(c[1])), round(R), (30, 30, 190), -1)
    cv2.circle(frame, (round(WHITE_AT[0]), round(WHITE_AT[1])), round(R), (235, 240, 240), -1)
    biased = REDS[0] + np.array(bias)

    def white_search(*_: object, **__: object) -> BallDetections:
        # The white's own blob, and one of unknown colour biased off the first red.
        return BallDetections.build(np.array([WHITE_AT, biased]), np.full(2, R))

    monkeypatch.setattr(video, "search", white_search)
    # The reds are moving slowly (a break spreading the pack), so neither is held to a spot.
    step = np.array([1.0, 0.0])
    px = np.vstack([WHITE_AT, REDS - step])
    colours = [colour_index("white"), colour_index("red"), colour_index("red")]
    seed = TrackerState.seed(
        ["white", "red1", "red2"],
        px,
        [R] * 3,
        colour=colours,
        appearance=disc_appearance(frame, px, np.full(3, R)),
    )
    seed = dataclass_replace(seed, vel=np.array([[0.0, 0.0], step, step]))
    vt = VideoTracker(_Reds(), Tracker(seed), ScheduleConfig(full_every=0))
    st = vt.process(frame)
    assert np.linalg.norm(st.pos[1] - REDS[0]) < 0.5  # the detector's centre, not the searched blob
    assert np.linalg.norm(st.pos[2] - REDS[1]) < 0.5
