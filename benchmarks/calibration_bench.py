"""Calibration benchmark (issue 4): synthetic frames against their true camera, real footage
against its visible cushion edges, and speed.

Synthetic: ``--frames`` frames (200 by default), each from :func:`random_conditions` (tilt up to
35 degrees, any rotation, lens distortion, light, cloth, noise, 640x360 to 1920x1080) rendered
by the project's renderer with the balls in their standard set-up and a player down on a stroke
over the table (capsules through the true camera). Error of a frame: the mean distance on the
cloth (mm) between where the true camera and the fitted one put the table's keypoints, pocket
centres, pocket jaws and points along the baulk-line and D (both projected by the true camera
into the image, then taken back to the table by the fitted one). A frame that fails to calibrate
counts as a failure, never as an exclusion. Orientation is right when the fitted camera's
projection of the yellow and green spots lands within 100 mm of the true ones.

Real: every Task1 frame and the first frame of every Task2 clip: success, orientation (the
broadcast camera stands beyond the top cushion, so its x exceeds the table's length), and the
cushion-edge check (:mod:`calibration.edgecheck`). Its headline is issue 4's check: every
cushion line at its face line (offset 0, what the overlay draws) against the visible edges.
Beside it, the same check with the seen faces at the calibration's one shared edge offset
(bounded to a quarter pixel, :data:`calibration.fit.SHARED_OFFSET_BOUND_PX`), whose value per
frame is listed; overlays go to ``out/calibration-overlays/``.

Speed: ``calibrate_image`` on a 1080p rendered frame and on a Task1 frame resized to 1080p
(median of repeats, wall-clock and process CPU time), and the video re-check per frame.

Run: ``python -m benchmarks.calibration_bench [--frames N] [--no-real] [--frame-cache DIR]``.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import time
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from benchmarks.results import stamp, update_section
from calibration.calibrate import Calibration, calibrate_image
from calibration.edgecheck import check_cushion_edges
from calibration.errors import BaulklineError
from calibration.homography import FloatArray
from calibration.table import TABLE, Colour

FOOTAGE = Path(__file__).resolve().parents[2] / "shared" / "footage" / "broadcast-overhead"
OVERLAYS = Path(__file__).resolve().parents[1] / "out" / "calibration-overlays"


def truth_points() -> FloatArray:
    """Table points the error is measured on: keypoints, pocket centres and jaws, baulk-line, D."""
    pts = [np.asarray(list(TABLE.keypoints.values()))]
    for p in TABLE.pockets.values():
        pts.append(np.asarray([p.centre, *p.jaws]))
    pts.append(np.stack([np.full(9, TABLE.baulk_line), np.linspace(100, TABLE.width - 100, 9)], axis=1))
    pts.append(TABLE.d_arc(9))
    return np.vstack(pts)


def render_frame(seed: int, size: tuple[int, int] | None = None) -> tuple[np.ndarray, Calibration]:
    """One synthetic frame with a player over the table, and its true camera (``size`` fixes
    the resolution, otherwise drawn with the rest of the conditions)."""
    from vision.synthetic.conditions import random_conditions
    from vision.synthetic.occluders import stroke_capsules
    from vision.synthetic.render import Renderer
    from vision.synthetic.timeline import Action

    rng = np.random.default_rng([seed, 4])
    cond = random_conditions(seed, *(size or (None, None)))
    renderer = Renderer(cond, seed)
    pos = TABLE.standard_positions(15, white=True)
    names = tuple(pos)
    sub = np.asarray([list(pos.values())], dtype=np.float64)
    white = (float(rng.uniform(300, TABLE.length - 300)), float(rng.uniform(200, TABLE.width - 200)))
    action = Action("stroke", 0.0, 2.0, "white", white, float(rng.uniform(0, 2 * math.pi)))
    caps = stroke_capsules(action, 0.9)
    img = renderer.frame(names, sub, caps)  # type: ignore[arg-type]
    return img, Calibration.from_camera(cond.camera)


def cached_frame(
    seed: int, size: tuple[int, int] | None, cache: Path | None
) -> tuple[np.ndarray, Calibration]:
    """:func:`render_frame`, kept in ``cache`` (lossless PNG and the true camera's JSON) when
    given: a frame takes seconds to render and a fiftieth of that to calibrate, so re-running
    the same seeds after a change to the calibration costs the calibrations only. The renderer
    is deterministic per seed; a cache made before a change to the renderer must be removed."""
    if cache is None:
        return render_frame(seed, size)
    stem = cache / f"{seed}-{'x'.join(map(str, size)) if size else 'random'}"
    png, js = stem.with_suffix(".png"), stem.with_suffix(".json")
    if png.exists() and js.exists():
        return np.asarray(cv2.imread(str(png)), dtype=np.uint8), Calibration.from_json(js.read_text())
    img, truth = render_frame(seed, size)
    cache.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(png), img, [cv2.IMWRITE_PNG_COMPRESSION, 1])
    js.write_text(truth.to_json())
    return img, truth


def frame_error(truth: Calibration, fitted: Calibration) -> tuple[float, bool]:
    """Mean table error (mm) of the truth points through the fitted camera, and orientation."""
    pts = truth_points()
    px = truth.table_to_pixels(pts)
    w, h = truth.image_size
    inside = (px[:, 0] >= 0) & (px[:, 0] < w) & (px[:, 1] >= 0) & (px[:, 1] < h)
    back = fitted.pixels_to_table(px[inside])
    err = float(np.mean(np.hypot(*(back - pts[inside]).T)))
    spots = np.array([TABLE.spots[Colour.YELLOW], TABLE.spots[Colour.GREEN]])
    seen = fitted.pixels_to_table(truth.table_to_pixels(spots))
    oriented = bool(np.all(np.hypot(*(seen - spots).T) < 100.0))
    return err, oriented


def _summary(frames: int, done: int, errors: list[float], failures: list[str], wrong: list[int]) -> str:
    e = np.asarray(errors) if errors else np.asarray([float("nan")])
    partial = "" if done == frames else f" (PARTIAL: the run stopped after {done} of {frames} frames)"
    lines = [
        f"- frames rendered: {done}{partial}; calibrated: {len(errors)}; failures (counted as "
        f"failures): {len(failures)}; orientation wrong: {len(wrong)} {wrong[:10]}",
        f"- error of projected markings and pockets (mm, calibrated frames): mean {np.mean(e):.2f}, "
        f"median {np.median(e):.2f}, 95th percentile {np.percentile(e, 95):.2f}, worst {np.max(e):.2f}",
        f"- frames within 3 mm: {int(np.sum(e < 3))}; within 10 mm: {int(np.sum(e < 10))}; "
        f"calibrated and oriented: {len(errors) - len(wrong)}/{done}",
    ]
    if failures:
        lines.append(f"- first failures: {'; '.join(failures[:5])}")
    return "\n".join(lines)


def synthetic(
    frames: int,
    size: tuple[int, int] | None,
    head: list[str],
    offset: int = 0,
    write: bool = True,
    cache: Path | None = None,
) -> str:
    """Renders and scores ``frames`` frames from seed ``offset`` on; the section is rewritten every
    20 frames (unless ``write`` is off) so that a run cut short still leaves its figures, marked as
    partial. Seeds 0-199 are the set the calibration was developed on; other offsets are the check
    that its figures hold on poses, lenses and players it never saw (1000-1199 and 2000-2199 were
    held out until their worst frames were diagnosed and their causes fixed, so they are no longer
    blind; 3000-3199 was kept blind for that)."""
    errors: list[float] = []
    failures: list[str] = []
    wrong: list[int] = []
    seeds = f"seeds {offset}-{offset + frames - 1}"
    title = (
        f"### Synthetic ({frames} frames at {size or 'random sizes'}, {seeds}, random poses, distortion, "
        "a player)"
    )
    for seed in range(offset, offset + frames):
        img, truth = cached_frame(seed, size, cache)
        try:
            cal = calibrate_image(img, f"synthetic seed {seed}")
        except BaulklineError as exc:
            failures.append(str(exc))
            print(f"seed {seed}: FAILED {exc}", flush=True)
        else:
            err, ok = frame_error(truth, cal)
            errors.append(err)
            if not ok:
                wrong.append(seed)
            print(f"seed {seed}: {err:.2f} mm, oriented {ok}, {img.shape[1]}x{img.shape[0]}", flush=True)
        done = seed - offset + 1
        if write and (done % 20 == 0 or done == frames):
            text = _summary(frames, done, errors, failures, wrong)
            update_section("calibration", "\n".join([*head, "", title, "", text]))
    return "\n".join(["", title, "", _summary(frames, frames, errors, failures, wrong)])


def _edge_figures(medians: list[float]) -> str:
    """The edge check's per-frame medians summed up (px): the median frame, the worst, and how
    many frames are over 3 px."""
    m = np.asarray(medians)
    return (
        f"median {np.median(m):.2f} px, worst frame {np.max(m):.2f} px, "
        f"frames over 3 px: {int(np.sum(m > 3))}"
    )


def real() -> str:
    frames: list[tuple[str, np.ndarray]] = []
    for p in sorted((FOOTAGE / "Task1").glob("*.jpg"), key=lambda p: int(p.stem)):
        frames.append((f"Task1/{p.name}", np.asarray(cv2.imread(str(p)), dtype=np.uint8)))
    for p in sorted((FOOTAGE / "Task2").glob("*.mp4"), key=lambda p: int(p.stem)):
        cap = cv2.VideoCapture(str(p))
        ok, f = cap.read()
        cap.release()
        if ok:
            frames.append((f"Task2/{p.name} frame 0", f))
    from calibration.overlay import draw_calibration

    OVERLAYS.mkdir(parents=True, exist_ok=True)
    failed: list[str] = []
    wrong: list[str] = []
    medians: list[float] = []
    at_face: list[float] = []
    shared: list[float] = []
    rows = []
    for name, im in frames:
        try:
            cal = calibrate_image(im, name)
        except BaulklineError as exc:
            failed.append(str(exc))
            continue
        if cal.camera_centre[0] <= TABLE.length:
            wrong.append(name)
        # Issue 4's check: every cushion line at its face line (no shared offset), what the
        # overlay draws; then the same at the fitted shared offset, beside it.
        face = check_cushion_edges(im, replace(cal, edge_offset_mm=0.0))
        chk = check_cushion_edges(im, cal)
        at_face.append(face.median_px)
        medians.append(chk.median_px)
        shared.append(cal.edge_offset_mm)
        rows.append(
            f"| {name} | {face.median_px:.2f} | {face.valid} | {chk.median_px:.2f} | "
            f"{cal.edge_offset_mm:+.1f} | {cal.residual_mm:.2f} | {cal.confidence:.2f} |"
        )
        out = OVERLAYS / (name.replace("/", "_").replace(" ", "_").replace(".", "_") + ".jpg")
        cv2.imwrite(str(out), draw_calibration(im, cal))
    lines = [
        f"- frames: {len(frames)}; calibrated: {len(medians)}; failed: {len(failed)}; "
        f"orientation wrong: {len(wrong)} {wrong}",
        "- cushion-edge check, projected face lines against the visible edges (issue 4's check; "
        f"median |px| over unoccluded samples per frame): {_edge_figures(at_face)}",
        f"- the same check with the seen faces at the fitted shared edge offset: {_edge_figures(medians)}",
        "- fitted edge offset shared by the seen cushion faces (mm, negative: the visible step lies "
        "outside the nose line; bounded to a quarter pixel at the table's middle): "
        f"median {np.median(shared):+.1f}, range {np.min(shared):+.1f} to {np.max(shared):+.1f}",
        f"- failures: {'; '.join(failed) if failed else 'none'}",
        "- overlays: `out/calibration-overlays/` (not committed)",
        "",
        "<details><summary>per frame</summary>",
        "",
        "| frame | face-line edge median (px) | samples | at fitted offset (px) | edge offset (mm) "
        "| residual (mm) | confidence |",
        "|---|---|---|---|---|---|---|",
        *rows,
        "",
        "</details>",
    ]
    return "\n".join(lines)


#: Timed calibrations per source: enough that the median and best CPU times are stable on a
#: machine shared with other work.
SPEED_REPEATS = 15


def speed() -> str:
    from calibration.video import VideoCalibrator

    img, _ = render_frame(1000)
    if img.shape[1] != 1920:
        img = cv2.resize(img, (1920, 1080))
    lines = []
    sources = [("synthetic 1080p", img)]
    task1 = FOOTAGE / "Task1" / "1.jpg"
    if task1.exists():
        t1 = np.asarray(cv2.imread(str(task1)), dtype=np.uint8)
        sources.append(("Task1/1.jpg resized to 1080p", np.asarray(cv2.resize(t1, (1920, 1080)))))
    for label, im in sources:
        with contextlib.suppress(BaulklineError):
            calibrate_image(im)  # the compiled fit's first call (numba's cache) is not timed
        wall, cpu = [], []
        load = os.getloadavg()[0]
        for _ in range(SPEED_REPEATS):
            t0, c0 = time.perf_counter(), time.process_time()
            with contextlib.suppress(BaulklineError):
                calibrate_image(im)
            wall.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
        lines.append(
            f"- calibrate_image, {label}: process CPU time median {1000 * np.median(cpu):.0f} ms, "
            f"best {1000 * np.min(cpu):.0f} ms; wall median {1000 * np.median(wall):.0f} ms, best "
            f"{1000 * np.min(wall):.0f} ms ({SPEED_REPEATS} runs; load average {load:.1f} on 2 cores "
            "shared with other work: wall time counts the waits for a core, CPU time does not)"
        )
    vc = VideoCalibrator()
    im = sources[-1][1]
    vc.update(0, im)
    t0 = time.perf_counter()
    for i in range(1, 201):
        vc.update(i, im)
    per = 1000 * (time.perf_counter() - t0) / 200
    lines.append(f"- re-check per frame (VideoCalibrator.update, 1080p): {per:.3f} ms")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=200)
    ap.add_argument("--no-real", action="store_true")
    ap.add_argument("--size", default="960x540", help="synthetic frame size WxH, or 'random'")
    ap.add_argument(
        "--seed-offset",
        type=int,
        nargs="+",
        default=[0, 1000],
        help=(
            "first seed of each synthetic set (0: the set the calibration was tuned on; 1000 and 2000: "
            "held out, then their worst frames diagnosed; 3000: held out and never looked into)"
        ),
    )
    ap.add_argument("--no-write", action="store_true", help="print only; leave RESULTS.md alone")
    ap.add_argument(
        "--frame-cache",
        type=Path,
        default=None,
        help="folder that keeps rendered synthetic frames and their true cameras between runs",
    )
    args = ap.parse_args()
    size = None if args.size == "random" else tuple(int(v) for v in args.size.split("x"))
    parts = [
        "## Calibration (issue 4)",
        "",
        stamp(
            f"python -m benchmarks.calibration_bench --frames {args.frames} --size {args.size}"
            + f" --seed-offset {' '.join(map(str, args.seed_offset))}"
        ),
        "Targets: synthetic mean error < 3 mm, worst frame < 10 mm, orientation right on every "
        "frame; real frames all calibrated and oriented, projected cushion lines within 3 px of the "
        "visible edges; < 50 ms per 1080p calibration, re-check < 2 ms.",
        "",
        "### Speed",
        "",
        speed(),
    ]
    print("\n".join(parts), flush=True)
    if not args.no_real and FOOTAGE.exists():
        rl = real()
        parts += ["", "### Real footage (Task1 all frames, Task2 first frames)", "", rl]
        print(rl.split("<details>")[0], flush=True)
    if not args.no_write:
        update_section("calibration", "\n".join(parts))
    for offset in args.seed_offset:
        syn = synthetic(args.frames, size, parts, offset, not args.no_write, args.frame_cache)  # type: ignore[arg-type]
        print(syn, flush=True)
        parts.append(syn)


if __name__ == "__main__":
    main()
