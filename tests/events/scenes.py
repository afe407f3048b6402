"""Hand-made table scenes with exactly known events, for the event-inference tests.

Two builders, both returning a :class:`~vision.synthetic.timeline.Timeline` whose event log
is the truth: :func:`simulate` (balls rolling with constant deceleration, equal-mass elastic
collisions, cushion reflections, pots by the fall circle; contact instants solved inside
each 0.1 ms step) and :func:`keyframes` (piecewise-straight paths for acts no physics makes:
a hand placing a ball, a feathering cue, a rattle in the jaws).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np

from adjudicator.eventlog import Collision, Cushion, FrameStart, InputEvent, Pot, Rest, Strike
from calibration.table import TABLE
from vision.synthetic.timeline import Timeline

R = TABLE.ball_radius
Position = tuple[float, float]


def _first_root(p: np.ndarray, v: np.ndarray, dist: float, h: float) -> float | None:
    """First s in [0, h] with |p + v s| = dist, for relative position p and velocity v."""
    a = float(v @ v)
    b = 2.0 * float(p @ v)
    c = float(p @ p) - dist * dist
    if a == 0.0:
        return None
    disc = b * b - 4 * a * c
    if disc < 0:
        return None
    s = (-b - math.sqrt(disc)) / (2 * a)
    return s if 0.0 <= s <= h else None


def simulate(
    start: Mapping[str, Position],
    white_velocity: Position,
    t_strike: float = 0.5,
    decel: float = 500.0,
    tail: float = 1.0,
    step: float = 5e-4,
    max_t: float = 20.0,
) -> Timeline:
    """Roll the white from ``start`` with ``white_velocity`` (mm/s) struck at ``t_strike``."""
    names = tuple(start)
    pos = np.array([start[n] for n in names], dtype=float)
    vel = np.zeros_like(pos)
    vel[names.index("white")] = white_velocity
    on = np.ones(len(names), dtype=bool)
    events: list[InputEvent] = [
        FrameStart(t=0.0, players=("a", "b"), striker=0, positions=dict(start)),
        Strike(t=t_strike),
    ]
    times = [0.0, t_strike]
    track = [pos.copy(), pos.copy()]
    t = t_strike
    sample_every = 2
    n = 0
    while t < max_t and np.any(np.hypot(*vel[on].T) > 0):
        # Earliest contact within this step, from the positions at its start.
        best: tuple[float, tuple] | None = None
        for i in range(len(names)):
            if not on[i]:
                continue
            for j in range(i + 1, len(names)):
                if not on[j] or not (vel[i].any() or vel[j].any()):
                    continue
                s = _first_root(pos[i] - pos[j], vel[i] - vel[j], 2 * R, step)
                approaching = float((pos[i] - pos[j]) @ (vel[i] - vel[j])) < 0
                if s is not None and approaching and (best is None or s < best[0] - 1e-12):
                    best = (s, ("ball", i, j))
            for c in TABLE.cushions:
                nrm = np.asarray(c.normal)
                vn = float(vel[i] @ nrm)
                if vn >= 0:
                    continue
                gap = float((pos[i] - np.asarray(c.start)) @ nrm) - R
                s = gap / -vn
                if s > step:
                    continue
                seg = np.asarray(c.end) - np.asarray(c.start)
                along = float((pos[i] + vel[i] * s - np.asarray(c.start)) @ seg) / float(seg @ seg)
                if s >= 0.0 and 0.0 <= along <= 1.0 and (best is None or s < best[0]):
                    best = (s, ("cushion", i, c))
        h = step if best is None else best[0]
        pos[on] += vel[on] * h
        t += h
        if best is not None:
            kind, i, other = best[1]
            if kind == "ball":
                j = other
                nvec = (pos[j] - pos[i]) / np.hypot(*(pos[j] - pos[i]))
                dv = float((vel[i] - vel[j]) @ nvec)
                vel[i] -= dv * nvec
                vel[j] += dv * nvec
                a, b = names[i], names[j]
                events.append(Collision(t=t, balls=(b, a) if b == "white" else (a, b)))
            else:
                nrm = np.asarray(other.normal)
                vel[i] -= 1.9 * float(vel[i] @ nrm) * nrm
                events.append(Cushion(t=t, ball=names[i]))
        # friction
        for i in np.flatnonzero(on):
            sp = float(np.hypot(*vel[i]))
            if sp > 0:
                vel[i] *= max(0.0, sp - decel * h) / sp
        for i in np.flatnonzero(on):
            for p in TABLE.pockets.values():
                if math.dist(pos[i], p.centre) <= p.radius:
                    on[i] = False
                    vel[i] = 0
                    pos[i] = np.nan
                    events.append(Pot(t=t, ball=names[i], pocket=p.name))
                    break
        n += 1
        if (best is not None or n % sample_every == 0) and t > times[-1]:
            times.append(t)
            track.append(pos.copy())
    times.append(t + tail)
    track.append(pos.copy())
    final = {names[i]: (float(pos[i, 0]), float(pos[i, 1])) for i in range(len(names)) if on[i]}
    events.append(Rest(t=t, positions=final))
    return Timeline(names, np.array(times), np.array(track), tuple(events))


def keyframes(
    paths: Mapping[str, Sequence[tuple[float, Position | None]]],
    events: Sequence[InputEvent],
    end: float,
    step: float = 1e-3,
) -> Timeline:
    """Balls moving straight between keyframes ``(t, (x, y))``; ``None`` = off the cloth from
    that time until the next keyframe (a hand lifted it, a pot)."""
    names = tuple(paths)
    times = np.arange(0.0, end, step)
    out = np.full((len(times), len(names), 2), np.nan)
    for j, name in enumerate(names):
        keys = list(paths[name])
        for (t0, p0), (t1, p1) in zip(keys, [*keys[1:], (end + 1.0, keys[-1][1])], strict=True):
            sel = (times >= t0) & (times < t1)
            if p0 is None:
                continue
            if p1 is None or t1 > end:
                out[sel, j] = p0
                continue
            w = ((times[sel] - t0) / (t1 - t0))[:, None]
            out[sel, j] = np.asarray(p0) + (np.asarray(p1) - np.asarray(p0)) * w
    return Timeline(names, np.asarray(times, dtype=np.float64), out, tuple(events))
