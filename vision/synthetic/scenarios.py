"""Sequences of strokes as a :class:`~vision.synthetic.timeline.Timeline`: the public entry
point :func:`simulate_sequence` and the named scenarios the sample videos need.

A sequence is played like a frame: the white is placed in the D when in hand, each stroke is
chosen by :mod:`vision.synthetic.shots` (the physics decides its outcome), potted colours
are re-spotted by hand (Section 3 Rule 7), and people take realistic time between strokes
(1-3 s to walk round and get down). The true event log and the occluding people come out
with the positions.

Scenarios (``SCENARIOS``): ``break_off``, ``red_then_colour``, ``colours_clearance``,
``in_off``, ``touching``, ``free_ball``, ``wrong_first_contact``, ``random``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from adjudicator.eventlog import FrameStart, InputEvent, Place, Rest
from calibration.table import COLOURS_ASCENDING, TABLE, Colour, colour_of
from vision.synthetic import shots
from vision.synthetic.physics import ShotResult, simulate_shot
from vision.synthetic.respot_sim import is_free, place_in_d, respot
from vision.synthetic.shots import NoShotFound, ShotSpec, balls_on
from vision.synthetic.timeline import Action, Timeline

Position = tuple[float, float]
PLAYERS = ("Player A", "Player B")

#: Sample step (s) while every ball is at rest: nothing moves, so coarse is exact.
REST_STEP = 0.1

#: Starting positions tried per scenario before giving up (each from the seed).
ATTEMPTS = 12


@dataclass
class _Builder:
    """Accumulates samples, events and actions in time order while a sequence is played."""

    names: tuple[str, ...]
    current: np.ndarray
    t: float = 0.0
    times: list[float] = field(default_factory=list)
    frames: list[np.ndarray] = field(default_factory=list)
    events: list[InputEvent] = field(default_factory=list)
    actions: list[Action] = field(default_factory=list)

    def _sample(self, t: float, p: np.ndarray) -> None:
        if self.times and t <= self.times[-1] + 1e-9:
            return
        self.times.append(t)
        self.frames.append(p.copy())

    def hold(self, until: float) -> None:
        """Balls at rest from the current time up to (not including) ``until``."""
        for t in np.arange(self.t, until, REST_STEP):
            self._sample(float(t), self.current)
        self.t = until

    def place(self, ball: str, xy: Position, t: float, rng: np.random.Generator) -> None:
        """A hand puts ``ball`` at ``xy`` at time ``t``."""
        xy = (round(xy[0], 2), round(xy[1], 2))  # as the log writes it, so both agree
        self.hold(t)
        self.current[self.names.index(ball)] = xy
        self._sample(t, self.current)
        self.events.append(Place(t=t, ball=ball, position=xy))
        self.actions.append(
            Action(
                "place",
                t - rng.uniform(0.5, 0.8),
                t + rng.uniform(0.3, 0.5),
                ball,
                (float(xy[0]), float(xy[1])),
            )
        )

    def shot(self, result: ShotResult, ts: float, down: float, rng: np.random.Generator) -> None:
        """A stroke struck at ``ts`` by a player who got down on it ``down`` seconds before."""
        self.hold(ts)
        cols = [self.names.index(n) for n in result.ball_names]
        for k, t in enumerate(result.times):
            p = np.full_like(self.current, np.nan)
            p[cols] = result.positions[k]
            self._sample(ts + float(t), p)
        self.current = self.frames[-1].copy()
        for e in result.events:
            self.events.append(_shift(e, ts))
        end = ts + result.duration
        self.events.append(Rest(t=end, positions=dict(result.final), touching=result.touching or None))
        white = result.start["white"]
        self.actions.append(
            Action(
                "stroke",
                ts - down,
                ts + rng.uniform(0.3, 0.6),
                "white",
                (float(white[0]), float(white[1])),
                result.stroke.direction,
            )
        )
        self.t = end + REST_STEP

    def timeline(self) -> Timeline:
        actions = tuple(sorted(self.actions, key=lambda a: a.t_start))
        return Timeline(self.names, np.array(self.times), np.stack(self.frames), tuple(self.events), actions)


def _shift(event: InputEvent, dt: float) -> InputEvent:
    import dataclasses

    return dataclasses.replace(event, t=event.t + dt)


# ---- playing a plan ----------------------------------------------------------------------


def _play(
    spec: ShotSpec, balls: dict[str, Position], after_red: bool, rng: np.random.Generator, then_pot: bool
) -> ShotResult:
    if spec.stroke is not None:
        return simulate_shot(balls, spec.stroke)
    on = [spec.target] if spec.target else balls_on(balls, after_red)
    if spec.goal == "break":
        return shots.plan_break(balls, rng)
    if spec.goal == "pot":
        return shots.plan_pot(balls, on, rng, spec.pocket, _next_pottable if then_pot else None)
    if spec.goal == "in_off":
        return shots.plan_in_off(balls, on, rng)
    if spec.goal == "touching":
        return shots.plan_touching(balls, rng)
    if spec.goal == "snooker_foul":
        return shots.plan_snooker_foul(balls, rng)
    if spec.goal == "wrong_ball":
        return shots.plan_wrong_ball(balls, after_red, rng)
    return shots.plan_any(balls, after_red, rng)


def play(
    start: dict[str, Position], plan: list[ShotSpec], rng: np.random.Generator, reds: int = 15
) -> Timeline:
    """Play ``plan`` from ``start`` (white absent = in hand) and assemble the Timeline.

    Raises:
        NoShotFound: a goal of the plan could not be reached from the position it met.
    """
    names = tuple(n for n in ("white", *(c.value for c in COLOURS_ASCENDING)) if n in start or n == "white")
    names += tuple(sorted((n for n in start if n.startswith("red")), key=lambda n: int(n[3:])))
    current = np.full((len(names), 2), np.nan)
    for n, xy in start.items():
        current[names.index(n)] = xy
    b = _Builder(names, current)
    b.events.append(FrameStart(t=0.0, players=PLAYERS, striker=0, reds=reds, positions=dict(start)))
    balls = dict(start)
    after_red = False
    t = 0.0
    for k, spec in enumerate(plan):
        if "white" not in balls:
            t += rng.uniform(0.8, 1.5)
            xy = place_in_d(balls, rng)
            b.place("white", xy, t, rng)
            balls["white"] = (round(xy[0], 2), round(xy[1], 2))
        then_pot = k + 1 < len(plan) and plan[k + 1].goal == "pot"
        result = _play(spec, balls, after_red, rng, then_pot)
        down = rng.uniform(1.0, 2.0)  # down on the shot, inside the 1-3 s pause
        ts = t + max(rng.uniform(1.2, 3.0), down + 0.3)
        b.shot(result, ts, down, rng)
        t = ts + result.duration
        on = balls_on(balls, after_red)
        foul = result.first_contact not in on or any(p not in on for p in result.potted)
        reds_before = any(n.startswith("red") for n in balls)
        balls = dict(result.final)
        after_red = not foul and any(p.startswith("red") for p in result.potted)
        for c in sorted(
            (p for p in result.potted if p != "white" and colour_of(p) is not Colour.RED),
            key=lambda c: -list(Colour).index(colour_of(c)),  # Rule 7(f): highest value first
        ):
            if reds_before or foul:
                t += rng.uniform(0.7, 1.3)
                xy = respot(c, balls)
                b.place(c, xy, t, rng)
                balls[c] = (round(xy[0], 2), round(xy[1], 2))
    b.hold(t + rng.uniform(1.0, 1.6))
    return b.timeline()


# ---- starting positions ------------------------------------------------------------------


def scattered(rng: np.random.Generator, reds: int, white: bool = True) -> dict[str, Position]:
    """A mid-frame position: colours on their spots, ``reds`` reds spread over the top half."""
    pos: dict[str, Position] = {c.value: TABLE.spots[c] for c in COLOURS_ASCENDING}
    spots = dict(pos)
    k = 1
    while k <= reds:
        xy = (float(rng.uniform(1900, TABLE.length - 80)), float(rng.uniform(80, TABLE.width - 80)))
        if is_free(xy, pos, clearance=8.0) and is_free(xy, spots, clearance=30.0):
            pos[f"red{k}"] = xy
            k += 1
    while white:
        xy = (float(rng.uniform(900, 2600)), float(rng.uniform(150, TABLE.width - 150)))
        if is_free(xy, pos, clearance=60.0):
            pos["white"] = xy
            break
    return pos


def _clearance_start(rng: np.random.Generator) -> dict[str, Position]:
    first = int(rng.integers(2, 4))  # brown or blue onwards: the final few colours
    pos: dict[str, Position] = {c.value: TABLE.spots[c] for c in COLOURS_ASCENDING[first:]}
    target = pos[COLOURS_ASCENDING[first].value]
    while True:
        a, r = rng.uniform(0, 2 * math.pi), rng.uniform(250, 600)
        xy = (target[0] + r * math.cos(a), target[1] + r * math.sin(a))
        if TABLE.on_playing_area(*xy, margin=-60.0) and is_free(xy, pos, clearance=60.0):
            pos["white"] = xy
            return pos


Scenario = Callable[[np.random.Generator], tuple[dict[str, Position], list[ShotSpec]]]


def _next_pottable(r: ShotResult) -> bool:
    """Position play: after this stroke some ball then on can be potted."""
    rest = dict(r.final)
    on = balls_on(rest, after_red=any(p.startswith("red") for p in r.potted))
    return "white" in rest and bool(on) and bool(shots.pot_options(rest, on))


SCENARIOS: dict[str, Scenario] = {
    "break_off": lambda rng: (TABLE.standard_positions(15), [ShotSpec("break")]),
    "red_then_colour": lambda rng: (
        scattered(rng, int(rng.integers(5, 10))),
        [ShotSpec("pot"), ShotSpec("pot")],
    ),
    "colours_clearance": lambda rng: (_clearance_start(rng), [ShotSpec("pot")] * 6),
    "in_off": lambda rng: (scattered(rng, int(rng.integers(5, 10))), [ShotSpec("in_off"), ShotSpec("any")]),
    "touching": lambda rng: (scattered(rng, int(rng.integers(6, 12))), [ShotSpec("touching")]),
    "free_ball": lambda rng: (_free_ball_start(rng), [ShotSpec("snooker_foul")]),
    "wrong_first_contact": lambda rng: (scattered(rng, int(rng.integers(5, 10))), [ShotSpec("wrong_ball")]),
    "random": lambda rng: (
        scattered(rng, int(rng.integers(3, 15))),
        [ShotSpec("any")] * int(rng.integers(3, 6)),
    ),
}


def _free_ball_start(rng: np.random.Generator) -> dict[str, Position]:
    """The pack still racked, the white in the D straight behind the brown."""
    pos = TABLE.standard_positions(15)
    bx, by = TABLE.spots[Colour.BROWN]
    pos["white"] = (bx - rng.uniform(90, 200), by + rng.uniform(-8, 8))
    return pos


def simulate_sequence(plan: list[ShotSpec] | str, seed: int = 0) -> Timeline:
    """Simulate strokes of a frame and return what happened, densely, with the true event log.

    Args:
        plan: a scenario name of :data:`SCENARIOS`, or a list of shot specs played from the
            standard set-up with the white in hand.
        seed: fixes the starting position, the search and the people's timing.

    Raises:
        ValueError: an unknown scenario name.
        NoShotFound: no starting position of the seed's attempts let the plan be played.
    """
    if isinstance(plan, str):
        if plan not in SCENARIOS:
            raise ValueError(f"unknown scenario {plan!r}; known: {', '.join(SCENARIOS)}")
        make = SCENARIOS[plan]
        last: Exception | None = None
        for attempt in range(ATTEMPTS):
            rng = np.random.default_rng([seed, attempt])
            start, specs = make(rng)
            if plan == "colours_clearance":
                specs = specs[: len(start) - 1]
            try:
                return play(start, specs, rng, reds=15)
            except NoShotFound as exc:
                last = exc
        raise NoShotFound(f"scenario {plan!r} with seed {seed}: {last}")
    return play(TABLE.standard_positions(15), list(plan), np.random.default_rng(seed))
