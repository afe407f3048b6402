"""One Timeline to one clip with its ground truth beside it.

For ``NAME`` in ``DIR`` it writes:

- ``NAME.mp4``: H.264 video of the clip (:mod:`vision.synthetic.video`).
- ``NAME.truth.jsonl``: the true input event log, one
  :func:`adjudicator.eventlog.event_to_dict` object per line (the pipeline's target output).
- ``NAME.tracks.csv``: :class:`vision.tracks.Tracks` of every ball in every frame: table
  millimetres and the pixel of the ball centre projected at ``z = TABLE.ball_radius``
  through the true camera (distortion included). ``state`` is ``seen`` for every ball on
  the cloth, **also when a player or hand hides it in the image**: the truth says where a
  ball is, not whether a detector could see it (``NAME.cover.csv`` says that); ``absent``
  when off the cloth (potted, in hand, lifted).
- ``NAME.cover.csv``: per frame and ball on the cloth, the share of the ball's image the
  people (player, cue, hand) cover, 0-1 (:mod:`vision.synthetic.cover`): what says whether a
  ``seen`` ball of the tracks could be seen at all.
- ``NAME.camera.json``: :meth:`calibration.camera.Camera.to_dict` of the true camera, plus
  the clip's frame rate, frame count and conditions name.

Frame ``k`` is the instant ``t = k / fps`` of the Timeline; its motion blur integrates the
exposure centred on that instant, so the blurred streak's centre is the truth position.
"""

from __future__ import annotations

import json
import math
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from adjudicator.eventlog import Place, Strike, event_to_dict
from calibration.errors import BaulklineError
from calibration.table import TABLE
from vision.synthetic.conditions import Conditions
from vision.synthetic.cover import covered_shares, people_mask, write_cover_csv
from vision.synthetic.occluders import capsules_at
from vision.synthetic.render import BallPainter, Renderer, cast_rays
from vision.synthetic.timeline import Timeline
from vision.synthetic.video import H264Writer
from vision.tracks import Tracks, TrackState

FloatArray = npt.NDArray[np.float64]

#: Most sub-frame samples of the motion blur (a ball crossing 16+ px in one exposure).
MAX_SUBFRAMES = 16


@dataclass(frozen=True)
class ClipFiles:
    """Paths of one rendered clip and its truth."""

    video: Path
    truth: Path
    tracks: Path
    camera: Path
    cover: Path
    frames: int


def sample_positions(timeline: Timeline, times: npt.ArrayLike) -> FloatArray:
    """``(N, B, 2)`` positions at ``times``; linear between samples, NaN if either
    neighbouring sample is NaN (as :meth:`Timeline.positions_at`, vectorised)."""
    t = np.asarray(times, dtype=np.float64)
    ts, pos = timeline.times, timeline.positions
    if len(ts) == 1:
        return np.repeat(pos[:1], len(t), axis=0)
    i = np.clip(np.searchsorted(ts, t, side="right") - 1, 0, len(ts) - 2)
    w = np.clip((t - ts[i]) / (ts[i + 1] - ts[i]), 0.0, 1.0)[:, None, None]
    a, b = pos[i], pos[i + 1]
    mixed = a + (b - a) * w
    out: FloatArray = np.where(w <= 0.0, a, np.where(w >= 1.0, b, mixed))
    return out


def frame_times(timeline: Timeline, fps: float) -> FloatArray:
    """Frame instants ``k / fps`` covering the Timeline."""
    n = math.floor(timeline.duration * fps + 1e-9) + 1
    out: FloatArray = np.arange(n, dtype=np.float64) / fps
    return out


def truth_tracks(timeline: Timeline, conditions: Conditions, times: FloatArray) -> Tracks:
    """Every ball at every frame instant, in millimetres and true pixels."""
    pos = sample_positions(timeline, times)
    f, b = pos.shape[:2]
    flat = pos.reshape(-1, 2)
    present = ~np.isnan(flat[:, 0])
    pixel = np.full_like(flat, np.nan)
    if present.any():
        pixel[present] = conditions.camera.project(flat[present], TABLE.ball_radius)
    state = np.where(present, int(TrackState.SEEN), int(TrackState.ABSENT)).astype(np.int8).reshape(f, b)
    return Tracks(timeline.ball_names, times, pos, pixel.reshape(f, b, 2), state)


def truth_cover(
    timeline: Timeline, conditions: Conditions, times: FloatArray, painter: BallPainter | None = None
) -> FloatArray:
    """``(F, B)`` share of each ball's image the people cover at each frame instant (NaN off
    the cloth), from the capsules and the ball silhouettes the renderer draws.

    Args:
        painter: the clip renderer's painter; built from the camera's rays when not given
            (re-writing the cover of a clip without rendering it again).
    """
    painter = painter or BallPainter(conditions, cast_rays(conditions))
    pos = sample_positions(timeline, times)
    moments = action_moments(timeline)
    size = (conditions.width, conditions.height)
    out = np.full(pos.shape[:2], np.nan)
    for i, t in enumerate(times):
        caps = capsules_at(timeline.actions, float(t), moments)
        mask = people_mask(conditions.camera, size, caps) if caps else None
        out[i] = covered_shares(painter, timeline.ball_names, pos[i], mask)
    return out


def _subframes(timeline: Timeline, t: float, exposure: float, px_per_mm: float) -> FloatArray:
    ends = sample_positions(timeline, [t - exposure / 2, t + exposure / 2])
    moved = np.nanmax(np.hypot(*(ends[1] - ends[0]).T), initial=0.0) if exposure > 0 else 0.0
    k = int(min(MAX_SUBFRAMES, max(1, math.ceil(float(np.nan_to_num(moved)) * px_per_mm / 1.0))))
    if k == 1:
        return sample_positions(timeline, [t])
    return sample_positions(timeline, t + np.linspace(-exposure / 2, exposure / 2, k))


def action_moments(timeline: Timeline) -> list[float | None]:
    """Per action, the time of its strike (a stroke) or of its place event (a placement), so
    the cue meets the white and the hand is over the ball exactly when the log says."""
    out: list[float | None] = []
    for a in timeline.actions:
        if a.kind == "stroke":
            times = [e.t for e in timeline.events if isinstance(e, Strike) and a.t_start <= e.t <= a.t_end]
        else:
            times = [
                e.t
                for e in timeline.events
                if isinstance(e, Place) and e.ball == a.ball and a.t_start <= e.t <= a.t_end
            ]
        out.append(times[0] if times else None)
    return out


def ensure_writable(out_dir: Path, name: str) -> None:
    """Fail fast, with one line naming the folder, before any simulating or rendering."""
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        probe = out_dir / f".{name}.probe"
        probe.write_text("")
        probe.unlink()
    except OSError as exc:
        raise BaulklineError(f"{out_dir}: cannot write output here ({exc.strerror or exc})") from None


def render_clip(
    timeline: Timeline,
    conditions: Conditions,
    out_dir: Path,
    name: str,
    seed: int = 0,
    max_seconds: float | None = None,
) -> ClipFiles:
    """Render ``timeline`` through ``conditions`` to ``out_dir/name.*``.

    Args:
        max_seconds: cut the clip after this long (the truth log keeps only events before).

    Raises:
        BaulklineError: the output directory cannot be written or the encoder failed.
    """
    ensure_writable(out_dir, name)
    times = frame_times(timeline, conditions.fps)
    if max_seconds is not None:
        times = times[times <= max_seconds]
    end = float(times[-1])
    renderer = Renderer(conditions, seed)
    cam = conditions.camera
    px_per_mm = cam.intrinsics.fx / float(np.linalg.norm(cam.centre - cam.target))
    exposure = conditions.exposure / conditions.fps
    moments = action_moments(timeline)

    video = out_dir / f"{name}.mp4"
    with H264Writer(
        video, (conditions.width, conditions.height), conditions.fps, conditions.crf, "veryfast"
    ) as writer:
        for t in times:
            sub = _subframes(timeline, float(t), exposure, px_per_mm)
            caps = capsules_at(timeline.actions, float(t), moments)
            writer.write(renderer.frame(timeline.ball_names, sub, list(caps)))

    truth = out_dir / f"{name}.truth.jsonl"
    with truth.open("w") as fh:
        for event in timeline.events:
            if event.t <= end + 1e-9:
                fh.write(json.dumps(event_to_dict(event)) + "\n")
    tracks_path = out_dir / f"{name}.tracks.csv"
    truth_tracks(timeline, conditions, times).to_csv(tracks_path)
    cover_path = out_dir / f"{name}.cover.csv"
    write_cover_csv(
        cover_path, timeline.ball_names, truth_cover(timeline, conditions, times, renderer.painter)
    )
    camera_path = out_dir / f"{name}.camera.json"
    info = cam.to_dict()
    info["fps"] = conditions.fps
    info["frames"] = len(times)
    info["conditions"] = conditions.name
    camera_path.write_text(json.dumps(info, indent=2) + "\n")
    return ClipFiles(video, truth, tracks_path, camera_path, cover_path, len(times))


def write_cover_only(
    timeline: Timeline, conditions: Conditions, out_dir: Path, name: str, max_seconds: float | None = None
) -> Path:
    """Write ``out_dir/name.cover.csv`` beside an already rendered clip, without rendering it.

    Why: clips rendered before the cover truth existed (committed samples, cached renders)
    would otherwise count balls under a player's body in the detection recall; rendering a
    1080p60 clip again takes minutes, its cover alone a fraction of that.

    Args:
        timeline: the clip's timeline, simulated again from its scenario and seed.
        max_seconds: the cut the clip was rendered with.

    Raises:
        BaulklineError: the clip's ``NAME.tracks.csv`` is missing, or the regenerated
            timeline does not reproduce it exactly (the cover would describe another clip).
    """
    committed = out_dir / f"{name}.tracks.csv"
    if not committed.is_file():
        raise BaulklineError(f"{committed}: missing; render the clip first")
    times = frame_times(timeline, conditions.fps)
    if max_seconds is not None:
        times = times[times <= max_seconds]
    with tempfile.TemporaryDirectory() as tmp:
        again = Path(tmp) / "tracks.csv"
        truth_tracks(timeline, conditions, times).to_csv(again)
        if again.read_bytes() != committed.read_bytes():
            raise BaulklineError(
                f"{committed}: the regenerated timeline does not reproduce it; cover not written "
                "(re-render the clip instead)"
            )
    path = out_dir / f"{name}.cover.csv"
    write_cover_csv(path, timeline.ball_names, truth_cover(timeline, conditions, times))
    return path
