"""The ball stage of the live pipeline: calibration, detection and tracking, one frame at a time.

It keeps the calibration current (:class:`calibration.video.VideoCalibrator`: calibrate from
the first good frames, re-check every frame, re-calibrate when the camera is bumped), seeds
the tracker from the first frame in which the table is calibrated and balls are found, and
from then on hands every frame to the tracker's detection schedule
(:class:`vision.tracking.video.VideoTracker`). Positions are ball centres on the cloth in
table millimetres, corrected for the centre's height above the cloth through the camera.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import numpy.typing as npt

from calibration.calibrate import Calibration
from calibration.errors import BaulklineError
from calibration.table import TABLE
from calibration.video import VideoCalibrator
from vision.detection.classical import ClassicalDetector
from vision.detection.detections import BallDetector
from vision.pipeline import BallsInFrame
from vision.source import Frame
from vision.tracking.tracker import Tracker, TrackerState, name_balls
from vision.tracking.video import VideoTracker

FloatArray = npt.NDArray[np.float64]


def load_calibration(path: Path) -> Calibration:
    """A calibration JSON written by ``baulkline calibrate``; one-line error when unusable."""
    try:
        return Calibration.from_json(path.read_text())
    except OSError as exc:
        raise BaulklineError(f"{path}: cannot read the calibration ({exc.strerror})") from None
    except (ValueError, KeyError, TypeError) as exc:
        raise BaulklineError(f"{path}: not a calibration file ({exc})") from None


@dataclass
class LiveBalls:
    """Calibrates, detects and tracks; conforms to :class:`vision.pipeline.BallStage`.

    Attributes:
        fps: frame rate of the source.
        detector: the ball detector.
        calibrator: keeps the calibration current; ``None`` when a fixed calibration is given.
        fixed: a calibration given by the user (``--calibration``).
        noise_mm: the position noise the event inference should expect (one sigma).
    """

    fps: float
    detector: BallDetector = field(default_factory=ClassicalDetector)
    calibrator: VideoCalibrator | None = None
    fixed: Calibration | None = None
    noise_mm: float = 1.5
    _video: VideoTracker | None = None
    _names: tuple[str, ...] = ()

    @classmethod
    def create(cls, fps: float, calibration_file: Path | None = None) -> LiveBalls:
        """The default stage: the classical detector, a video calibrator unless a file is given."""
        if calibration_file is not None:
            return cls(fps=fps, fixed=load_calibration(calibration_file))
        return cls(fps=fps, calibrator=VideoCalibrator(fps=fps))

    @property
    def calibration(self) -> Calibration | None:
        """The calibration in force."""
        if self.fixed is not None:
            return self.fixed
        return self.calibrator.calibration if self.calibrator is not None else None

    def table_to_pixels(self, xy: FloatArray) -> FloatArray:
        """Cloth millimetres to pixels of the current frame."""
        cal = self.calibration
        if cal is None:
            raise BaulklineError("the table is not calibrated yet")
        out: FloatArray = cal.table_to_pixels(xy)
        return out

    def _to_table(self, pixels: FloatArray) -> FloatArray:
        cal = self.calibration
        if cal is None:
            return np.full(np.shape(pixels), np.nan)
        out: FloatArray = cal.pixels_to_table(pixels, z=TABLE.ball_radius)
        return out

    def update(self, frame: Frame) -> BallsInFrame | None:
        """The balls of ``frame`` (``None`` until the table is calibrated and balls are seen)."""
        if self.calibrator is not None:
            self.calibrator.update(frame.index, frame.image)
        cal = self.calibration
        if cal is None:
            return None
        if self._video is None and not self._seed(frame, cal):
            return None
        assert self._video is not None
        self._video.process(frame.image)
        pixel, position, state = self._video.tracker.frame_rows()
        return BallsInFrame(self._names, pixel, position, state)

    def _seed(self, frame: Frame, cal: Calibration) -> bool:
        det = self.detector.detect(frame.image)
        names = name_balls(det.colour)
        keep = [i for i, n in enumerate(names) if n]
        if "white" not in {names[i] for i in keep} and len(keep) < 2:
            return False
        self._names = tuple(names[i] for i in keep)
        initial = TrackerState.seed(self._names, det.pixel[keep], det.radius[keep], det.colour[keep])
        pockets = cal.table_to_pixels(np.array([p.centre for p in TABLE.pockets.values()]))
        tracker = Tracker(initial, fps=self.fps, to_table=self._to_table, pockets=pockets)
        self._video = VideoTracker(self.detector, tracker)
        return True
