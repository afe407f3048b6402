"""The gap between two balls at rest, measured from video, against the render's true gap.

Why: TOUCHING BALL (Section 3 Rule 13) turns on a gap of a millimetre, and
:mod:`benchmarks.events_video` scores only the call (a true gap under 1 mm listed or not), so a
gap read 8 mm too wide and one read 0.9 mm too narrow look alike there, and a pair that was
called right by luck (two errors that cancel) not at all. This prints, for every true rest of
every clip, each pair of balls less than :data:`NEAR_MM` apart: the true gap, the measured one
(the pipeline's rest nearest in time), their difference, and each ball's error along the line
of centres (positive: towards the other ball, so the gap shrinks), which says which ball of
the pair to look at; then the errors' statistics, apart for the touching pairs (true gap under
:data:`TOUCH_MM`) and the near ones.

How: the logs ``benchmarks.referee_renders --out DIR`` leaves (``CLIP/events.jsonl``) beside
the renders' true logs in the cache. Reds are numbered differently by the tracker and the
simulation: a true red is matched to the measured red nearest it (within :data:`RED_MATCH_MM`).

Run: ``python -m benchmarks.referee_renders ... --out DIR`` first, then
``python -m benchmarks.touch_gaps --out DIR``. Prints only; writes nothing.
"""

from __future__ import annotations

import argparse
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from adjudicator.eventlog import Rest, read_events
from calibration.table import TABLE

#: Pairs with a true gap under this (mm) are looked at.
NEAR_MM = 15.0
#: A true gap under this (mm) is touching (the truth's own threshold: see events_video).
TOUCH_MM = 1.0
#: A true red is matched to the measured red nearest it when nearer than this (mm).
RED_MATCH_MM = 30.0

_RED = re.compile(r"red\d*")


@dataclass(frozen=True)
class PairGap:
    """One pair at one rest: the true and measured gaps (mm), each ball's error along the line
    of centres (mm; positive towards the other ball) and whether the pipeline called them
    touching."""

    clip: str
    rest: int
    a: str
    b: str
    true_mm: float
    measured_mm: float
    a_along_mm: float
    b_along_mm: float
    called: bool

    @property
    def error_mm(self) -> float:
        """Measured minus true gap (negative: read narrower, towards a false TOUCHING BALL)."""
        return self.measured_mm - self.true_mm


def _rests(path: Path) -> list[Rest]:
    events = read_events(path.read_text().splitlines(), source=str(path))
    return [e for e in events if isinstance(e, Rest)]


def _matched(
    truth: dict[str, tuple[float, float]], got: dict[str, tuple[float, float]]
) -> dict[str, np.ndarray]:
    """Each true ball's measured position (reds by the nearest measured red; unmatched left out)."""
    out: dict[str, np.ndarray] = {}
    reds = {k: np.asarray(v, np.float64) for k, v in got.items() if _RED.fullmatch(k)}
    for name, xy in truth.items():
        p = np.asarray(xy, np.float64)
        if _RED.fullmatch(name):
            if not reds:
                continue
            best = min(reds, key=lambda k: float(np.hypot(*(reds[k] - p))))
            if float(np.hypot(*(reds[best] - p))) < RED_MATCH_MM:
                out[name] = reds[best]
        elif name in got:
            out[name] = np.asarray(got[name], np.float64)
    return out


def _same_pair(pair: tuple[str, str], a: str, b: str) -> bool:
    """Whether ``pair`` names balls ``a`` and ``b`` (reds by colour alone)."""

    def kind(n: str) -> str:
        return "red" if _RED.fullmatch(n) else n

    return sorted(map(kind, pair)) == sorted((kind(a), kind(b)))


def clip_gaps(name: str, truth_path: Path, events_path: Path) -> list[PairGap]:
    """Every near pair of every true rest of one clip, against the pipeline's rest nearest in
    time (none: the clip has no measured rest)."""
    truth, got = _rests(truth_path), _rests(events_path)
    out: list[PairGap] = []
    if not got:
        return out
    two_r = 2.0 * TABLE.ball_radius
    for k, rest in enumerate(truth):
        near = min(got, key=lambda g: abs(g.t - rest.t))
        measured = _matched(dict(rest.positions), dict(near.positions))
        names = list(rest.positions)
        for i, a in enumerate(names):
            for b in names[i + 1 :]:
                pa, pb = np.asarray(rest.positions[a]), np.asarray(rest.positions[b])
                apart = float(np.hypot(*(pb - pa)))
                if apart - two_r > NEAR_MM or a not in measured or b not in measured:
                    continue
                u = (pb - pa) / apart
                out.append(
                    PairGap(
                        clip=name,
                        rest=k,
                        a=a,
                        b=b,
                        true_mm=apart - two_r,
                        measured_mm=float(np.hypot(*(measured[b] - measured[a]))) - two_r,
                        a_along_mm=float((measured[a] - pa) @ u),
                        b_along_mm=float(-(measured[b] - pb) @ u),
                        called=any(_same_pair(p, a, b) for p in near.touching or ()),
                    )
                )
    return out


def summary(gaps: Sequence[PairGap]) -> list[str]:
    """The errors' count, mean, RMS and worst, for all pairs, the touching and the near ones,
    and the calls wrong either way."""
    lines = []
    groups = [
        ("all", list(gaps)),
        (f"touching (true < {TOUCH_MM:g} mm)", [g for g in gaps if g.true_mm < TOUCH_MM]),
        (f"near ({TOUCH_MM:g}-{NEAR_MM:g} mm)", [g for g in gaps if g.true_mm >= TOUCH_MM]),
    ]
    for label, group in groups:
        if not group:
            continue
        e = np.array([g.error_mm for g in group])
        lines.append(
            f"{label}: n={len(e)} mean={e.mean():+.2f} rms={math.sqrt(float(np.mean(e * e))):.2f} "
            f"median|e|={float(np.median(np.abs(e))):.2f} max|e|={float(np.abs(e).max()):.2f} mm"
        )
    missed = sum(g.true_mm < TOUCH_MM and not g.called for g in gaps)
    false = sum(g.true_mm >= TOUCH_MM and g.called for g in gaps)
    lines.append(f"touching missed: {missed}; called where not touching: {false}")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    """Print every near pair's gap error in a ``referee_renders --out`` folder, then the summary."""
    from benchmarks.referee_renders import CACHE

    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", type=Path, required=True, help="referee_renders --out")
    ap.add_argument("--cache", type=Path, default=CACHE, help="the renders (truth logs)")
    args = ap.parse_args(argv)
    clips = (
        sorted(d for d in args.out.iterdir() if (d / "events.jsonl").is_file()) if args.out.is_dir() else []
    )
    if not clips:
        raise SystemExit(f"{args.out}: no CLIP/events.jsonl here; run benchmarks.referee_renders --out first")
    gaps: list[PairGap] = []
    unmeasured = []
    for d in clips:
        truth = args.cache / f"{d.name}.truth.jsonl"
        if not truth.is_file():
            continue
        if not _rests(d / "events.jsonl"):
            unmeasured.append(d.name)
        gaps += clip_gaps(d.name, truth, d / "events.jsonl")
    print(f"{'clip':40s} {'pair':13s} {'true':>5s} {'meas':>6s} {'err':>6s} {'a->b':>6s} {'b->a':>6s} called")
    for g in gaps:
        wrong = " <<" if (g.true_mm < TOUCH_MM) != g.called else ""
        print(
            f"{g.clip:40s} {g.a + '-' + g.b:13s} {g.true_mm:5.1f} {g.measured_mm:6.1f} {g.error_mm:+6.1f} "
            f"{g.a_along_mm:+6.1f} {g.b_along_mm:+6.1f} {g.called!s:5s}{wrong}"
        )
    for line in summary(gaps):
        print(line)
    if unmeasured:
        print("no rest measured (not counted above):", ", ".join(unmeasured))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
