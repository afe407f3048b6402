"""``baulkline simulate``: one scenario, simulated and rendered to a clip with its truth.

Example::

    baulkline simulate --scenario break_off --seed 1 --out out/sim
    baulkline simulate --scenario random --seed 7 --out out/sim --conditions random --fps 50

writes ``out/sim/break_off-1.mp4`` with ``.truth.jsonl``, ``.tracks.csv``, ``.cover.csv``
and ``.camera.json`` beside it (see :mod:`vision.synthetic.clip`).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from calibration.errors import BaulklineError

SCENARIO_NAMES = (
    "break_off",
    "red_then_colour",
    "colours_clearance",
    "in_off",
    "touching",
    "free_ball",
    "wrong_first_contact",
    "random",
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``baulkline simulate``."""
    parser.add_argument("--scenario", required=True, help=f"one of: {', '.join(SCENARIO_NAMES)}")
    parser.add_argument("--seed", type=int, default=0, help="fixes the shots, people and random conditions")
    parser.add_argument("--out", type=Path, required=True, help="output folder")
    parser.add_argument("--name", help="clip name (default SCENARIO-SEED)")
    parser.add_argument("--width", type=int, help="image width (default 1280, or drawn for random)")
    parser.add_argument("--height", type=int, help="image height (default 720, or drawn for random)")
    parser.add_argument("--fps", type=float, help="frame rate (default 30, or drawn for random)")
    parser.add_argument(
        "--conditions",
        choices=("broadcast", "random"),
        default="broadcast",
        help="broadcast: the look of the real overhead TV footage; random: seeded camera, lens, light",
    )
    parser.add_argument("--max-seconds", type=float, help="cut the clip after this many seconds")


def check_size(width: int | None, height: int | None) -> None:
    """A one-line error for a size the renderer or encoder cannot take."""
    for label, v in (("width", width), ("height", height)):
        if v is not None and v <= 0:
            raise BaulklineError(f"--{label} must be a positive number of pixels, got {v}")
    if (width is None) != (height is None):
        raise BaulklineError("give both --width and --height, or neither")


def run(args: argparse.Namespace) -> int:
    """Simulate, render and write the clip; prints the files written."""
    if args.scenario not in SCENARIO_NAMES:
        raise BaulklineError(f"unknown scenario {args.scenario!r}; known: {', '.join(SCENARIO_NAMES)}")
    check_size(args.width, args.height)
    if args.fps is not None and not 1.0 <= args.fps <= 240.0:
        raise BaulklineError(f"--fps must be within 1-240, got {args.fps}")

    from vision.synthetic.clip import ensure_writable, render_clip
    from vision.synthetic.conditions import conditions_for
    from vision.synthetic.scenarios import simulate_sequence
    from vision.synthetic.shots import NoShotFound

    name = args.name or f"{args.scenario}-{args.seed}"
    ensure_writable(args.out, name)
    try:
        conditions = conditions_for(args.conditions, args.seed, args.width, args.height, args.fps)
    except ValueError as exc:
        raise BaulklineError(str(exc)) from None
    try:
        timeline = simulate_sequence(args.scenario, args.seed)
    except NoShotFound as exc:
        raise BaulklineError(f"{exc}; try another --seed") from None
    files = render_clip(timeline, conditions, args.out, name, args.seed, args.max_seconds)
    for path in (files.video, files.truth, files.tracks, files.camera, files.cover):
        print(path)
    return 0
