"""One stroke, from the frames between two rests, as timed contacts.

The online inferer (:mod:`vision.events.infer`) buffers the frames of a stroke and hands them
here once every ball has settled, so each contact can be fitted with samples on both sides.
The steps:

1. **Candidates.** Every pair of balls whose sampled gap has a local minimum within the two
   balls' own travel between samples (plus noise) of touching, and every ball whose gap to a
   cushion nose does the same: a contact may lie between the neighbouring measured frames.
2. **Timing.** In the order the contacts happened (estimated first from the paths before and
   the rest positions), each candidate's balls get a constant-acceleration fit to the
   samples since their last contact (a ball not yet hit is its rest position); the contact
   time is where the fits are two radii apart (or one radius from the nose line), so it is
   resolved below the frame interval. When a ball's last contact left one sample before
   this one, its line runs from that contact's point to the sample; with none, its
   previous path is used: the white's original line decides which of two balls it would
   have reached first.
3. **Verification.** A contact changes velocity along the line of centres (the cushion
   normal): the fits after the contact must differ from those before by more than the
   velocity noise, and a ball that was still must have been set moving (unless it rested
   in a pack, which passes the blow on). Near misses fail. A ball at rest set clearly
   moving with no contact found was hit by a moving ball the tracker lost, or whose track
   followed something else, then: the one next measured within reach.
4. **Pots.** A ball unseen at the end whose last fitted path crosses a pocket's mouth line
   heading in was potted in that pocket, unless its track gained speed on the way (a hand,
   not a ball); one that vanished elsewhere (behind a player) is still on the table; one
   that stayed off the cloth past a mouth for a rest window was potted even if a track of
   its name shows up later (a ghost); one that the tracker says left the cloth near a
   cushion, moving out, went off the table.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from adjudicator.eventlog import Collision, Cushion, InputEvent, OffTable, Pot, Strike
from calibration.table import CushionSegment
from vision.events.config import EventConfig
from vision.events.geometry import cushion_gap, nearest_cushion, pocket_entry
from vision.events.kinematics import (
    Motion,
    contact_time_balls,
    contact_time_line,
    departure_time,
    fit_motion,
)

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
    """

    ball_names: tuple[str, ...]
    times: FloatArray
    position: FloatArray
    seen: BoolArray
    absent: BoolArray
    start: FloatArray

    def __post_init__(self) -> None:
        f, b = len(self.times), len(self.ball_names)
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
class StrokeOutcome:
    """What happened in a stroke.

    Attributes:
        events: strike, collisions, cushions, pots, off-tables, in time order.
        gone: balls potted or forced off the table in this stroke.
    """

    events: tuple[InputEvent, ...]
    gone: frozenset[str]


@dataclass(frozen=True)
class _Candidate:
    k: int
    balls: tuple[int, ...]
    cushion: CushionSegment | None = None
    #: The neighbouring frames in which the candidate's balls were all measured: the
    #: contact may lie anywhere between them (a dropped frame widens the bracket).
    k_lo: int = -1
    k_hi: int = -1


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
class _Analysis:
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
        model: Motion | None = None
        fresh = False
        for s, lo in enumerate(bounds):
            hi = bounds[s + 1] if s + 1 < len(bounds) else math.inf
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

    def passes_near(self, b: int, c: _Candidate, point: FloatArray) -> bool:
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

    def bracket(self, c: _Candidate) -> tuple[float, float]:
        """Times of the frames either side of a candidate in which its balls were measured."""
        t = self.sf.times
        dt = self.cfg.dt
        lo = c.k_lo if 0 <= c.k_lo < c.k else c.k - 1
        hi = c.k_hi if c.k < c.k_hi < len(t) else c.k + 1
        ta = float(t[lo]) if lo >= 0 else float(t[c.k]) - dt
        tb = float(t[hi]) if hi < len(t) else float(t[c.k]) + dt
        return ta, tb


def _local_minima(values: FloatArray) -> list[int]:
    n = len(values)
    out = []
    for i in range(n):
        left = values[i - 1] if i > 0 else math.inf
        right = values[i + 1] if i + 1 < n else math.inf
        if values[i] <= left and values[i] <= right:
            out.append(i)
    return out


def _active(sf: StrokeFrames, cfg: EventConfig) -> BoolArray:
    """Per frame and ball: seen, and moved by more than noise from a neighbouring seen frame
    or from its start position."""
    f, b = sf.seen.shape
    act = np.zeros((f, b), dtype=bool)
    for j in range(b):
        idx = np.flatnonzero(sf.seen[:, j])
        if len(idx) == 0:
            continue
        p = sf.position[idx, j]
        step = np.hypot(*np.diff(p, axis=0).T) if len(idx) > 1 else np.zeros(0)
        moving = np.zeros(len(idx), dtype=bool)
        moving[1:] |= step > cfg.move_mm
        moving[:-1] |= step > cfg.move_mm
        if not np.isnan(sf.start[j, 0]):
            moving |= np.hypot(*(p - sf.start[j]).T) > cfg.move_mm
        act[idx, j] = moving
    return act


def _travel(points: FloatArray) -> FloatArray:
    """Per sample, the larger of a ball's displacements to its neighbouring samples: how far
    it may have been from where it was sampled at any moment in between."""
    n = len(points)
    out = np.zeros(n)
    if n > 1:
        step = np.hypot(*np.diff(points, axis=0).T)
        out[1:] = step
        out[:-1] = np.maximum(out[:-1], step)
    return out


def _neighbours(idx: npt.NDArray[np.intp], m: int) -> tuple[int, int]:
    """Frame indices of the samples before and after sample ``m`` (-1 where none)."""
    return (int(idx[m - 1]) if m > 0 else -1, int(idx[m + 1]) if m + 1 < len(idx) else -1)


def _candidates(sf: StrokeFrames, cfg: EventConfig) -> list[_Candidate]:
    r = cfg.radius
    margin = 4.0 * math.sqrt(2.0) * cfg.noise_mm + 1.0
    act = _active(sf, cfg)
    b = len(sf.ball_names)
    moved: BoolArray = np.asarray(act.any(axis=0))
    out: list[_Candidate] = []
    for i in range(b):
        for j in range(i + 1, b):
            if not (moved[i] or moved[j]):
                continue
            idx = np.flatnonzero(sf.seen[:, i] & sf.seen[:, j])
            if len(idx) == 0:
                continue
            rel = sf.position[idx, i] - sf.position[idx, j]
            gap = np.hypot(*rel.T) - 2.0 * r
            # Each ball's own travel between samples bounds how far the gap can close there:
            # the relative displacement does not (a contact between two samples turns both
            # paths, so the balls may end as far apart as they started after touching).
            travel = _travel(sf.position[idx, i]) + _travel(sf.position[idx, j])
            last: tuple[int, float, int] | None = None  # (index in out, gap, m) of the pair's last
            for m in _local_minima(gap):
                reach = float(travel[m]) + margin
                k = int(idx[m])
                lo, hi = max(k - 1, 0), min(k + 2, len(sf.times))
                if gap[m] < reach and (act[lo:hi, i].any() or act[lo:hi, j].any()):
                    # Balls creeping within noise of each other make a minimum every few
                    # frames: one contact at most, tested once, at the closest of them. (Not
                    # when the gap opened wider than noise between them: a double kiss.)
                    if (
                        last is not None
                        and k - out[last[0]].k <= cfg.fit_frames
                        and float(np.max(gap[last[2] : m + 1])) - max(last[1], float(gap[m])) < margin
                    ):
                        if gap[m] < last[1]:
                            out[last[0]] = _Candidate(k, (i, j), None, *_neighbours(idx, m))
                            last = (last[0], float(gap[m]), m)
                        continue
                    out.append(_Candidate(k, (i, j), None, *_neighbours(idx, m)))
                    last = (len(out) - 1, float(gap[m]), m)
            # A frame in which either ball went unmeasured may hide a contact that no sampled
            # minimum shows (the struck ball gone far, or back off a cushion, by the next
            # sample): both samples around it within the balls' travel across it of touching.
            taken = {c.k for c in out if c.balls == (i, j)}
            for m in np.flatnonzero(np.diff(idx) > 1):
                k_lo, k_hi = int(idx[m]), int(idx[m + 1])
                moving = bool(act[[k_lo, k_hi]][:, [i, j]].any())
                if not moving or any(k_lo <= k <= k_hi for k in taken):
                    continue
                across = float(
                    np.hypot(*(sf.position[k_hi, i] - sf.position[k_lo, i]))
                    + np.hypot(*(sf.position[k_hi, j] - sf.position[k_lo, j]))
                )
                if max(gap[m], gap[m + 1]) < across + margin:
                    out.append(_Candidate(k_lo + 1, (i, j), None, k_lo, k_hi))
    for j in range(b):
        if not moved[j]:
            continue
        idx = np.flatnonzero(sf.seen[:, j])
        p = sf.position[idx, j]
        travel = _travel(p)
        for cushion in cfg.table.cushions:
            gap, alongside = cushion_gap(p, cushion, r)
            for m in _local_minima(gap):
                reach = float(travel[m]) + margin
                k = int(idx[m])
                lo, hi = max(k - 1, 0), min(k + 2, len(sf.times))
                if alongside[m] and gap[m] < reach and act[lo:hi, j].any():
                    out.append(_Candidate(k, (j,), cushion, *_neighbours(idx, m)))
    out.sort(key=lambda c: (c.k, c.cushion is not None))
    return out


def _strike_time(an: _Analysis, white: int, first_cand: int) -> float | None:
    """When the cue struck the white: where the path it left on, fitted from the samples
    once it is clearly away (half a radius: :attr:`EventConfig.strike_mm`), passes closest
    to its rest position. The search reaches back over the samples that lie on that path,
    not only to the first sample a few millimetres off the spot: a cue tip over the white
    pulls its measured centre by that much while the player addresses the ball, and the
    first such sample is no departure."""
    sf, cfg = an.sf, an.cfg
    if np.isnan(sf.start[white, 0]):
        return None
    idx = np.flatnonzero(sf.seen[:, white])
    if len(idx) == 0:
        return None
    disp = np.hypot(*(sf.position[idx, white] - sf.start[white]).T)
    moved = np.flatnonzero(disp > cfg.move_mm)
    if len(moved) == 0:
        return None
    far = np.flatnonzero(disp > cfg.strike_mm)
    m = int(far[0]) if len(far) else int(moved[0])
    k_first = int(idx[m])
    t_first = float(sf.times[k_first])
    stop = max(first_cand - 1, k_first + 1)
    t, p = an.samples(white, k_first, stop)
    t, p = t[: cfg.fit_frames], p[: cfg.fit_frames]
    model = an.fit(t, p, t0=float(t[0])) if len(t) >= 2 else None
    t_prev = float(sf.times[idx[m - 1]]) if m > 0 else float(sf.times[0]) - cfg.dt
    if model is None:
        return 0.5 * (t_prev + t_first)
    # Back over the samples on the path; the latest one off it (the white still on its spot,
    # with the path extrapolated away from it) bounds the departure.
    t_lo = float(sf.times[0]) - cfg.dt
    for q in range(m - 1, -1, -1):
        tq = float(sf.times[idx[q]])
        off = float(np.hypot(*(sf.position[idx[q], white] - model.at(tq))))
        if off > cfg.move_mm + 3.0 * line_sigma(model, tq, cfg.noise_mm):
            t_lo = tq
            break
    return departure_time(model, sf.start[white], t_lo, t_first)


def _estimate(an: _Analysis, c: _Candidate) -> float:
    """A first estimate of a candidate's contact time, from the paths fitted up to the frame
    before it, or the rest positions of balls not yet in a contact (the frame's time when
    they do not meet)."""
    cfg = an.cfg
    ta, tb = an.bracket(c)
    t_k = float(an.sf.times[c.k])
    if c.cushion is not None:
        m = an.pre_model(c.balls[0], c.k - 1)
        if m is None or m.is_still:
            return t_k
        t = contact_time_line(m, c.cushion.start, c.cushion.normal, cfg.radius, ta - cfg.dt, tb)
        return t_k if t is None else t
    i, j = c.balls
    # A ball not yet in any contact is where it rested (a fit to its samples up to the frame
    # before may already hold its departure from the contact being estimated).
    mi, mj = (
        Motion.still(an.sf.start[b])
        if not an.breaks[b] and not np.isnan(an.sf.start[b, 0])
        else an.pre_model(b, c.k - 1)
        for b in (i, j)
    )
    if mi is None or mj is None:
        return t_k
    t = contact_time_balls(mi, mj, cfg.radius, ta - cfg.dt, tb)
    return t_k if t is None else t


def _ball_contact(an: _Analysis, cand: _Candidate) -> Collision | None:
    sf, cfg = an.sf, an.cfg
    i, j = cand.balls
    k = cand.k
    ta, tb = an.bracket(cand)
    (mi, fresh_i), (mj, fresh_j) = an.pre_model_fresh(i, k - 1), an.pre_model_fresh(j, k - 1)
    t_star: float | None = None
    if mi is not None and mj is not None:
        t_star = contact_time_balls(mi, mj, cfg.radius, ta - cfg.dt, tb)
    known_before = an.before_contact.get(i) == k or an.before_contact.get(j) == k
    if t_star is None or t_star > float(sf.times[k]) or known_before:
        # Past frame k (or not found before it), the paths with that frame's samples are
        # tried: if they still meet after it, it came before the contact and belongs to
        # them (a contact one sample after another gets the line from that one).
        (ni, fresh_ni), (nj, fresh_nj) = an.pre_model_fresh(i, k), an.pre_model_fresh(j, k)
        if ni is not None and nj is not None:
            t2 = contact_time_balls(ni, nj, cfg.radius, float(sf.times[k]), tb)
            if t2 is not None:
                t_star, mi, mj, fresh_i, fresh_j = t2, ni, nj, fresh_ni, fresh_nj
                an.before_contact[i] = an.before_contact[j] = k
    fresh = {i: fresh_i, j: fresh_j}
    posts: dict[int, Motion | None] = {}
    if t_star is None:
        # Fall back on the ball that was still: it left its spot when it was hit.
        for still, m in ((j, mj), (i, mi)):
            if m is not None and m.is_still:
                post = an.post_model(still, ta, an.next_candidate(still, k, i + j - still))
                if post is not None:
                    t_star = departure_time(post, sf.start[still], ta - cfg.dt, tb)
                    break
        # A path fitted before the ball's last contact (a white struck a frame before it
        # hits a ball placed close has no samples of its own yet) says little: then the
        # straight line between its samples either side of the candidate must pass within
        # touching reach of the ball that left its spot.
        stale = [b for b, f in ((i, fresh_i), (j, fresh_j)) if not f]
        if t_star is not None and len(stale) == 1 and (mj if stale[0] == i else mi) is not None:
            other = j if stale[0] == i else i
            if an.was_still(other, k - 1) and not an.passes_near(stale[0], cand, sf.start[other]):
                return None
        elif (
            t_star is not None
            and mi is not None
            and mj is not None
            and not stale
            and not _within_reach(mi, mj, t_star, ta, tb, cfg)
        ):
            return None  # set moving by something else (a ball of a pack, a hand)
    if t_star is None:
        return None
    for b in (i, j):
        posts[b] = an.post_model(b, t_star, an.next_candidate(b, k, i + j - b))
    pos = {}
    for b, m in ((i, mi), (j, mj)):
        if m is not None:
            pos[b] = m.at(t_star)
        elif posts[b] is not None:
            pos[b] = posts[b].at(t_star)  # type: ignore[union-attr]
    if len(pos) < 2:
        return None
    d = pos[j] - pos[i]
    norm = float(np.hypot(*d))
    if norm <= 0:
        return None
    n = d / norm
    impulses = []
    for b, m, sign in ((i, mi, -1.0), (j, mj, 1.0)):
        post = posts[b]
        if m is None or post is None or not fresh[b]:
            continue
        dv = post.velocity(t_star) - m.velocity(t_star)
        jb = sign * float(dv @ n)
        if m.is_still and jb < cfg.impulse_mm_s:
            if an.packed(b):
                # Resting against other balls (a pack), it passes the blow on within the
                # same instant and may move off any way: its own motion proves nothing.
                continue
            return None  # a still ball that was really hit must move off along the line
        impulses.append(jb)
    if impulses and float(np.mean(impulses)) < cfg.impulse_mm_s:
        return None
    if not impulses:
        # Nothing after the contact to measure (two contacts in one frame, or the balls
        # left the table): accept a geometric contact made at a measurable closing speed.
        if mi is None or mj is None or norm > 2.0 * cfg.radius + 4.0 * cfg.noise_mm:
            return None
        closing = float((mi.velocity(t_star) - mj.velocity(t_star)) @ n)
        if closing < cfg.impulse_mm_s:
            return None
    names = sf.ball_names
    pair = (names[i], names[j]) if names[j] != "white" else (names[j], names[i])
    for b in (i, j):
        an.breaks[b].append(t_star)
        an.breaks[b].sort()
    for b, m in ((i, mi), (j, mj)):
        if names[b] == "white" and m is not None:
            v = m.velocity(t_star)
            speed = float(np.hypot(*v))
            cos = abs(float(v @ n)) / speed if speed > 0 else 1.0
            tan = math.sqrt(max(0.0, 1.0 - cos * cos)) / max(cos, 0.2)
            an.white_contact[t_star] = (speed, tan * line_sigma(m, t_star, cfg.noise_mm))
    return Collision(t=t_star, balls=pair)


def _within_reach(mi: Motion, mj: Motion, t_star: float, ta: float, tb: float, cfg: EventConfig) -> bool:
    """Whether two fitted paths pass within touching distance of each other, give or take
    their uncertainty, between the samples around a candidate: a still ball that left its
    spot then was hit by something, but by this ball only if its path came that close (a
    white flying past the pack at a ball's width is not what moved the pink)."""
    grid = np.linspace(ta - cfg.dt, tb, 65)
    d = mi.at(grid) - mj.at(grid)
    closest = float(np.min(np.hypot(d[:, 0], d[:, 1]))) - 2.0 * cfg.radius
    sigma = math.hypot(line_sigma(mi, t_star, cfg.noise_mm), line_sigma(mj, t_star, cfg.noise_mm))
    return closest <= cfg.move_mm + 3.0 * sigma


def _cushion_contact(an: _Analysis, cand: _Candidate) -> Cushion | None:
    sf, cfg = an.sf, an.cfg
    (b,) = cand.balls
    cushion = cand.cushion
    assert cushion is not None
    k = cand.k
    ta, tb = an.bracket(cand)
    pre = an.pre_model(b, k - 1)
    if pre is None or pre.is_still:
        return None
    t_star = contact_time_line(pre, cushion.start, cushion.normal, cfg.radius, ta - cfg.dt, tb)
    if t_star is not None and t_star > float(sf.times[k]):
        pre2 = an.pre_model(b, k)
        if pre2 is not None:
            t2 = contact_time_line(pre2, cushion.start, cushion.normal, cfg.radius, float(sf.times[k]), tb)
            if t2 is not None:
                t_star, pre = t2, pre2
    reached = t_star is not None
    if t_star is None:
        t_star = float(sf.times[k])
    post = an.post_model(b, t_star, an.next_candidate(b, k))
    n = np.asarray(cushion.normal)
    vn_pre = float(pre.velocity(t_star) @ n)
    if vn_pre >= 0:
        return None
    if post is None:
        # Another contact follows within a frame or two, leaving nothing to fit after this
        # one. A path that reaches the nose line heading in at a measurable speed touched
        # the cushion: a ball cannot go through it (near a jaw it may drop instead, and
        # then the pot is what the referee needs).
        later, _ = an.samples(b, k, len(sf.times) - 1)
        if not (reached and -vn_pre >= cfg.impulse_mm_s and int(np.sum(later > t_star)) >= 2):
            return None  # (a ball not seen again dropped into the pocket by the jaw)
    elif float(post.velocity(t_star) @ n) - vn_pre < cfg.impulse_mm_s:
        return None
    an.breaks[b].append(t_star)
    an.breaks[b].sort()
    out = Cushion(t=t_star, ball=sf.ball_names[b])
    an.cushion_events.append(out)
    return out


def _unseen_hits(an: _Analysis) -> list[Collision]:
    """Contacts whose striking ball the tracker did not see: a ball at rest set clearly
    moving (over a ball's width) with no contact found was hit by a moving ball that was
    not measured near it then (lost, or a track following something else: a cue, a hand),
    and that is next measured where it could have got to from there. The nearest such ball
    on its next sighting is taken; with none, nothing is reported."""
    sf, cfg = an.sf, an.cfg
    out: list[Collision] = []
    names = sf.ball_names
    for j in range(len(names)):
        if np.isnan(sf.start[j, 0]):
            continue
        idx = np.flatnonzero(sf.seen[:, j])
        if len(idx) == 0:
            continue
        disp = np.hypot(*(sf.position[idx, j] - sf.start[j]).T)
        if float(disp.max()) <= 2.0 * cfg.radius:
            continue
        moved = np.flatnonzero(disp > cfg.move_mm)
        m = int(moved[0])
        t_prev = float(sf.times[idx[m - 1]]) if m > 0 else float(sf.times[0]) - cfg.dt
        t, p = an.samples(j, int(idx[m]), len(sf.times) - 1)
        post = an.fit(t[: cfg.fit_frames], p[: cfg.fit_frames], t0=float(t[0])) if len(t) >= 2 else None
        if post is None:
            continue
        t_d = departure_time(post, sf.start[j], t_prev, float(t[0]))
        if an.breaks[j] and min(an.breaks[j]) <= t_d + cfg.dt:
            continue  # what set it moving was found
        best: tuple[float, int] | None = None
        for i in range(len(names)):
            if i == j or np.isnan(sf.start[i, 0]) or not an.breaks[i]:
                continue  # the striker must itself have been moving (struck or hit)
            ti, pi = an.samples(i, 0, len(sf.times) - 1)
            near = np.abs(ti - t_d) <= cfg.dt
            if near.any() and float(np.min(np.hypot(*(pi[near] - sf.start[j]).T))) <= 4.0 * cfg.radius:
                continue  # measured near it then: an ordinary contact, tested already
            # Its sightings within a second after: the first that it could have reached
            # from there at the speed it is then seen moving (a track that followed a cue
            # for a while is found again on the ball later).
            # It must have been lost then (not measured at all), or found there after a jump
            # its own motion cannot make (its track had been following something else).
            lost = not bool(np.any(np.abs(ti - t_d) <= 2.0 * cfg.dt))  # not a dropped frame
            after = np.flatnonzero((ti > t_d) & (ti <= t_d + 1.0))
            for a0, a1 in itertools.pairwise(after):
                speed = float(np.hypot(*(pi[a1] - pi[a0]))) / max(float(ti[a1] - ti[a0]), 1e-9)
                dist = float(np.hypot(*(pi[a0] - sf.start[j]))) - 2.0 * cfg.radius
                if a0 > 0:
                    step = float(np.hypot(*(pi[a0] - pi[a0 - 1])))
                    jump = step > 2.0 * speed * float(ti[a0] - ti[a0 - 1]) + 2.0 * cfg.radius
                else:
                    jump = False
                if (jump or (lost and a0 == after[0])) and dist <= speed * float(ti[a0] - t_d) + cfg.move_mm:
                    if best is None or dist < best[0]:
                        best = (dist, i)
                    break
        if best is None:
            continue
        i = best[1]
        pair = (names[i], names[j]) if names[j] != "white" else (names[j], names[i])
        for b in (i, j):
            an.breaks[b].append(t_d)
            an.breaks[b].sort()
        out.append(Collision(t=t_d, balls=pair))
    return out


def _pushes(an: _Analysis, cands: list[_Candidate], final_window: int) -> list[Collision]:
    """Contacts too gentle to time from velocities, found from their result: a ball still
    before the stroke that rests measurably elsewhere after it, with no contact found, was
    pushed by the ball that came closest to it."""
    sf, cfg = an.sf, an.cfg
    out: list[Collision] = []
    f = len(sf.times)
    for j in range(len(sf.ball_names)):
        if an.breaks[j] or np.isnan(sf.start[j, 0]):
            continue
        _, p_end = an.samples(j, f - final_window, f - 1)
        if len(p_end) < 2 or float(np.hypot(*(p_end.mean(axis=0) - sf.start[j]))) <= cfg.push_mm:
            continue
        best: tuple[float, _Candidate] | None = None
        for c in cands:
            if c.cushion is not None or j not in c.balls:
                continue
            i = c.balls[0] + c.balls[1] - j
            if not (sf.seen[c.k, i] and sf.seen[c.k, j]):
                continue
            gap = float(np.hypot(*(sf.position[c.k, i] - sf.position[c.k, j]))) - 2.0 * cfg.radius
            if best is None or gap < best[0]:
                best = (gap, c)
        if best is None:
            continue
        c = best[1]
        i = c.balls[0] + c.balls[1] - j
        ta, tb = an.bracket(c)
        mi, mj = an.pre_model(i, c.k - 1), Motion.still(sf.start[j])
        if mi is None or not _within_reach(mi, mj, float(sf.times[c.k]), ta, tb, cfg):
            continue  # nothing came near it: a track's jitter or a hand, not a push
        t_star = contact_time_balls(mi, mj, cfg.radius, ta - cfg.dt, tb)
        t = float(sf.times[c.k]) if t_star is None else t_star
        names = sf.ball_names
        pair = (names[i], names[j]) if names[j] != "white" else (names[j], names[i])
        an.breaks[j].append(t)
        out.append(Collision(t=t, balls=pair))
    return out


def _exits(an: _Analysis, final_window: int) -> list[InputEvent]:
    """Pots and off-tables: of balls unseen at the end of the stroke, and of balls that went
    off the cloth into a pocket and stayed off it for a rest window before a track of the
    same name showed up again (a potted ball does not come back: that is the tracker taking
    another ball, or a ghost, for it; or the white picked out and put down)."""
    sf, cfg = an.sf, an.cfg
    out: list[InputEvent] = []
    f = len(sf.times)
    for b in range(len(sf.ball_names)):
        if np.isnan(sf.start[b, 0]):
            continue
        idx = np.flatnonzero(sf.seen[:, b])
        if len(idx) == 0:
            continue
        if idx[-1] < f - final_window:
            ev = _exit_after(an, b, int(idx[-1]), off_at_end=bool(sf.absent[-1, b]))
            if ev is not None:
                out.append(ev)
            continue
        # Seen at the end: look for an earlier stay off the cloth as long as a rest window.
        gaps = np.flatnonzero(np.diff(idx) > cfg.rest_frames)
        for g in gaps:
            k_last, k_back = int(idx[g]), int(idx[g + 1])
            if int(sf.absent[k_last + 1 : k_back, b].sum()) < cfg.rest_frames:
                continue  # hidden (predicted), not off the cloth
            ev = _exit_after(an, b, k_last, off_at_end=False)
            if isinstance(ev, Pot):
                out.append(ev)
                break
    return out


def _speeds_up(t: FloatArray, p: FloatArray, cfg: EventConfig) -> bool:
    """Whether a track gains speed between contacts beyond its noise (4 sigmas of the
    difference of two frame-to-frame speeds) twice: a ball on cloth only slows down, so such
    a track into a pocket follows a hand or a cue, not a ball being potted. Once is allowed:
    the last sight of a ball dropping into the hole is often off by a part of its width."""
    if len(t) < 4:
        return False
    dt = np.diff(t)
    speed = np.hypot(*np.diff(p, axis=0).T) / dt
    tol = 4.0 * math.sqrt(6.0) * cfg.noise_mm / dt[1:]
    return int(np.sum(np.diff(speed) > tol)) >= 2


def _exit_after(an: _Analysis, b: int, k_last: int, off_at_end: bool) -> Pot | OffTable | None:
    """The pot (or off-table) of ball ``b`` last seen at frame ``k_last``, if its path went there."""
    sf, cfg = an.sf, an.cfg
    name = sf.ball_names[b]
    if an.was_still(b, k_last):
        return None
    t_last = float(sf.times[k_last])
    # Contacts after the last sight belong to whatever was tracked under this name later.
    breaks = [t for t in an.breaks[b] if t <= t_last]
    brk = breaks[-1] if breaks else -math.inf
    t_s, p_s = an.samples(b, 0, k_last)
    keep = t_s > brk
    w = cfg.fit_frames
    if int(keep.sum()) >= 2:
        model = an.fit(t_s[keep][-w:], p_s[keep][-w:])
    else:
        model = an.pre_model(b, k_last) if breaks == an.breaks[b] else None
    # Speed gained anywhere since the ball was last struck by a ball (a cushion only takes
    # speed away), not only since its last contact: a track riding an arm may have been
    # given a cushion contact on the way.
    cushions = {c.t for c in an.cushion_events if c.ball == name}
    struck = [t for t in breaks if t not in cushions]
    since = t_s >= (struck[-1] if struck else -math.inf)
    if model is None or model.is_still or _speeds_up(t_s[since][-2 * w :], p_s[since][-2 * w :], cfg):
        return None
    horizon = 3.0 * cfg.dt
    # The fit since the last contact, then the last three samples alone: a ball that
    # glanced off a jaw just before it dropped is only on its final line in those.
    tail = an.fit(t_s[keep][-3:], p_s[keep][-3:]) if int(keep.sum()) >= 3 else None
    entry = None
    for m in (model, tail):
        if m is None or entry is not None:
            continue
        speed = float(np.hypot(*m.velocity(t_last)))
        entry = pocket_entry(m, t_last, t_last + horizon, cfg.table, speed * horizon + cfg.radius)
    speed = float(np.hypot(*model.velocity(t_last)))
    reach = speed * horizon + cfg.radius
    if entry is not None:
        return Pot(t=max(entry.t, brk), ball=name, pocket=entry.pocket)
    if off_at_end:
        p = model.at(t_last)
        cushion, gap = nearest_cushion(p, cfg.table)
        outward = float(model.velocity(t_last) @ np.asarray(cushion.normal)) < -cfg.impulse_mm_s
        if outward and gap < reach:
            return OffTable(t=t_last + 0.5 * cfg.dt, ball=name)
    return None


def _snap_simultaneous(
    events: list[InputEvent], tol_mm: float, contacts: dict[float, tuple[float, float]]
) -> list[InputEvent]:
    """Give a white collision the time of the white's previous one when the white travelled
    less between them than the two contacts can be placed along its path (the contract's
    "same t means simultaneous").

    A contact at angle ``phi`` between the white's path and the line of centres moves along
    the path by ``tan(phi)`` times any sideways error of the fitted path, and for two balls
    either side of the path those shifts add up. So the tolerance is ``tol_mm`` (for
    head-on contacts) combined with 3 sigmas of that sideways term: two glancing contacts
    off a short, extrapolated fit cannot be ordered as finely as two full-ball ones.
    """
    out: list[InputEvent] = []
    anchor = -math.inf
    speed, side = 0.0, 0.0
    for e in events:
        if isinstance(e, Collision) and "white" in e.balls:
            v_e, side_e = contacts.get(e.t, (0.0, 0.0))
            v = max(speed, v_e)
            tol = math.hypot(tol_mm, 3.0 * (side + side_e))
            if e.t == anchor or (v > 0.0 and (e.t - anchor) * v < tol):
                e = Collision(t=anchor, balls=e.balls)
            else:
                anchor, speed, side = e.t, v_e, side_e
        out.append(e)
    return out


def analyse_stroke(sf: StrokeFrames, cfg: EventConfig, final_window: int, t_min: float) -> StrokeOutcome:
    """Contacts, pots and the strike of one stroke.

    Args:
        sf: the stroke's frames, from the last rest to the confirmation of the next.
        cfg: thresholds.
        final_window: trailing frames in which every ball still on the table was checked
            still; a ball unseen throughout them may have left the table.
        t_min: events may not be earlier than this (the last event already written).
    """
    b = len(sf.ball_names)
    an = _Analysis(sf, cfg, breaks=[[] for _ in range(b)], cand_frames=[[] for _ in range(b)])
    cands = _candidates(sf, cfg)
    for c in cands:
        for ball in c.balls:
            other = c.balls[0] + c.balls[-1] - ball if len(c.balls) == 2 else -1
            an.cand_frames[ball].append((c.k, other))
    events: list[InputEvent] = []
    white = sf.ball_names.index("white") if "white" in sf.ball_names else -1
    if white >= 0:
        first = min((k for k, _ in an.cand_frames[white]), default=len(sf.times))
        # Candidates touching the white before it left its spot (a ball it rests against).
        t_strike = _strike_time(an, white, first)
        if t_strike is not None:
            t_strike = max(t_strike, t_min)
            events.append(Strike(t=t_strike))
            an.breaks[white].append(t_strike)
    # In the order the contacts happened, not of the frames where the gaps were least: a
    # thin cut's closest sample comes after a fuller contact's made later in the same frame.
    order = sorted(cands, key=lambda c: (_estimate(an, c), c.cushion is not None))
    for c in order:
        ev: InputEvent | None = _ball_contact(an, c) if c.cushion is None else _cushion_contact(an, c)
        if ev is not None:
            events.append(ev)
    events.extend(_unseen_hits(an))
    events.extend(_pushes(an, cands, final_window))
    events.extend(_exits(an, final_window))
    t_floor = events[0].t if events and isinstance(events[0], Strike) else t_min
    events = [e if e.t >= t_floor else _retime(e, t_floor) for e in events]
    events.sort(key=lambda e: (e.t, not isinstance(e, Strike)))
    events = _snap_simultaneous(events, cfg.simultaneous_mm, an.white_contact)
    gone = frozenset(e.ball for e in events if isinstance(e, Pot | OffTable))
    return StrokeOutcome(events=tuple(events), gone=gone)


def _retime(e: InputEvent, t: float) -> InputEvent:
    if isinstance(e, Collision):
        return Collision(t=t, balls=e.balls)
    if isinstance(e, Cushion):
        return Cushion(t=t, ball=e.ball)
    if isinstance(e, Pot):
        return Pot(t=t, ball=e.ball, pocket=e.pocket)
    if isinstance(e, OffTable):
        return OffTable(t=t, ball=e.ball)
    return e
