"""Seed counts on the cached renders: does the tracker start with the true ball set?

Why: the live stage seeds its tracker once (:meth:`vision.balls_stage.LiveBalls._seed`) and
keeps that ball set for the whole clip, so a ball the detector misses on the seeding frame is
missing from every frame after it (and from the event log's ``frame_start`` and the referee's
red count). This runs every cached render (``$BAULKLINE_CACHE/renders/*.mp4``) up to its seed
and compares the balls seeded with the render's true balls on that frame (``NAME.tracks.csv``).

Usage: ``python -m benchmarks.seed_counts [--glob PATTERN]`` (prints one row per render).
"""

from __future__ import annotations

import argparse
import csv
import os
from collections import Counter
from pathlib import Path

import numpy as np

from vision.balls_stage import LiveBalls
from vision.source import FrameSource


def truth_at(tracks: Path, frame: int) -> Counter[str]:
    """Colours (``red`` for every red) of the balls on the table in ``frame`` of a render."""
    out: Counter[str] = Counter()
    with tracks.open() as f:
        for row in csv.DictReader(f):
            if int(row["frame"]) == frame and row["state"] != "absent":
                out["red" if row["ball"].startswith("red") else row["ball"]] += 1
    return out


def seeded(path: Path) -> tuple[int, Counter[str]]:
    """The seeding frame's index and the colours seeded on it."""
    src = FrameSource(str(path))
    lb = LiveBalls.create(src.fps)
    gen = src.frames()
    try:
        for frame in gen:
            balls = lb.update(frame)
            if balls is not None:
                on = np.all(np.isfinite(balls.pixel), axis=1)
                names = Counter(
                    "red" if n.startswith("red") else n for n, o in zip(balls.names, on, strict=True) if o
                )
                return frame.index, names
    finally:
        gen.close()
    return -1, Counter()


def main() -> None:
    """Print each render's seed against its truth, and the number seeded wrong."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--glob", default="*.mp4")
    args = parser.parse_args()
    root = Path(os.environ.get("BAULKLINE_CACHE", ".cache")) / "renders"
    wrong = 0
    paths = sorted(root.glob(args.glob))
    for path in paths:
        index, got = seeded(path)
        tracks = path.with_name(path.name.removesuffix(".mp4") + ".tracks.csv")
        want = truth_at(tracks, index) if tracks.exists() else Counter()
        diff = {k: got[k] - want[k] for k in set(got) | set(want) if got[k] != want[k]}
        wrong += bool(diff)
        print(
            f"{path.name:55s} frame {index:4d} reds {got['red']:2d}/{want['red']:2d} {diff or 'ok'}",
            flush=True,
        )
    print(f"seeded a wrong ball set: {wrong}/{len(paths)}")


if __name__ == "__main__":
    main()
