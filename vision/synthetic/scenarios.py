"""Sequences of strokes as a :class:`~vision.synthetic.timeline.Timeline`: the public entry
point :func:`simulate_sequence` and the named scenarios the sample videos need.

A sequence is played like a frame, with the project's own referee
(:func:`adjudicator.engine.step`) watching every event as it is made: the white is placed in
the D when in hand, each stroke is chosen by :mod:`vision.synthetic.shots` (the physics
decides its outcome) for the balls the referee says are on, colours are re-spotted by hand
exactly where the referee's ``respot`` outputs put them (Section 3 Rule 7), and people take
realistic time between strokes (1-3 s to walk round and get down). A scenario whose promise
is a call (TOUCHING BALL, FREE BALL, a foul) only accepts strokes after which the referee
makes that call. The true event log and the occluding people come out with the positions.

Scenarios (``SCENARIOS``) and what the referee calls on them:

- ``break_off``: the white placed in the D, a break-off into the pack; no foul.
- ``red_then_colour``: a red then a colour potted (1 + the colour's value), the colour re-spotted.
- ``colours_clearance``: the last colours potted in order to the final black; the frame ends.
- ``in_off``: the white potted off a ball on (FOUL), then placed in the D and played.
- ``touching``: a legal stroke (a red hit first) after which the white rests touching a red
  (TOUCHING BALL).
- ``free_ball``: mid-frame, the striker snookered behind a baulk colour plays and hits that
  colour first: FOUL (wrong ball first) then FREE BALL, the white still behind it and the
  incoming player snookered on every red.
- ``wrong_first_contact``: the white's first contact is a colour while on reds (FOUL; a FOUL
  AND A MISS when a red could be hit, Section 3 Rule 14(c)).
- ``random``: a few plausible strokes.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import numpy as np

from adjudicator import engine
from adjudicator.eventlog import FrameStart, InputEvent, Place, Rest
from adjudicator.judge import incoming_snookered
from adjudicator.outputs import Output
from adjudicator.state import RED, FrameState, freeze
from adjudicator.target import balls_on
from calibration.table import COLOURS_ASCENDING, TABLE, Colour
from vision.synthetic import shots
from vision.synthetic.physics import ShotResult, simulate_shot
from vision.synthetic.shots import NoShotFound, ShotSpec
from vision.synthetic.timeline import Action, Timeline

Position = tuple[float, float]
PLAYERS = ("Player A", "Player B")

#: Sample step (s) while every ball is at rest: nothing moves, so coarse is exact.
REST_STEP = 0.1

#: Starting positions tried per scenario before giving up (each from the seed).
ATTEMPTS = 12


def clear_of(xy: Position, balls: Mapping[str, Position], clearance: float) -> bool:
    """Whether a ball put at ``xy`` keeps ``clearance`` mm of daylight to every ball (layouts
    and the player's placement of the white; the referee's own spotting rule is
    :func:`adjudicator.respot.respot`)."""
    limit = TABLE.ball_diameter + clearance
    return all(math.hypot(xy[0] - bx, xy[1] - by) >= limit for bx, by in balls.values())


def place_in_d(balls: Mapping[str, Position], rng: np.random.Generator) -> Position:
    """Where a player puts the white from in hand (Section 3 Rule 5: on or within the D):
    behind the baulk-line, mostly on the yellow or green side, clear of every ball."""
    cx, cy = TABLE.d_centre
    for _ in range(200):
        r = TABLE.d_radius * math.sqrt(rng.uniform(0.05, 0.9))
        a = rng.uniform(math.pi / 2, 3 * math.pi / 2)
        xy = (cx + r * math.cos(a), cy + r * math.sin(a))
        if TABLE.in_d(*xy) and clear_of(xy, balls, 5.0):
            return xy
    raise ValueError("no free position in the D")


def calls_after(state: FrameState, result: ShotResult) -> list[Output]:
    """What the referee announces if ``result`` is played from ``state`` (a dry run: the
    state is immutable, nothing is kept)."""
    outs: list[Output] = []
    for event in (*result.events, _rest(result)):
        state, more = engine.step(state, event)
        outs += more
    return [o for o in outs if o["type"] == "call"]


def _rest(result: ShotResult, t: float = 0.0) -> Rest:
    return Rest(t=t + result.duration, positions=dict(result.final), touching=result.touching or None)


@dataclass
class _Builder:
    """Accumulates samples, events and actions in time order while a sequence is played; the
    referee's state follows every event logged, and its outputs are kept."""

    names: tuple[str, ...]
    current: np.ndarray
    t: float = 0.0
    times: list[float] = field(default_factory=list)
    frames: list[np.ndarray] = field(default_factory=list)
    events: list[InputEvent] = field(default_factory=list)
    actions: list[Action] = field(default_factory=list)
    referee: FrameState = field(default_factory=engine.initial_state)
    outputs: list[Output] = field(default_factory=list)

    def log(self, event: InputEvent) -> list[Output]:
        """Append a true event and let the referee see it; its outputs."""
        self.events.append(event)
        self.referee, outs = engine.step(self.referee, event)
        self.outputs += outs
        return list(outs)

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

    def place(self, ball: str, xy: Position, t: float, rng: np.random.Generator) -> Position:
        """A hand puts ``ball`` at ``xy`` at time ``t``; the position as logged."""
        xy = (round(xy[0], 2), round(xy[1], 2))  # as the log writes it, so both agree
        self.hold(t)
        self.current[self.names.index(ball)] = xy
        self._sample(t, self.current)
        self.log(Place(t=t, ball=ball, position=xy))
        self.actions.append(
            Action(
                "place",
                t - rng.uniform(0.5, 0.8),
                t + rng.uniform(0.3, 0.5),
                ball,
                (float(xy[0]), float(xy[1])),
            )
        )
        return xy

    def shot(self, result: ShotResult, ts: float, down: float, rng: np.random.Generator) -> list[Output]:
        """A stroke struck at ``ts`` by a player who got down on it ``down`` seconds before;
        the referee's outputs at its rest."""
        self.hold(ts)
        cols = [self.names.index(n) for n in result.ball_names]
        for k, t in enumerate(result.times):
            p = np.full_like(self.current, np.nan)
            p[cols] = result.positions[k]
            self._sample(ts + float(t), p)
        self.current = self.frames[-1].copy()
        outs: list[Output] = []
        for e in result.events:
            outs += self.log(dataclasses.replace(e, t=e.t + ts))
        outs += self.log(_rest(result, ts))
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
        self.t = ts + result.duration + REST_STEP
        return outs

    def timeline(self) -> Timeline:
        actions = tuple(sorted(self.actions, key=lambda a: a.t_start))
        return Timeline(self.names, np.array(self.times), np.stack(self.frames), tuple(self.events), actions)


# ---- playing a plan ----------------------------------------------------------------------

Predicate = Callable[[ShotResult], bool]


def _promise(goal: str, state: FrameState) -> Predicate | None:
    """The referee's calls a goal promises, as a predicate on a candidate stroke."""

    def names(r: ShotResult) -> list[str]:
        return [c["call"] for c in calls_after(state, r)]

    def foul(r: ShotResult) -> bool:
        return any(c.startswith("FOUL") for c in names(r))

    if goal == "touching":
        return lambda r: "TOUCHING BALL" in names(r) and not foul(r)
    if goal == "snooker_foul":
        return lambda r: foul(r) and "FREE BALL" in names(r)
    if goal in ("wrong_ball", "in_off"):
        return foul
    if goal in ("break", "pot"):
        return lambda r: not foul(r)
    return None


def _play(
    spec: ShotSpec, balls: dict[str, Position], state: FrameState, rng: np.random.Generator, then_pot: bool
) -> ShotResult:
    if spec.stroke is not None:
        return simulate_shot(balls, spec.stroke)
    on = [spec.target] if spec.target else balls_on(state.on, balls)
    extra = _promise(spec.goal, state)
    if spec.goal == "break":
        return shots.plan_break(balls, rng, extra)
    if spec.goal == "pot":
        if then_pot:
            promised = extra

            def positional(r: ShotResult) -> bool:
                return (promised is None or promised(r)) and _next_pottable(r, state)

            extra = positional
        return shots.plan_pot(balls, on, rng, spec.pocket, extra)
    if spec.goal == "in_off":
        return shots.plan_in_off(balls, on, rng, extra)
    if spec.goal == "touching":
        return shots.plan_touching(balls, rng, extra)
    if spec.goal == "snooker_foul":
        return shots.plan_snooker_foul(balls, on, rng, extra)
    if spec.goal == "wrong_ball":
        return shots.plan_wrong_ball(balls, on, rng, extra)
    return shots.plan_any(balls, on, rng, extra)


def _next_pottable(r: ShotResult, state: FrameState) -> bool:
    """Position play: after this stroke some ball the referee then has on can be potted."""
    after = state
    for event in (*r.events, _rest(r)):
        after, _ = engine.step(after, event)
    rest = dict(r.final)
    on = balls_on(after.on, rest)
    return "white" in rest and bool(on) and bool(shots.pot_options(rest, on))


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
    b.log(FrameStart(t=0.0, players=PLAYERS, striker=0, reds=reds, positions=dict(start)))
    balls = dict(start)
    t = 0.0
    for k, spec in enumerate(plan):
        if "white" not in balls:
            t += rng.uniform(0.8, 1.5)
            balls["white"] = b.place("white", place_in_d(balls, rng), t, rng)
        then_pot = k + 1 < len(plan) and plan[k + 1].goal == "pot"
        result = _play(spec, balls, b.referee, rng, then_pot)
        down = rng.uniform(1.0, 2.0)  # down on the shot, inside the 1-3 s pause
        ts = t + max(rng.uniform(1.2, 3.0), down + 0.3)
        outs = b.shot(result, ts, down, rng)
        t = ts + result.duration
        balls = dict(result.final)
        for out in outs:  # Rule 7: where the referee spots each colour, in its order (7(f))
            if out["type"] == "respot":
                t += rng.uniform(0.7, 1.3)
                xy = (float(out["position"][0]), float(out["position"][1]))
                balls[out["ball"]] = b.place(out["ball"], xy, t, rng)
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
        if clear_of(xy, pos, 8.0) and clear_of(xy, spots, 30.0):
            pos[f"red{k}"] = xy
            k += 1
    while white:
        xy = (float(rng.uniform(900, 2600)), float(rng.uniform(150, TABLE.width - 150)))
        if clear_of(xy, pos, 60.0):
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
        if TABLE.on_playing_area(*xy, margin=-60.0) and clear_of(xy, pos, 60.0):
            pos["white"] = xy
            return pos


def _free_ball_start(rng: np.random.Generator) -> dict[str, Position]:
    """Mid-frame, the striker snookered: reds over the top half, colours on their spots, and
    the white left by the opponent's safety 80-220 mm behind a baulk colour as seen from the
    reds, so that the referee's own Rule 17 geometry
    (:func:`adjudicator.judge.incoming_snookered`) finds no red hittable at both edges."""
    pos = scattered(rng, int(rng.integers(6, 12)), white=False)
    reds = np.array([xy for n, xy in pos.items() if n.startswith("red")])
    rx, ry = reds.mean(axis=0)
    for _ in range(500):
        colour = TABLE.spots[Colour(str(rng.choice(["yellow", "green", "brown"])))]
        away = math.atan2(colour[1] - ry, colour[0] - rx) + rng.normal(0.0, math.radians(8))
        r = rng.uniform(80, 220)
        xy = (colour[0] + r * math.cos(away), colour[1] + r * math.sin(away))
        trial = {**pos, "white": xy}
        if (
            TABLE.on_playing_area(*xy, margin=-40.0)
            and clear_of(xy, pos, 5.0)
            and incoming_snookered(freeze(trial), RED)
        ):
            return trial
    raise NoShotFound("no snookered start position")


Scenario = Callable[[np.random.Generator], tuple[dict[str, Position], list[ShotSpec]]]

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
