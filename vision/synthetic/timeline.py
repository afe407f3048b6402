"""What happened on the table, densely in time: the hand-over from simulation to rendering.

The physics (:mod:`vision.synthetic.physics`) produces a :class:`Timeline`; the renderer
samples it at frame times (and at sub-frame times for motion blur) and writes the truth
files from it. Positions are table millimetres of the event-log frame; ``NaN`` means the ball
is not on the cloth (potted, in hand, lifted by a hand, off the table).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np
import numpy.typing as npt

from adjudicator.eventlog import InputEvent

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Action:
    """A person at the table, for the renderer's occluders.

    Attributes:
        kind: ``"stroke"`` (a player down on the shot, cue along ``direction``) or ``"place"``
            (a hand putting ``ball`` at ``position``: a re-spot or the white from in hand).
        t_start: when the person starts to occlude (s).
        t_end: when they are clear of the table (s); for a stroke the tip meets the white
            at the ``strike`` time, which lies inside this interval.
        ball: the white for a stroke, the placed ball for a placement.
        position: the white's position at the strike, or where the ball is placed (mm).
        direction: aim of the cue in table coordinates (radians, 0 = towards +x).
    """

    kind: Literal["stroke", "place"]
    t_start: float
    t_end: float
    ball: str
    position: tuple[float, float]
    direction: float = 0.0

    def __post_init__(self) -> None:
        if self.t_end < self.t_start:
            raise ValueError(f"action ends before it starts: {self.t_start} > {self.t_end}")


@dataclass(frozen=True)
class Timeline:
    """Ball positions sampled densely in time, the true event log and the people at the table.

    Attributes:
        ball_names: event-log names, one per column of ``positions``.
        times: ``(T,)`` strictly increasing sample times (s). Dense enough (about 1 ms while
            balls move) that linear interpolation is exact to well under a millimetre.
        positions: ``(T, B, 2)`` table millimetres; ``NaN`` where a ball is not on the cloth.
        events: the true input event log, in time order (starts with ``frame_start``).
        actions: people at the table, in time order.
    """

    ball_names: tuple[str, ...]
    times: FloatArray
    positions: FloatArray
    events: tuple[InputEvent, ...]
    actions: tuple[Action, ...] = ()

    def __post_init__(self) -> None:
        t = np.asarray(self.times, dtype=np.float64)
        p = np.asarray(self.positions, dtype=np.float64)
        b = len(self.ball_names)
        if t.ndim != 1 or len(t) < 1:
            raise ValueError(f"times must have shape (T,), got {t.shape}")
        if p.shape != (len(t), b, 2):
            raise ValueError(f"positions must have shape (T={len(t)}, B={b}, 2), got {p.shape}")
        if len(t) > 1 and not np.all(np.diff(t) > 0):
            raise ValueError("times must be strictly increasing")
        object.__setattr__(self, "times", t)
        object.__setattr__(self, "positions", p)

    @property
    def duration(self) -> float:
        """Time of the last sample (s)."""
        return float(self.times[-1])

    def index(self, ball: str) -> int:
        """Column of a ball in ``positions``."""
        return self.ball_names.index(ball)

    def positions_at(self, t: float) -> FloatArray:
        """``(B, 2)`` positions at time ``t`` by linear interpolation between samples.

        A ball absent (NaN) at either neighbouring sample is absent, so a potted ball
        disappears at its pot sample and never smears towards the pocket.
        """
        times = self.times
        if t <= times[0]:
            return self.positions[0].copy()
        if t >= times[-1]:
            return self.positions[-1].copy()
        i = int(np.searchsorted(times, t, side="right")) - 1
        a, b = self.positions[i], self.positions[i + 1]
        w = (t - times[i]) / (times[i + 1] - times[i])
        out: FloatArray = a + (b - a) * w
        return out
