"""What a "stroke" that was no stroke was: the white placed by hand, or re-found by the tracker.

The event inference (:class:`vision.events.infer.EventInferer`) buffers every movement of the
white off its spot as a stroke; once the balls rest, these tests say whether the white got
where it ends as no struck ball does: rolled about the D by a hand while in hand, or there
without a path (a jump in one frame touching nothing, a leap off its spot onto a hand, seen only
at both ends with a gap between). Then the stroke is a ``place`` (or nothing, back on its
spot). Kept apart because it is one judgement with its own physics (how far a ball that left
at a given speed must roll), read once per stroke.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from adjudicator.eventlog import Collision, Cushion, InputEvent, Place, Pot, Strike
from vision.events.buffer import TrackFrame, still_mean
from vision.events.config import MAX_BALL_SPEED, EventConfig, least_slide_mm
from vision.tracks import TrackState

FloatArray = npt.NDArray[np.float64]


def _balls_of(e: InputEvent) -> tuple[str, ...]:
    """The balls an event names (none for a strike or a rest)."""
    if isinstance(e, Collision):
        return e.balls
    if isinstance(e, Cushion | Pot | Place):
        return (e.ball,)
    return ()


@dataclass(frozen=True)
class Replaced:
    """The judgement for one stroke's end.

    Attributes:
        cfg: the thresholds.
        names: the balls' event-log names, in the tracks' column order.
        rest: ``(B, 2)`` where each ball rested when the stroke began (NaN: not on the cloth).
        white: the white's column (-1: no white tracked).
        in_hand: whether the white was in hand when the stroke began (placed since the last
            stroke: Section 3 Rule 9(c), it may be moved about the D until played).
    """

    cfg: EventConfig
    names: Sequence[str]
    rest: FloatArray
    white: int
    in_hand: bool

    def rolled_in_hand(self, events: Sequence[InputEvent], window: Sequence[TrackFrame]) -> FloatArray | None:
        """The white's new position when a "stroke" was a hand rolling the white in hand
        about the D: it was placed there since the last stroke (Section 3 Rule 9(c): in hand
        it may be moved until played), it touched nothing, and it stopped inside the D. A
        real stroke that touches nothing and stays in the D is not told apart (it would be a
        foul with no ball hit: a rare weak miss)."""
        w = self.white
        if w < 0 or not self.in_hand or any(not isinstance(e, Strike) for e in events):
            return None
        mean = still_mean(self.cfg, window, w, min_seen=1)
        tol = self.cfg.still_mm
        if mean is None or np.isnan(self.rest[w, 0]):
            return None
        table = self.cfg.table
        start = self.rest[w]
        if not (
            table.in_d(float(mean[0]), float(mean[1]), tol=tol)
            and table.in_d(float(start[0]), float(start[1]), tol=tol)
        ):
            return None
        return mean

    def jumped(
        self, events: Sequence[InputEvent], frames: Sequence[TrackFrame], window: Sequence[TrackFrame]
    ) -> FloatArray | None:
        """The white's new position when it got there without a path: no ball on cloth does.

        Struck, it leaves at a speed that carries it many times one frame's travel (friction
        takes at most ``SLIDING_FRICTION * g``), so half or more of its whole move made in a
        single frame, touching nothing, is the tracker re-finding it (a track stuck while the
        white crept on, a centroid pulled by the cue and let go). And a white seen only where
        it stood and where it ends, out of sight in between, was carried there by a hand
        (the white in hand put down, then moved; a hand settles it within half a radius,
        and moves no other ball).
        The new position is passed on as a ``place`` so the referee's positions (and
        touching) follow.
        """
        w = self.white
        if w < 0 or np.isnan(self.rest[w, 0]):
            return None
        mean = still_mean(self.cfg, window, w, min_seen=1)
        if mean is None:
            return None
        cfg = self.cfg
        total = float(np.hypot(*(mean - self.rest[w])))
        if total <= cfg.place_mm:
            # Left its spot by half a radius (the strike test) and back on it, touching
            # nothing: a ball rolling free never turns back (a cue's draw slows it, no cue
            # gives the spin to reverse it), so the track left it, not the ball (a cue tip
            # over the white dragged its measured centre away and let go: a rendered clearance
            # called a miss on a white that never moved). A ball whose track went no ball's
            # way moved nothing (a rendered red-then-colour, seed 103, broadcast camera: the
            # green under the striker's arm, its track riding the arm about, "hit a cushion").
            # The white's own track too, or one that came back onto its spot too fast to stop
            # there: one that rode the hand re-spotting a colour out to a cushion and leapt
            # back (400 mm in three frames) onto the white, which never moved, "hit a cushion"
            # and read as a stroke that hit no ball (a rendered red-then-colour, seed 132).
            astray = {b for b in range(len(self.names)) if self._astray(b, frames)}
            if self._landed_dead(frames, mean):
                astray.add(w)
            touched = any(
                not isinstance(e, Strike) and not {self.names.index(n) for n in _balls_of(e)} <= astray
                for e in events
            )
            return mean if not touched and self._others_stayed(window, astray) else None
        seen = [f for f in frames if f.seen[w]]
        off = [float(np.hypot(*(f.position[w] - self.rest[w]))) > cfg.still_mm for f in seen]
        k = off.index(True) if any(off) else None  # its first sighting off the spot
        if k is not None:
            near_end = all(float(np.hypot(*(f.position[w] - mean))) <= cfg.strike_mm for f in seen[k:])
            if near_end and k > 0 and seen[k].index - seen[k - 1].index > 2 and self._others_stayed(window):
                return mean  # out of sight, then seen only about where it ends: carried
        if self._white_touched(events, frames, mean):
            return None
        if k is not None and self._leapt(seen, k, mean) and self._others_stayed(window):
            return mean
        for a, b in itertools.pairwise(seen):
            if b.index - a.index != 1:
                continue
            step = float(np.hypot(*(b.position[w] - a.position[w])))
            if step >= max(2.0 * cfg.move_mm, 0.5 * total):
                after = [f.position[w] for f in seen if f.index >= b.index]
                if all(float(np.hypot(*(p - mean))) <= cfg.strike_mm for p in after):
                    return mean
                spread = max(float(np.hypot(*(p - b.position[w]))) for p in after)
                if spread < step - cfg.move_mm and self._stops_short(step - cfg.move_mm, spread):
                    return mean
        return None

    def _white_touched(
        self, events: Sequence[InputEvent], frames: Sequence[TrackFrame], end: FloatArray
    ) -> bool:
        """Whether anything can have stopped or turned the white in a stroke of ``events`` and
        ``frames`` that ended with the white at rest at ``end``: a contact of its own (a ball,
        a cushion, a pocket); a contact of a ball whose track went a ball's way, which only a
        contact sets moving (the white's, its track lost: Task2 clip 6); or a ball that rested
        before the stroke within a diameter and ``strike_mm`` of ``end`` (a white that stops
        dead behind the ball it hit, the contact unseen).

        Why not any contact: a ball whose track moved faster than any ball moves
        (:meth:`_astray`) was not followed by it, and its contacts are its track's (a
        rendered red-then-colour, seed 103: the green, lost on the green
        cloth and held still on a false blob, was re-found a metre off on its way to a cushion
        just as the white's frozen track caught up with it 38 mm on; the green's cushion kept
        that jump as a stroke, a foul and a miss).
        """
        w = self.white
        white = self.names[w]
        moved: set[str] = set()
        for e in events:
            if isinstance(e, Collision):
                if white in e.balls:
                    return True
                moved.update(e.balls)
            elif isinstance(e, Cushion | Pot):
                if e.ball == white:
                    return True
                moved.add(e.ball)
        if any(not self._astray(self.names.index(b), frames) for b in moved if b in self.names):
            return True
        others = np.arange(len(self.names)) != w
        d = np.hypot(*(self.rest[others] - end).T)
        return bool(np.any(d <= 2.0 * self.cfg.radius + self.cfg.strike_mm))

    def _astray(self, b: int, frames: Sequence[TrackFrame]) -> bool:
        """Whether ball ``b``'s track moved, somewhere in ``frames``, faster than any ball
        moves: between two of its sightings (its rest position counting as one at the first
        frame) by more than ``MAX_BALL_SPEED`` over the time between, and ``still_mm``. Such a
        track was somewhere it was not on its ball then (a ball lost on the green cloth and
        held on a false blob; a track that rode a player's arm about)."""
        pts = [(f.t, f.position[b]) for f in frames if f.seen[b]]
        if not np.isnan(self.rest[b, 0]) and frames:
            pts.insert(0, (frames[0].t, self.rest[b]))
        for (t0, p0), (t1, p1) in itertools.pairwise(pts):
            dt = max(t1 - t0, self.cfg.dt)
            if float(np.hypot(*(p1 - p0))) > self.cfg.still_mm + MAX_BALL_SPEED * dt:
                return True
        return False

    def _landed_dead(self, frames: Sequence[TrackFrame], end: FloatArray) -> bool:
        """Whether the white's track came back onto ``end`` (where it rests) by a step, per
        frame, that a ball cannot stop from where it landed touching nothing
        (:meth:`_stops_short`): the step from its last sighting over a diameter off ``end`` to
        the next. (Not the step to the first sighting that stays near: the track jitters a
        radius about a ball it has just landed on.)"""
        w = self.white
        seen = [f for f in frames if f.seen[w]]
        far = [float(np.hypot(*(f.position[w] - end))) > 2.0 * self.cfg.radius for f in seen]
        if not any(far) or far[-1]:
            return False
        k = len(far) - 1 - far[::-1].index(True)
        a, b = seen[k], seen[k + 1]
        step = float(np.hypot(*(b.position[w] - a.position[w]))) / max(b.index - a.index, 1)
        left = float(np.hypot(*(b.position[w] - end))) + self.cfg.strike_mm
        return self._stops_short(step - self.cfg.move_mm, left)

    def _stops_short(self, step_mm: float, left_mm: float) -> bool:
        """Whether a ball that moved ``step_mm`` in one frame cannot have stopped within
        ``left_mm`` of there, touching nothing: the cloth slows it by at most
        ``SLIDING_FRICTION * g``, so from speed ``v`` it goes ``v^2 / (2 mu g)`` further (the
        measurement's noise, ``still_mm``, allowed for).

        Why: a track re-measured a few pixels off a resting white jitters between where the
        measurements put it (a rendered in-off, seed 103: the white carried at rest where its
        creep was last measured, then measured 24 mm off by the whole-table search, 14 mm
        back by its own search and 29 mm off by the next settle), so its positions after the
        jump need not all lie within ``strike_mm`` of where it ends; but a white that left at
        24 mm a frame (1.4 m/s) rolls 0.3 m at least, never 10 mm. (The caller also wants the
        track after the jump to stay within the jump's own length of where it landed: a track
        back off the cue onto a white rolling slowly on is not a jump of the white's.)
        """
        if step_mm <= 0:
            return False
        return least_slide_mm(step_mm * self.cfg.fps) > left_mm + self.cfg.still_mm

    def _leapt(self, seen: Sequence[TrackFrame], k: int, end: FloatArray) -> bool:
        """Whether the white's track left its rest position (first off it at ``seen[k]``) faster
        than the ball then went on: its step off the spot (per frame, across any frames it went
        unmeasured) more than twice its next step, by more than the noise of both, and landing
        nearer ``end`` (where it comes to rest) than half its whole move, in a stroke that
        touched nothing. (A track
        that jumps onto the cue behind the white and comes back to follow the ball lands
        elsewhere: that stroke stands.)

        Why: between contacts only the cloth slows a ball, by at most ``SLIDING_FRICTION * g``
        (a few millimetres a second in one frame), so a struck white's second step is nearly as
        long as its first. A track that jumps off the resting white onto a cue's tip or a
        bridge hand a few pixels away (the far end of a broadcast view: 40 cm in two frames)
        and then follows the hand about at a hand's pace did not follow a ball.
        """
        cfg = self.cfg
        w = self.white
        if k == 0 or k + 1 >= len(seen):
            return False
        a, b, c = seen[k - 1], seen[k], seen[k + 1]
        first = float(np.hypot(*(b.position[w] - a.position[w]))) / (b.index - a.index)
        then = float(np.hypot(*(c.position[w] - b.position[w]))) / (c.index - b.index)
        total = float(np.hypot(*(end - self.rest[w])))
        landed = float(np.hypot(*(b.position[w] - end))) < 0.5 * total
        return landed and first > 2.0 * then + 2.0 * cfg.move_mm

    def _others_stayed(self, window: Sequence[TrackFrame], astray: set[int] | None = None) -> bool:
        """Whether the white was in hand (only a hand moves it then) or every other ball
        still rests where it rested before: a white lost for its whole roll that stopped
        dead behind the ball it hit moved that ball; a hand moves nothing else. A ball unseen
        through the window that the tracker still holds on the table (a red inside the pack)
        is where the tracker holds it; the balls ``astray`` (:meth:`_astray`) are left out."""
        if self.in_hand:
            return True
        for b in range(len(self.names)):
            if b == self.white or np.isnan(self.rest[b, 0]) or (astray is not None and b in astray):
                continue
            mean = still_mean(self.cfg, window, b, min_seen=1, creep=False)
            if mean is None and all(f.state[b] == TrackState.PREDICTED for f in window):
                mean = window[-1].position[b]
            if mean is None or float(np.hypot(*(mean - self.rest[b]))) > self.cfg.place_mm:
                return False
        return True
