"""Red identity switches: a ball carried where it no longer is, two reds struck unseen the same
frame, and a lost red's grown gate over another ball's misnamed blob."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from calibration.table import Colour
from vision.detection.detections import COLOURS
from vision.tracking.strays import strayed_to

RED = COLOURS.index(Colour.RED)
PINK = COLOURS.index(Colour.PINK)
RED_BGR = (30, 30, 190)


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
