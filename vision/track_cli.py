"""``baulkline track VIDEO``: every ball's identity, pixel and table position in every frame.

The first frame sets the ball set (see :mod:`vision.tracking.start`) and the cloth model; the
tracker then follows the balls (:mod:`vision.tracking.video`), writing the per-frame tracks
CSV of :mod:`vision.tracks` and, with ``--events``, the input event log inferred from them.
Without ``--calibration`` the camera is calibrated from the first frame when the calibration
module can; without any calibration the positions in millimetres are left empty.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The command's options."""
    parser.add_argument("video", help="video file (or camera index / stream URL)")
    parser.add_argument("--calibration", type=Path, help="calibration JSON from `baulkline calibrate`")
    parser.add_argument("--tracks", type=Path, help="write the per-frame tracks CSV here")
    parser.add_argument("--events", type=Path, help="write the inferred input event log (JSONL) here")
    parser.add_argument("--max-frames", type=int, default=0, help="stop after this many frames (0: all)")
    parser.add_argument(
        "--full-every", type=int, default=30, help="frames between whole-table detections (default 30)"
    )


def _calibration(args: argparse.Namespace, first: Any) -> Any:
    """The camera: from --calibration, else self-calibration, else None (with a note)."""
    from calibration.errors import BaulklineError

    if args.calibration is not None:
        from calibration.calibrate import Calibration

        try:
            return Calibration.from_json(args.calibration.read_text())
        except OSError as exc:
            raise BaulklineError(f"{args.calibration}: cannot read ({exc.strerror})") from None
    try:
        from calibration.calibrate import calibrate_image
    except ImportError:
        print("baulkline track: note: no calibration module; positions in mm left empty", file=sys.stderr)
        return None
    try:
        return calibrate_image(first, frame=f"{args.video} frame 0")
    except BaulklineError as exc:
        print(f"baulkline track: note: {exc}; positions in mm left empty", file=sys.stderr)
        return None


def _event_inferer(names: tuple[str, ...], fps: float) -> Any:
    """Hook for event inference (vision.events): the inferer, or a one-line error."""
    from calibration.errors import BaulklineError

    try:
        from vision.events.infer import EventInferer
    except ImportError:
        raise BaulklineError("event inference not available (vision.events.infer is missing)") from None
    return EventInferer(names, fps=fps)


def run(args: argparse.Namespace) -> int:
    """Track the video; returns the exit status."""
    import numpy as np

    from calibration.errors import BaulklineError
    from calibration.table import TABLE
    from vision.detection.classical import ClassicalDetector
    from vision.source import FrameSource
    from vision.tracking.start import initial_state
    from vision.tracking.tracker import Tracker
    from vision.tracking.video import ScheduleConfig, VideoTracker, region_mask

    source = FrameSource(str(args.video))
    frames = source.frames()
    first = next(frames, None)
    if first is None:
        raise BaulklineError(f"{args.video}: no frame could be decoded")
    detector = ClassicalDetector()
    cloth = detector.learn(first.image, source=f"{args.video} frame 0")
    state = initial_state(first.image, detector.detect(first.image))
    calib = _calibration(args, first.image)
    to_table = None
    pockets = None
    if calib is not None:

        def to_table(px: np.ndarray) -> np.ndarray:
            return np.asarray(calib.pixels_to_table(px, z=TABLE.ball_radius), np.float64)

        centres = np.array([p.centre for p in TABLE.pockets.values()], np.float64)
        pockets = np.asarray(calib.table_to_pixels(centres), np.float64)
    tracker = Tracker(state, fps=source.fps, to_table=to_table, pockets=pockets)
    vt = VideoTracker(
        detector,
        tracker,
        ScheduleConfig(full_every=args.full_every),
        region_mask(cloth.region, first.image.shape),
    )
    inferer = _event_inferer(state.names, source.fps) if args.events is not None else None
    total = source.frame_count
    bar = _Progress(total) if sys.stderr.isatty() else None
    events_out = args.events.open("w") if args.events is not None else None
    try:
        from adjudicator.eventlog import JsonlWriter, event_to_dict

        writer = JsonlWriter(events_out) if events_out is not None else None
        tracker.update(detector.detect(first.image), None)
        _emit(inferer, writer, tracker, first.index, first.t)
        for fr in frames:
            if args.max_frames and fr.index >= args.max_frames:
                break
            vt.process(fr.image)
            _emit(inferer, writer, tracker, fr.index, fr.t)
            if bar is not None:
                bar.step(fr.index + 1)
        if inferer is not None and writer is not None:
            for ev in inferer.finish():
                writer.write(event_to_dict(ev))
    finally:
        if events_out is not None:
            events_out.close()
        if bar is not None:
            bar.done()
    if args.tracks is not None:
        tracker.tracks().to_csv(args.tracks)
    return 0


def _emit(inferer: Any, writer: Any, tracker: Any, index: int, t: float) -> None:
    """Feed the frame just tracked to event inference, writing what it decides."""
    if inferer is None or writer is None:
        return
    from adjudicator.eventlog import event_to_dict

    _, position, state = tracker.frame_rows()
    for ev in inferer.update(index, t, position, state):
        writer.write(event_to_dict(ev))


class _Progress:
    """A one-line progress bar on stderr (only used when stderr is a terminal)."""

    def __init__(self, total: int | None) -> None:
        self.total = total

    def step(self, done: int) -> None:
        if done % 10:
            return
        if self.total:
            frac = min(1.0, done / self.total)
            fill = int(30 * frac)
            sys.stderr.write(f"\r[{'#' * fill}{'.' * (30 - fill)}] {done}/{self.total} frames")
        else:
            sys.stderr.write(f"\r{done} frames")
        sys.stderr.flush()

    def done(self) -> None:
        sys.stderr.write("\n")
        sys.stderr.flush()
