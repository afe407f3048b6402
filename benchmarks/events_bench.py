"""Event inference against the physics' true event logs, on strokes of every kind a referee meets.

The cases (:mod:`benchmarks.events_cases`) are pooltool simulations: planned pots, random
cue actions, roll-ups leaving the white touching a red, the white sent exactly between two
equidistant balls (simultaneous first contacts), and the named multi-stroke scenarios
(colours re-spotted and the white placed in the D by hand between strokes). Each timeline
is sampled as a tracker would report it (random frame rate and phase, Gaussian noise,
dropouts), the inferred log is compared with the true one stroke by stroke, and both logs
are refereed by :mod:`adjudicator` and the calls compared.

Seeds: the benchmark uses seeds from 50000 on; development and tuning used seeds 2000-2999
and the tests seeds below 100, so the figures are on held-out strokes.

Run: ``python -m benchmarks.events_bench [--strokes 200]``.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from adjudicator.eventlog import (
    Collision,
    Cushion,
    FrameStart,
    InputEvent,
    OffTable,
    Place,
    Pot,
    Rest,
    Strike,
)
from benchmarks.events_cases import Case, make_case, snap_true_simultaneous
from benchmarks.results import stamp, update_section
from vision.events.infer import infer_tracks
from vision.events.synthetic import CameraNoise, tracks_from_timeline

SEED0 = 50000
#: What the figures are not: stated with every run, so the section never loses it.
NOTES = (
    "Held out? Seeds 50000+ (this run's default) and 60000+ had their misses examined while the "
    "inferer was developed, so they are not held out any more; `--seed 70000` was the never-seen "
    "check (at commits a9ad1ab and 4325bc3 alike: 300 strokes, pots F1 1.000, first ball hit 0.990, "
    "simultaneous 25/26, touching 0.963 / 1.000, referee's calls 0.987). These tracks come from "
    "the physics with Gaussian noise and dropouts, not from the video tracker: the real-footage "
    "figures are in the task2 section."
)
FPS_CHOICES = (25.0, 30.0, 50.0, 60.0)


@dataclass
class Tally:
    """Running counts over cases and strokes."""

    cases: int = 0
    shots: int = 0
    strikes_true: int = 0
    strikes_found: int = 0
    rests_ok: int = 0
    places_true: int = 0
    places_ok: int = 0
    places_false: int = 0
    pot_strokes: int = 0
    pot_tp: int = 0
    pot_fp: int = 0
    pot_fn: int = 0
    off_true: int = 0
    off_ok: int = 0
    off_false: int = 0
    first_ok: int = 0
    simul_true: int = 0
    simul_ok: int = 0
    simul_false: int = 0
    touch_strokes: int = 0
    white_touch_tp: int = 0
    white_touch_fp: int = 0
    white_touch_fn: int = 0
    referee_same: int = 0
    referee_strokes: int = 0
    kinds: Counter[str] = field(default_factory=Counter)
    contact: Counter[str] = field(default_factory=Counter)
    dt_ms: list[float] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)


def _first_hits(events: Sequence[InputEvent]) -> tuple[float, frozenset[str]]:
    hits = [e for e in events if isinstance(e, Collision) and "white" in e.balls]
    if not hits:
        return math.inf, frozenset()
    t0 = hits[0].t
    return t0, frozenset(b for e in hits if e.t == t0 for b in e.balls if b != "white")


def _pairs(events: Sequence[InputEvent]) -> set[frozenset[str]]:
    rests = [e for e in events if isinstance(e, Rest)]
    return {frozenset(p) for p in (rests[-1].touching or ())} if rests else set()


def _match_contacts(
    truth: Sequence[InputEvent], inferred: Sequence[InputEvent], tally: Tally, tol: float
) -> None:
    def key(e: InputEvent) -> tuple[str, ...] | None:
        if isinstance(e, Collision):
            return ("collision", *sorted(e.balls))
        if isinstance(e, Cushion):
            return ("cushion", e.ball)
        return None

    pool = [(key(e), e.t) for e in inferred if key(e) is not None]
    for e in truth:
        k = key(e)
        if k is None:
            continue
        best = min(
            (i for i, (kk, t) in enumerate(pool) if kk == k and abs(t - e.t) <= tol),
            key=lambda i: abs(pool[i][1] - e.t),
            default=None,
        )
        if best is None:
            tally.contact[f"{k[0]}_fn"] += 1
            continue
        tally.contact[f"{k[0]}_tp"] += 1
        if k[0] == "collision":
            tally.dt_ms.append(abs(pool[best][1] - e.t) * 1000.0)
        pool.pop(best)
    for k, _ in pool:
        assert k is not None
        tally.contact[f"{k[0]}_fp"] += 1


def split_strokes(events: Sequence[InputEvent]) -> list[list[InputEvent]]:
    """Each stroke's events: from its ``strike`` up to the next one (places excluded)."""
    out: list[list[InputEvent]] = []
    for e in events:
        if isinstance(e, Strike):
            out.append([e])
        elif out and not isinstance(e, FrameStart | Place):
            out[-1].append(e)
    return out


def score_stroke(
    truth: Sequence[InputEvent], inferred: Sequence[InputEvent], tally: Tally, fps: float
) -> bool:
    """Add one stroke's comparison to the tally; whether everything matched."""
    tally.shots += 1
    ok = True
    if sum(isinstance(e, Rest) for e in inferred) == 1:
        tally.rests_ok += 1
    else:
        ok = False
    tp = {(e.ball, e.pocket) for e in truth if isinstance(e, Pot)}
    ip = {(e.ball, e.pocket) for e in inferred if isinstance(e, Pot)}
    tally.pot_strokes += bool(tp)
    tally.pot_tp += len(tp & ip)
    tally.pot_fp += len(ip - tp)
    tally.pot_fn += len(tp - ip)
    ok &= tp == ip
    to = {e.ball for e in truth if isinstance(e, OffTable)}
    io = {e.ball for e in inferred if isinstance(e, OffTable)}
    tally.off_true += len(to)
    tally.off_ok += len(to & io)
    tally.off_false += len(io - to)
    ok &= to == io
    (_, tf), (_, inf_f) = _first_hits(truth), _first_hits(inferred)
    if tf == inf_f:
        tally.first_ok += 1
    else:
        ok = False
    if len(tf) > 1:
        tally.simul_true += 1
        tally.simul_ok += tf == inf_f
    elif len(inf_f) > 1:
        tally.simul_false += 1
    tt = {p for p in _pairs(truth) if "white" in p}
    it = {p for p in _pairs(inferred) if "white" in p}
    tally.touch_strokes += bool(tt)
    tally.white_touch_tp += len(tt & it)
    tally.white_touch_fp += len(it - tt)
    tally.white_touch_fn += len(tt - it)
    ok &= tt == it
    _match_contacts(truth, inferred, tally, tol=1.5 / fps)
    return ok


def score_case(
    truth: Sequence[InputEvent],
    inferred: Sequence[InputEvent],
    tally: Tally,
    fps: float,
    label: str,
    referee: bool = True,
) -> None:
    """Compare a case's whole inferred log with its true one, stroke by stroke.

    Args:
        referee: also referee both logs and compare the calls (off where the caller compares
            them itself, e.g. on logs whose red names differ).
    """
    ts, ins = split_strokes(truth), split_strokes(inferred)
    tally.cases += 1
    ok = len(ts) == len(ins)
    tally.strikes_true += len(ts)
    tally.strikes_found += len(ins)
    tp_pl = [(e.ball) for e in truth if isinstance(e, Place)]
    ip_pl = [(e.ball) for e in inferred if isinstance(e, Place)]
    tally.places_true += len(tp_pl)
    tally.places_ok += sum((Counter(tp_pl) & Counter(ip_pl)).values())
    tally.places_false += sum((Counter(ip_pl) - Counter(tp_pl)).values())
    ok &= Counter(tp_pl) == Counter(ip_pl)
    if len(ts) != len(ins):
        tally.shots += len(ts)
    else:
        for k, (a, b) in enumerate(zip(ts, ins, strict=True)):
            if not score_stroke(a, b, tally, fps):
                ok = False
                tally.failures.append(f"{label} stroke {k + 1}")
    ref_true, ref_inf = (referee_calls(truth), referee_calls(inferred)) if referee else (None, None)
    if ref_true is not None and ref_inf is not None:
        for k in range(len(ts)):
            tally.referee_strokes += 1
            same = k < len(ref_inf) and len(ref_true) == len(ref_inf) and ref_true[k] == ref_inf[k]
            tally.referee_same += same
            if not same:
                tally.failures.append(f"{label} stroke {k + 1} (referee)")
    if not ok and not any(f.startswith(label) for f in tally.failures):
        tally.failures.append(label)


_CALL_KEYS = ("type", "call", "penalty", "reason", "offender", "awarded_to", "balls", "ball", "spot")
_SCORE_KEYS = ("scores", "striker", "break", "ball_on", "reds", "winner")


def referee_calls(events: Sequence[InputEvent]) -> list[list[tuple[str, ...]]] | None:
    """The referee's decisions on a log, stroke by stroke (times, positions and notices left
    out), or ``None`` when the adjudicator is not available."""
    try:
        from adjudicator.engine import initial_state, step
    except ImportError:
        return None
    state = initial_state()
    out: list[list[tuple[str, ...]]] = []
    current: list[tuple[str, ...]] = []
    strikes = 0
    for e in events:
        if isinstance(e, Strike):
            strikes += 1
            if strikes > 1:
                out.append(current)
                current = []
        state, outs = step(state, e)
        current += [
            tuple(str(o.get(k)) for k in (*_CALL_KEYS, *_SCORE_KEYS))
            for o in outs
            if o.get("type") != "notice"
        ]
    out.append(current)
    return out


def _ratio(a: int, b: int) -> str:
    return f"{a / b:.3f}" if b else "n/a"


def _f1(tp: int, fp: int, fn: int) -> str:
    return _ratio(2 * tp, 2 * tp + fp + fn)


def report(
    t: Tally,
    conditions: str,
    seconds: float,
    command: str,
    title: str = "Events (synthetic strokes vs the physics' true logs)",
    notes: str = NOTES,
) -> str:
    """The markdown section."""
    c = t.contact
    med = float(np.median(t.dt_ms)) if t.dt_ms else math.nan
    p95 = float(np.percentile(t.dt_ms, 95)) if t.dt_ms else math.nan
    rows = [
        (
            "cases / strokes",
            f"{t.cases} / {t.shots} ({', '.join(f'{k} {v}' for k, v in sorted(t.kinds.items()))})",
        ),
        (
            "strokes with a pot / with the white left touching",
            f"{t.pot_strokes} ({_ratio(t.pot_strokes, t.shots)}) / {t.touch_strokes}",
        ),
        ("strikes found (found / true)", f"{t.strikes_found} / {t.strikes_true}"),
        ("rest found exactly once per stroke", _ratio(t.rests_ok, t.shots)),
        ("places by hand (right ball / true; false)", f"{t.places_ok} / {t.places_true}; {t.places_false}"),
        (
            "pots: F1 (ball and pocket right)",
            f"{_f1(t.pot_tp, t.pot_fp, t.pot_fn)} (TP {t.pot_tp}, FP {t.pot_fp}, FN {t.pot_fn})",
        ),
        ("off the table (found / true; false)", f"{t.off_ok} / {t.off_true}; {t.off_false}"),
        ("first ball hit right (incl. none)", f"{_ratio(t.first_ok, t.shots)} ({t.first_ok}/{t.shots})"),
        (
            "simultaneous first hits labelled",
            f"{t.simul_ok}/{t.simul_true} (false simultaneous: {t.simul_false})",
        ),
        (
            "touching the white at rest: recall / precision",
            f"{_ratio(t.white_touch_tp, t.white_touch_tp + t.white_touch_fn)} / "
            f"{_ratio(t.white_touch_tp, t.white_touch_tp + t.white_touch_fp)} "
            f"(TP {t.white_touch_tp}, FP {t.white_touch_fp}, FN {t.white_touch_fn})",
        ),
        (
            "collisions: recall / precision",
            f"{_ratio(c['collision_tp'], c['collision_tp'] + c['collision_fn'])} / "
            f"{_ratio(c['collision_tp'], c['collision_tp'] + c['collision_fp'])}",
        ),
        (
            "cushions: recall / precision",
            f"{_ratio(c['cushion_tp'], c['cushion_tp'] + c['cushion_fn'])} / "
            f"{_ratio(c['cushion_tp'], c['cushion_tp'] + c['cushion_fp'])}",
        ),
        ("collision time error: median / 95th percentile (ms)", f"{med:.2f} / {p95:.2f}"),
        (
            "referee's calls from the inferred log = from the true log",
            f"{_ratio(t.referee_same, t.referee_strokes)} of {t.referee_strokes} strokes",
        ),
    ]
    lines = [
        f"## {title}",
        "",
        stamp(command),
        f"Tracks: {conditions}. Contacts matched within 1.5 frames; the truth's white contacts "
        "under 10 us apart count as simultaneous. Touching: the truth lists the white's pairs with a "
        f"gap under 1 mm; only those are compared. {seconds:.0f} s in all.",
        "",
        "| figure | value |",
        "|---|---|",
        *(f"| {a} | {b} |" for a, b in rows),
    ]
    if t.failures:
        lines += ["", f"Misses: {', '.join(t.failures[:40])}"]
    lines += ["", notes]
    return "\n".join(lines) + "\n"


def run_case(
    case: Case,
    rng: np.random.Generator,
    noise_mm: float,
    dropout: float,
    tally: Tally,
    fps: float | None = None,
) -> None:
    """Sample a case as a tracker would, infer its log and score it; at ``fps`` when given,
    else at a rate drawn from :data:`FPS_CHOICES` (drawn either way, so a fixed rate sees the
    same noise and phase stream as the mixed run)."""
    drawn = float(rng.choice(FPS_CHOICES))
    fps = drawn if fps is None else fps
    tracks = tracks_from_timeline(
        case.timeline, CameraNoise(fps=fps, noise_mm=noise_mm, dropout=dropout), rng
    )
    inferred = infer_tracks(tracks, noise_mm=noise_mm)
    truth = snap_true_simultaneous(case.timeline.events)
    # Who plays, the score and the reds are the operator's to give, not the camera's.
    start = next((e for e in truth if isinstance(e, FrameStart)), None)
    if start is not None:
        inferred = [
            dataclasses.replace(start, positions=e.positions) if isinstance(e, FrameStart) else e
            for e in inferred
        ]
    tally.kinds[case.kind] += 1
    score_case(truth, inferred, tally, fps, f"seed {case.seed} ({case.kind}, {fps:.0f} fps)")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and write its section of ``benchmarks/RESULTS.md``."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--strokes", type=int, default=200, help="stop after at least this many strokes")
    ap.add_argument("--seed", type=int, default=SEED0)
    ap.add_argument("--noise", type=float, default=1.0, help="position noise (mm)")
    ap.add_argument("--dropout", type=float, default=0.02)
    ap.add_argument("--kind", default=None, help="only cases of this kind (development)")
    ap.add_argument(
        "--fps", type=float, default=None, help="sample every case at this rate (default: drawn per case)"
    )
    ap.add_argument("--no-write", action="store_true", help="print only")
    args = ap.parse_args(argv)
    tally = Tally()
    t0 = time.time()
    seed = args.seed
    while tally.shots < args.strokes:
        case = make_case(seed)
        seed += 1
        if args.kind and case.kind != args.kind:
            continue
        before = len(tally.failures)
        run_case(case, np.random.default_rng([case.seed, 7]), args.noise, args.dropout, tally, args.fps)
        if len(tally.failures) > before:
            print("  miss:", ", ".join(tally.failures[before:]), flush=True)
        if tally.cases % 20 == 0:
            print(f"{tally.cases} cases, {tally.shots} strokes, {time.time() - t0:.0f} s", flush=True)
    rate = (
        f"{args.fps:g} fps"
        if args.fps
        else f"{'/'.join(f'{f:.0f}' for f in FPS_CHOICES)} fps (drawn per case)"
    )
    conditions = (
        f"{rate}, {args.noise} mm Gaussian noise "
        f"per coordinate, {args.dropout:.0%} of samples dropped (predicted)"
    )
    cmd = "python -m benchmarks.events_bench" + (f" --strokes {args.strokes}" if args.strokes != 200 else "")
    cmd += f" --fps {args.fps:g}" if args.fps else ""
    cmd += f" --seed {args.seed}" if args.seed != SEED0 else ""
    md = report(tally, conditions, time.time() - t0, cmd)
    print(md)
    if not args.no_write and args.seed == SEED0 and not args.kind:
        # A fixed-rate run is a held-out check of its own, beside (not instead of) the mixed one.
        update_section(f"events-{args.fps:g}fps" if args.fps else "events", md)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
