"""Ball detection on the synthetic sample clips, scored against their exact truth.

Each ``sample_videos/NAME.mp4`` has ``NAME.tracks.csv`` (every ball's true pixel and table
position in every frame, ``seen`` or ``absent``) and ``NAME.camera.json`` (the true camera).
Every ``step``-th frame is detected with one detector per clip (its cloth model learned on the
first frame, as in a video), and the detections are matched to the true balls in view by
pixel distance (Hungarian, within one ball radius). Recall and precision count balls; colour
accuracy is over matched balls; the position error at rest is the distance on the cloth, in
millimetres, from the detection's pixel put through the true camera (at the ball's centre
height) to the true position, for balls that do not move between the neighbouring frames.
"""

from __future__ import annotations

import csv
import json
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt
from scipy.optimize import linear_sum_assignment

from calibration.camera import Camera
from calibration.table import TABLE, colour_of
from vision.detection.classical import ClassicalDetector

FloatArray = npt.NDArray[np.float64]
SAMPLES = Path(__file__).resolve().parents[1] / "sample_videos"
#: A ball that moved less than this (mm) since the previous and until the next frame is at rest.
REST_MM = 0.5
#: A ball at rest whose centre is within this of another's (mm) is touching it (or nearly):
#: such balls are placed from a cluster's caps, not refined alone, and are reported apart.
TOUCHING_MM = 2 * TABLE.ball_radius + 5.0


@dataclass(frozen=True)
class TruthBall:
    """One ball in view in one frame."""

    name: str
    pixel: tuple[float, float]
    position: tuple[float, float]


@dataclass
class ClipScore:
    """Counts accumulated over one clip's sampled frames."""

    name: str
    truth: int = 0
    found: int = 0
    matched: int = 0
    colour_right: int = 0
    rest_errors: list[float] | None = None
    rest_touching: list[bool] | None = None


def read_tracks(path: Path) -> dict[int, dict[str, TruthBall]]:
    """Balls in view per frame from a ``tracks.csv``."""
    frames: dict[int, dict[str, TruthBall]] = defaultdict(dict)
    with path.open() as fh:
        for row in csv.DictReader(fh):
            if row["state"] != "seen" or not row["u_px"]:
                continue
            frames[int(row["frame"])][row["ball"]] = TruthBall(
                row["ball"],
                (float(row["u_px"]), float(row["v_px"])),
                (float(row["x_mm"]), float(row["y_mm"])),
            )
    return frames


def _at_rest(frames: dict[int, dict[str, TruthBall]], f: int, ball: TruthBall) -> bool:
    for g in (f - 1, f + 1):
        other = frames.get(g, {}).get(ball.name)
        if other is None or np.hypot(*np.subtract(other.position, ball.position)) > REST_MM:
            return False
    return True


def score_clip(video: Path, step: int = 10, max_frames: int = 40) -> ClipScore:
    """Detect every ``step``-th frame (at most ``max_frames``) of one clip and score it."""
    name = video.name.removesuffix(".mp4")
    frames = read_tracks(video.with_name(f"{name}.tracks.csv"))
    camera = Camera.from_dict(json.loads(video.with_name(f"{name}.camera.json").read_text()))
    score = ClipScore(name, rest_errors=[], rest_touching=[])
    cap = cv2.VideoCapture(str(video))
    detector = ClassicalDetector()
    index, used = 0, 0
    while used < max_frames:
        ok, frame = cap.read()
        if not ok:
            break
        if index % step == 0:
            image = np.asarray(frame, np.uint8)
            if detector.cloth is None:
                detector.learn(image, str(video))
            det = detector.detect(image)
            det = det[det.colour >= 0]
            truth = list(frames.get(index, {}).values())
            _score_frame(score, det.pixel, det.colour_names(), det.radius, truth, camera, frames, index)
            used += 1
        index += 1
    cap.release()
    return score


def _score_frame(
    score: ClipScore,
    pixel: FloatArray,
    names: list[str],
    radius: FloatArray,
    truth: list[TruthBall],
    camera: Camera,
    frames: dict[int, dict[str, TruthBall]],
    index: int,
) -> None:
    score.truth += len(truth)
    score.found += len(pixel)
    if not len(truth) or not len(pixel):
        return
    tp = np.array([t.pixel for t in truth])
    d = np.linalg.norm(pixel[:, None, :] - tp[None, :, :], axis=2)
    gate = np.maximum(radius[:, None], 3.0)
    rows, cols = linear_sum_assignment(np.where(d <= gate, d, 1e6))
    assert score.rest_errors is not None and score.rest_touching is not None
    tpos = np.array([t.position for t in truth])
    for r, c in zip(rows, cols, strict=True):
        if d[r, c] > gate[r, 0]:
            continue
        score.matched += 1
        score.colour_right += names[r] == colour_of(truth[c].name).value
        if _at_rest(frames, index, truth[c]):
            xy = camera.pixels_to_table(pixel[r : r + 1], z=TABLE.ball_radius)[0]
            score.rest_errors.append(float(np.hypot(*(xy - np.array(truth[c].position)))))
            gaps = np.hypot(*(tpos - tpos[c]).T)
            score.rest_touching.append(bool(np.any((gaps > 0) & (gaps < TOUCHING_MM))))


def summarise(scores: list[ClipScore]) -> dict[str, float]:
    """Recall, precision, colour accuracy and RMS position error at rest over all clips."""
    truth = sum(s.truth for s in scores)
    found = sum(s.found for s in scores)
    matched = sum(s.matched for s in scores)
    errors = np.array([e for s in scores for e in (s.rest_errors or [])])
    touching = np.array([k for s in scores for k in (s.rest_touching or [])], bool)

    def rms(e: FloatArray) -> float:
        return float(np.sqrt(np.mean(e**2))) if len(e) else float("nan")

    return {
        "clips": float(len(scores)),
        "truth": float(truth),
        "recall": matched / max(truth, 1),
        "precision": matched / max(found, 1),
        "colour": sum(s.colour_right for s in scores) / max(matched, 1),
        "rest_rms_mm": rms(errors),
        "rest_median_mm": float(np.median(errors)) if len(errors) else float("nan"),
        "rest_n": float(len(errors)),
        "rest_rms_lone_mm": rms(errors[~touching]) if len(touching) == len(errors) else float("nan"),
        "rest_rms_touching_mm": rms(errors[touching]) if len(touching) == len(errors) else float("nan"),
        "rest_touching_n": float(np.count_nonzero(touching)),
    }


def run(
    folder: Path = SAMPLES, step: int = 10, max_frames: int = 40
) -> tuple[list[ClipScore], dict[str, float]]:
    """Score every sample clip of ``folder``."""
    scores = [score_clip(v, step, max_frames) for v in sorted(folder.glob("*.mp4"))]
    return scores, summarise(scores)
