"""The product check: on every sample video, the calls made from the video against the calls
made from its true event log, and the latency from the balls coming to rest to the call.

Run: ``python -m benchmarks.referee_bench [--only NAME ...]``. Calls are compared as a referee
would hear them: the sequence of ``call`` outputs (call, penalty, reason, offender) and the
scores after each stroke; times are not compared (the video's event times differ from the
truth by a frame or so by nature).
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from adjudicator.engine import adjudicate
from adjudicator.eventlog import read_events
from benchmarks.results import benchmark_parser, publish, stamp
from vision.balls_stage import LiveBalls
from vision.pipeline import Pipeline
from vision.source import FrameSource

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_videos"


def heard(outputs: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """What a listener hears: each call and each score line, without times."""
    out: list[tuple[Any, ...]] = []
    for o in outputs:
        if o["type"] == "call":
            out.append(("call", o["call"], o.get("penalty"), o.get("reason"), o.get("offender")))
        elif o["type"] == "score":
            out.append(("score", tuple(o["scores"]), o["striker"], o["ball_on"]))
        elif o["type"] == "frame_end":
            out.append(("frame_end", o["winner"], tuple(o["scores"])))
    return out


def by_stroke(heard_calls: list[tuple[Any, ...]]) -> list[tuple[tuple[Any, ...], ...]]:
    """What the referee said about each stroke: its calls and its own points (the score line's
    change since the stroke before), striker and ball on; a frame's end goes with its last stroke.

    Why per stroke: issue 6 asks for the same calls on 98% of STROKES, and a clip's list compared
    whole fails on one stroke's error however many it has. The score line is cumulative, so one
    wrong stroke would make every later line differ too: each stroke is compared on the points it
    added, not the totals.
    """
    strokes: list[tuple[tuple[Any, ...], ...]] = []
    current: list[tuple[Any, ...]] = []
    before: tuple[int, ...] | None = None
    for item in heard_calls:
        if item[0] == "score":
            scores = tuple(item[1])
            added = scores if before is None else tuple(a - b for a, b in zip(scores, before, strict=False))
            before = scores
            current.append(("score", added, *item[2:]))
            strokes.append(tuple(current))
            current = []
        elif item[0] == "frame_end" and strokes and not current:
            strokes[-1] = (*strokes[-1], item[:2])
        else:
            current.append(item)
    if current:
        strokes.append(tuple(current))
    return strokes


def strokes_agreeing(expected: list[tuple[Any, ...]], got: list[tuple[Any, ...]]) -> tuple[int, int]:
    """``(strokes whose calls agree, strokes in the true log)``, stroke by stroke in order (a stroke
    the video's log lacks, or one it adds, disagrees)."""
    want, have = by_stroke(expected), by_stroke(got)
    agree = sum(1 for k, s in enumerate(want) if k < len(have) and have[k] == s)
    return agree, max(len(want), len(have))


def truth_of(video: Path) -> Path:
    """The true event log beside a rendered clip.

    Why not ``with_suffix``: a clip named for a fractional frame rate (``...@59.94-random.mp4``)
    has a dot in its stem, which ``with_suffix("")`` would cut at.
    """
    return video.with_name(video.stem + ".truth.jsonl")


def run_clip(video: Path, out_dir: Path) -> dict[str, Any]:
    """Referee one sample clip and compare with its truth."""
    truth_path = truth_of(video)
    truth = list(read_events(truth_path.read_text().splitlines(), source=str(truth_path)))
    start = truth[0]
    players = start.players if start.type == "frame_start" else ("Player 1", "Player 2")
    expected = heard(list(adjudicate(truth)))
    source = FrameSource(str(video))
    fps = source.fps
    frames = int(source.frame_count or 0)  # read before the capture is consumed and released
    balls = LiveBalls.create(fps=fps)
    pipe = Pipeline(
        balls=balls,
        make_events=lambda names: balls.inferer(names, players),
        out_dir=out_dir,
        players=players,
    )
    t0 = time.perf_counter()
    error = ""
    try:
        pipe.run(source.frames())
    except Exception as exc:  # a benchmark records every failure and goes on
        error = f"{type(exc).__name__}: {exc}"
    wall = time.perf_counter() - t0
    got = heard(pipe.outputs)
    return {
        "clip": video.stem,
        "match": got == expected,
        "expected": expected,
        "got": got,
        "latency": max(pipe.latencies, default=float("nan")),
        "fps": frames / wall if wall > 0 else 0.0,
        "error": error,
    }


def main() -> None:
    """Run every (or the chosen) sample clips and write the results section."""
    parser = benchmark_parser(__doc__)
    parser.add_argument("--only", nargs="*", help="clip names (stems) to run")
    parser.add_argument(
        "--out", type=Path, default=ROOT / "out" / "referee-bench", help="folder for each clip's outputs"
    )
    args = parser.parse_args()
    clips = sorted(SAMPLES.glob("*.mp4"))
    if args.only:
        clips = [c for c in clips if c.stem in set(args.only)]
    rows = []
    for clip in clips:
        r = run_clip(clip, args.out / clip.stem)
        rows.append(r)
        print(json.dumps({k: v for k, v in r.items() if k not in ("expected", "got")}))
        if not r["match"]:
            print("  expected:", r["expected"])
            print("  got:     ", r["got"])
    matched = sum(r["match"] for r in rows)
    counts = [strokes_agreeing(r["expected"], r["got"]) for r in rows]
    agree, total = sum(a for a, _ in counts), sum(n for _, n in counts)
    lines = [
        "## The referee on the sample videos (issue 7)",
        "",
        stamp("python -m benchmarks.referee_bench"),
        "",
        f"Calls from the video equal to the calls from the true log: **{matched} of {len(rows)}** clips; "
        f"**{agree} of {total}** strokes ({100.0 * agree / max(total, 1):.1f}%: each stroke's calls, "
        "points, striker and ball on; see `by_stroke`).",
        "",
        "| clip | same calls | strokes agreeing | rest-to-call latency (s of video) | frames/s | error |",
        "|---|---|---|---|---|---|",
    ]
    for r, (a, n) in zip(rows, counts, strict=True):
        lines.append(
            f"| {r['clip']} | {'yes' if r['match'] else 'no'} | {a}/{n} | {r['latency']:.2f} | "
            f"{r['fps']:.1f} | {r['error'] or '-'} |"
        )
    publish("referee", "\n".join(lines), write=not args.no_write)


if __name__ == "__main__":
    main()
