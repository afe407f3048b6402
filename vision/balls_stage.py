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
from vision.pipeline import BallsInFrame
from vision.source import Frame
from vision.tracking.start import initial_state
from vision.tracking.tracker import Tracker
from vision.tracking.video import ScheduleConfig, VideoTracker, region_mask
from vision.tracks import Tracks

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
    detector: ClassicalDetector = field(default_factory=ClassicalDetector)
    calibrator: VideoCalibrator | None = None
    fixed: Calibration | None = None
    noise_mm: float = 1.5
    schedule: ScheduleConfig = field(default_factory=ScheduleConfig)
    _video: VideoTracker | None = None
    _names: tuple[str, ...] = ()
    _first_index: int = 0

    @classmethod
    def create(
        cls, fps: float, calibration_file: Path | None = None, schedule: ScheduleConfig | None = None
    ) -> LiveBalls:
        """The default stage: the classical detector, a video calibrator unless a file is given."""
        sched = schedule or ScheduleConfig()
        if calibration_file is not None:
            return cls(fps=fps, fixed=load_calibration(calibration_file), schedule=sched)
        return cls(fps=fps, calibrator=VideoCalibrator(fps=fps), schedule=sched)

    @property
    def names(self) -> tuple[str, ...]:
        """The tracked balls (empty until the tracker is seeded)."""
        return self._names

    def tracks(self) -> Tracks:
        """Every frame tracked so far, with frame times counted from the first tracked frame.

        Raises:
            BaulklineError: nothing was tracked (the table never calibrated or no ball seen).
        """
        if self._video is None:
            raise BaulklineError("no frame was tracked: the table was never calibrated with balls in view")
        t = self._video.tracker.tracks()
        return Tracks(t.ball_names, t.times + self._first_index / self.fps, t.position, t.pixel, t.state)

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
        """Start tracking on the first calibrated frame that shows balls: the ball set, the
        cloth model and the playing-surface mask all come from it."""
        cloth = self.detector.learn(frame.image, source=f"frame {frame.index}")
        det = self.detector.detect(frame.image)
        if len(det) == 0:
            return False
        initial = initial_state(frame.image, det)
        self._names = initial.names
        self._first_index = frame.index
        pockets = cal.table_to_pixels(np.array([p.centre for p in TABLE.pockets.values()]))
        tracker = Tracker(initial, fps=self.fps, to_table=self._to_table, pockets=pockets)
        self._video = VideoTracker(
            self.detector, tracker, self.schedule, region_mask(cloth.region, frame.image.shape)
        )
        return True
