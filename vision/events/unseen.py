"""Contacts the samples do not time: a ball set moving by a striker the tracker lost, and a
ball pushed too gently to show in the velocities, found from their results.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

import numpy as np

from adjudicator.eventlog import Collision
from vision.events.analysis import Analysis, Candidate, white_first
from vision.events.contacts import left_spot, within_reach
from vision.events.kinematics import Motion, contact_time_balls

#: How long either side of a ball's measured departure a ball measured beside it counts as the
#: one that set it moving (s): three frames at 30 fps.
BESIDE_S = 0.1


def _set_moving(an: Analysis, j: int) -> tuple[float, bool] | None:
    """When ball ``j``, at rest as the stroke began, was set moving, and whether from a fitted
    path (:func:`~vision.events.contacts.left_spot`); ``None`` for a ball not on the table
    then, never seen, or never seen over a ball's width from its spot (a track's jitter, a
    nudge)."""
    sf = an.sf
    if np.isnan(sf.start[j, 0]):
        return None
    idx = np.flatnonzero(sf.seen[:, j])
    if (
        len(idx) == 0
        or float(np.max(np.hypot(*(sf.position[idx, j] - sf.start[j]).T))) <= 2.0 * an.cfg.radius
    ):
        return None
    return left_spot(an, j)


def unseen_hits(an: Analysis) -> list[Collision]:
    """Contacts whose striking ball the tracker did not see: a ball at rest set clearly
    moving (over a ball's width) with no contact found was hit by a moving ball that was
    not measured near it then (lost, or a track following something else: a cue, a hand),
    and that is next measured where it could have got to from there. The nearest such ball
    on its next sighting is taken; with none, nothing is reported."""
    sf, cfg = an.sf, an.cfg
    out: list[Collision] = []
    names = sf.ball_names
    for j in range(len(names)):
        left = _set_moving(an, j)
        if left is None or not left[1]:
            continue
        t_d = left[0]
        if an.breaks[j] and min(an.breaks[j]) <= t_d + cfg.dt:
            continue  # what set it moving was found
        best: tuple[float, int] | None = None
        beside: tuple[float, int] | None = None
        for i in range(len(names)):
            if i == j or np.isnan(sf.start[i, 0]) or not an.breaks[i]:
                continue  # the striker must itself have been moving (struck or hit)
            ti, pi = an.samples(i, 0, len(sf.times) - 1)
            # Beside it at its departure, give or take the time a merging blob takes: a ball's
            # measured centre is pulled towards one rolling up to it a few frames before the
            # contact (a blue 'left' 50 ms early with the white still 134 mm away at 60 fps).
            near = np.abs(ti - t_d) <= max(cfg.dt, BESIDE_S)
            gap = float(np.min(np.hypot(*(pi[near] - sf.start[j]).T))) if near.any() else math.inf
            if gap <= 4.0 * cfg.radius:
                # Measured beside it then: an ordinary contact, tested already; kept in case
                # the test refused it (noisy tracks round a slow roll-up at 60 fps: a white
                # rolling into a red at 0.3 m/s sent it 24 cm, and the stroke had no contact).
                if beside is None or gap < beside[0]:
                    beside = (gap, i)
                continue
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
        if beside is not None:
            best = beside  # the ball measured beside it outranks one only found later
        if best is None:
            continue
        i = best[1]
        pair = white_first(names[i], names[j])
        for b in (i, j):
            an.breaks[b].append(t_d)
            an.breaks[b].sort()
        out.append(Collision(t=t_d, balls=pair))
    return out


def pushes(an: Analysis, cands: list[Candidate], final_window: int) -> list[Collision]:
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
        # The closest approach among those that can have reached it: a ball measured
        # overlapping it a frame early (its centre pulled by the blob they make together) may
        # not have been where its path could touch it then, and taken alone it hid the push
        # (a rendered free ball: the green pushed 6.5 mm, no contact, no ball hit called).
        best: tuple[float, Candidate, Motion, float, float] | None = None
        mj = Motion.still(sf.start[j])
        for c in cands:
            if c.cushion is not None or j not in c.balls:
                continue
            i = c.balls[0] + c.balls[1] - j
            if not (sf.seen[c.k, i] and sf.seen[c.k, j]):
                continue
            gap = float(np.hypot(*(sf.position[c.k, i] - sf.position[c.k, j]))) - 2.0 * cfg.radius
            if best is not None and gap >= best[0]:
                continue
            ta, tb = an.bracket(c)
            mi = an.pre_model(i, c.k - 1)
            if mi is None or not within_reach(mi, mj, float(sf.times[c.k]), ta, tb, cfg):
                continue  # nothing came near it then: a track's jitter or a hand, not a push
            best = (gap, c, mi, ta, tb)
        if best is None:
            continue
        _, c, mi, ta, tb = best
        i = c.balls[0] + c.balls[1] - j
        t_star = contact_time_balls(mi, mj, cfg.radius, ta - cfg.dt, tb)
        t = float(sf.times[c.k]) if t_star is None else t_star
        names = sf.ball_names
        pair = white_first(names[i], names[j])
        an.breaks[j].append(t)
        out.append(Collision(t=t, balls=pair))
    return out


def rolled_up(an: Analysis, found: list[Collision], final_window: int) -> list[Collision]:
    """The white's contact with a ball it rolled up to and came to rest touching, when no
    contact of the white was found: a stroke so gentle that the ball it met moved less than the
    tracks' noise (a white nudged into a ball for a free ball: 40 mm of roll, the ball it met
    moved 3 mm) shows no speed change to time.

    Touching at rest (within ``touching_mm`` of the final window's mean positions, the rest's own
    test) after rolling towards that ball means the two met: the white came from clear of it
    (not touching where the stroke began) along a line that reaches it (its centre within two
    radii of the line from the white's start to its rest, ahead). The contact is timed at the
    white's first sighting within touching reach of it.
    """
    sf, cfg = an.sf, an.cfg
    names = sf.ball_names
    if "white" not in names or any("white" in c.balls for c in found):
        return []
    w = names.index("white")
    if not an.breaks[w] or np.isnan(sf.start[w, 0]):
        return []  # not struck in this stroke
    f = len(sf.times)
    _, end_w = an.samples(w, f - final_window, f - 1)
    if len(end_w) < 2:
        return []
    rest_w = end_w.mean(axis=0)
    travel = rest_w - sf.start[w]
    dist = float(np.hypot(*travel))
    if dist <= cfg.move_mm:
        return []
    heading = travel / dist
    reach = 2.0 * cfg.radius + cfg.touching_mm
    best: tuple[float, int] | None = None
    for j in range(len(names)):
        if j == w or np.isnan(sf.start[j, 0]):
            continue
        _, end_j = an.samples(j, f - final_window, f - 1)
        if len(end_j) < 2:
            continue
        gap = float(np.hypot(*(end_j.mean(axis=0) - rest_w)))
        if gap > reach or float(np.hypot(*(sf.start[j] - sf.start[w]))) <= reach:
            continue  # not touching now, or touching already before the stroke
        rel = sf.start[j] - sf.start[w]
        ahead = float(rel @ heading)
        off_line = abs(float(rel[0] * heading[1] - rel[1] * heading[0]))
        if ahead <= 0 or off_line > 2.0 * cfg.radius:
            continue  # not where the white was heading
        if best is None or gap < best[0]:
            best = (gap, j)
    if best is None:
        return []
    j = best[1]
    t_w, p_w = an.samples(w, 0, f - 1)
    close = np.hypot(*(p_w - sf.start[j]).T) <= reach
    after = t_w >= min(an.breaks[w])
    hits = np.flatnonzero(close & after)
    t = float(t_w[hits[0]]) if len(hits) else float(t_w[-1])
    an.breaks[j].append(t)
    return [Collision(t=t, balls=white_first(names[w], names[j]))]


def white_unseen_first(an: Analysis, collisions: Sequence[Collision]) -> list[Collision]:
    """The white's first contact when none was found, from the ball it set moving: after the
    strike, a ball at rest set moving over a ball's width was struck by the white or by a ball
    the white set moving, so the ball that left its spot first is the one the white hit (of
    those leaving within two frames of it, the one nearest where the white was last seen).

    Why: the white's own contact is the only one the rules ask about (Section 3 Rule 12(b):
    the first ball hit), and the tracker loses a fast white in its streak; a break-off's white
    lost on its way into the pack, with the reds' own contacts all found, read as no ball
    hit and FOUL AND A MISS (rendered 1080p60 break-offs, seeds 135 and 140). Nothing is
    added when the white has any contact, when nothing moved (a miss), or when no strike was
    found. Run after the pots are read (:func:`~vision.events.exits.exits`).
    """
    sf, cfg = an.sf, an.cfg
    names = sf.ball_names
    if an.t_strike is None or "white" not in names or any("white" in c.balls for c in collisions):
        return []
    white = names.index("white")
    left: list[tuple[float, int]] = []
    for j in range(len(names)):
        found = None if j == white else _set_moving(an, j)
        if found is not None and found[0] > an.t_strike:
            left.append((found[0], j))
    if not left:
        return []
    t0 = min(t for t, _ in left)
    first = [j for t, j in left if t <= t0 + 2.0 * cfg.dt]
    seen = np.flatnonzero(sf.seen[:, white] & (sf.times <= t0))
    at = sf.position[seen[-1], white] if len(seen) else sf.start[white]
    if np.all(np.isfinite(at)):
        j = min(first, key=lambda b: float(np.hypot(*(sf.start[b] - at))))
    else:
        j = min(left)[1]
    # (No break is put in either ball's path: neither path was read across the contact, and a
    # break at the white's would have its pace, read before it, be a track on the cue.)
    return [Collision(t=t0, balls=white_first(names[white], names[j]))]
