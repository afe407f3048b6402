"""The ball stage of the live pipeline: calibration, detection and tracking, one frame at a time.

It keeps the calibration current (:class:`calibration.video.VideoCalibrator`: calibrate from
the first good frames, re-check every frame, re-calibrate when the camera is bumped), seeds
the tracker from the first frame in which the table is calibrated and balls are found, and
from then on hands every frame to the tracker's detection schedule
(:class:`vision.tracking.video.VideoTracker`). Positions are ball centres on the cloth in
table millimetres, corrected for the centre's height above the cloth through the camera.

Two things keep it fast. Frames wider than :data:`vision.source.WORK_WIDTH` are worked on
shrunk to it (the reader thread makes the copy: :attr:`vision.source.Frame.small`): every
detector and tracker constant was tuned on 1280x720 footage, and at 1080p the same work
reads 2.25 times the pixels; pixels handed out are in the source frame's pixels all the same.
And pixel-to-table conversion goes through :class:`PixelMap`, a grid of the exact mapping
interpolated bilinearly, instead of undistorting every point by fixed-point iteration.
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np
import numpy.typing as npt

from calibration.calibrate import Calibration
from calibration.errors import BaulklineError
from calibration.table import TABLE
from calibration.video import VideoCalibrator
from vision.detection.classical import ClassicalDetector, learn_model
from vision.detection.cloth import ClothModel
from vision.detection.detections import BallDetections
from vision.detection.limb import apparent_radius
from vision.detection.plane import jacobians
from vision.events.infer import EventInferer
from vision.pipeline import BallsInFrame
from vision.source import WORK_WIDTH, Frame, work_size
from vision.tracking.bed import fall_pixels, on_bed_filter
from vision.tracking.detection_sets import region_mask
from vision.tracking.kernels import grid_bilinear
from vision.tracking.physics import Cushions
from vision.tracking.respot import SpotWatch, spot_pixels
from vision.tracking.schedule import ScheduleConfig
from vision.tracking.start import initial_state
from vision.tracking.tracker import Tracker, TrackerConfig
from vision.tracking.video import VideoTracker, surface_edge
from vision.tracks import Tracks

#: Systematic error of the gap between two resting balls (working pixels): each ball's shade
#: and its neighbour's move its measured rim the same way in every frame, by 0.1-0.35 of a
#: working pixel per ball on renders measured with their true cameras, mostly alike for the two
#: balls of a pair (see :func:`vision.detection.pairs.rim_centre`); their gap differed from
#: the true one by up to a quarter of a pixel.
BIAS_PX = 0.25
#: The same where the detector works on an upscaled copy (balls under two and a half source
#: pixels in radius, :data:`vision.detection.classical.UPSCALE_BELOW`): it sees each ball's edge
#: through a source pixel of blur and half-resolution colour (see
#: :func:`vision.detection.classical._colour_radius`), and two touching balls' blobs merge
#: across it. On the 640x360 renders (13 mm a pixel) touching pairs' gaps were measured at
#: -4 to +25 mm (true 0-1 mm), most 5-15 mm: a gap within that pixel cannot be told from
#: touching, and a doubt is called touching (see :meth:`vision.events.config.EventConfig.derive`).
RIM_BIAS_PX = 1.0
#: Apparent ball radius (source pixels) under which the picture holds too little of a ball for
#: its colour, a pack's balls and a touching pair's gap to be read reliably: the drawn-size
#: renders at 640x360 (balls 1.7-2.5 px) agree with their true calls on 3 of 86 strokes, at
#: 960x540 (2.6-3.4 px) on 16 of 40 (main at b558738).
SMALL_BALL_PX = 3.0


def gap_bias_px(upscale: float) -> float:
    """The systematic error of a resting pair's gap (working pixels) where the detector works
    on a copy of the working frame upscaled ``upscale`` times: :data:`BIAS_PX`, or
    :data:`RIM_BIAS_PX` where it upscales (balls too small to measure at the working size)."""
    return RIM_BIAS_PX if upscale > 1.0 else BIAS_PX


def small_balls_note(radius_px: float, size: tuple[int, int]) -> str | None:
    """The warning for a video whose balls are too small to referee well (None: they are not).

    Why a warning and not a refusal: the pipeline still finds most balls and many calls, and
    a user with only this camera may want them; but the calls must not be taken for a reliable
    referee's without being told.
    """
    if not radius_px < SMALL_BALL_PX:
        return None
    return (
        f"balls are {radius_px:.1f} px in radius in this {size[0]}x{size[1]} video; under "
        f"{SMALL_BALL_PX:g} px colours, packs and touching balls are unreliable (use a larger "
        "image or a view that fills it with the table)"
    )


FloatArray = npt.NDArray[np.float64]
Image = npt.NDArray[np.uint8]


class PixelMap:
    """A calibration's pixel-to-table mapping on a plane, with the lens undistortion tabulated.

    Why: the exact mapping undistorts each point by 30 fixed-point steps of the lens model,
    which on real (distorted) footage cost a quarter of the ball stage's time. The undistortion
    is smooth, so a grid of it every :attr:`step` pixels, interpolated bilinearly, is within a
    few thousandths of a pixel of it (tests/test_balls_stage.py measures it); the plane's
    homography after it is applied exactly. Points off the grid (outside the frame) or beside a
    node where the lens model does not invert, and every point of a camera without
    distortion, take the exact mapping.

    Args:
        calibration: the calibration whose mapping is tabulated.
        z: height of the plane above the cloth (mm); a ball centre is ``TABLE.ball_radius``.
        step: grid spacing in pixels.
    """

    def __init__(self, calibration: Calibration, z: float, step: int = 4) -> None:
        self.calibration = calibration
        self.z = z
        self.step = step
        camera = calibration.camera
        self._plane = camera.image_to_table(z)
        self._grid: FloatArray | None = None
        w, h = calibration.image_size
        self._n = np.array([w // step + 2, h // step + 2])
        if camera.intrinsics.has_distortion:
            gx, gy = np.meshgrid(np.arange(self._n[0]) * float(step), np.arange(self._n[1]) * float(step))
            nodes = np.column_stack([gx.ravel(), gy.ravel()])
            with np.errstate(all="ignore"):
                und = camera.undistort(nodes)
                # Far corners of a strong lens may not converge (nor do the exact mapping's
                # there); such nodes are left NaN, and points near them take the exact mapping.
                wrong = ~(np.abs(camera.distort(np.nan_to_num(und)) - nodes) < 0.01).all(axis=1)
            und[wrong] = np.nan
            self._grid = und.reshape(self._n[1], self._n[0], 2)

    def __call__(self, pixels: FloatArray) -> FloatArray:
        """``(N, 2)`` finite pixels to ``(N, 2)`` table millimetres on the plane."""
        px = np.asarray(pixels, np.float64).reshape(-1, 2)
        grid = self._grid
        if grid is None or not len(px):
            return self._plane.apply(self.calibration.camera.undistort(px)) if len(px) else px.copy()
        # Interpolated in one compiled pass (the same float64 steps as the NumPy version).
        und, inside = grid_bilinear(px, self.step, grid)
        if not np.all(inside):
            und[~inside] = self.calibration.camera.undistort(px[~inside])
        bad = ~np.isfinite(und).all(axis=1)
        if np.any(bad):
            und[bad] = self.calibration.camera.undistort(px[bad])
        return self._plane.apply(und)


def scaled_calibration(cal: Calibration, size: tuple[int, int]) -> Calibration:
    """``cal`` for the same picture resized to ``size`` (width, height) pixels.

    Only the camera matrix changes: a resize maps the pixel centre ``x`` to ``(x + 0.5) s - 0.5``,
    and the lens model acts on normalised coordinates.
    """
    w, h = cal.image_size
    sx, sy = size[0] / w, size[1] / h
    resize = np.array([[sx, 0.0, 0.5 * sx - 0.5], [0.0, sy, 0.5 * sy - 0.5], [0.0, 0.0, 1.0]])
    return replace(cal, image_size=size, camera_matrix=resize @ np.asarray(cal.camera_matrix, np.float64))


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
        fixed: a calibration given by the user (``--calibration``), for the source's frames.
        noise_mm: the position noise the event inference should expect (one sigma).
        work_width: widest frame worked on (0: always the source's size).
    """

    fps: float
    detector: ClassicalDetector = field(default_factory=ClassicalDetector)
    calibrator: VideoCalibrator | None = None
    fixed: Calibration | None = None
    noise_mm: float = 1.5
    #: The detection schedule (:meth:`create` sets it for the source's frame rate).
    schedule: ScheduleConfig = field(default_factory=ScheduleConfig)
    work_width: int = WORK_WIDTH
    _video: VideoTracker | None = None
    _names: tuple[str, ...] = ()
    _first_index: int = 0
    #: Working size (width, height) and the source-to-working scale per axis (set by the first frame).
    _work: tuple[int, int] | None = None
    _scale: FloatArray = field(default_factory=lambda: np.ones(2))
    _source: tuple[int, int] = (0, 0)
    #: The calibration in force and its copy at the working size.
    _scaled: tuple[Calibration, Calibration] | None = None
    _map: PixelMap | None = None
    #: The worker thread the seeding frame's cloth is learned on (see :meth:`_learning`), and
    #: whether a first frame's cloth was learned while it was being calibrated.
    _pool: ThreadPoolExecutor | None = None
    _guessed: bool = False

    @classmethod
    def create(
        cls, fps: float, calibration_file: Path | None = None, schedule: ScheduleConfig | None = None
    ) -> LiveBalls:
        """The default stage: the classical detector, a video calibrator unless a file is given."""
        sched = schedule or ScheduleConfig().at_fps(fps)
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
        pixel = self._to_source(t.pixel)
        return Tracks(t.ball_names, t.times + self._first_index / self.fps, t.position, pixel, t.state)

    @property
    def ball_radius_px(self) -> float:
        """The tracked balls' median apparent radius in source pixels (NaN before seeding)."""
        if self._video is None:
            return float("nan")
        return float(np.median(self._video.tracker.state.radius) / self._scale[0])

    def size_note(self) -> str | None:
        """A warning when the seeded balls are too small to referee well (:func:`small_balls_note`)."""
        return small_balls_note(self.ball_radius_px, self._source)

    @property
    def calibration(self) -> Calibration | None:
        """The calibration in force, in the pixels of the frames worked on (see :meth:`working`).

        The table is calibrated on the source frames (the fit reads fine markings; on the
        1080p60 clip, calibrating on the working copy put resting balls 1.3 mm further off)
        and the calibration scaled to the working size.
        """
        cal = self.fixed
        if cal is None and self.calibrator is not None:
            cal = self.calibrator.calibration
        if cal is None or self._work is None or tuple(cal.image_size) != self._source:
            return cal
        if self._scaled is None or self._scaled[0] is not cal:
            self._scaled = (cal, scaled_calibration(cal, self._work))
        return self._scaled[1]

    def table_to_pixels(self, xy: FloatArray) -> FloatArray:
        """Cloth millimetres to pixels of the current (source) frame."""
        cal = self.calibration
        if cal is None:
            raise BaulklineError("the table is not calibrated yet")
        return self._to_source(cal.table_to_pixels(xy))

    def working(self, frame: Frame) -> Image:
        """The frame the stage works on: at most :attr:`work_width` wide.

        The first frame fixes the working size.
        """
        h, w = frame.image.shape[:2]
        if self._work is None:
            self._source = (w, h)
            self._work = work_size(w, h, self.work_width)
            self._scale = np.array([self._work[0] / w, self._work[1] / h])
        return frame.working(self._work)

    def _to_source(self, pixels: FloatArray) -> FloatArray:
        """Working-frame pixels to source-frame pixels (pixel centres stay centres)."""
        if np.all(self._scale == 1.0):
            return pixels
        out: FloatArray = (pixels + 0.5) / self._scale - 0.5
        return out

    def _to_table(self, pixels: FloatArray) -> FloatArray:
        cal = self.calibration
        if cal is None:
            return np.full(np.shape(pixels), np.nan)
        if self._map is None or self._map.calibration is not cal:
            self._map = PixelMap(cal, z=TABLE.ball_radius)
        return self._map(pixels)

    def update(self, frame: Frame) -> BallsInFrame | None:
        """The balls of ``frame`` (``None`` until the table is calibrated and balls are seen)."""
        image = self.working(frame)
        learned: Future[ClothModel] | None = None
        if self.calibrator is not None:
            if self._video is None and self.calibrator.calibration is None and not self._guessed:
                # The first frame's cloth is learned while the frame is calibrated: the seed
                # learns it from that frame when it calibrates, as it mostly does (one guess a
                # video: a frame that fails wastes one learning).
                self._guessed = True
                learned = self._learning(frame.index, image)
            self.calibrator.update(frame.index, frame.image)
        cal = self.calibration
        if cal is None:
            return None
        if self._video is None and not self._seed(frame.index, image, cal, learned):
            return None
        assert self._video is not None
        self._video.process(image, frame.thumbnail_of(image, self.schedule.thumb))
        pixel, position, state = self._video.tracker.frame_rows()
        return BallsInFrame(self._names, self._to_source(pixel), position, state)

    def _ball_geometry(self, pixels: FloatArray) -> tuple[FloatArray, FloatArray]:
        """Apparent radius and foot (where it touches the cloth, working pixels) of balls resting
        at working ``pixels`` ``(N, 2)``, from the calibration in force (NaN: none)."""
        cal = self.calibration
        if cal is None:
            return np.full(len(pixels), np.nan), np.full((len(pixels), 2), np.nan)
        xy = self._to_table(pixels)
        return apparent_radius(cal.camera, xy, TABLE.ball_radius), cal.camera.project(xy, z=0.0)

    @property
    def bias_mm(self) -> float:
        """The systematic error of a gap between two resting balls (mm); 0 until calibrated.

        :data:`BIAS_PX` working pixels (:data:`RIM_BIAS_PX` where the detector upscales)
        times the millimetres a working pixel spans on the bed in its longest direction (along
        the table, in a view from one end), the median over the bed: a broadcast view spans two
        to three times as much along the table as across.
        """
        cal = self.calibration
        if cal is None:
            return 0.0
        cloth = self.detector.cloth
        bias_px = gap_bias_px(1.0 if cloth is None else cloth.upscale)
        h = cal.camera.table_to_image(TABLE.ball_radius)
        xs, ys = np.meshgrid(np.linspace(0.0, TABLE.length, 9), np.linspace(0.0, TABLE.width, 5))
        px_per_mm = np.linalg.svd(jacobians(h, np.column_stack([xs.ravel(), ys.ravel()])), compute_uv=False)
        return float(bias_px * np.median(1.0 / px_per_mm[:, 1]))

    def inferer(
        self, names: Sequence[str], players: tuple[str, str] = ("Player 1", "Player 2")
    ) -> EventInferer:
        """The event inference for this stage's balls: its frame rate, noise and bias."""
        return EventInferer(
            names, fps=self.fps, noise_mm=self.noise_mm, bias_mm=self.bias_mm, players=players
        )

    def _learning(self, index: int, image: Image) -> Future[ClothModel]:
        """The cloth model of frame ``index`` (its working copy ``image``), learned on the worker
        thread as :meth:`ClassicalDetector.learn` learns it.

        Why a thread: seeding costs about a quarter of a second of a clip's first frame (720p:
        the calibration 40 ms, the cloth 85 ms, the lens tabulated 40 ms, ...), work the reader's
        core sits out; most of the cloth's cost is OpenCV (blurs, colour conversions) that
        releases the GIL, so it overlaps the calibration and the pixel map.
        """
        if self._pool is None:
            self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="seed")
        return self._pool.submit(learn_model, image, self.detector.scale, f"frame {index}")

    def _seed(
        self, index: int, image: Image, cal: Calibration, learned: Future[ClothModel] | None = None
    ) -> bool:
        """Start tracking on the first calibrated frame that shows balls: the ball set, the
        cloth model and the playing-surface mask all come from it.

        ``learned``: the frame's cloth model being learned already (see :meth:`_learning`); it is
        learned on the worker thread anyway while this one tabulates the lens (:class:`PixelMap`).
        """
        if learned is None:
            learned = self._learning(index, image)
        if self._map is None or self._map.calibration is not cal:
            self._map = PixelMap(cal, z=TABLE.ball_radius)
        cloth = learned.result()
        self.detector.cloth = cloth
        # The playing surface's geometry (its full-frame mask, the cushions' distance field and
        # normals, each pixel's distance to the edge: 40 ms of OpenCV and whole-array NumPy at
        # 720p, most of it without the GIL) is made on the worker thread meanwhile.
        assert self._pool is not None
        surface = self._pool.submit(_surface, cloth.region, image.shape)
        # Only blobs on the bed may take a colour: the names given here last the whole clip
        # (see ClassicalDetector.detect's ``keep``); the tracker drops the others every frame.
        tol = TrackerConfig().bed_tol
        det = self._first_balls(image, tol)
        if len(det) == 0:
            return False
        initial = initial_state(image, det)
        self._names = initial.names
        self._first_index = index
        pockets = cal.table_to_pixels(np.array([p.centre for p in TABLE.pockets.values()]))
        config = TrackerConfig().at_fps(self.fps)
        region, cushions, edge = surface.result()
        # The pockets' holes are no ball's pixels (see fall_pixels): the searches leave them out.
        region = region & ~fall_pixels(lambda xy: cal.table_to_pixels(xy, 0.0), region.shape)
        tracker = Tracker(
            initial, fps=self.fps, to_table=self._to_table, pockets=pockets, config=config, cushions=cushions
        )
        # The schedule's pixel constants in the pixels the detector works in (small pictures).
        self.schedule = self.schedule.at_upscale(cloth.upscale)
        self._video = VideoTracker(self.detector, tracker, self.schedule, region, edge)
        sch = self._video.schedule
        spots = spot_pixels(initial.names, lambda xy: cal.table_to_pixels(xy, TABLE.ball_radius))
        self._video.spot_watch = SpotWatch(spots, every=sch.settle_every, change=sch.change)
        self._video.spots.ball_geometry = self._ball_geometry
        if self._pool is not None:
            self._pool.shutdown(wait=False)
            self._pool = None
        return True

    def _first_balls(self, image: Image, tol: float) -> BallDetections:
        """The balls of the tracker's first frame, named as the whole clip will name them.

        Why the white is named only where white is among a ball's likely colours
        (``white_in_hand``: :data:`~vision.detection.colour.WHITE_IN_HAND_P` of its probability,
        :meth:`~vision.detection.colour.ColourClassifier.assign`): a break-off opens with the
        white in hand, and with the white's name free the one-of-each rule put it on another
        ball (at 1280x720 the pink, or the green on green cloth), which then stood in the
        white's place for the clip; the white, once put in the D, had no name of its own.
        """
        return self.detector.detect(image, keep=on_bed_filter(self._to_table, tol), white_in_hand=True)


def _surface(
    region: Image, shape: tuple[int, ...]
) -> tuple[npt.NDArray[np.bool_], Cushions, npt.NDArray[np.float32]]:
    """The playing surface at full resolution ``shape`` from the cloth model's working-scale
    ``region``: its mask, its cushions (:meth:`Cushions.from_mask`) and its edge distance
    (:func:`vision.tracking.video.surface_edge`)."""
    mask = region_mask(region, shape)
    return mask, Cushions.from_mask(mask), surface_edge(mask)
