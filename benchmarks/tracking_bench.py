"""Tracking benchmark: real Task3 clips (follow two balls) and the tracker's speed on 720p30.

Run ``python -m benchmarks.tracking_bench``. Task3's rule (source repository): a clip is
tracked when at least 80% of its ground-truth frames have IoU > 0.2 between the truth box and
our box (the tracked centre +- the tracked radius) for BOTH balls. Tracks start from the
first-frame boxes given with each clip (``N_ball_K.txt``), as the task defines; everything
after that is the tracker's. Writes the ``balls-tracking`` section of ``benchmarks/RESULTS.md``.
"""

from __future__ import annotations

import argparse
import os
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from benchmarks.results import stamp, update_section
from vision.detection.classical import ClassicalDetector
from vision.source import FrameSource
from vision.tracking.appearance import disc_appearance
from vision.tracking.detection_sets import region_mask
from vision.tracking.schedule import ScheduleConfig
from vision.tracking.start import initial_state
from vision.tracking.tracker import Tracker, TrackerState
from vision.tracking.video import VideoTracker
from vision.tracks import TrackState

FOOTAGE = Path(__file__).resolve().parents[2] / "shared" / "footage" / "broadcast-overhead"
FloatArray = npt.NDArray[np.float64]


def read_boxes(path: Path) -> dict[int, tuple[float, float, float, float]]:
    """``frame -> (xmin, ymin, xmax, ymax)`` from a Task3 box file (first line is a header)."""
    out: dict[int, tuple[float, float, float, float]] = {}
    for line in path.read_text().splitlines()[1:]:
        parts = line.split()
        if len(parts) == 5:
            f, *box = (float(p) for p in parts)
            out[int(f)] = (box[0], box[1], box[2], box[3])
    return out


def iou(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> float:
    """Intersection over union of two boxes."""
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def _box(row: FloatArray) -> tuple[float, float, float, float]:
    return (float(row[0]), float(row[1]), float(row[2]), float(row[3]))


@dataclass(frozen=True)
class ClipResult:
    """One Task3 clip: the fraction of truth frames with IoU > 0.2, per ball, and the speed."""

    clip: int
    hit: tuple[float, float]
    frames: int
    seconds: float

    @property
    def tracked(self) -> bool:
        return min(self.hit) >= 0.8


def track_clip(clip: int, root: Path = FOOTAGE) -> ClipResult:
    """Track one Task3 clip from its first-frame boxes and score it against the truth."""
    d = root / "Task3"
    starts = [read_boxes(d / f"{clip}_ball_{k}.txt")[0] for k in (1, 2)]
    truth = [read_boxes(d / "ground-truth" / f"{clip}_ball_{k}_gt.txt") for k in (1, 2)]
    frames = FrameSource(str(d / f"{clip}.mp4")).frames()
    t0 = time.perf_counter()
    frame = next(frames).image
    centre = np.array([((b[0] + b[2]) / 2, (b[1] + b[3]) / 2) for b in starts])
    radius = np.array([((b[2] - b[0]) + (b[3] - b[1])) / 4 for b in starts])
    detector = ClassicalDetector(classifier=None)
    cloth = detector.learn(frame, source=f"{clip}.mp4 frame 0")
    seed = TrackerState.seed(
        ["white", "ball2"], centre, radius, appearance=disc_appearance(frame, centre, radius)
    )
    region = region_mask(cloth.region, frame.shape)
    vt = VideoTracker(detector, Tracker(seed), ScheduleConfig(full_every=0), region)
    boxes: list[FloatArray] = [np.c_[centre - radius[:, None], centre + radius[:, None]]]
    states = [np.full(2, TrackState.SEEN)]
    for fr in frames:
        st = vt.process(fr.image)
        r = st.radius[:, None]
        boxes.append(np.c_[st.pos - r, st.pos + r])
        states.append(st.state.copy())
    n = len(boxes)
    seconds = time.perf_counter() - t0
    hits = []
    for k in range(2):
        good = [
            states[f][k] != TrackState.ABSENT and iou(_box(boxes[f][k]), box) > 0.2
            for f, box in truth[k].items()
            if f < n
        ]
        hits.append(float(np.mean(good)) if good else 1.0)
    return ClipResult(clip, (hits[0], hits[1]), n, seconds)


@dataclass(frozen=True)
class Speed:
    """Frames per second of decoding alone and of the default tracking path, wall and CPU."""

    frames: int
    decode_wall: float
    decode_cpu: float
    track_wall: float
    track_cpu: float
    load: float = float("nan")


def _rate(frames: int, seconds: float) -> float:
    return frames / seconds if seconds > 0 else float("nan")


def measure_speed(clips: list[int], root: Path = FOOTAGE) -> Speed:
    """Decode alone, then decode + the full-table tracker of ``baulkline track`` (no events).

    Wall-clock figures depend on the other jobs sharing the machine; CPU figures (process
    time) are what one core of this machine can do and are less disturbed by them.
    """
    n = 0
    w0, c0 = time.perf_counter(), time.process_time()
    for clip in clips:
        for _ in FrameSource(str(root / "Task3" / f"{clip}.mp4")).frames():
            n += 1
    dw, dc = time.perf_counter() - w0, time.process_time() - c0
    m = 0
    w0, c0 = time.perf_counter(), time.process_time()
    for clip in clips:
        frames = FrameSource(str(root / "Task3" / f"{clip}.mp4")).frames()
        first = next(frames).image
        detector = ClassicalDetector()
        cloth = detector.learn(first)
        tracker = Tracker(initial_state(first, detector.detect(first)))
        vt = VideoTracker(
            detector, tracker, ScheduleConfig(full_every=30), region_mask(cloth.region, first.shape)
        )
        m += 1
        for fr in frames:
            vt.process(fr.image)
            m += 1
    tw, tc = time.perf_counter() - w0, time.process_time() - c0
    # The 1-minute load average at the end: how many other jobs shared the two cores meanwhile.
    return Speed(n, _rate(n, dw), _rate(n, dc), _rate(m, tw), _rate(m, tc), os.getloadavg()[0])


def report(results: list[ClipResult], speed: Speed | None) -> str:
    """The markdown section of the results file."""
    tracked = sum(r.tracked for r in results)
    rows = "\n".join(
        f"| {r.clip} | {r.hit[0]:.2f} | {r.hit[1]:.2f} | {'yes' if r.tracked else 'no'} |" for r in results
    )
    text = (
        "## Ball tracking (classical detector + tracker), real footage\n\n"
        + stamp("python -m benchmarks.tracking_bench")
        + "\nShared machine: other helpers were running jobs at the same time, so wall-clock rates"
        " are low and noisy; CPU rates (process time) are given beside them.\n\n"
        f"**Task3: {tracked}/{len(results)} clips tracked ({100 * tracked / len(results):.0f}%)** "
        "(target >= 96%, source method 78%). Rule: >= 80% of truth frames with IoU > 0.2 for both "
        "balls; our box is the tracked centre +- tracked radius; tracks start from the first-frame "
        "boxes.\n\n| clip | white: frames IoU>0.2 | ball 2 | tracked |\n|---|---|---|---|\n" + rows + "\n"
    )
    if speed is not None:
        text += (
            f"\n**Speed, 720p30** ({speed.frames} frames of Task3 clips): decoding alone "
            f"{speed.decode_wall:.0f} frames/s wall ({speed.decode_cpu:.0f} per CPU-second); "
            f"default track path end to end incl. decoding (full-table tracker, change-driven "
            f"detection, whole-table search every 30 frames) {speed.track_wall:.0f} frames/s wall "
            f"({speed.track_cpu:.0f} per CPU-second), load average {speed.load:.1f} on the 2 cores "
            f"at the end of the run. Target 120 frames/s: "
            f"{'met' if speed.track_wall >= 120 else 'NOT met'}.\n"
        )
    return text


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark, print the figures and update the results file."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--clips", type=int, nargs="*", default=list(range(1, 26)))
    parser.add_argument("--no-write", action="store_true", help="print only")
    parser.add_argument("--no-speed", action="store_true", help="skip the speed measurement")
    parser.add_argument("--speed-clips", type=int, nargs="*", default=[1, 2, 5, 10, 14])
    args = parser.parse_args(argv)
    results = [track_clip(c) for c in args.clips]
    for r in results:
        flag = "ok " if r.tracked else "BAD"
        fps = r.frames / r.seconds
        print(f"clip {r.clip:2d} {flag} white {r.hit[0]:.2f} ball2 {r.hit[1]:.2f}  {fps:.0f} fps")
    tracked = sum(r.tracked for r in results)
    print(f"tracked {tracked}/{len(results)}")
    speed = None if args.no_speed else measure_speed(args.speed_clips)
    if speed is not None:
        print(
            f"decode {speed.decode_wall:.0f} fps wall / {speed.decode_cpu:.0f} cpu; "
            f"track {speed.track_wall:.0f} fps wall / {speed.track_cpu:.0f} cpu"
        )
    if not args.no_write and args.clips == list(range(1, 26)):
        update_section("balls-tracking", report(results, speed))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
