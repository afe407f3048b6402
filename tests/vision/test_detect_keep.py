"""Only the blobs that may be balls take part in naming colours.

The colours are named under the ball-set prior (one of each colour, the white always), so a
blob that is no ball (a piece of a cushion's nose beside a pocket, off the bed) takes a colour
from a ball that is one; a rendered 1080p60 break-off named the green on its spot the white for
the whole clip. ``ClassicalDetector.detect(keep=...)`` drops such blobs before the naming, and
the video tracker's whole-table search asks it to drop the blobs off the bed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt
import pytest

from calibration.table import TABLE
from vision.detection.classical import ClassicalDetector
from vision.detection.colour import ColourClassifier
from vision.detection.detections import BallDetections
from vision.tracking.tracker import Tracker, TrackerState
from vision.tracking.video import BedDetector, VideoTracker

from .test_detection_box import BALLS, _table

FloatArray = npt.NDArray[np.float64]


@dataclass
class _Recording(ColourClassifier):
    """The usual classifier, which also records how many detections it was asked to name."""

    asked: list[int] = field(default_factory=list)

    def assign(
        self, feats: FloatArray, cloth: FloatArray | None = None, white_in_hand: bool = False
    ) -> tuple[npt.NDArray[np.int64], FloatArray]:
        self.asked.append(len(feats))
        return super().assign(feats, cloth, white_in_hand)


KEEPS: dict[str, Callable[[FloatArray], npt.NDArray[np.bool_]]] = {
    "all": lambda px: np.ones(len(px), bool),
    "left of the chalk line": lambda px: px[:, 0] < 240 + 200,
    "right of it": lambda px: px[:, 0] >= 240 + 200,
}


@pytest.mark.parametrize("name", list(KEEPS))
def test_the_colours_are_named_among_the_kept_blobs_only(name: str) -> None:
    keep = KEEPS[name]
    image = _table((240, 160), BALLS)
    plain = ClassicalDetector()
    plain.learn(image)
    every = plain.detect(image)
    kept = keep(every.pixel)
    classifier = _Recording()
    det = ClassicalDetector(classifier=classifier)
    det.learn(image)
    found = det.detect(image, keep=keep)
    assert int(kept.sum()) > 0
    # The blobs the filter keeps, where they were, and the classifier named those alone.
    np.testing.assert_allclose(found.pixel, every.pixel[kept])
    assert classifier.asked == [int(kept.sum())]


@dataclass
class _Stub:
    """A detector that records the ``keep`` it was given and finds nothing."""

    keeps: list[Callable[[FloatArray], npt.NDArray[np.bool_]] | None] = field(default_factory=list)

    def detect(
        self,
        image: npt.NDArray[np.uint8],
        roi: tuple[int, int, int, int] | None = None,
        keep: Callable[[FloatArray], npt.NDArray[np.bool_]] | None = None,
        white_in_hand: bool = False,
    ) -> BallDetections:
        if roi is None:
            self.keeps.append(keep)
        return BallDetections.empty()


# Pixels standing for table millimetres one to one: where a whole-table blob lies.
PLACES = [
    ("the bed's middle", (1784.0, 889.0), True),
    ("a ball against the baulk cushion", (TABLE.ball_radius, 400.0), True),
    ("on the baulk cushion's nose", (-22.8, 1414.8), False),
    ("beyond the top cushion", (TABLE.length + 40.0, 900.0), False),
]


@pytest.mark.parametrize(("where", "xy", "ball"), PLACES, ids=[p[0] for p in PLACES])
def test_the_whole_table_search_names_colours_on_the_bed_only(
    where: str, xy: tuple[float, float], ball: bool
) -> None:
    stub = _Stub()
    assert isinstance(stub, BedDetector)
    state = TrackerState.seed(["red1"], np.array([[1000.0, 500.0]]), np.array([10.0]))
    tracker = Tracker(state, fps=30.0, to_table=lambda px: np.asarray(px, np.float64))
    video = VideoTracker(stub, tracker)
    video.process(np.zeros((90, 160, 3), np.uint8))  # frame 0: a periodic whole-table search
    keep = stub.keeps[0]
    assert keep is not None
    assert bool(keep(np.array([xy]))[0]) is ball
