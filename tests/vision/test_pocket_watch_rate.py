"""The pipeline looks at the pocket view 30 times a second, whatever the frame rate."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt
import pytest

from adjudicator.eventlog import InputEvent
from vision.events.pocket_view import PocketWatch
from vision.pipeline import BallsInFrame, TrackEvents
from vision.source import Frame

FloatArray = npt.NDArray[np.float64]


class _Balls:
    """A ball stage that always sees one white at rest."""

    def update(self, frame: Frame) -> BallsInFrame:
        return BallsInFrame(("white",), np.zeros((1, 2)), np.zeros((1, 2)), np.ones(1, np.int8))

    def table_to_pixels(self, xy: FloatArray) -> FloatArray:
        return np.asarray(xy, np.float64)


@dataclass
class _Events:
    hidden: list[FloatArray | None] = field(default_factory=list)

    def update(
        self,
        frame_index: int,
        t: float,
        positions: FloatArray,
        states: npt.NDArray[np.integer],
        hidden: FloatArray | None = None,
    ) -> list[InputEvent]:
        self.hidden.append(hidden)
        return []

    def finish(self) -> list[InputEvent]:
        return []


class _CountingWatch(PocketWatch):
    def __init__(self) -> None:
        super().__init__()
        self.looks = 0

    def update(self, image: npt.NDArray[np.uint8], to_pixels: object) -> FloatArray | None:
        self.looks += 1
        return np.full(6, float(self.looks))


@pytest.mark.parametrize(("fps", "looks_per_second"), [(25.0, 25), (30.0, 30), (50.0, 25), (60.0, 30)])
def test_the_pocket_view_is_looked_at_30_times_a_second(fps: float, looks_per_second: int) -> None:
    events = _Events()
    watch = _CountingWatch()

    def make(_names: Sequence[str]) -> _Events:
        return events

    stages = TrackEvents(_Balls(), make, watch)
    image = np.zeros((4, 4, 3), np.uint8)
    for i in range(int(fps)):
        stages.update(Frame(i, i / fps, image))
    assert watch.looks == looks_per_second
    # Every frame's events still get the latest view (none goes without one).
    assert len(events.hidden) == int(fps) and all(h is not None for h in events.hidden)
