"""Synthetic-camera speed and realism: frames per second at 720p and 1080p, a whole clip with
its H.264 encoding, and the rendered cloth's colour statistics next to the real footage's.

Speed: the broadcast conditions render a physics break-off (``simulate_sequence("break_off",
seed=0)``): the static layer once (reported separately), then :meth:`Renderer.frame` over
evenly spread frame instants of the clip, with the motion-blur sub-frames and the people
exactly as :func:`vision.synthetic.clip.render_clip` builds them, so the figure covers
balls at rest, balls in motion and a player over the table. The whole-clip figure is
``render_clip`` end to end (rendering, x264 encoding in its own process, truth files).

Realism: :mod:`vision.synthetic.realism`'s cloth statistics (the same cloth mask on both
sides) of the rendered default frame and of all Task1 frames, measured each run from
``shared/footage/broadcast-overhead/Task1`` (skipped when the footage is absent), and
``out/render_vs_task1.png``, the two side by side.

Run ``python -m benchmarks.render_bench`` (``--quick`` renders fewer frames). Writes the
``render`` section of RESULTS.md.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

import numpy as np
import numpy.typing as npt

U8 = npt.NDArray[np.uint8]


def main(argv: list[str] | None = None) -> int:
    """Measure and write the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer frames (a smoke run)")
    parser.add_argument("--frames", type=int, default=120, help="frames timed per resolution")
    args = parser.parse_args(argv)
    n_frames = 20 if args.quick else args.frames

    import cv2

    from benchmarks.results import stamp, update_section
    from vision.synthetic.clip import _subframes, action_moments, frame_times, render_clip
    from vision.synthetic.conditions import broadcast
    from vision.synthetic.occluders import capsules_at
    from vision.synthetic.realism import DEFAULT_FOOTAGE, cloth_stats, read_frames
    from vision.synthetic.realism import table as cloth_table
    from vision.synthetic.render import Renderer
    from vision.synthetic.scenarios import simulate_sequence

    t0 = time.perf_counter()
    timeline = simulate_sequence("break_off", seed=0)
    sim_s = time.perf_counter() - t0
    moments = action_moments(timeline)

    rows: list[str] = []
    default_frame: U8 | None = None
    for width, height in ((1280, 720), (1920, 1080)):
        cond = broadcast(width, height, 30.0)
        t0 = time.perf_counter()
        renderer = Renderer(cond, seed=0)
        static_s = time.perf_counter() - t0
        cam = cond.camera
        px_per_mm = cam.intrinsics.fx / float(np.linalg.norm(cam.centre - cam.target))
        exposure = cond.exposure / cond.fps
        times = frame_times(timeline, cond.fps)
        pick = times[np.linspace(0, len(times) - 1, min(n_frames, len(times))).round().astype(int)]
        inputs = [
            (
                _subframes(timeline, float(t), exposure, px_per_mm),
                capsules_at(timeline.actions, float(t), moments),
            )
            for t in pick
        ]
        t0, c0 = time.perf_counter(), time.process_time()
        for sub, caps in inputs:
            frame = renderer.frame(timeline.ball_names, sub, list(caps))
        frame_s = (time.perf_counter() - t0) / len(inputs)
        cpu_s = (time.process_time() - c0) / len(inputs)
        if width == 1280:
            default_frame = renderer.frame(
                timeline.ball_names, _subframes(timeline, 0.0, exposure, px_per_mm), []
            )
        del frame
        rows.append(
            f"| {width}x{height} | {1.0 / frame_s:.1f} | {frame_s * 1000:.1f} | {cpu_s * 1000:.1f} "
            f"| {static_s:.2f} | {len(inputs)} |"
        )

    clip_line = ""
    if not args.quick:
        cond = broadcast(1280, 720, 30.0)
        with tempfile.TemporaryDirectory() as tmp:
            t0 = time.perf_counter()
            files = render_clip(timeline, cond, Path(tmp), "bench", seed=0)
            clip_s = time.perf_counter() - t0
            size_mb = files.video.stat().st_size / 1e6
        clip_line = (
            f"- whole clip, `render_clip` 1280x720 30 fps break-off ({files.frames} frames, "
            f"{timeline.duration:.1f} s of play) incl. x264 encoding and truth files: {clip_s:.1f} s "
            f"({files.frames / clip_s:.1f} frames/s), {size_mb:.2f} MB"
        )

    realism: list[str] = []
    if default_frame is not None:
        stats = {"rendered default (broadcast 1280x720, break-off set-up)": cloth_stats([default_frame])}
        real = read_frames(DEFAULT_FOOTAGE) if DEFAULT_FOOTAGE.is_dir() else []
        if real:
            stats[f"real Task1, all {len(real)} frames"] = cloth_stats(real)
            out = Path(__file__).resolve().parents[1] / "out"
            out.mkdir(exist_ok=True)
            side = np.hstack([default_frame, cv2.resize(real[0], default_frame.shape[1::-1])])
            cv2.imwrite(str(out / "render_vs_task1.png"), side)
        else:
            realism.append(f"(real Task1 frames not found at {DEFAULT_FOOTAGE}: no comparison)")
        realism.insert(0, cloth_table(stats))

    lines = [
        "## Synthetic camera rendering",
        "",
        stamp("python -m benchmarks.render_bench" + (" --quick" if args.quick else "")),
        f"Broadcast conditions, physics break-off (seed 0, simulated in {sim_s:.1f} s), "
        "frames spread over the whole clip (balls at rest, in motion with blur, player and cue); "
        "single process; encoding not included in the per-frame figures. Wall-clock figures "
        "depend on what else runs on the two cores; CPU time is the steadier measure "
        f"(1-minute load average at the end of the run: {os.getloadavg()[0]:.1f}).",
        "",
        "| resolution | frames/s (wall) | ms/frame (wall) | CPU ms/frame | static layer (s, once per clip) "
        "| frames timed |",
        "|---|---|---|---|---|---|",
        *rows,
        "",
        *([clip_line] if clip_line else []),
        "",
        "Cloth colour (`vision.synthetic.realism`: OpenCV HSV of pixels with hue 40-80, S > 120, V > 60):",
        "",
        *realism,
    ]
    text = "\n".join(lines)
    print(text)
    update_section("render", text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
