"""A detector that finds nothing, for tests where the tracker's own searches must do the work."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from vision.detection.detections import BallDetections


class Blind:
    """Finds no ball anywhere: what a test then sees tracked, the tracker's own colour search,
    ghost search or picture shift found."""

    def detect(
        self, image: npt.NDArray[np.uint8], roi: tuple[int, int, int, int] | None = None
    ) -> BallDetections:
        return BallDetections.empty()
