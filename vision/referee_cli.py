"""``baulkline referee [SOURCE] [--out DIR]``: watch a table and referee the frame.

SOURCE is a video file, a camera index or a stream URL; without one the bundled sample video
plays (the README's main command). The outputs land in DIR as they are made: the input event
log, the referee's calls, the annotated video and, when the source ends or fails, the HTML
report built from what was written.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from vision.operator import OperatorQueue
    from vision.source import Frame

ROOT = Path(__file__).resolve().parents[1]
#: The sample the referee plays when no source is given.
DEFAULT_SAMPLE = ROOT / "sample_videos" / "02_red_then_colour.mp4"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``baulkline referee``."""
    parser.add_argument(
        "source",
        nargs="?",
        help="video file, camera index (0, 1, ...) or stream URL (default: the bundled sample video)",
    )
    parser.add_argument(
        "--out", type=Path, default=Path("out/referee"), help="output folder (default out/referee)"
    )
    parser.add_argument(
        "--calibration", type=Path, help="calibration JSON (default: calibrate from the video)"
    )
    parser.add_argument(
        "--inputs", type=Path, help="operator events (nominate, choice, infringement, concede)"
    )
    parser.add_argument("--players", nargs=2, default=["Player 1", "Player 2"], metavar=("A", "B"))
    parser.add_argument("--speak", action="store_true", help="say the calls aloud (espeak-ng)")
    parser.add_argument("--no-video", action="store_true", help="skip the annotated video")
    parser.add_argument("--keys", action="store_true", help="read operator keys from the terminal")


def run(args: argparse.Namespace) -> int:
    """Referee SOURCE; returns 0, or raises BaulklineError with a one-line reason."""
    from calibration.errors import BaulklineError
    from vision.balls_stage import LiveBalls
    from vision.live import LiveView, Speaker
    from vision.operator import KEYS, OperatorQueue, read_operator_inputs
    from vision.pipeline import Pipeline
    from vision.report import render_report
    from vision.source import FrameSource
    from vision.synthetic.video import H264Writer, check_writable

    source = str(args.source) if args.source is not None else str(DEFAULT_SAMPLE)
    out: Path = args.out
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise BaulklineError(f"{out}: cannot create the output folder ({exc.strerror})") from None
    frames = FrameSource(source)
    frames.open()
    fps = frames.fps
    players = (str(args.players[0]), str(args.players[1]))
    operator = OperatorQueue.of(read_operator_inputs(args.inputs) if args.inputs else [])
    interactive = sys.stderr.isatty()
    view = LiveView(players, speaker=Speaker(args.speak), interactive=interactive)
    balls = LiveBalls.create(fps=fps, calibration_file=args.calibration)
    writer: H264Writer | None = None
    if not args.no_video:
        check_writable(out / "annotated.mp4")

    def annotate(frame: object, image: object) -> None:
        nonlocal writer
        import numpy as np

        img = np.asarray(image, dtype=np.uint8)
        if writer is None:
            writer = H264Writer(out / "annotated.mp4", (img.shape[1], img.shape[0]), fps)
        writer.write(img)

    pipe = Pipeline(
        balls=balls,
        make_events=lambda names: balls.inferer(names, players),
        out_dir=out,
        operator=operator,
        on_output=lambda o: view.show(o),
        annotate=None if args.no_video else annotate,
        players=players,
    )
    if args.keys:
        _start_keys(operator, KEYS, lambda: pipe.referee.frame_state.striker)
    total = frames.frame_count
    failure: BaulklineError | None = None

    def progress(frames_iter: Iterator[Frame]) -> Iterator[Frame]:
        start = time.monotonic()
        noted = False
        for i, frame in enumerate(frames_iter, start=1):
            yield frame
            if not noted and balls.names:
                noted = True
                if (note := balls.size_note()) is not None:
                    print(f"baulkline referee: {source}: warning: {note}", file=sys.stderr)
            if i % 10 == 0:
                view.progress(i, total, i / max(time.monotonic() - start, 1e-6), frames.dropped)

    try:
        pipe.run(progress(frames.frames()))
    except BaulklineError as exc:
        failure = exc
    finally:
        view.close()
        if writer is not None:
            writer.close()
        (out / "report.html").write_text(
            render_report(pipe.inputs, pipe.outputs, video=None if args.no_video else "annotated.mp4")
        )
        summary = {
            "source": source,
            "frames_dropped": frames.dropped,
            "strokes": sum(1 for e in pipe.inputs if e["type"] == "strike"),
            "calls": sum(1 for o in pipe.outputs if o["type"] == "call"),
            "max_call_latency_s": max(pipe.latencies, default=0.0),
        }
        (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    if frames.dropped:
        print(f"baulkline referee: {frames.dropped} frames dropped under load", file=sys.stderr)
    print(
        f"baulkline referee: outputs in {out}/ (events.jsonl, calls.jsonl, annotated.mp4, report.html)",
        file=sys.stderr,
    )
    if failure is not None:
        raise failure
    return 0


def _start_keys(operator: OperatorQueue, keys: dict[str, str], striker: Callable[[], int]) -> None:
    """Read single keys from the terminal in a background thread (operator inputs); each key
    becomes the event it stands for, attributed to the player at the table now."""
    import termios
    import threading
    import tty

    from calibration.errors import BaulklineError
    from vision.operator import event_for_key

    if not sys.stdin.isatty():
        raise BaulklineError("--keys needs a terminal on standard input; use --inputs FILE instead")
    print("keys: " + ", ".join(f"{k} {v}" for k, v in keys.items()), file=sys.stderr)
    start = time.monotonic()

    def loop() -> None:
        fd = sys.stdin.fileno()
        old = termios.tcgetattr(fd)
        try:
            tty.setcbreak(fd)
            while True:
                key = sys.stdin.read(1)
                event = event_for_key(key, time.monotonic() - start, striker=striker())
                if event is not None:
                    operator.push(event)
        finally:
            termios.tcsetattr(fd, termios.TCSADRAIN, old)

    threading.Thread(target=loop, daemon=True).start()
