"""The referee on freshly rendered clips: scenarios and seeds the sample clips do not use, at
another size and frame rate, through the product's path (video -> balls -> events -> calls).

Why: the sample clips are what the pipeline was developed on; the checks it must pass render
other clips (other seeds, cameras, sizes and rates). A threshold that secretly counts frames or
pixels passes the 720p30 samples and fails a 1080p60 render, so this benchmark renders each
scenario of :data:`vision.synthetic.scenarios.SCENARIOS` with seeds from 100 on (the samples use
0-2) and compares the calls made from the video with the calls made from the render's true log
(:func:`benchmarks.referee_bench.run_clip`).

Run: ``python -m benchmarks.referee_renders [--size 1920x1080] [--fps 60] [--seeds 101 102]``.
``--size drawn --fps drawn`` with ``--conditions random`` lets each seed draw its image size
(640x360 to 1920x1080) and frame rate (25-60) as well, the widest held-out set.
Renders are cached under ``$BAULKLINE_CACHE/renders`` (a 1080p60 clip takes about a minute).
"""

from __future__ import annotations

import functools
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from benchmarks.referee_bench import run_clip, strokes_agreeing, truth_of
from benchmarks.results import benchmark_parser, in_processes, publish, stamp
from vision.synthetic.cli import SCENARIO_NAMES

if TYPE_CHECKING:
    from vision.synthetic.conditions import Conditions

ROOT = Path(__file__).resolve().parents[1]
CACHE = Path(os.environ.get("BAULKLINE_CACHE", ROOT / ".cache")) / "renders"
#: Scenarios rendered: every named one but ``random`` (players down on shots; long clips).
SCENARIOS = tuple(name for name in SCENARIO_NAMES if name != "random")


@dataclass(frozen=True)
class Render:
    """One clip to render: a scenario, its seed and the camera's look.

    ``width``/``height``/``fps`` of ``None`` are drawn from the seed (random looks only).
    """

    scenario: str
    seed: int
    width: int | None
    height: int | None
    fps: float | None
    conditions: str
    max_seconds: float

    def look(self) -> Conditions:
        """The camera, light and cloth the clip is rendered through."""
        from vision.synthetic.conditions import broadcast, random_conditions

        if self.conditions == "random":
            return random_conditions(self.seed, self.width, self.height, self.fps)
        if self.width is None or self.height is None or self.fps is None:
            raise ValueError(f"{self.scenario}-{self.seed}: a broadcast look needs a size and frame rate")
        return broadcast(self.width, self.height, self.fps)

    @property
    def name(self) -> str:
        """File stem in the cache, unique per scenario, seed and look (drawn sizes resolved)."""
        width, height, fps = self.width, self.height, self.fps
        if width is None or height is None or fps is None:
            look = self.look()
            width, height, fps = look.width, look.height, look.fps
        return f"{self.scenario}-{self.seed}-{width}x{height}@{fps:g}-{self.conditions}"


def render(r: Render, out: Path) -> Path:
    """The clip's video, rendered into ``out`` unless it is there already."""
    from vision.synthetic.clip import render_clip, write_cover_only
    from vision.synthetic.scenarios import simulate_sequence

    path = out / f"{r.name}.mp4"
    rendered = path.exists() and (out / f"{r.name}.truth.jsonl").exists()
    if rendered and (out / f"{r.name}.cover.csv").exists():
        return path
    out.mkdir(parents=True, exist_ok=True)
    cond = r.look()
    timeline = simulate_sequence(r.scenario, r.seed)
    if rendered:  # cached before the cover truth existed: add it, keep the video
        write_cover_only(timeline, cond, out, r.name, r.max_seconds)
        return path
    files = render_clip(timeline, cond, out, r.name, r.seed, r.max_seconds)
    return files.video


def cut_at_truth_end(res: dict[str, Any], truth_path: Path) -> dict[str, Any]:
    """The comparison of a clip cut mid-stroke, limited to the strokes its truth completes.

    Why: a clip cut by ``--max-seconds`` while balls still roll has no closing ``rest`` in its
    true log, so the referee scores that stroke from the truth never; the pipeline closes the
    open stroke at the end of the video (as it must on a live stream that stops). Those last
    calls are no evidence either way and are dropped; every call of a completed stroke counts.
    """
    lines = truth_path.read_text().splitlines()
    kinds = [json.loads(line)["type"] for line in lines if line.strip()]
    last_strike = max((i for i, k in enumerate(kinds) if k == "strike"), default=-1)
    last_rest = max((i for i, k in enumerate(kinds) if k == "rest"), default=-1)
    if last_strike < last_rest:
        return res
    scores = sum(1 for o in res["expected"] if o[0] == "score")
    got, seen = [], 0
    for o in res["got"]:
        if seen == scores:
            break
        got.append(o)
        seen += o[0] == "score"
    return {**res, "got": got, "match": got == res["expected"], "cut": True}


def referee_render(clip: Render, out: Path) -> dict[str, Any]:
    """One clip rendered (or taken from the cache) and refereed from its video and its truth."""
    try:
        video = render(clip, CACHE)
    except Exception as exc:  # a scenario the seed cannot set up is reported, not fatal
        return {"clip": clip.name, "match": False, "error": f"render: {type(exc).__name__}: {exc}"}
    return cut_at_truth_end(run_clip(video, out / clip.name), truth_of(video))


def by_size(rows: list[dict[str, Any]]) -> list[str]:
    """A table of clips and strokes agreeing per image size, where the set holds several."""
    sizes: dict[str, list[int]] = {}
    for r in rows:
        size = str(r["clip"]).split("-")[-2].split("@")[0]
        a, n = strokes_agreeing(r["expected"], r["got"]) if "expected" in r else (0, 0)
        tally = sizes.setdefault(size, [0, 0, 0, 0])
        tally[0] += 1
        tally[1] += bool(r["match"])
        tally[2] += a
        tally[3] += n
    if len(sizes) < 2:
        return []
    order = sorted(sizes, key=lambda s: -int(s.split("x")[0]))
    return [
        "| image size | clips with the same calls | strokes agreeing |",
        "|---|---|---|",
        *(f"| {s} | {sizes[s][1]}/{sizes[s][0]} | {sizes[s][2]}/{sizes[s][3]} |" for s in order),
        "",
    ]


def parse_size(text: str) -> tuple[int | None, int | None]:
    """``WIDTHxHEIGHT``, or ``drawn`` (None, None): each seed draws its own (random looks)."""
    if text == "drawn":
        return None, None
    w, _, h = text.partition("x")
    return int(w), int(h)


def parse_fps(text: str) -> float | None:
    """Frames per second, or ``drawn`` (None): each seed draws its own (random looks)."""
    return None if text == "drawn" else float(text)


def main() -> None:
    """Render (or reuse) the clips, referee each from its video and from its truth, and report."""
    parser = benchmark_parser(__doc__)
    parser.add_argument("--size", type=parse_size, default=(1920, 1080), help="WIDTHxHEIGHT or 'drawn'")
    parser.add_argument("--fps", type=parse_fps, default=60.0, help="frames/s or 'drawn'")
    parser.add_argument("--seeds", type=int, nargs="+", default=[101])
    parser.add_argument(
        "--conditions", nargs="+", choices=("broadcast", "random"), default=["broadcast"], help="camera looks"
    )
    parser.add_argument("--only", nargs="*", choices=SCENARIOS, help="scenarios to run")
    parser.add_argument("--max-seconds", type=float, default=25.0, help="cut each clip after this long")
    parser.add_argument("--out", type=Path, default=ROOT / "out" / "referee-renders")
    parser.add_argument("--jobs", type=int, default=1, help="clips refereed side by side (processes)")
    parser.add_argument("--section", help="RESULTS.md section (default: by the set; one per held-out set)")
    args = parser.parse_args()
    width, height = args.size
    if (width is None or args.fps is None) and args.conditions != ["random"]:
        parser.error("--size drawn / --fps drawn need --conditions random")
    size_text = "drawn" if width is None else f"{width}x{height}"
    fps_text = "drawn" if args.fps is None else f"{args.fps:g}"
    drawn = [what for what, free in (("image size", width is None), ("frame rate", args.fps is None)) if free]
    look = f"{' and '.join(drawn)} drawn per seed" if drawn else f"{size_text}, {fps_text} fps"
    todo = [
        Render(scenario, seed, width, height, args.fps, conditions, args.max_seconds)
        for conditions in args.conditions
        for seed in args.seeds
        for scenario in args.only or SCENARIOS
    ]
    rows: list[dict[str, Any]] = []
    for res in in_processes(functools.partial(referee_render, out=args.out), todo, args.jobs, 8):
        rows.append(res)
        print(json.dumps({k: v for k, v in res.items() if k not in ("expected", "got")}), flush=True)
        if not res["match"] and "expected" in res:
            print("  expected:", res["expected"], "\n  got:     ", res["got"], flush=True)
    matched = sum(bool(r["match"]) for r in rows)
    counts = [strokes_agreeing(r["expected"], r["got"]) for r in rows if "expected" in r]
    agree, total = sum(a for a, _ in counts), sum(n for _, n in counts)
    cmd = (
        f"python -m benchmarks.referee_renders --size {size_text} --fps {fps_text} "
        f"--conditions {' '.join(args.conditions)} --seeds {' '.join(map(str, args.seeds))}"
        + (f" --only {' '.join(args.only)}" if args.only else "")
    )
    lines = [
        "## The referee on fresh renders (held-out scenarios, size and frame rate)",
        "",
        stamp(cmd),
        "",
        f"Calls from the video equal to the calls from the render's true log: **{matched} of "
        f"{len(rows)}** clips ({look}, {' and '.join(args.conditions)} "
        f"cameras, seeds the samples do not use); **{agree} of {total}** strokes "
        f"({100.0 * agree / max(total, 1):.1f}%; each stroke's calls, points, striker and ball on: "
        "`benchmarks.referee_bench.by_stroke`; a clip that failed to render counts no stroke).",
        "",
        "A clip cut mid-stroke (``--max-seconds``) is compared up to the last stroke its true log completes."
        + (
            f" Run as {args.jobs} processes side by side: each clip's frames/s is under the others' load."
            if args.jobs > 1
            else ""
        ),
        "",
        *by_size(rows),
        "| clip | same calls | strokes agreeing | rest-to-call latency (s of video) | frames/s | error |",
        "|---|---|---|---|---|---|",
    ]
    for r in rows:
        lat = r.get("latency")
        fps = r.get("fps")
        a, n = strokes_agreeing(r["expected"], r["got"]) if "expected" in r else (0, 0)
        lines.append(
            f"| {r['clip']} | {'yes' if r['match'] else 'no'} | {a}/{n} | "
            f"{'-' if lat is None else f'{lat:.2f}'} | {'-' if fps is None else f'{fps:.1f}'} | "
            f"{r.get('error') or '-'} |"
        )
    # A drawn-size set is a different held-out set: its own section, beside the fixed-size one.
    section = args.section or (
        "referee-renders-drawn" if width is None or args.fps is None else "referee-renders"
    )
    publish(section, "\n".join(lines), write=not args.no_write)


if __name__ == "__main__":
    main()
