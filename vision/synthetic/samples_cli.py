"""``baulkline samples``: regenerate the bundled sample clips of ``sample_videos/``.

One command with fixed seeds, so the committed clips (which other parts of the project
measure detection, calibration and event inference on) can be remade bit-for-bit in the
same environment, and their list lives in one place: :data:`SAMPLES`.

``--cover-only`` (re)writes just the people-cover truth (``NAME.cover.csv``, see
:mod:`vision.synthetic.cover`) of clips already there, without rendering or encoding: the
committed videos must not change, and a truth file added later must describe exactly those
videos. It therefore first checks that the regenerated timeline reproduces the committed
``NAME.tracks.csv`` byte for byte and refuses to write anything for a clip where it does not.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass
from pathlib import Path

#: Largest size a committed clip may have (issue 2 item 6).
MAX_BYTES = 3 * 1024 * 1024


@dataclass(frozen=True)
class Sample:
    """One bundled clip.

    Attributes:
        name: file stem in ``sample_videos/``.
        scenario: scenario of :mod:`vision.synthetic.scenarios`.
        seed: simulation seed (and conditions seed for ``random``).
        shows: what the clip is there to show (README table).
        conditions: ``broadcast`` or ``random``.
        tilt: for ``random``: camera tilt off vertical (degrees).
        distortion: for ``random``: radial k1.
        max_seconds: cut the clip after this long (keeps long scenarios small).
        width, height, fps: video size and rate.
    """

    name: str
    scenario: str
    seed: int
    shows: str
    conditions: str = "broadcast"
    tilt: float | None = None
    distortion: float | None = None
    max_seconds: float | None = None
    width: int = 1280
    height: int = 720
    fps: float = 30.0


SAMPLES: tuple[Sample, ...] = (
    Sample("01_break_off", "break_off", 0, "the white placed in the D, a break-off into the pack"),
    Sample(
        "02_red_then_colour",
        "red_then_colour",
        0,
        "a red then a colour potted; the colour re-spotted by hand",
    ),
    Sample(
        "03_colours_clearance", "colours_clearance", 0, "the last colours potted in order to the final black"
    ),
    Sample("04_in_off", "in_off", 0, "an in-off (FOUL), then the white placed in the D and played"),
    Sample("05_touching", "touching", 2, "the white comes to rest touching a red (TOUCHING BALL)"),
    Sample("06_free_ball", "free_ball", 0, "a foul leaving the incoming player snookered (FREE BALL)"),
    Sample(
        "07_wrong_first_contact", "wrong_first_contact", 0, "first contact on a colour while on reds (FOUL)"
    ),
    Sample(
        "08_leaning_over",
        "random",
        0,
        "players down on shots over the table: balls hidden under arm, cue and body",
        max_seconds=16.0,
    ),
    Sample(
        "09_tilted_distorted",
        "red_then_colour",
        0,
        "a camera 33 degrees off vertical, table rotated, strong barrel distortion (k1 = -0.22)",
        conditions="random",
        tilt=33.0,
        distortion=-0.22,
    ),
    Sample(
        "10_random_1080p50",
        "wrong_first_contact",
        1,
        "another framing: seeded random camera, lens, light and cloth at 1920x1080, 50 fps",
        conditions="random",
        width=1920,
        height=1080,
        fps=50.0,
    ),
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``baulkline samples``."""
    parser.add_argument("--out", type=Path, default=Path("sample_videos"), help="output folder")
    parser.add_argument("--only", nargs="*", help="regenerate only these sample names")
    parser.add_argument(
        "--cover-only",
        action="store_true",
        help="only (re)write NAME.cover.csv of the clips in --out (no video), after checking that the "
        "regenerated timeline reproduces their NAME.tracks.csv exactly",
    )


def run(args: argparse.Namespace) -> int:
    """Simulate and render every sample; prints one line per clip with its size and time."""
    from calibration.errors import BaulklineError
    from vision.synthetic.clip import ensure_writable, render_clip, write_cover_only
    from vision.synthetic.conditions import broadcast, random_conditions
    from vision.synthetic.scenarios import simulate_sequence

    chosen = [s for s in SAMPLES if not args.only or s.name in args.only]
    unknown = set(args.only or ()) - {s.name for s in SAMPLES}
    if unknown:
        raise BaulklineError(
            f"unknown sample {sorted(unknown)[0]!r}; known: {', '.join(s.name for s in SAMPLES)}"
        )
    ensure_writable(args.out, "samples")
    if args.cover_only:  # fail before minutes of simulating, not after
        for s in chosen:
            if not (args.out / f"{s.name}.tracks.csv").is_file():
                raise BaulklineError(
                    f"{args.out / s.name}.tracks.csv: missing; render the clip first (without --cover-only)"
                )
    for s in chosen:
        t0 = time.perf_counter()
        if s.conditions == "random":
            cond = random_conditions(s.seed, s.width, s.height, s.fps, tilt=s.tilt, distortion=s.distortion)
        else:
            cond = broadcast(s.width, s.height, s.fps)
        timeline = simulate_sequence(s.scenario, s.seed)
        if args.cover_only:
            path = write_cover_only(timeline, cond, args.out, s.name, s.max_seconds)
            print(f"{path}: {time.perf_counter() - t0:.1f} s", flush=True)
            continue
        files = render_clip(timeline, cond, args.out, s.name, s.seed, s.max_seconds)
        size = files.video.stat().st_size
        if size > MAX_BYTES:
            raise BaulklineError(f"{files.video}: {size / 1e6:.1f} MB is over the 3 MB limit of a sample")
        dt = time.perf_counter() - t0
        print(f"{files.video}: {files.frames} frames, {size / 1e6:.2f} MB, {dt:.1f} s", flush=True)
    return 0
