"""The spots of the colours off the table: looked at when their picture changes, and only then."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest

from calibration.table import TABLE, Colour
from vision.detection.detections import COLOURS, BallDetections
from vision.tracking.respot import SpotWatch, spot_pixels

R = 6.0
PINK, RED, BLUE = (COLOURS.index(c) for c in (Colour.PINK, Colour.RED, Colour.BLUE))
NAMES = ("white", "pink", "red1")
SPOTS = np.array([[np.nan, np.nan], [100.0, 60.0], [np.nan, np.nan]])
COLOUR = np.array([COLOURS.index(Colour.WHITE), PINK, RED], np.int64)


class Scripted:
    """A detector that finds what it is told, and counts its calls."""

    def __init__(self, found: list[tuple[float, float, int]]) -> None:
        self.found = found
        self.calls = 0

    def detect(
        self, image: npt.NDArray[np.uint8], roi: tuple[int, int, int, int] | None = None
    ) -> BallDetections:
        self.calls += 1
        if not self.found:
            return BallDetections.empty()
        return BallDetections.build(
            [(u, v) for u, v, _ in self.found], [R] * len(self.found), [c for _, _, c in self.found]
        )


def _thumb(level: int) -> npt.NDArray[np.int16]:
    return np.full((30, 40), level, np.int16)


FRAME = np.zeros((120, 160, 3), np.uint8)
#: No ball followed on the table near the spot.
NOBODY = np.zeros((0, 2))


@pytest.mark.parametrize(
    ("found", "kept"),
    [
        ([(101.0, 61.0, PINK)], 1),  # the pink put back on its spot
        ([(101.0, 61.0, BLUE)], 0),  # another colour there is not the pink
        ([(101.0 + 2 * R, 60.0, PINK)], 0),  # a pink two radii off its spot: not re-spotted here
        ([], 0),
    ],
)
def test_only_the_spots_own_colour_on_the_spot(found: list[tuple[float, float, int]], kept: int) -> None:
    watch = SpotWatch(SPOTS, every=3, change=12.0)
    absent = np.array([False, True, False])
    got = watch.look(FRAME, _thumb(0), 0.25, 0, absent, COLOUR, R, Scripted(found), NOBODY)
    assert len(got) == kept


@pytest.mark.parametrize(
    ("followed", "kept"),
    [
        ([(100.0 + 1.5 * R, 61.0)], 0),  # a red the tracker follows rolls over the spot: that red
        ([(100.0 + 3.0 * R, 61.0)], 1),  # a ball three radii off: the pink is back on its spot
    ],
)
def test_a_ball_the_tracker_follows_is_no_re_spot(followed: list[tuple[float, float]], kept: int) -> None:
    watch = SpotWatch(SPOTS)
    absent = np.array([False, True, False])
    det = Scripted([(101.0, 61.0, PINK)])
    got = watch.look(FRAME, _thumb(0), 0.25, 0, absent, COLOUR, R, det, np.array(followed))
    assert len(got) == kept


def test_a_spot_is_looked_at_again_only_when_its_picture_changed() -> None:
    watch = SpotWatch(SPOTS, every=3, change=12.0)
    det = Scripted([])
    absent = np.array([False, True, False])
    levels = [0, 0, 0, 0, 50, 50, 50, 50, 60, 90, 90, 90, 90]
    for k, level in enumerate(levels):
        watch.look(FRAME, _thumb(level), 0.25, k, absent, COLOUR, R, det, NOBODY)
    # Frame 0 (gone off the table), frame 4 (a hand comes: changed), frame 9 (changed again,
    # three frames after); frame 8's change of 10 levels is under the threshold.
    assert det.calls == 3


def test_nothing_is_looked_at_while_every_colour_is_on_the_table() -> None:
    watch = SpotWatch(SPOTS)
    det = Scripted([(100.0, 60.0, PINK)])
    for k in range(10):
        watch.look(FRAME, _thumb(k * 20), 0.25, k, np.zeros(3, bool), COLOUR, R, det, NOBODY)
    assert det.calls == 0


def test_spot_pixels_map_each_colour_to_its_own_spot() -> None:
    names = ("white", "red1", "yellow", "black")
    got = spot_pixels(names, lambda xy: xy / 10.0)
    assert np.isnan(got[:2]).all()
    np.testing.assert_allclose(got[2], np.array(TABLE.spots[Colour.YELLOW]) / 10.0)
    np.testing.assert_allclose(got[3], np.array(TABLE.spots[Colour.BLACK]) / 10.0)


def test_spots_must_be_pixels() -> None:
    with pytest.raises(ValueError, match=r"\(B, 2\)"):
        SpotWatch(np.zeros((3, 3)))
