"""The samples of one stroke and the trajectory fits over them, shared by every step of its
analysis (:mod:`vision.events.stroke`).

Why a module of its own: candidates, contacts and exits all ask the same questions of a
stroke (a ball's seen samples in a span of frames, its path since its last contact, whether
it was still), and each answer must be the same for all of them.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from adjudicator.eventlog import Cushion
from calibration.table import CushionSegment
from vision.events.config import EventConfig
from vision.events.kinematics import Motion, fit_motion

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]


@dataclass(frozen=True)
class StrokeFrames:
    """The frames of one stroke, row-aligned.

    Attributes:
        ball_names: event-log names, one per column.
        times: ``(F,)`` frame times (s).
        position: ``(F, B, 2)`` positions (mm); NaN where unknown.
        seen: ``(F, B)`` whether the position was measured (not predicted, not absent).
        absent: ``(F, B)`` whether the tracker says the ball is not on the cloth.
        start: ``(B, 2)`` rest positions before the stroke; NaN for balls not on the table.
        hidden: ``(F, P)`` share of each pocket's approach hidden from the camera, pockets in
            the order of ``cfg.table.pockets`` (:class:`vision.events.pocket_view.PocketView`);
            NaN where not measured. ``None``: nothing is known of what the camera saw.
    """

    ball_names: tuple[str, ...]
    times: FloatArray
    position: FloatArray
    seen: BoolArray
    absent: BoolArray
    start: FloatArray
    hidden: FloatArray | None = None

    def __post_init__(self) -> None:
        f, b = len(self.times), len(self.ball_names)
        if self.hidden is not None and (np.ndim(self.hidden) != 2 or len(self.hidden) != f):
            raise ValueError(f"hidden must have shape ({f}, P), got {np.shape(self.hidden)}")
        for name, arr, shape in (
            ("times", self.times, (f,)),
            ("position", self.position, (f, b, 2)),
            ("seen", self.seen, (f, b)),
            ("absent", self.absent, (f, b)),
            ("start", self.start, (b, 2)),
        ):
            if np.shape(arr) != shape:
                raise ValueError(f"{name} must have shape {shape}, got {np.shape(arr)}")


@dataclass(frozen=True)
class Candidate:
    k: int
    balls: tuple[int, ...]
    cushion: CushionSegment | None = None
    #: The neighbouring frames in which the candidate's balls were all measured: the
    #: contact may lie anywhere between them (a dropped frame widens the bracket).
    k_lo: int = -1
    k_hi: int = -1


def white_first(a: str, b: str) -> tuple[str, str]:
    """A pair of ball names as the event log writes a contact or a touching pair: the white
    first when it is one of them (the rules ask about the white's contacts)."""
    return (b, a) if b == "white" else (a, b)


def line_sigma(m: Motion, t: float, noise_mm: float) -> float:
    """Standard deviation (mm) of a straight-line fit's position at ``t`` (sideways or along):
    ``noise * sqrt(1/n + (t - mean)^2 / S_tt)`` for ``n`` evenly spaced samples; it grows
    as the fit is extrapolated beyond its samples."""
    if m.n < 2:
        return 0.0
    mean = 0.5 * (m.t_first + m.t_last)
    step = (m.t_last - m.t_first) / (m.n - 1)
    s_tt = m.n * (m.n * m.n - 1) / 12.0 * step * step
    return noise_mm * math.sqrt(1.0 / m.n + (t - mean) ** 2 / max(s_tt, 1e-12))


@dataclass
class Analysis:
    sf: StrokeFrames
    cfg: EventConfig
    breaks: list[list[float]] = field(default_factory=list)
    cand_frames: list[list[tuple[int, int]]] = field(default_factory=list)
    #: The white's speed (mm/s) at each of its collisions and how far along its path the
    #: contact may be misplaced by a sideways error of the fitted path (mm: the tangent of
    #: the angle between the path and the line of centres times the path's sideways sigma),
    #: by time: how far the white travelled between two contacts, against that, decides
    #: whether they were simultaneous.
    white_contact: dict[float, tuple[float, float]] = field(default_factory=dict)
    #: Per ball, a frame whose sample was found to come before one of its contacts: its
    #: other contacts bracketed by that frame are timed on the same line (two contacts of
    #: the white in one frame, simultaneous or not, must be timed alike to be compared).
    before_contact: dict[int, int] = field(default_factory=dict)
    #: The cushion contacts found so far (they take speed away; ball contacts may add it).
    cushion_events: list[Cushion] = field(default_factory=list)
    #: When the white was struck (None: no strike found); it heads the white's ``breaks``.
    t_strike: float | None = None

    # ---- samples and fits ----------------------------------------------------------------
    def samples(self, b: int, k_lo: int, k_hi: int) -> tuple[FloatArray, FloatArray]:
        """Seen samples of ball ``b`` in frames ``k_lo..k_hi`` inclusive."""
        k_lo, k_hi = max(k_lo, 0), min(k_hi, len(self.sf.times) - 1)
        if k_hi < k_lo:
            return np.empty(0), np.empty((0, 2))
        idx = np.arange(k_lo, k_hi + 1)
        idx = idx[self.sf.seen[idx, b]]
        return self.sf.times[idx], self.sf.position[idx, b]

    def was_still(self, b: int, k_end: int) -> bool:
        """Whether ball ``b`` had not moved from its start by frame ``k_end`` (and no contact)."""
        if self.breaks[b] or np.isnan(self.sf.start[b, 0]):
            return False
        _, p = self.samples(b, 0, k_end)
        if len(p) == 0:
            return True
        return bool(np.all(np.hypot(*(p - self.sf.start[b]).T) <= self.cfg.move_mm))

    def fit(self, t: FloatArray, p: FloatArray, t0: float | None = None) -> Motion | None:
        return fit_motion(t, p, self.cfg.noise_mm, self.cfg.accel_prior, t0)

    def pre_model(self, b: int, k_end: int) -> Motion | None:
        """Ball ``b``'s path up to frame ``k_end``: see :meth:`pre_model_fresh`."""
        return self.pre_model_fresh(b, k_end)[0]

    def pre_model_fresh(self, b: int, k_end: int) -> tuple[Motion | None, bool]:
        """Ball ``b``'s path up to frame ``k_end`` since its last contact, and ``True``; when
        that contact left fewer than two samples, ``False`` with the line it is on as far as
        can be told: from the contact's point (on the line before it) to the one sample
        since, or with none the line before it (which still says which ball it would reach
        first). Segment by segment, so two contacts within a frame or two each get the line
        that led into it."""
        if self.was_still(b, k_end):
            return Motion.still(self.sf.start[b]), True
        w = self.cfg.fit_frames
        t, p = self.samples(b, 0, k_end)
        bounds = [-math.inf, *self.breaks[b]]
        highs = [*bounds[1:], math.inf]
        # Only the segments from the last one with two samples on matter (that one's fit
        # replaces whatever came before): fitting every earlier one cost a fit per contact
        # per call, quadratic in the contacts of a break-off's pack.
        first = 0
        for s in range(len(bounds) - 1, -1, -1):
            if int(np.count_nonzero((t > bounds[s]) & (t <= highs[s]))) >= 2:
                first = s
                break
        model: Motion | None = None
        fresh = False
        for s in range(first, len(bounds)):
            lo, hi = bounds[s], highs[s]
            sel = (t > lo) & (t <= hi)
            n = int(sel.sum())
            if n >= 2:
                model, fresh = self.fit(t[sel][-w:], p[sel][-w:]), True
            elif n == 1 and model is not None and float(t[sel][0]) - lo > 0.25 * self.cfg.dt:
                ts = np.array([lo, float(t[sel][0])])
                model, fresh = self.fit(ts, np.vstack([model.at(lo), p[sel][0]])), False
            else:
                fresh = False
        return model, fresh

    def passes_near(self, b: int, c: Candidate, point: FloatArray) -> bool:
        """Whether the straight lines between ball ``b``'s successive samples around a
        candidate pass within touching reach (two radii and the noise) of ``point``."""
        lo = c.k_lo if 0 <= c.k_lo < c.k else max(c.k - 1, 0)
        hi = c.k_hi if c.k_hi > c.k else c.k + 1
        _, p = self.samples(b, lo, hi)
        if len(p) < 2:
            return True  # nothing to tell by
        gap = math.inf
        for a, e in itertools.pairwise(p):
            d = e - a
            u = float(np.clip(((point - a) @ d) / max(float(d @ d), 1e-9), 0.0, 1.0))
            gap = min(gap, float(np.hypot(*(a + u * d - point))) - 2.0 * self.cfg.radius)
        return gap <= self.cfg.move_mm + 3.0 * math.sqrt(2.0) * self.cfg.noise_mm

    def post_model(self, b: int, t_after: float, k_stop: int) -> Motion | None:
        """Ball ``b``'s path after ``t_after``, up to (not including) frame ``k_stop``."""
        t, p = self.samples(b, 0, k_stop - 1)
        sel = t > t_after
        if int(sel.sum()) < 2:
            return None
        w = self.cfg.fit_frames
        ts, ps = t[sel][:w], p[sel][:w]
        return self.fit(ts, ps, t0=float(ts[0]))

    def next_candidate(self, b: int, k: int, partner: int | None = None) -> int:
        """The next frame after ``k`` where ball ``b`` may touch something other than
        ``partner`` (repeated minima of the same pair are noise on one contact)."""
        later = [c for c, other in self.cand_frames[b] if c > k and (partner is None or other != partner)]
        return min(later) if later else len(self.sf.times)

    def packed(self, b: int) -> bool:
        """Whether ball ``b`` rested against another ball (within the still tolerance)."""
        start = self.sf.start
        if np.isnan(start[b, 0]):
            return False
        gap = np.hypot(*(start - start[b]).T) - 2.0 * self.cfg.radius
        gap[b] = np.inf
        return bool(np.any(gap[~np.isnan(gap)] < self.cfg.move_mm))

    def bracket(self, c: Candidate) -> tuple[float, float]:
        """Times of the frames either side of a candidate in which its balls were measured."""
        t = self.sf.times
        dt = self.cfg.dt
        lo = c.k_lo if 0 <= c.k_lo < c.k else c.k - 1
        hi = c.k_hi if c.k < c.k_hi < len(t) else c.k + 1
        ta = float(t[lo]) if lo >= 0 else float(t[c.k]) - dt
        tb = float(t[hi]) if hi < len(t) else float(t[c.k]) + dt
        return ta, tb
