"""How close the default synthetic look is to the real overhead footage, in numbers.

A side-by-side picture convinces a person; numbers keep the look from drifting. This
compares the cloth (the largest and most lighting-sensitive surface, and what detection
segments first) of rendered broadcast frames with the Task1 frames of
``shared/footage/broadcast-overhead``: the same cloth mask (hue 40-80 of OpenCV's 0-180,
saturation > 120, value > 60) on both, then the median BGR and the 5/50/95th percentiles of
hue, saturation and value. Run ``python -m vision.synthetic.realism [FOOTAGE_DIR]``: it
prints the table and writes ``out/side_by_side.png`` (rendered default frame | Task1 frame).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

U8 = npt.NDArray[np.uint8]
DEFAULT_FOOTAGE = Path(__file__).resolve().parents[3] / "shared" / "footage" / "broadcast-overhead" / "Task1"


@dataclass(frozen=True)
class ClothStats:
    """Cloth colour statistics of a set of frames.

    Attributes:
        frames: how many frames were measured.
        median_bgr: median cloth colour.
        hsv_percentiles: ``(3, 3)``: rows H, S, V; columns the 5th, 50th, 95th percentiles.
        fraction: mean fraction of the image that is cloth.
    """

    frames: int
    median_bgr: tuple[float, float, float]
    hsv_percentiles: npt.NDArray[np.float64]
    fraction: float


def cloth_mask(image: U8) -> npt.NDArray[np.bool_]:
    """Pixels that look like baize: green hue, saturated, not dark."""
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    h, s, v = hsv[..., 0], hsv[..., 1], hsv[..., 2]
    mask: npt.NDArray[np.bool_] = (h > 40) & (h < 80) & (s > 120) & (v > 60)
    return mask


def cloth_stats(images: list[U8]) -> ClothStats:
    """Statistics over the cloth pixels of all ``images`` pooled."""
    if not images:
        raise ValueError("no images to measure")
    bgr, hsv, frac = [], [], []
    for im in images:
        m = cloth_mask(im)
        # Subsample so a large set stays fast and each frame weighs the same.
        idx = np.flatnonzero(m.ravel())[::16]
        bgr.append(im.reshape(-1, 3)[idx])
        hsv.append(cv2.cvtColor(im, cv2.COLOR_BGR2HSV).reshape(-1, 3)[idx])
        frac.append(float(m.mean()))
    b = np.concatenate(bgr).astype(np.float64)
    h = np.concatenate(hsv).astype(np.float64)
    med = np.median(b, axis=0)
    return ClothStats(
        len(images),
        (float(med[0]), float(med[1]), float(med[2])),
        np.percentile(h, [5, 50, 95], axis=0).T,
        float(np.mean(frac)),
    )


def read_frames(folder: Path, limit: int = 50) -> list[U8]:
    """The first ``limit`` JPEG frames of a folder, in name order."""
    frames = []
    for path in sorted(folder.glob("*.jpg"))[:limit]:
        im = cv2.imread(str(path))
        if im is not None:
            frames.append(np.asarray(im, np.uint8))
    return frames


def video_frames(path: Path, every: int = 30) -> list[U8]:
    """Every ``every``-th frame of a video."""
    cap = cv2.VideoCapture(str(path))
    out, k = [], 0
    while True:
        ok, frame = cap.read()
        if not ok:
            break
        if k % every == 0:
            out.append(np.asarray(frame, np.uint8))
        k += 1
    return out


def table(rows: dict[str, ClothStats]) -> str:
    """Markdown table of the statistics."""
    lines = [
        "| source | frames | cloth share | median BGR | H 5/50/95 | S 5/50/95 | V 5/50/95 |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, s in rows.items():
        p = s.hsv_percentiles.round(0).astype(int)
        bgr = "(" + ", ".join(f"{v:.0f}" for v in s.median_bgr) + ")"
        cells = [" / ".join(str(v) for v in p[i]) for i in range(3)]
        lines.append(f"| {name} | {s.frames} | {s.fraction:.2f} | {bgr} | {' | '.join(cells)} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Print the comparison table; write the side-by-side image."""
    args = sys.argv[1:] if argv is None else argv
    footage = Path(args[0]) if args else DEFAULT_FOOTAGE
    real = read_frames(footage)
    samples = Path(__file__).resolve().parents[2] / "sample_videos"
    rendered: list[U8] = []
    for video in sorted(samples.glob("0[1-8]_*.mp4")):  # the broadcast-condition samples
        rendered += video_frames(video)
    rows = {}
    if real:
        rows[f"real ({footage.name})"] = cloth_stats(real)
    if rendered:
        rows["rendered broadcast samples"] = cloth_stats(rendered)
    print(table(rows))
    if real and rendered:
        out = Path("out")
        out.mkdir(exist_ok=True)
        side = np.hstack([cv2.resize(rendered[0], (1280, 720)), cv2.resize(real[0], (1280, 720))])
        cv2.imwrite(str(out / "side_by_side.png"), side)
        print(f"wrote {out / 'side_by_side.png'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
