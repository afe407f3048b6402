"""Ball trajectories between contacts, fitted to noisy samples, and the times they meet.

Between two contacts a ball on cloth has a constant acceleration vector: while it slides,
friction opposes a slip velocity whose direction does not change; once it rolls, rolling
resistance opposes the velocity. So ``p(t) = c0 + c1 (t - t0) + c2 (t - t0)^2`` is the
model, and contacts are where two such pieces meet. The quadratic term is fitted with a
ridge prior of the size friction allows (:data:`vision.events.config.SLIDING_FRICTION`), so
three or four noisy samples give a near-straight line instead of a wild parabola, and the
model can be extrapolated the fraction of a frame to a contact. Contact times are then the
first time two fitted models are two radii apart, or a model reaches a cushion nose line:
below the frame interval, which is how the first ball hit is told when two contacts fall in
one frame.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Motion:
    """One piece of a trajectory: ``p(t) = c0 + c1 (t - t0) + c2 (t - t0)^2``.

    Attributes:
        t0: time origin of the polynomial (s).
        coef: ``(3, 2)``: rows c0 (mm), c1 (mm/s), c2 (mm/s^2, half the acceleration).
        t_first: first sample time the fit used (s).
        t_last: last sample time the fit used (s).
        n: number of samples (0 for a ball known to be still).
    """

    t0: float
    coef: FloatArray
    t_first: float
    t_last: float
    n: int

    def __post_init__(self) -> None:
        if np.shape(self.coef) != (3, 2):
            raise ValueError(f"coef must have shape (3, 2), got {np.shape(self.coef)}")

    @classmethod
    def still(cls, position: FloatArray | tuple[float, float]) -> Motion:
        """A ball standing at ``position`` for all time."""
        coef = np.zeros((3, 2))
        coef[0] = np.asarray(position, dtype=np.float64)
        return cls(t0=0.0, coef=coef, t_first=-np.inf, t_last=np.inf, n=0)

    @property
    def is_still(self) -> bool:
        """Whether this is a ball known to stand still."""
        return self.n == 0

    def at(self, t: FloatArray | float) -> FloatArray:
        """Positions at times ``t``: shape ``(..., 2)``."""
        s = np.asarray(t, dtype=np.float64)[..., None] - self.t0
        out: FloatArray = self.coef[0] + self.coef[1] * s + self.coef[2] * s * s
        return out

    def velocity(self, t: FloatArray | float) -> FloatArray:
        """Velocities at times ``t`` (mm/s): shape ``(..., 2)``."""
        s = np.asarray(t, dtype=np.float64)[..., None] - self.t0
        out: FloatArray = self.coef[1] + 2.0 * self.coef[2] * s
        return out


def fit_motion(
    times: FloatArray, points: FloatArray, noise_mm: float, accel_prior: float, t0: float | None = None
) -> Motion | None:
    """Least-squares constant-acceleration fit with a ridge prior on the acceleration.

    Args:
        times: ``(n,)`` sample times (s).
        points: ``(n, 2)`` positions (mm).
        noise_mm: position noise of one sample; weighs the data against the prior.
        accel_prior: typical magnitude of the acceleration (mm/s^2).
        t0: time origin; the sample nearest the extrapolation keeps the fit best
            conditioned there. Defaults to the last sample.

    Returns:
        The fit, or ``None`` with fewer than two samples (a velocity needs two).
    """
    t = np.asarray(times, dtype=np.float64)
    p = np.asarray(points, dtype=np.float64)
    n = len(t)
    if n < 2:
        return None
    origin = float(t[-1]) if t0 is None else float(t0)
    s = t - origin
    a = np.stack([np.ones(n), s, s * s], axis=1)
    sigma = max(noise_mm, 1e-3)
    # Straight line first; the bend is kept only when it explains the samples better by more
    # than noise would (chi-square, 2 degrees of freedom, 1 % level): a free parabola through
    # a few noisy samples has a far noisier end velocity than a line.
    lin = np.linalg.lstsq(a[:, :2], p, rcond=None)[0]
    coef = np.vstack([lin, np.zeros((1, 2))])
    if n >= 4:
        # Ridge on c2 (= accel / 2): the prior's weight is noise^2 / (accel_prior / 2)^2.
        lam = (sigma / (accel_prior / 2.0)) ** 2 if accel_prior > 0 else 1e12
        quad = np.linalg.solve(a.T @ a + np.diag([1e-12, 1e-12, lam]), a.T @ p)
        rss_lin = float(np.sum((a[:, :2] @ lin - p) ** 2))
        rss_quad = float(np.sum((a @ quad - p) ** 2))
        if rss_lin - rss_quad > 9.2 * sigma * sigma:
            coef = quad
    return Motion(t0=origin, coef=coef, t_first=float(t[0]), t_last=float(t[-1]), n=n)


def first_crossing(
    g: Callable[[FloatArray], FloatArray], ta: float, tb: float, steps: int = 64
) -> float | None:
    """The first time in ``[ta, tb]`` at which ``g`` goes from positive to ``<= 0``.

    A grid finds the first sign change, bisection refines it to well under a microsecond.
    Returns ``ta`` when ``g`` is already non-positive there, ``None`` when it never is.
    """
    if not tb > ta:
        return None
    grid = np.linspace(ta, tb, steps + 1)
    vals = g(grid)
    bad = np.flatnonzero(vals <= 0.0)
    if len(bad) == 0:
        return None
    k = int(bad[0])
    if k == 0:
        return float(ta)
    lo, hi = float(grid[k - 1]), float(grid[k])
    for _ in range(40):
        mid = 0.5 * (lo + hi)
        if float(g(np.array([mid]))[0]) <= 0.0:
            hi = mid
        else:
            lo = mid
    return 0.5 * (lo + hi)


def contact_time_balls(a: Motion, b: Motion, radius: float, ta: float, tb: float) -> float | None:
    """First time in ``[ta, tb]`` the two fitted centres are two radii apart (or closer)."""

    def gap(t: FloatArray) -> FloatArray:
        d = a.at(t) - b.at(t)
        out: FloatArray = np.hypot(d[..., 0], d[..., 1]) - 2.0 * radius
        return out

    return first_crossing(gap, ta, tb)


def contact_time_line(
    m: Motion, point: tuple[float, float], normal: tuple[float, float], offset: float, ta: float, tb: float
) -> float | None:
    """First time in ``[ta, tb]`` the fitted centre comes within ``offset`` of a line.

    The line passes through ``point`` with unit ``normal`` towards the side the ball is on;
    for a cushion nose the offset is the ball radius.
    """
    px, py = point
    nx, ny = normal

    def dist(t: FloatArray) -> FloatArray:
        q = m.at(t)
        out: FloatArray = (q[..., 0] - px) * nx + (q[..., 1] - py) * ny - offset
        return out

    return first_crossing(dist, ta, tb)


def departure_time(m: Motion, origin: FloatArray, ta: float, tb: float) -> float:
    """When a fitted path passes closest to ``origin`` within ``[ta, tb]``: the moment a ball
    at rest there was set moving (struck by the cue or hit by another ball)."""
    grid = np.linspace(ta, tb, 257)
    d = m.at(grid) - origin
    k = int(np.argmin(np.hypot(d[:, 0], d[:, 1])))
    return float(grid[k])
