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


def run_clip(video: Path, out_dir: Path) -> dict[str, Any]:
    """Referee one sample clip and compare with its truth."""
    truth_path = video.with_suffix("").with_suffix(".truth.jsonl")
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
    lines = [
        "## The referee on the sample videos (issue 7)",
        "",
        stamp("python -m benchmarks.referee_bench"),
        "",
        f"Calls from the video equal to the calls from the true log: **{matched} of {len(rows)}** clips.",
        "",
        "| clip | same calls | rest-to-call latency (s of video) | frames/s | error |",
        "|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['clip']} | {'yes' if r['match'] else 'no'} | {r['latency']:.2f} | {r['fps']:.1f} | "
            f"{r['error'] or '-'} |"
        )
    publish("referee", "\n".join(lines), write=not args.no_write)


if __name__ == "__main__":
    main()
