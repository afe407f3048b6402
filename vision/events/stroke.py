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
   followed something else, then: the one next measured within reach. A white with no
   contact at all after a strike that set balls moving hit the ball that left its spot first.
4. **Pots** (:mod:`vision.events.exits`). A ball unseen at the end whose last fitted path
   crosses a pocket's mouth line heading in (not through a cushion's nose on the way) was
   potted in that pocket, unless its track gained speed on the way or went faster than the
   stroke gave any ball (twice the white's measured pace: a hand, not a ball), or a player
   covered that pocket's approach while the path was read or as it vanished
   (:mod:`vision.events.pocket_view`). One lost in the pocket's shade short of the mouth,
   rolling in at a speed that carries it there, is potted when the camera saw the approach
   clear until it would have dropped; so is one last seen at the jaws heading in, and one
   standing by a mouth that vanished as another ball touched it along a line into the
   mouth. One that vanished elsewhere (behind a player) is still on the table; one that
   stayed off the cloth past a mouth for a rest window was potted even if a track of its
   name shows up later (a ghost); one that the tracker says left the cloth near a cushion,
   moving out, went off the table.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from adjudicator.eventlog import Collision, Cushion, InputEvent, OffTable, Pot, Strike
from vision.events.analysis import Analysis, StrokeFrames
from vision.events.candidates import find_candidates
from vision.events.config import EventConfig
from vision.events.contacts import ball_contact, cushion_contact, estimate_time, strike_time
from vision.events.exits import exits
from vision.events.unseen import pushes, rolled_up, unseen_hits, white_unseen_first

__all__ = ["StrokeFrames", "StrokeOutcome", "analyse_stroke"]


@dataclass(frozen=True)
class StrokeOutcome:
    """What happened in a stroke.

    Attributes:
        events: strike, collisions, cushions, pots, off-tables, in time order.
        gone: balls potted or forced off the table in this stroke.
    """

    events: tuple[InputEvent, ...]
    gone: frozenset[str]


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
    an = Analysis(sf, cfg, breaks=[[] for _ in range(b)], cand_frames=[[] for _ in range(b)])
    cands = find_candidates(sf, cfg)
    for c in cands:
        for ball in c.balls:
            other = c.balls[0] + c.balls[-1] - ball if len(c.balls) == 2 else -1
            an.cand_frames[ball].append((c.k, other))
    events: list[InputEvent] = []
    white = sf.ball_names.index("white") if "white" in sf.ball_names else -1
    if white >= 0:
        first = min((k for k, _ in an.cand_frames[white]), default=len(sf.times))
        # Candidates touching the white before it left its spot (a ball it rests against).
        t_strike = strike_time(an, white, first)
        if t_strike is not None:
            t_strike = max(t_strike, t_min)
            events.append(Strike(t=t_strike))
            an.breaks[white].append(t_strike)
            an.t_strike = t_strike
    # In the order the contacts happened, not of the frames where the gaps were least: a
    # thin cut's closest sample comes after a fuller contact's made later in the same frame.
    order = sorted(cands, key=lambda c: (estimate_time(an, c), c.cushion is not None))
    for c in order:
        ev: InputEvent | None = ball_contact(an, c) if c.cushion is None else cushion_contact(an, c)
        if ev is not None and not _repeats(ev, events, 0.5 * cfg.dt):
            events.append(ev)
    events.extend(unseen_hits(an))
    events.extend(pushes(an, cands, final_window))
    events.extend(rolled_up(an, [e for e in events if isinstance(e, Collision)], final_window))
    events.extend(exits(an, final_window))
    events.extend(white_unseen_first(an, [e for e in events if isinstance(e, Collision)]))
    t_floor = events[0].t if events and isinstance(events[0], Strike) else t_min
    events = [e if e.t >= t_floor else _retime(e, t_floor) for e in events]
    events.sort(key=lambda e: (e.t, not isinstance(e, Strike)))
    events = _snap_simultaneous(events, cfg.simultaneous_mm, an.white_contact)
    # Once more after the retiming and the snapping: two contacts of one pair a frame or two
    # apart (a white resting against the ball it rolled into) can be snapped onto one instant.
    kept: list[InputEvent] = []
    for e in events:
        if not _repeats(e, kept, 0.5 * cfg.dt):
            kept.append(e)
    events = kept
    gone = frozenset(e.ball for e in events if isinstance(e, Pot | OffTable))
    return StrokeOutcome(events=tuple(events), gone=gone)


def _repeats(e: InputEvent, events: list[InputEvent], within: float) -> bool:
    """Whether collision ``e`` is one already found: the same pair within ``within`` seconds.
    Two balls resting against each other after a gentle contact give a candidate in every frame
    they stay within touching reach, and each candidate's fitted paths meet at the same instant
    (a rendered free-ball stroke logged one white-green contact fifteen times); two balls cannot
    part and meet again within a frame."""
    if not isinstance(e, Collision):
        return False
    return any(
        isinstance(o, Collision) and set(o.balls) == set(e.balls) and abs(o.t - e.t) < within for o in events
    )


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
