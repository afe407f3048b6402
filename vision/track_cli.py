"""``baulkline track VIDEO``: every ball's identity, pixel and table position in every frame.

The same ball stage as the live referee (:class:`vision.balls_stage.LiveBalls`): the table is
calibrated from the first frames that show it (or ``--calibration``) and re-checked on every
frame; the first calibrated frame with balls sets the ball set and the cloth model; the
tracker then follows the balls, writing the per-frame tracks CSV of :mod:`vision.tracks` and,
with ``--events``, the input event log inferred from them, line by line as the video plays.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The command's options."""
    parser.add_argument("video", help="video file (or camera index / stream URL)")
    parser.add_argument("--calibration", type=Path, help="calibration JSON from `baulkline calibrate`")
    parser.add_argument("--tracks", type=Path, help="write the per-frame tracks CSV here")
    parser.add_argument(
        "--events",
        type=Path,
        help="write the inferred input event log (JSONL) here, '-' for stdout, as it plays",
    )
    parser.add_argument("--max-frames", type=int, default=0, help="stop after this many frames (0: all)")
    parser.add_argument(
        "--full-every",
        type=int,
        default=None,
        help="frames between whole-table detections (default: one second of video)",
    )


def run(args: argparse.Namespace) -> int:
    """Track the video; returns the exit status."""
    from adjudicator.eventlog import JsonlWriter, event_to_dict
    from calibration.errors import BaulklineError
    from vision.balls_stage import LiveBalls
    from vision.pipeline import TrackEvents
    from vision.source import FrameSource
    from vision.tracking.schedule import ScheduleConfig

    source = FrameSource(str(args.video))
    source.open()
    fps = source.fps
    # The referee's schedule for this frame rate (LiveBalls.create's default), the interval of
    # whole-table detections overridden only when asked for.
    schedule = ScheduleConfig().at_fps(fps)
    if args.full_every is not None:
        schedule = dataclasses.replace(schedule, full_every=args.full_every)
    balls = LiveBalls.create(fps, args.calibration, schedule)
    # The referee's own stages (pocket view included), so both commands infer the same events.
    stages = TrackEvents(balls, balls.inferer)
    bar = _Progress(source.frame_count) if sys.stderr.isatty() else None
    to_stdout = args.events is not None and str(args.events) == "-"
    try:
        events_out = sys.stdout if to_stdout else args.events.open("w") if args.events is not None else None
    except OSError as exc:
        raise BaulklineError(f"{args.events}: cannot write the event log ({exc.strerror})") from None
    writer = JsonlWriter(events_out) if events_out is not None else None
    noted = False
    try:
        for fr in source.frames():
            if args.max_frames and fr.index >= args.max_frames:
                break
            if writer is None:
                balls.update(fr)
            else:
                for ev in stages.update(fr)[1]:
                    writer.write(event_to_dict(ev))
            if not noted and balls.names:
                noted = True
                if (note := balls.size_note()) is not None:
                    sys.stderr.write(f"baulkline: {args.video}: warning: {note}\n")
            if bar is not None:
                bar.step(fr.index + 1)
    finally:
        if writer is not None:
            for ev in stages.finish():
                writer.write(event_to_dict(ev))
        if events_out is not None and not to_stdout:
            events_out.close()
        if bar is not None:
            bar.done()
        if args.tracks is not None and balls.names:
            balls.tracks().to_csv(args.tracks)
    if not balls.names:
        raise BaulklineError(
            f"{args.video}: no frame could be tracked (the table never calibrated with balls in view)"
        )
    return 0


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
