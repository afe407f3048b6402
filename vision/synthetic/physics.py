"""One snooker stroke simulated by pooltool on the regulation table, in table millimetres.

Why pooltool and not hand-written motion: the issue demands that which balls move, hit and
drop comes from real billiards physics. This module is the only place that talks to
pooltool; it builds the table from :data:`calibration.table.TABLE` (pooltool's own snooker
table is 24.5 mm short and 31.5 mm narrow), places the balls itself (pooltool's rack puts
yellow on the wrong side and numbers reds by hash seed), fixes the physics engine (a user's
``resolver.yaml`` must not change results) and converts what happened into event-log
events and densely sampled positions.

Frames. pooltool's table frame has its origin at the corner pocket ``lb``, ``x`` across the
width and ``y`` along the length, in metres. Ours (the event-log frame) has ``x`` along the
length from the baulk cushion face and ``y`` across from the green side, in millimetres.
Seen from above both describe the same physical table with the axes swapped, so
``ours = 1000 * (pt_y, pt_x)``: pooltool's ``lb`` pocket is our ``baulk_left``, ``rt`` is
``top_right``. An aim angle ``theta`` of ours (0 = +x, towards +y) is pooltool's
``phi = 90 deg - theta``; side spin is defined relative to the cue and needs no change.

Sequences of strokes (the :class:`~vision.synthetic.timeline.Timeline` a renderer draws) are
planned in :mod:`vision.synthetic.shots`; :func:`simulate_sequence` is re-exported here as the
public entry point.
"""

from __future__ import annotations

import contextlib
import importlib
import math
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from adjudicator.eventlog import Collision, Cushion, InputEvent, Pot, Strike
from calibration.table import TABLE

if TYPE_CHECKING:
    from vision.synthetic.shots import ShotSpec
    from vision.synthetic.timeline import Timeline

FloatArray = npt.NDArray[np.float64]
Position = tuple[float, float]

#: Collisions whose approach speed along the line of centres is below this (m/s) are dropped:
#: balls resting a hair apart (a rack) produce hundreds of numerically-touching contacts
#: that no camera or referee would call an impact. 10 mm/s moves a ball < 0.1 mm per frame.
MIN_IMPACT_SPEED = 0.01

#: Two balls at rest with a gap below this (mm) are reported as touching (Section 3 Rule 15
#: concerns the white touching a ball; the gap a referee can judge from above is ~1 mm).
TOUCH_GAP_MM = 1.0

#: Sample step (s) while any ball moves: at 7 m/s a ball moves 7 mm between samples on a
#: straight line, where linear interpolation is exact; event instants are sampled too, so
#: the kinks at collisions are exact as well.
MOVING_STEP = 0.001

#: Two balls on the cloth closer than ``2R - OVERLAP_TOL_MM`` are overlapping: the upstream
#: bug (pooltool #154) that misses a collision shows as balls passing through each other.
OVERLAP_TOL_MM = 0.1

#: Longest stroke simulated (s); a real stroke settles well within this.
MAX_SHOT_SECONDS = 40.0

#: pooltool pocket ids -> event-log pocket names (see the frame note above).
POCKET_NAMES: dict[str, str] = {
    "lb": "baulk_left",
    "rb": "baulk_right",
    "lc": "middle_left",
    "rc": "middle_right",
    "lt": "top_left",
    "rt": "top_right",
}


class OverlapError(ValueError):
    """A simulation left two balls overlapping (a missed collision); the shot is unusable."""


# ---- pooltool set-up ---------------------------------------------------------------------


def cache_dir() -> Path:
    """The project cache (``BAULKLINE_CACHE``, default ``.cache`` in the repository)."""
    default = Path(__file__).resolve().parents[2] / ".cache"
    return Path(os.environ.get("BAULKLINE_CACHE", str(default)))


@contextlib.contextmanager
def _home(path: Path) -> Iterator[None]:
    """Temporarily point ``HOME`` at ``path``: pooltool writes ``~/.config/pooltool`` on import."""
    old = os.environ.get("HOME")
    path.mkdir(parents=True, exist_ok=True)
    os.environ["HOME"] = str(path)
    try:
        yield
    finally:
        if old is None:
            os.environ.pop("HOME", None)
        else:
            os.environ["HOME"] = old


@cache
def pooltool() -> ModuleType:
    """Import pooltool with its config and numba caches inside the project cache.

    The first stroke after a cold cache JIT-compiles for about 40 s; the numba cache makes
    later processes start in about a second.
    """
    root = cache_dir()
    os.environ.setdefault("NUMBA_CACHE_DIR", str(root / "numba"))
    with _home(root / "pooltool-home"):
        return importlib.import_module("pooltool")


@cache
def _engine() -> Any:
    """The physics engine, fixed in code so that no configuration file can change results."""
    pt = pooltool()
    resolver = importlib.import_module("pooltool.physics.resolve.resolver")
    return pt.physics.PhysicsEngine(resolver=resolver.default_resolver())


@cache
def build_table() -> Any:
    """pooltool's snooker table with the regulation playing area, mouths and pocket falls.

    Fields not in :data:`TABLE` (cushion height, jaw radii) keep pooltool's snooker values.
    The pocket circles are TABLE's fall circles: pooltool moves a corner pocket's centre
    ``depth / sqrt(2)`` out along both axes and a middle pocket's ``depth`` out across.
    """
    pt = pooltool()
    collection = importlib.import_module("pooltool.objects.table.collection")
    import attrs

    base = collection.prebuilt_specs(collection.TableName.SNOOKER_GENERIC)
    corner = TABLE.pockets["baulk_left"]
    middle = TABLE.pockets["middle_left"]
    corner_depth = math.hypot(corner.centre[0] - corner.corner[0], corner.centre[1] - corner.corner[1])
    middle_depth = abs(middle.centre[1] - middle.corner[1])
    specs = attrs.evolve(
        base,
        l=TABLE.length / 1000.0,
        w=TABLE.width / 1000.0,
        corner_pocket_width=TABLE.corner_mouth / 1000.0,
        side_pocket_width=TABLE.middle_mouth / 1000.0,
        corner_pocket_depth=corner_depth / 1000.0,
        corner_pocket_radius=corner.radius / 1000.0,
        side_pocket_depth=middle_depth / 1000.0,
        side_pocket_radius=middle.radius / 1000.0,
    )
    return pt.Table.from_table_specs(specs)


@cache
def ball_params() -> Any:
    """pooltool's snooker ball with the regulation radius (Section 1 Rule 2)."""
    pt = pooltool()
    import attrs

    base = pt.BallParams.prebuilt(pt.objects.PrebuiltBallParams.SNOOKER_GENERIC)
    return attrs.evolve(base, R=TABLE.ball_radius / 1000.0)


# ---- frame mapping -----------------------------------------------------------------------


def to_pooltool(xy: Position) -> tuple[float, float]:
    """Table millimetres -> pooltool metres."""
    return (xy[1] / 1000.0, xy[0] / 1000.0)


def from_pooltool(pxy: Any) -> Position:
    """pooltool metres -> table millimetres."""
    return (float(pxy[1]) * 1000.0, float(pxy[0]) * 1000.0)


def to_phi(direction: float) -> float:
    """Our aim angle (radians, 0 = +x towards +y) -> pooltool's ``phi`` (degrees, in [0, 360))."""
    return (90.0 - math.degrees(direction)) % 360.0


def from_phi(phi: float) -> float:
    """pooltool's ``phi`` (degrees) -> our aim angle (radians, in (-pi, pi])."""
    a = math.radians(90.0 - phi)
    return math.atan2(math.sin(a), math.cos(a))


# ---- one stroke --------------------------------------------------------------------------


@dataclass(frozen=True)
class CueStroke:
    """How the cue strikes the white, in our frame.

    Attributes:
        direction: aim (radians, 0 = towards +x, pi/2 = towards +y).
        speed: cue speed ``V0`` (m/s); a break-off is about 6-8, a gentle roll-up under 1.
        side: tip offset across the white as a fraction of R (pooltool ``a``; > 0 = right).
        height: tip offset up the white as a fraction of R (pooltool ``b``; < 0 = screw).
        elevation: cue elevation above the cloth (degrees, pooltool ``theta``).
    """

    direction: float
    speed: float
    side: float = 0.0
    height: float = 0.0
    elevation: float = 0.0


@dataclass(frozen=True)
class ShotResult:
    """What one stroke did, with times relative to the strike (``t = 0``).

    Attributes:
        ball_names: columns of ``positions``: the balls on the table before the stroke.
        start: positions before the stroke.
        stroke: the cue parameters.
        events: strike, collision, cushion and pot events (shot-local times).
        times: ``(T,)`` sample times from 0 to ``duration``.
        positions: ``(T, B, 2)`` millimetres; NaN from a ball's pot time on.
        final: positions at rest of the balls still on the table.
        potted: ball -> event-log pocket name.
        first_contact: the first ball the white touched, if any.
        touching: ``(white, ball)`` pairs at rest with a gap under :data:`TOUCH_GAP_MM`.
    """

    ball_names: tuple[str, ...]
    start: Mapping[str, Position]
    stroke: CueStroke
    events: tuple[InputEvent, ...]
    times: FloatArray
    positions: FloatArray
    final: Mapping[str, Position]
    potted: Mapping[str, str]
    first_contact: str | None
    touching: tuple[tuple[str, str], ...] = field(default=())

    def __post_init__(self) -> None:
        t, p, b = self.times, self.positions, len(self.ball_names)
        if t.ndim != 1 or p.shape != (len(t), b, 2):
            raise ValueError(f"positions must have shape (T={len(t)}, B={b}, 2), got {p.shape}")

    @property
    def duration(self) -> float:
        """Seconds from the strike until every ball is at rest."""
        return float(self.times[-1])

    @property
    def moved(self) -> frozenset[str]:
        """Balls that left their start position by more than a millimetre (or were potted)."""
        out = set(self.potted)
        for name, xy in self.final.items():
            sx, sy = self.start[name]
            if math.hypot(xy[0] - sx, xy[1] - sy) > 1.0:
                out.add(name)
        return frozenset(out)


def _system(positions: Mapping[str, Position], stroke: CueStroke) -> Any:
    pt = pooltool()
    params = ball_params()
    balls = {}
    for name, xy in positions.items():
        ball = pt.Ball(id=name, params=params)
        ball.state.rvw[0] = [*to_pooltool(xy), params.R]
        balls[name] = ball
    system = pt.System(cue=pt.Cue(cue_ball_id="white"), table=build_table(), balls=balls)
    system.strike(
        V0=stroke.speed, phi=to_phi(stroke.direction), theta=stroke.elevation, a=stroke.side, b=stroke.height
    )
    return system


def _approach_speed(event: Any) -> float:
    """Closing speed of two balls along their line of centres just before they collide."""
    (a, b) = (agent.initial.state.rvw for agent in event.agents)
    n = b[0] - a[0]
    dist = float(np.linalg.norm(n))
    if dist == 0.0:
        return 0.0
    return float(np.dot(a[1] - b[1], n / dist))


def _events(system: Any) -> tuple[list[InputEvent], str | None]:
    """Event-log events of a simulated system and the white's first contact."""
    et = importlib.import_module("pooltool.events.datatypes").EventType
    out: list[InputEvent] = []
    first: str | None = None
    for ev in system.events:
        kind, t = ev.event_type, float(ev.time)
        if kind == et.STICK_BALL:
            out.append(Strike(t=t))
        elif kind == et.BALL_BALL:
            if _approach_speed(ev) < MIN_IMPACT_SPEED:
                continue
            a, b = ev.ids
            if b == "white":
                a, b = b, a
            if a == "white" and first is None:
                first = b
            out.append(Collision(t=t, balls=(a, b)))
        elif kind in (et.BALL_LINEAR_CUSHION, et.BALL_CIRCULAR_CUSHION):
            out.append(Cushion(t=t, ball=ev.ids[0]))
        elif kind == et.BALL_POCKET:
            out.append(Pot(t=t, ball=ev.ids[0], pocket=POCKET_NAMES[ev.ids[1]]))
    return out, first


def _sample_times(duration: float, event_times: list[float]) -> FloatArray:
    grid = np.arange(0.0, duration, MOVING_STEP)
    times = np.unique(np.concatenate([grid, np.asarray(event_times, dtype=np.float64), [duration]]))
    # merge samples closer than a microsecond: they add nothing and upset interpolation
    keep = np.concatenate([[True], np.diff(times) > 1e-6])
    out: FloatArray = times[keep]
    out[-1] = duration
    return out


def _ball_track(ball: Any, times: FloatArray) -> FloatArray:
    """``(T, 2)`` millimetres of one ball: evolved only while it moves, NaN once potted."""
    pt = pooltool()
    out = np.full((len(times), 2), np.nan)
    states = ball.history.states
    for i, state in enumerate(states):
        lo = state.t if i > 0 else -math.inf
        hi = states[i + 1].t if i + 1 < len(states) else math.inf
        sel = (times >= lo) & (times < hi)
        if not sel.any() or state.s == 4:
            continue
        if state.s in (2, 3) and i + 1 < len(states):
            evolved = pt.interpolate_ball_states(ball, times[sel], extrapolate=True)
            xy = np.array([s.rvw[0][:2] for s in evolved])
        else:
            xy = np.broadcast_to(state.rvw[0][:2], (int(sel.sum()), 2))
        out[sel] = xy[:, ::-1] * 1000.0
    return out


def check_overlaps(names: tuple[str, ...], positions: FloatArray, tol: float = OVERLAP_TOL_MM) -> None:
    """Raise :class:`OverlapError` if two balls on the cloth overlap at any sample.

    Args:
        names: ball names, one per column.
        positions: ``(T, B, 2)`` millimetres, NaN where a ball is off the cloth.
        tol: penetration tolerated for numerical contact (mm).
    """
    b = len(names)
    if b < 2:
        return
    i, j = np.triu_indices(b, 1)
    d = np.linalg.norm(positions[:, i, :] - positions[:, j, :], axis=2)
    bad = np.nan_to_num(d, nan=np.inf) < 2.0 * TABLE.ball_radius - tol
    if bad.any():
        k, pair = np.argwhere(bad)[0]
        raise OverlapError(
            f"{names[i[pair]]} and {names[j[pair]]} overlap at sample {k} ({d[k, pair]:.2f} mm apart)"
        )


def touching_pairs(
    positions: Mapping[str, Position], gap: float = TOUCH_GAP_MM
) -> tuple[tuple[str, str], ...]:
    """Balls touching the white at rest (surfaces closer than ``gap`` mm) as ``(white, ball)``.

    Only the white's pairs: the contract's ``touching`` list feeds Section 3 Rule 8 (TOUCHING
    BALL, and the push/played-away judgement of 8(b)-(c)), which is only about the cue-ball;
    the referee (:func:`adjudicator.judge.touching_white`) reads nothing else. Object balls
    resting against each other (a pack racked 0.2 mm apart) would otherwise fill every
    ``rest`` with dozens of pairs no rule uses.
    """
    if "white" not in positions:
        return ()
    wx, wy = positions["white"]
    limit = 2.0 * TABLE.ball_radius + gap
    return tuple(
        ("white", b)
        for b, (x, y) in sorted(positions.items())
        if b != "white" and math.hypot(x - wx, y - wy) < limit
    )


def simulate_shot(positions: Mapping[str, Position], stroke: CueStroke, dense: bool = True) -> ShotResult:
    """Simulate one stroke of the white from ``positions`` until every ball is at rest.

    Args:
        positions: balls on the table (mm), the white among them.
        stroke: the cue action.
        dense: sample every :data:`MOVING_STEP` and check overlaps at every sample (what a
            renderer needs). ``False`` keeps only the start and the rest (two samples), five
            to ten times faster: for searches that only judge the outcome and then re-run the
            chosen stroke densely (the physics is deterministic, so both agree).

    Raises:
        OverlapError: the physics left two balls overlapping at some sample (pooltool #154).
        ValueError: the white is not among ``positions``.
    """
    if "white" not in positions:
        raise ValueError("the white must be on the table to play a stroke")
    pt = pooltool()
    system = pt.simulate(_system(positions, stroke), engine=_engine(), t_final=MAX_SHOT_SECONDS)
    events, first = _events(system)
    duration = max(float(system.t), MOVING_STEP)
    names = tuple(positions)
    if dense:
        times = _sample_times(duration, [e.t for e in events])
        track = np.stack([_ball_track(system.balls[n], times) for n in names], axis=1)
    else:
        times = np.array([0.0, duration])
        track = np.full((2, len(names), 2), np.nan)
        for k, n in enumerate(names):
            track[0, k] = positions[n]
            state = system.balls[n].state
            if state.s != 4:
                track[1, k] = (state.rvw[0][1] * 1000.0, state.rvw[0][0] * 1000.0)
    check_overlaps(names, track)
    potted = {e.ball: e.pocket for e in events if isinstance(e, Pot)}
    final = {
        n: (float(track[-1, k, 0]), float(track[-1, k, 1])) for k, n in enumerate(names) if n not in potted
    }
    return ShotResult(
        ball_names=names,
        start=dict(positions),
        stroke=stroke,
        events=tuple(events),
        times=times,
        positions=track,
        final=final,
        potted=potted,
        first_contact=first,
        touching=touching_pairs(final),
    )


def simulate_sequence(plan: list[ShotSpec] | str, seed: int = 0) -> Timeline:
    """Simulate a sequence of strokes (a named scenario or a list of shot specs) as a Timeline.

    See :func:`vision.synthetic.scenarios.simulate_sequence` (scenario names and details);
    imported lazily because the shot planner itself simulates strokes with this module.
    """
    from vision.synthetic import scenarios

    return scenarios.simulate_sequence(plan, seed)
