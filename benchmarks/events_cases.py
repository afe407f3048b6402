"""The strokes the events benchmark measures: physics-simulated, with their true logs.

Every case is a :class:`~vision.synthetic.timeline.Timeline` whose outcome pooltool decided
(:mod:`vision.synthetic.physics`); the planners of :mod:`vision.synthetic.shots` only choose
the aim and the pace for a wanted outcome. The mix is what a referee meets in a frame, with
the rare cases over-represented so that they are measured at all:

* ``pot``: a planned pot (:func:`~vision.synthetic.shots.plan_pot`) from a random layout;
* ``random``: a random cue action at a random layout (mostly misses, safeties, kisses);
* ``touching``: a legal stroke after which the white rests touching a red
  (:func:`~vision.synthetic.shots.plan_touching`);
* ``simultaneous``: the white sent exactly between two balls at equal distance, so the
  physics makes both contacts at (numerically) the same instant;
* named scenarios of :func:`~vision.synthetic.physics.simulate_sequence` (several strokes,
  colours re-spotted and the white placed in the D by hand between them).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from adjudicator.eventlog import Collision, InputEvent
from calibration.table import TABLE, Colour
from vision.events.synthetic import shot_timeline
from vision.synthetic.timeline import Timeline

R = TABLE.ball_radius

#: Two contacts of the white the physics places closer than this (s) are one simultaneous
#: contact in the truth: pooltool resolves a symmetric double hit as two events a few
#: microseconds apart (floating point); a ball moves under 0.05 mm in that time.
TRUE_SIMULTANEOUS_S = 1e-5

#: Relative frequency of each kind of case.
MIX: dict[str, float] = {
    "pot": 0.34,
    "random": 0.22,
    "touching": 0.10,
    "simultaneous": 0.10,
    "red_then_colour": 0.05,
    "colours_clearance": 0.04,
    "in_off": 0.04,
    "touching_scenario": 0.02,
    "free_ball": 0.03,
    "wrong_first_contact": 0.03,
    "random_scenario": 0.03,
}


@dataclass(frozen=True)
class Case:
    """One benchmark case: a timeline and what kind of case it is."""

    kind: str
    seed: int
    timeline: Timeline


def random_layout(rng: np.random.Generator, min_reds: int = 0) -> dict[str, tuple[float, float]]:
    """White and 2-9 object balls at random, non-overlapping, colours sometimes on spots."""
    colours = [c.value for c in Colour if c not in (Colour.WHITE, Colour.RED)]
    n = int(rng.integers(max(2, min_reds), 10))
    reds = [f"red{i}" for i in range(1, 9)]
    names = list(rng.permutation(colours + reds)[:n])
    missing = min_reds - sum(1 for x in names if str(x).startswith("red"))
    names += [r for r in reds if r not in names][: max(0, missing)]
    pos: dict[str, tuple[float, float]] = {}
    for name in ["white", *names]:
        for _ in range(200):
            if name in colours and rng.random() < 0.4:
                xy = TABLE.spots[Colour(name)]
            else:
                xy = (float(rng.uniform(80, TABLE.length - 80)), float(rng.uniform(80, TABLE.width - 80)))
            if all(math.hypot(xy[0] - a, xy[1] - b) > 2 * R + 5 for a, b in pos.values()):
                pos[str(name)] = (float(xy[0]), float(xy[1]))
                break
    return pos


def _random_stroke(pos: dict[str, tuple[float, float]], rng: np.random.Generator) -> object:
    from vision.synthetic import shots
    from vision.synthetic.physics import CueStroke, simulate_shot

    white = pos["white"]
    target = str(rng.choice([n for n in pos if n != "white"]))
    tx, ty = pos[target]
    if rng.random() < 0.4:
        gx, gy = shots.ghost_ball(pos[target], shots.pocket_aim(str(rng.choice(list(TABLE.pockets)))))
        direction = math.atan2(gy - white[1], gx - white[0]) + math.radians(rng.normal(0, 0.3))
    else:
        dist = math.hypot(tx - white[0], ty - white[1])
        cut = math.asin(min(1.0, 2 * R / dist)) * rng.uniform(-1.0, 1.0)
        direction = math.atan2(ty - white[1], tx - white[0]) + cut
    stroke = CueStroke(
        direction=direction,
        speed=float(math.exp(rng.uniform(math.log(0.6), math.log(5.0)))),
        side=float(rng.uniform(-0.4, 0.4)),
        height=float(rng.uniform(-0.5, 0.5)),
    )
    return simulate_shot(pos, stroke)


def _simultaneous(rng: np.random.Generator) -> object:
    """The white aimed at the midpoint of two balls that lie symmetrically either side of its
    line, closer together than two diameters: it reaches both at the same instant."""
    from vision.synthetic.physics import CueStroke, simulate_shot

    for _ in range(100):
        white = np.array([rng.uniform(300, TABLE.length - 300), rng.uniform(300, TABLE.width - 300)])
        theta = float(rng.uniform(-math.pi, math.pi))
        u = np.array([math.cos(theta), math.sin(theta)])
        n = np.array([-u[1], u[0]])
        mid = white + u * rng.uniform(250, 1300)
        h = rng.uniform(1.05, 1.9) * R
        a, b = mid + h * n, mid - h * n
        if not all(TABLE.on_playing_area(float(p[0]), float(p[1]), margin=-2 * R) for p in (a, b)):
            continue
        colours = [c.value for c in Colour if c not in (Colour.WHITE, Colour.RED)]
        second = "red2" if rng.random() < 0.5 else str(rng.choice(colours))
        pos = {"white": (float(white[0]), float(white[1])), "red1": tuple(a), str(second): tuple(b)}
        if rng.random() < 0.5:
            pos = {"white": pos["white"], str(second): tuple(a), "red1": tuple(b)}
        pos = {k: (float(v[0]), float(v[1])) for k, v in pos.items()}
        return simulate_shot(
            pos, CueStroke(theta, float(rng.uniform(0.7, 4.0)), height=float(rng.uniform(-0.4, 0.4)))
        )
    raise RuntimeError("no simultaneous layout found")


def _single(kind: str, rng: np.random.Generator) -> Timeline:
    from vision.synthetic import shots

    while True:
        try:
            if kind == "pot":
                pos = random_layout(rng)
                shot: object = shots.plan_pot(pos, [n for n in pos if n != "white"], rng)
            elif kind == "touching":
                shot = shots.plan_touching(random_layout(rng, min_reds=3), rng)
            elif kind == "simultaneous":
                shot = _simultaneous(rng)
            else:
                shot = _random_stroke(random_layout(rng), rng)
        except (shots.NoShotFound, ValueError):
            continue
        return shot_timeline(
            shot.ball_names,  # type: ignore[attr-defined]
            shot.times,  # type: ignore[attr-defined]
            shot.positions,  # type: ignore[attr-defined]
            shot.events,  # type: ignore[attr-defined]
            touching=shot.touching,  # type: ignore[attr-defined]
            tail_s=float(rng.uniform(1.0, 2.5)),
        )


def make_case(seed: int) -> Case:
    """The case of one seed: its kind drawn from :data:`MIX`, then built from the seed."""
    from vision.synthetic.physics import simulate_sequence
    from vision.synthetic.shots import NoShotFound

    rng = np.random.default_rng(seed)
    kinds = list(MIX)
    w = np.array([MIX[k] for k in kinds])
    kind = str(rng.choice(kinds, p=w / w.sum()))
    if kind in ("pot", "random", "touching", "simultaneous"):
        return Case(kind, seed, _single(kind, rng))
    name = {"touching_scenario": "touching", "random_scenario": "random"}.get(kind, kind)
    for k in range(5):
        try:
            return Case(kind, seed, simulate_sequence(name, seed=seed * 10 + k))
        except NoShotFound:
            continue
    return Case("pot", seed, _single("pot", rng))


def snap_true_simultaneous(
    events: Sequence[InputEvent], tol: float = TRUE_SIMULTANEOUS_S
) -> list[InputEvent]:
    """The truth as the contract writes it: contacts of the white closer than ``tol`` share a ``t``."""
    out: list[InputEvent] = []
    anchor = -math.inf
    for e in events:
        if isinstance(e, Collision) and "white" in e.balls:
            if e.t - anchor < tol:
                e = dataclasses.replace(e, t=anchor)
            else:
                anchor = e.t
        out.append(e)
    return out
