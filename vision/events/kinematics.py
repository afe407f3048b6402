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

import math
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


def kink_time(
    times: FloatArray,
    points: FloatArray,
    origin: FloatArray,
    noise_mm: float,
    accel_prior: float,
    ta: float,
    tb: float,
    step: float,
) -> float:
    """When a ball at rest on ``origin`` was set moving, from the kink in its samples: the
    time ``t_d`` in ``[ta, tb]`` whose two-piece path fits them best, still on ``origin``
    before ``t_d`` and ``origin + v (t - t_d) + c (t - t_d)^2`` after it (the quadratic
    term with the ridge prior of :func:`fit_motion`).

    Why a change point and not a path fitted to the moving samples alone, extrapolated back
    to ``origin``: which samples are moving is the question. A noisy sample of the ball
    still on its spot taken for its first move fits the path through samples of both
    pieces, and a path fitted only to samples well away from the spot, extrapolated back
    over the frames of a slow ball's first millimetres, is as far off (it decelerates): both
    put a hit frames early. Here every sample belongs to one piece or the other, the path
    through ``origin`` at the kink ties the pieces together, and a lone wild sample of the
    still ball only adds its own residual whichever ``t_d`` is tried.

    Args:
        times: ``(n,)`` sample times (s), those either side of the departure.
        points: ``(n, 2)`` positions (mm).
        origin: ``(2,)`` the rest position (mm).
        noise_mm: position noise of one sample, against the acceleration prior.
        accel_prior: typical magnitude of the acceleration (mm/s^2).
        ta: earliest departure time to try (s).
        tb: latest (s).
        step: grid spacing of the search (s), coarser over a long window; the best grid
            time is returned.
    """
    t = np.asarray(times, dtype=np.float64)
    d = np.asarray(points, dtype=np.float64) - np.asarray(origin, dtype=np.float64)
    if not tb > ta:
        return float(ta)
    # At most 2049 times: a ball creeping off its spot may leave a window of seconds.
    grid = np.linspace(ta, tb, min(2049, max(2, math.ceil((tb - ta) / max(step, 1e-9)) + 1)))
    s = t[None, :] - grid[:, None]  # (G, n)
    moving = s > 0.0
    s = np.where(moving, s, 0.0)
    sigma = max(noise_mm, 1e-3)
    lam = (sigma / (accel_prior / 2.0)) ** 2 if accel_prior > 0 else 1e12
    # Per grid time, the 2x2 normal equations of (v, c) for the samples after it.
    s2, s3, s4 = (s**2).sum(1), (s**3).sum(1), (s**4).sum(1) + lam
    b1 = np.einsum("gn,nk->gk", s, d)
    b2 = np.einsum("gn,nk->gk", s * s, d)
    det = s2 * s4 - s3 * s3
    ok = det > 1e-18
    det = np.where(ok, det, 1.0)
    v = (s4[:, None] * b1 - s3[:, None] * b2) / det[:, None]
    c = (s2[:, None] * b2 - s3[:, None] * b1) / det[:, None]
    # A ball set moving by a blow slows down from it (friction turns its slide into a roll):
    # a bend that would speed it up anywhere over the samples fits noise, and a slow ball's
    # noisy first millimetres then read as a crawl (or a step back) that began frames
    # early. There, the straight line. (Speed grows where c . (v + 2 c s) > 0, most at the
    # last sample.)
    end = v + 2.0 * s.max(axis=1)[:, None] * c
    line = ~ok | (np.einsum("gk,gk->g", end, c) > 0.0)
    v = np.where(line[:, None], b1 / np.maximum(s2, 1e-18)[:, None], v)
    c = np.where(line[:, None], 0.0, c)
    resid = d[None] - s[..., None] * v[:, None, :] - (s * s)[..., None] * c[:, None, :]
    rss = (resid**2).sum(axis=(1, 2))
    return float(grid[int(np.argmin(rss))])
