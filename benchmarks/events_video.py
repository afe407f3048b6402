"""The event log the product writes from VIDEO, against the render's true log, event by event.

Why: :mod:`benchmarks.events_bench` scores the event stage on the physics' tracks with
Gaussian noise, and :mod:`benchmarks.referee_renders` compares only the referee's calls made
from the video. Issue 6 asks for the events themselves from synthetic clips: every pot with its
ball and pocket, the first ball hit, strokes and rests, touching balls, places by hand. A call
can be right on a wrong log (a false ``place`` of a white that is not in hand changes no call;
a colour re-spotted without its ``place`` is re-spotted by the referee anyway), so this scores
the log that ``baulkline track --events`` wrote for each render.

How: the logs ``referee_renders`` leaves in its ``--out`` folder (``CLIP/events.jsonl``) are
read beside the renders' true logs in the cache, cut to the strokes the truth completes (a clip
cut mid-stroke has no closing ``rest`` in its truth), and compared stroke by stroke with
:func:`benchmarks.events_bench.score_case`. Reds are anonymous here: the tracker numbers the
reds in the order it finds them, the simulation in the order it racks them, and no rule tells
one red from another, so ``red7`` in a pot, contact, place or touching pair reads ``red``. The
referee's calls are compared on the raw logs, with red numbers dropped from the calls alone.

Run: ``python -m benchmarks.referee_renders ... --out DIR`` first, then
``python -m benchmarks.events_video --out DIR`` (the same DIR).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import re
from collections.abc import Sequence
from pathlib import Path

from adjudicator.eventlog import (
    Collision,
    Cushion,
    InputEvent,
    OffTable,
    Place,
    Pot,
    Rest,
    Strike,
    read_events,
)
from benchmarks.events_bench import Tally, referee_calls, report, score_case
from benchmarks.results import update_section

ROOT = Path(__file__).resolve().parents[1]
_RED = re.compile(r"\bred\d+\b")

NOTES = (
    "From the video: each render tracked by `baulkline track --events`'s path "
    "(`benchmarks.referee_bench.run_clip`), its log compared with the render's true log. Reds are "
    "anonymous (the tracker and the simulation number them differently; no rule tells them apart). "
    "Collisions and cushions are matched within 1.5 frames by kind and balls; in a break-off the "
    "pack's contacts fall within a millisecond of each other, which a 60 fps video cannot separate, "
    "so their recall is not a target (the first contact, which the referee needs, is scored apart)."
)


def _red(name: str) -> str:
    return "red" if _RED.fullmatch(name) else name


def anonymous_reds(event: InputEvent) -> InputEvent:
    """``event`` with every red named ``red`` where the comparison looks at ball names."""
    if isinstance(event, Collision):
        a, b = event.balls
        return dataclasses.replace(event, balls=(_red(a), _red(b)))
    if isinstance(event, Cushion | Pot | OffTable | Place):
        return dataclasses.replace(event, ball=_red(event.ball))
    if isinstance(event, Rest) and event.touching:
        return dataclasses.replace(event, touching=tuple((_red(a), _red(b)) for a, b in event.touching))
    return event


def completed_strokes(
    truth: Sequence[InputEvent], inferred: Sequence[InputEvent]
) -> tuple[list[InputEvent], list[InputEvent]]:
    """Both logs cut before the truth's last ``strike`` when the truth never closes it.

    Why: a clip cut mid-stroke has no closing ``rest`` in its true log while the pipeline
    closes the open stroke when the video ends (as it must on a stream that stops); that last
    stroke is no evidence either way.
    """
    strikes = [i for i, e in enumerate(truth) if isinstance(e, Strike)]
    rests = [i for i, e in enumerate(truth) if isinstance(e, Rest)]
    if not strikes or (rests and rests[-1] > strikes[-1]):
        return list(truth), list(inferred)
    keep = len(strikes) - 1
    found = [i for i, e in enumerate(inferred) if isinstance(e, Strike)]
    cut = found[keep] if len(found) > keep else len(inferred)
    return list(truth[: strikes[-1]]), list(inferred[:cut])


def referee_agreement(truth: Sequence[InputEvent], inferred: Sequence[InputEvent]) -> list[bool]:
    """Per true stroke, whether the referee's calls from both logs agree (red numbers aside)."""

    def calls(events: Sequence[InputEvent]) -> list[list[tuple[str, ...]]]:
        out = referee_calls(events)
        if out is None:  # pragma: no cover - the adjudicator is part of the repository
            raise RuntimeError("the adjudicator is not importable")
        return [[tuple(_RED.sub("red", x) for x in call) for call in stroke] for stroke in out]

    a, b = calls(truth), calls(inferred)
    strokes = sum(isinstance(e, Strike) for e in truth)
    return [len(a) == len(b) and k < len(b) and a[k] == b[k] for k in range(strokes)]


def score_clip(truth_path: Path, events_path: Path, tally: Tally, fps: float, label: str) -> None:
    """Add one render's comparison to ``tally`` (referee's calls included)."""
    truth = list(read_events(truth_path.read_text().splitlines(), source=str(truth_path)))
    inferred = list(read_events(events_path.read_text().splitlines(), source=str(events_path)))
    truth, inferred = completed_strokes(truth, inferred)
    for k, same in enumerate(referee_agreement(truth, inferred)):
        tally.referee_strokes += 1
        tally.referee_same += same
        if not same:
            tally.failures.append(f"{label} stroke {k + 1} (referee)")
    kind = label.split("-", 1)[0]
    tally.kinds[kind] += 1
    score_case(
        [anonymous_reds(e) for e in truth],
        [anonymous_reds(e) for e in inferred],
        tally,
        fps,
        label,
        referee=False,
    )


def clip_fps(camera_json: Path) -> float:
    """The render's frame rate, from its ``NAME.camera.json``."""
    return float(json.loads(camera_json.read_text())["fps"])


def main(argv: Sequence[str] | None = None) -> int:
    """Score every clip of a ``referee_renders`` output folder; write the ``events-video`` section."""
    from benchmarks.referee_renders import CACHE

    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument(
        "--out", type=Path, default=ROOT / "out" / "referee-renders", help="referee_renders --out"
    )
    ap.add_argument("--cache", type=Path, default=CACHE, help="the renders (truth logs, cameras)")
    ap.add_argument(
        "--command", default="", help="the referee_renders command that made --out (for the record)"
    )
    ap.add_argument(
        "--section",
        default="events-video",
        help="RESULTS.md section (one per held-out set: events-video-drawn)",
    )
    ap.add_argument("--no-write", action="store_true", help="print only")
    args = ap.parse_args(argv)
    clips = (
        sorted(d for d in args.out.iterdir() if (d / "events.jsonl").is_file()) if args.out.is_dir() else []
    )
    if not clips:
        raise SystemExit(f"{args.out}: no CLIP/events.jsonl here; run benchmarks.referee_renders --out first")
    tally = Tally()
    for d in clips:
        truth = args.cache / f"{d.name}.truth.jsonl"
        if not truth.is_file():
            raise SystemExit(f"{truth}: missing; the clip's render is not in the cache")
        before = len(tally.failures)
        score_clip(truth, d / "events.jsonl", tally, clip_fps(args.cache / f"{d.name}.camera.json"), d.name)
        if len(tally.failures) > before:
            print("  miss:", ", ".join(tally.failures[before:]), flush=True)
    cmd = args.command or "python -m benchmarks.referee_renders ... --out DIR"
    md = report(
        tally,
        f"the renders in {args.out.name}/, tracked from video",
        0.0,
        f"{cmd} && python -m benchmarks.events_video --out DIR",
        title="Events from video (fresh renders vs their true logs)",
        notes=NOTES,
    )
    md = md.replace(" 0 s in all.", "")
    print(md)
    if not args.no_write:
        update_section(args.section, md)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
