"""Steps 2 and 3 of a stroke's analysis: timing each candidate contact and verifying it.

The strike (and any ball's first move) is the kink where its samples leave its spot for
its first path; a ball contact is where the two fitted paths are two radii apart, a cushion
contact where the path is one radius from the nose line, all resolved below the frame
interval. A contact must change velocity along the line of centres (the cushion normal)
beyond the velocity noise.
"""

from __future__ import annotations

import math

import numpy as np

from adjudicator.eventlog import Collision, Cushion
from vision.events.analysis import Analysis, Candidate, line_sigma, white_first
from vision.events.config import EventConfig
from vision.events.kinematics import (
    Motion,
    contact_time_balls,
    contact_time_line,
    departure_time,
    kink_time,
)


def strike_time(an: Analysis, white: int, first_cand: int) -> float | None:
    """When the cue struck the white: :func:`left_spot`, its path fitted up to the frame
    before its first candidate contact (a midpoint of the samples either side of it when
    there is no path to fit)."""
    found = left_spot(an, white, first_cand)
    return None if found is None else found[0]


def left_spot(an: Analysis, b: int, k_stop: int | None = None) -> tuple[float, bool] | None:
    """When ball ``b``, at rest on its start position, was set moving (by the cue or by a
    ball), and whether that came from a fitted path.

    The path it left on is fitted from the samples once it is clearly away (half a radius:
    :attr:`EventConfig.strike_mm`) up to the frame before ``k_stop`` (by default its first
    candidate contact from there on). The search reaches back over the samples that lie on
    that path, not only to the first sample a few millimetres off the spot: a cue tip over
    the white pulls its measured centre by that much while the player addresses the ball,
    and one noisy sample of a still ball is as far off. The departure is then the kink
    between the samples on the spot and those on the path (:func:`kink_time`), not where
    the path alone passes the spot: a 4-sigma sample of a red 30 ms before it was hit,
    taken for its first move, had put the hit 1.8 frames early, and a slow ball's path
    extrapolated back from half a radius away puts it frames early too. Without two
    samples on the path, the midpoint of the last sample on the spot and the first one
    away, and ``False``.
    """
    sf, cfg = an.sf, an.cfg
    if np.isnan(sf.start[b, 0]):
        return None
    idx = np.flatnonzero(sf.seen[:, b])
    if len(idx) == 0:
        return None
    disp = np.hypot(*(sf.position[idx, b] - sf.start[b]).T)
    moved = np.flatnonzero(disp > cfg.move_mm)
    if len(moved) == 0:
        return None
    far = np.flatnonzero(disp > cfg.strike_mm)
    m = int(far[0]) if len(far) else int(moved[0])
    k_first = int(idx[m])
    t_first = float(sf.times[k_first])
    if k_stop is None:
        k_stop = min((c for c, _ in an.cand_frames[b] if c >= k_first), default=len(sf.times))
    stop = max(k_stop - 1, k_first + 1)
    t, p = an.samples(b, k_first, stop)
    t, p = t[: cfg.fit_frames], p[: cfg.fit_frames]
    model = an.fit(t, p, t0=float(t[0])) if len(t) >= 2 else None
    t_prev = float(sf.times[idx[m - 1]]) if m > 0 else float(sf.times[0]) - cfg.dt
    if model is None:
        return 0.5 * (t_prev + t_first), False
    # Back over the samples on the path; the latest one off it (the ball still on its spot,
    # with the path extrapolated away from it) bounds the departure.
    t_lo, q_lo = float(sf.times[0]) - cfg.dt, 0
    for q in range(m - 1, -1, -1):
        tq = float(sf.times[idx[q]])
        off = float(np.hypot(*(sf.position[idx[q], b] - model.at(tq))))
        if off > cfg.move_mm + 3.0 * line_sigma(model, tq, cfg.noise_mm):
            t_lo, q_lo = tq, q
            break
    # The departure is the kink between the samples on the spot and those on the path, all
    # of them from that one off the path to the end of the path's fit.
    ts = np.concatenate([sf.times[idx[q_lo:m]], t])
    ps = np.concatenate([sf.position[idx[q_lo:m], b], p])
    t_d = kink_time(ts, ps, sf.start[b], cfg.noise_mm, cfg.accel_prior, t_lo, t_first, cfg.dt / 64.0)
    return t_d, True


def estimate_time(an: Analysis, c: Candidate) -> float:
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


def ball_contact(an: Analysis, cand: Candidate) -> Collision | None:
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
            and not within_reach(mi, mj, t_star, ta, tb, cfg)
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
    pair = white_first(names[i], names[j])
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


def within_reach(mi: Motion, mj: Motion, t_star: float, ta: float, tb: float, cfg: EventConfig) -> bool:
    """Whether two fitted paths pass within touching distance of each other, give or take
    their uncertainty, between the samples around a candidate: a still ball that left its
    spot then was hit by something, but by this ball only if its path came that close (a
    white flying past the pack at a ball's width is not what moved the pink)."""
    grid = np.linspace(ta - cfg.dt, tb, 65)
    d = mi.at(grid) - mj.at(grid)
    closest = float(np.min(np.hypot(d[:, 0], d[:, 1]))) - 2.0 * cfg.radius
    sigma = math.hypot(line_sigma(mi, t_star, cfg.noise_mm), line_sigma(mj, t_star, cfg.noise_mm))
    return closest <= cfg.move_mm + 3.0 * sigma


def cushion_contact(an: Analysis, cand: Candidate) -> Cushion | None:
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
    if -vn_pre < cfg.rest_speed_mm_s:
        # Not heading in faster than a ball at rest moves: a path fitted to a still ball's
        # samples has a velocity of rounding error, either sign (a white resting against the
        # cushion, struck or re-measured away from it, "hit" it).
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
