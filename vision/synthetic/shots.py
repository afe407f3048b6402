"""Choosing strokes whose *physics* outcome is a wanted scenario.

Nothing here decides what a ball does: every candidate stroke is simulated by
:mod:`vision.synthetic.physics` and kept only when what the physics did matches the goal
(a pot in the chosen pocket, an in-off, the white coming to rest touching a red, ...).
Candidates come from billiards geometry (aim at the ghost-ball position, the 90-degree
rule for the white's path after a stun) plus seeded jitter in aim, speed and spin, so the
search is short. If no candidate of the budget works, :class:`NoShotFound` is raised and
the caller tries another starting position.

Which balls are on, whether the incoming player is snookered and where colours go back are
the referee's questions, answered by :mod:`adjudicator` itself (``target.balls_on``,
``judge.incoming_snookered``, ``respot``) so that the simulator and the referee can never
disagree on a rule. Callers pass an ``extra`` predicate (the scenario player feeds a
candidate's events through :func:`adjudicator.engine.step`) when a goal is defined by the
referee's calls.

Searches judge candidates with :func:`~vision.synthetic.physics.simulate_shot`'s sparse mode
(start and rest only, several times faster) and re-simulate the chosen stroke densely.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Literal

import numpy as np

from adjudicator.judge import incoming_snookered
from adjudicator.state import base_on, freeze, is_red
from calibration.table import TABLE, Colour, colour_of
from vision.synthetic.physics import TOUCH_GAP_MM, CueStroke, OverlapError, ShotResult, simulate_shot

Position = tuple[float, float]
Goal = Literal["any", "break", "pot", "in_off", "touching", "snooker_foul", "wrong_ball"]
R = TABLE.ball_radius
D = TABLE.ball_diameter

#: Most candidate strokes simulated for one goal before giving up.
SEARCH_BUDGET = 80

#: Touching search bounds: probe strokes (each a sparse simulation) and speed bisections
#: (each up to :data:`BISECT_STEPS` sparse simulations) tried from one position.
TOUCH_PROBES = 32
TOUCH_BISECTIONS = 6
BISECT_STEPS = 30


class NoShotFound(RuntimeError):
    """No candidate stroke produced the wanted outcome from this position."""


@dataclass(frozen=True)
class ShotSpec:
    """One stroke of a plan: either an explicit cue action or a goal for the search.

    Attributes:
        goal: what the physics must do: ``"pot"`` (``target`` into ``pocket``, only it),
            ``"break"`` (break-off into the pack), ``"in_off"`` (the white potted after
            hitting a ball on), ``"touching"`` (a legal stroke: the white hits a red first
            and comes to rest touching a red),
            ``"snooker_foul"`` (a foul leaving the white snookered on every ball on),
            ``"wrong_ball"`` (the white first hits a ball not on), ``"any"`` (anything).
        target: ball to pot or hit; ``None`` lets the planner pick a ball on.
        pocket: pocket for a pot or in-off; ``None`` lets the planner pick.
        stroke: an explicit stroke (no search; ``goal`` is then ignored).
    """

    goal: Goal = "any"
    target: str | None = None
    pocket: str | None = None
    stroke: CueStroke | None = None


# ---- geometry ----------------------------------------------------------------------------


def _unit(v: tuple[float, float]) -> tuple[float, float]:
    n = math.hypot(*v)
    return (v[0] / n, v[1] / n)


def _direction(a: Position, b: Position) -> float:
    return math.atan2(b[1] - a[1], b[0] - a[0])


def path_clear(a: Position, b: Position, balls: Mapping[str, Position], ignore: tuple[str, ...] = ()) -> bool:
    """Whether a ball can travel straight from ``a`` to ``b`` without touching any of ``balls``."""
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    n2 = dx * dx + dy * dy
    for name, (px, py) in balls.items():
        if name in ignore:
            continue
        s = 0.0 if n2 == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / n2))
        if math.hypot(ax + s * dx - px, ay + s * dy - py) < D + 0.5:
            return False
    return True


def pocket_aim(pocket: str) -> Position:
    """Where an object ball is sent: a little behind the middle of the mouth."""
    p = TABLE.pockets[pocket]
    mx, my = p.mouth_midpoint
    cx, cy = p.centre
    return (mx + 0.3 * (cx - mx), my + 0.3 * (cy - my))


def ghost_ball(target: Position, aim: Position) -> Position:
    """Where the white's centre must be at contact to send ``target`` towards ``aim``."""
    ux, uy = _unit((aim[0] - target[0], aim[1] - target[1]))
    return (target[0] - D * ux, target[1] - D * uy)


def cut_angle(white: Position, ghost: Position, target: Position) -> float:
    """Angle (radians) between the white's path and the object ball's path."""
    a = _unit((ghost[0] - white[0], ghost[1] - white[1]))
    b = _unit((target[0] - ghost[0], target[1] - ghost[1]))
    return math.acos(max(-1.0, min(1.0, a[0] * b[0] + a[1] * b[1])))


# ---- search ------------------------------------------------------------------------------

Predicate = Callable[[ShotResult], bool]


def search(
    balls: Mapping[str, Position], candidates: Iterator[CueStroke], ok: Predicate, budget: int = SEARCH_BUDGET
) -> ShotResult:
    """Simulate candidates in order and return the first whose outcome satisfies ``ok``.

    Candidates are judged on a sparse simulation; the winner is simulated again densely (the
    same physics, so the same outcome) and dropped if that reveals overlapping balls.
    """
    for k, stroke in enumerate(candidates):
        if k >= budget:
            break
        try:
            if ok(simulate_shot(balls, stroke, dense=False)):
                return simulate_shot(balls, stroke)
        except OverlapError:
            continue
    raise NoShotFound("no candidate stroke gave the wanted outcome")


def _jittered(
    direction: float, speeds: list[float], rng: np.random.Generator, heights: tuple[float, ...] = (0.0,)
) -> Iterator[CueStroke]:
    for jitter in (0.0, 0.15, -0.15, 0.35, -0.35, 0.6, -0.6):
        for v in speeds:
            for h in heights:
                yield CueStroke(direction + math.radians(jitter), v * rng.uniform(0.95, 1.05), height=h)


def pot_options(
    balls: Mapping[str, Position], targets: list[str], pockets: list[str] | None = None
) -> list[tuple[float, str, str]]:
    """(difficulty, target, pocket) of every pot with clear lines and a cut under 70 degrees."""
    white = balls["white"]
    out = []
    for t in targets:
        for p in pockets or list(TABLE.pockets):
            aim = pocket_aim(p)
            g = ghost_ball(balls[t], aim)
            if not TABLE.on_playing_area(*g):
                continue
            cut = cut_angle(white, g, balls[t])
            if cut > math.radians(70):
                continue
            if not path_clear(white, g, balls, ignore=("white", t)):
                continue
            if not path_clear(balls[t], aim, balls, ignore=("white", t)):
                continue
            length = math.hypot(g[0] - white[0], g[1] - white[1]) + math.hypot(aim[0] - g[0], aim[1] - g[1])
            out.append((cut * 2.0 + length / 1000.0, t, p))
    return sorted(out)


def plan_pot(
    balls: Mapping[str, Position],
    targets: list[str],
    rng: np.random.Generator,
    pocket: str | None = None,
    extra: Predicate | None = None,
) -> ShotResult:
    """Pot one of ``targets`` (and nothing else), the white staying on the table."""
    for _, t, p in pot_options(balls, targets, [pocket] if pocket else None)[:6]:
        g = ghost_ball(balls[t], pocket_aim(p))
        dist = math.hypot(g[0] - balls["white"][0], g[1] - balls["white"][1]) + math.hypot(
            *(np.subtract(pocket_aim(p), balls[t]))
        )
        base = 0.9 + dist / 1500.0

        def ok(r: ShotResult, t: str = t, p: str = p) -> bool:
            return r.first_contact == t and dict(r.potted) == {t: p} and (extra is None or extra(r))

        try:
            return search(
                balls,
                _jittered(
                    _direction(balls["white"], g), [base, base * 1.4, base * 0.8], rng, (0.0, 0.3, -0.3)
                ),
                ok,
                budget=40,
            )
        except NoShotFound:
            continue
    raise NoShotFound(f"no pot of {targets} found")


def plan_break(
    balls: Mapping[str, Position], rng: np.random.Generator, extra: Predicate | None = None
) -> ShotResult:
    """Break-off: a thin contact on an end red of the back row, white back up the table."""
    reds = [n for n in balls if colour_of(n) is Colour.RED]
    white = balls["white"]
    side = 1.0 if white[1] > TABLE.centre_line_y else -1.0
    back = max(balls[n][0] for n in reds)
    end = max((n for n in reds if balls[n][0] > back - 5.0), key=lambda n: side * balls[n][1])
    t = balls[end]

    def ok(r: ShotResult) -> bool:
        moved_reds = [n for n in r.moved if n.startswith("red")]
        return (
            r.first_contact is not None
            and r.first_contact.startswith("red")
            and "white" not in r.potted
            and len(moved_reds) >= 3
            and r.final["white"][0] < TABLE.length / 2.0
            and (extra is None or extra(r))
        )

    def candidates() -> Iterator[CueStroke]:
        while True:
            frac = rng.uniform(0.55, 0.85)  # how thin: the white's centre line passes this far out
            g = (t[0] - D * math.sqrt(1 - frac**2), t[1] + side * D * frac)
            yield CueStroke(_direction(white, g), rng.uniform(5.0, 7.5), side=-side * rng.uniform(0.0, 0.4))

    return search(balls, candidates(), ok, budget=30)  # a bad white placement: re-place it


def plan_in_off(
    balls: Mapping[str, Position],
    targets: list[str],
    rng: np.random.Generator,
    extra: Predicate | None = None,
) -> ShotResult:
    """The white potted after hitting a ball on: aim so the stunned white leaves the object
    ball at 90 degrees (the contact point lies on the circle with the object-pocket line as
    diameter, Thales) straight for a pocket."""
    white = balls["white"]
    options: list[tuple[float, Position]] = []
    for t in targets:
        o = balls[t]
        for p in TABLE.pockets:
            aim = pocket_aim(p)
            dop = math.hypot(aim[0] - o[0], aim[1] - o[1])
            if dop < 2 * D or dop > 900:
                continue
            # G with |G-O| = D and (P-G).(O-G) = 0: angle at O between O->G and O->P is acos(D/dop)
            base = _direction(o, aim)
            for sign in (-1.0, 1.0):
                a = base + sign * math.acos(D / dop)
                g = (o[0] + D * math.cos(a), o[1] + D * math.sin(a))
                if not TABLE.on_playing_area(*g) or cut_angle(white, g, o) > math.radians(75):
                    continue
                if path_clear(white, g, balls, ("white", t)) and path_clear(g, aim, balls, ("white", t)):
                    options.append((dop + math.hypot(g[0] - white[0], g[1] - white[1]), g))
    options.sort()

    def ok(r: ShotResult) -> bool:
        return r.first_contact in targets and "white" in r.potted and (extra is None or extra(r))

    for _, g in options[:5]:
        try:
            return search(
                balls,
                _jittered(_direction(white, g), [1.8, 2.6, 3.4], rng, (-0.1, 0.1)),
                ok,
                budget=30,
            )
        except NoShotFound:
            continue
    raise NoShotFound("no in-off found")


def bisect_speed(
    balls: Mapping[str, Position],
    stroke: CueStroke,
    too_fast: Predicate,
    done: Predicate,
    lo: float = 0.05,
    hi: float = 3.0,
    steps: int = BISECT_STEPS,
) -> ShotResult:
    """Bisect the cue speed between a stroke that is too slow and one that is too fast until
    the outcome is ``done``: the physics decides where the white stops, we only choose how
    hard to hit (as a player feels for a roll-up). Judged on sparse simulations; the result
    is the chosen stroke simulated densely.

    Raises:
        NoShotFound: ``hi`` is not too fast, or no speed tried was ``done``.
        OverlapError: the dense re-simulation of the chosen stroke shows overlapping balls.
    """

    def at(v: float) -> CueStroke:
        return CueStroke(stroke.direction, v, stroke.side, stroke.height, stroke.elevation)

    if not too_fast(simulate_shot(balls, at(hi), dense=False)):
        raise NoShotFound("even the fastest stroke does not get there")
    for _ in range(steps):
        mid = 0.5 * (lo + hi)
        r = simulate_shot(balls, at(mid), dense=False)
        if done(r):
            return simulate_shot(balls, at(mid))
        if too_fast(r):
            hi = mid
        else:
            lo = mid
    raise NoShotFound("speed bisection did not converge")


def _gap(r: ShotResult, a: str, b: str) -> float:
    if a not in r.final or b not in r.final:
        return math.inf
    (ax, ay), (bx, by) = r.final[a], r.final[b]
    return math.hypot(ax - bx, ay - by) - D


def _white_contacts(r: ShotResult) -> list[str]:
    """The balls the white collided with, in order, each once."""
    out: list[str] = []
    for e in r.events:
        if e.type == "collision" and e.balls[0] == "white" and e.balls[1] not in out:
            out.append(e.balls[1])
    return out


def _touched(r: ShotResult, ball: str) -> bool:
    """Whether ``ball`` was hit by the white or moved at all (a kiss slower than
    :data:`~vision.synthetic.physics.MIN_IMPACT_SPEED` is no logged impact but still moves it)."""
    if ball in _white_contacts(r) or ball in r.potted:
        return True
    (x0, y0), (x1, y1) = r.start[ball], r.final[ball]
    return math.hypot(x1 - x0, y1 - y0) > 0.01


def plan_touching(
    balls: Mapping[str, Position], rng: np.random.Generator, extra: Predicate | None = None
) -> ShotResult:
    """A legal stroke after which the white rests touching a red (Section 3 Rule 8(a)).

    The white is sent past a red ``A`` with a thin-to-half-ball contact (a legal first
    contact on a ball on) and runs on; a probe stroke finds which red ``B`` the white then
    meets. The cue speed is bisected between stopping short of ``B`` and hitting it until the
    white comes to rest within :data:`~vision.synthetic.physics.TOUCH_GAP_MM` of ``B``
    without touching it, nothing potted: the physics decides the path and where the white
    stops, we only choose the aim and how hard to hit. Bounded by :data:`TOUCH_PROBES`
    probes and :data:`TOUCH_BISECTIONS` bisections.

    Raises:
        NoShotFound: no candidate of the bounds came to rest touching (or fewer than two reds).
    """
    white = balls["white"]
    reds = [n for n in balls if is_red(n)]
    if len(reds) < 2:
        raise NoShotFound("a touching stroke needs two reds: one to hit, one to rest against")
    firsts = sorted(
        (n for n in reds if path_clear(white, balls[n], balls, ("white", n))),
        key=lambda n: math.hypot(balls[n][0] - white[0], balls[n][1] - white[1]),
    )
    probes = bisections = 0
    for a in firsts[:4]:
        dist = math.hypot(balls[a][0] - white[0], balls[a][1] - white[1])
        for frac in rng.permutation([0.4, 0.6, 0.75, 0.9]):
            for sign in (-1.0, 1.0):
                # the white's centre line passes A's centre at frac * D: a cut of asin(frac)
                aim = _direction(white, balls[a]) + sign * math.asin(min(1.0, frac * D / dist))
                stroke = CueStroke(aim, float(rng.uniform(1.6, 2.6)), height=float(rng.uniform(-0.2, 0.3)))
                if probes >= TOUCH_PROBES or bisections >= TOUCH_BISECTIONS:
                    raise NoShotFound("no touching stroke within the search bounds")
                probes += 1
                try:
                    probe = simulate_shot(balls, stroke, dense=False)
                except OverlapError:
                    continue
                contacts = _white_contacts(probe)
                if len(contacts) < 2 or contacts[0] != a or not is_red(contacts[1]):
                    continue
                b = contacts[1]

                def too_fast(r: ShotResult, b: str = b) -> bool:
                    return _touched(r, b)

                def done(r: ShotResult, a: str = a, b: str = b) -> bool:
                    return (
                        r.first_contact == a
                        and not r.potted
                        and not _touched(r, b)
                        and 0.0 < _gap(r, "white", b) < 0.8 * TOUCH_GAP_MM
                        and (extra is None or extra(r))
                    )

                bisections += 1
                try:
                    return bisect_speed(balls, stroke, too_fast, done, hi=stroke.speed)
                except (NoShotFound, OverlapError):
                    continue
    raise NoShotFound("no touching stroke found")


def plan_snooker_foul(
    balls: Mapping[str, Position], on: list[str], rng: np.random.Generator, extra: Predicate | None = None
) -> ShotResult:
    """A foul that leaves the incoming player snookered (a FREE BALL, Section 3 Rule 12): a
    snookered striker plays softly and hits the snookering colour first (a ball not on,
    Section 3 Rule 10), the white stopping behind it again.

    The snooker is the referee's own judgement (:func:`adjudicator.judge.incoming_snookered`,
    Section 2 Rule 17), on the ball on of the incoming player.
    """
    white = balls["white"]
    colours = [n for n in balls if n != "white" and n not in on]
    colours.sort(key=lambda n: math.hypot(balls[n][0] - white[0], balls[n][1] - white[1]))

    def ok(r: ShotResult) -> bool:
        if r.first_contact is None or r.first_contact in on or r.potted:
            return False
        rest = freeze(r.final)
        return incoming_snookered(rest, base_on(rest)) and (extra is None or extra(r))

    for c in colours[:3]:
        if not path_clear(white, balls[c], balls, ("white", c)):
            continue
        d = _direction(white, balls[c])
        cands = (
            CueStroke(d + math.radians(rng.normal(0, 0.3)), v * rng.uniform(0.95, 1.05), height=h)
            for v in (0.2, 0.3, 0.15, 0.4, 0.25, 0.5)
            for h in (-0.4, 0.0, 0.3)
        )
        try:
            return search(balls, cands, ok, budget=18)
        except NoShotFound:
            continue
    raise NoShotFound("no snookering foul found")


def plan_wrong_ball(
    balls: Mapping[str, Position], on: list[str], rng: np.random.Generator, extra: Predicate | None = None
) -> ShotResult:
    """The white's first contact is a ball not on (a foul, Section 3 Rule 10)."""
    white = balls["white"]
    others = [n for n in balls if n != "white" and n not in on]
    rng.shuffle(others)

    def ok(r: ShotResult) -> bool:
        return r.first_contact in others and "white" not in r.potted and (extra is None or extra(r))

    for c in others:
        if not path_clear(white, balls[c], balls, ("white", c)):
            continue
        d = _direction(white, balls[c])
        cands = (
            CueStroke(
                d + math.radians(rng.normal(0, 0.8)), rng.uniform(1.0, 3.0), height=rng.uniform(-0.3, 0.3)
            )
            for _ in range(6)
        )
        try:
            return search(balls, cands, ok, budget=6)
        except NoShotFound:
            continue
    raise NoShotFound("no wrong-ball contact found")


def plan_any(
    balls: Mapping[str, Position], on: list[str], rng: np.random.Generator, extra: Predicate | None = None
) -> ShotResult:
    """A plausible stroke: a pot of a ball on when one is on, else a safety at a ball on."""
    try:
        return plan_pot(balls, on, rng, extra=extra)
    except NoShotFound:
        pass
    white = balls["white"]
    targets = [n for n in on if path_clear(white, balls[n], balls, ("white", n))] or on

    def ok(r: ShotResult) -> bool:
        return "white" not in r.potted and (extra is None or extra(r))

    cands = (
        CueStroke(
            _direction(white, balls[str(rng.choice(targets))]) + math.radians(rng.normal(0, 1.0)),
            rng.uniform(0.8, 3.0),
            side=rng.uniform(-0.2, 0.2),
            height=rng.uniform(-0.3, 0.3),
        )
        for _ in range(SEARCH_BUDGET)
    )
    return search(balls, cands, ok)
