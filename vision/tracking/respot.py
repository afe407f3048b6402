"""Watching the spots of the colours off the table, so a re-spotted colour is found at once.

Why: a colour potted while reds remain is put back on its spot by hand (Section 3 Rule 4).
The tracker found balls off the table only through its periodic whole-table search (once a
second at 60 fps), so a re-spot was seen up to a second late and its ``place`` up to 1.4 s late
(then the rest window): two rendered re-spots a second before a clip's end were never
reported. A hand putting a ball down changes the picture round the spot; asking the detector
there only when it changed costs nothing while no one is at the table.

What it does not do: a colour whose own spot is taken goes to the highest free spot, or
nearest its own (Section 3 Rule 4(b)-(d)); those rarer re-spots wait for the whole-table
search as before.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from calibration.table import TABLE, Colour
from vision.detection.detections import BallDetections, BallDetector, Image
from vision.tracking.detection_sets import concat, window
from vision.tracking.thumbs import changed, thumb_box

FloatArray = npt.NDArray[np.float64]

#: Reach (ball radii) of the detector's window round a spot: a ball put down within a radius
#: of it, with cloth round it to tell it from.
WINDOW_RADII = 2.5
#: Farthest (ball radii) from the spot a ball of the colour may be found to count as re-spotted.
SPOT_RADII = 1.0
#: Nearest (ball radii) a re-spotted ball may lie to a ball the tracker follows on the table.
FOLLOWED_RADII = 2.0


def spot_pixels(names: tuple[str, ...], to_pixels: Callable[[FloatArray], FloatArray]) -> FloatArray:
    """``(B, 2)`` pixel of each named colour's own spot (NaN for the white and the reds).

    Args:
        names: the tracked balls.
        to_pixels: callable mapping ``(N, 2)`` table millimetres to ``(N, 2)`` pixels of a
            ball's centre at rest (its height above the cloth included).
    """
    spots = TABLE.spots
    out = np.full((len(names), 2), np.nan)
    rows = [i for i, n in enumerate(names) if n in {c.value for c in spots}]
    if rows:
        xy = np.array([spots[Colour(names[i])] for i in rows], np.float64)
        out[rows] = np.asarray(to_pixels(xy), np.float64)
    return out


@dataclass
class SpotWatch:
    """Per ball, its spot's pixel and the thumbnail of the frame its spot was last looked at in.

    Attributes:
        spots: ``(B, 2)`` pixels of each ball's own spot (NaN: none).
        every: fewest frames between two looks at one spot while a hand moves over it.
        change: grey-level change in the thumbnail round a spot that has it looked at again.
    """

    spots: FloatArray
    every: int = 3
    change: float = 12.0
    _seen: list[npt.NDArray[np.int16] | None] = field(default_factory=list)
    _last: npt.NDArray[np.int64] = field(default_factory=lambda: np.zeros(0, np.int64))

    def __post_init__(self) -> None:
        if self.spots.ndim != 2 or self.spots.shape[1] != 2:
            raise ValueError(f"spots must be (B, 2) pixels, got shape {self.spots.shape}")
        self._seen = [None] * len(self.spots)
        self._last = np.full(len(self.spots), -(10**9), np.int64)

    def look(
        self,
        frame: Image,
        thumb: npt.NDArray[np.int16],
        thumb_scale: float,
        frame_no: int,
        absent: npt.NDArray[np.bool_],
        colour: npt.NDArray[np.int64],
        radius: float,
        detector: BallDetector,
        followed: FloatArray,
    ) -> BallDetections:
        """The balls found on the spots of the ``absent`` colours whose picture changed.

        A spot is looked at when its ball goes off the table, and again whenever its
        thumbnail changed by ``change`` since the last look (at most every ``every`` frames);
        only a ball of the spot's own colour within :data:`SPOT_RADII` of it, and farther than
        :data:`FOLLOWED_RADII` from every ball the tracker follows on the table (``followed``,
        ``(M, 2)`` pixels), is returned: a red rolling over the pink's spot, named pink by the
        colour model, is that red, not the pink put back.
        """
        found: list[BallDetections] = []
        for i in range(len(self.spots)):
            if not absent[i] or not np.all(np.isfinite(self.spots[i])) or colour[i] < 0:
                self._seen[i] = None
                continue
            if frame_no - self._last[i] < self.every:
                continue
            u, v = float(self.spots[i, 0]), float(self.spots[i, 1])
            box = thumb_box(thumb.shape, u, v, WINDOW_RADII * radius, thumb_scale)
            ref = self._seen[i]
            if ref is not None and not changed(thumb, ref, box, self.change):
                continue
            self._seen[i] = thumb
            self._last[i] = frame_no
            roi = window(u, v, u, v, WINDOW_RADII * radius, frame.shape)
            det = detector.detect(frame, roi)
            near = np.hypot(det.pixel[:, 0] - u, det.pixel[:, 1] - v) < SPOT_RADII * radius
            det = det[near & (det.colour == colour[i])]
            if len(det) and len(followed):
                d = np.linalg.norm(det.pixel[:, None, :] - followed[None, :, :], axis=2)
                det = det[np.all(d > FOLLOWED_RADII * det.radius[:, None], axis=1)]
            if len(det):
                found.append(det)
        return concat(found)
