"""Tracks in, event log out, one frame at a time.

:class:`EventInferer` is fed each frame's ball positions as the video plays and returns the
input events (``shared/spec/event-log.md``) as soon as they are decided, so ``baulkline track
VIDEO --events -`` can be piped into the referee. It alternates between two phases:

* **At rest.** Each ball's rest position is known. The white leaving its spot by more than
  :attr:`~vision.events.config.EventConfig.strike_mm`, still moving away, starts a stroke
  (a cue feathering moves it less and brings it back). A ball that settles somewhere new
  without a stroke (a colour re-spotted, the white put down in the D, a ball replaced) was
  put there by hand: a ``place`` once it has been still for the rest window.
* **Moving.** Frames are buffered until every ball has been still for the rest window (the
  hysteresis: noise never ends or restarts a stroke); a ball hidden while still moving holds
  the rest up until it is seen again or a timeout passes. Then the buffered stroke is
  analysed (:mod:`vision.events.stroke`) with samples on both sides of every contact, and
  its ``strike``, contacts, pots and ``rest`` are returned together, as soon as the rest
  window (0.4 s) confirms that every ball stopped: the call comes under 0.5 s of video after
  the balls come to rest (issue 7). Only a gap of the white that is ambiguous against the
  touching threshold, with samples that vary enough for averaging to help, holds the rest
  for longer (up to 1.5 s) to average the noise down. A "stroke" in which the white got
  where it ends without a path (a jump in one frame, touching nothing: the tracker
  re-finding it; a leap off its spot onto a hand it then followed; or seen only at both ends
  with a gap between: a hand) is a ``place``, and one that ends back on its spot touching
  nothing (a cue tip dragged its track away and let go) is nothing at all.

The log starts with a ``frame_start`` holding the first still position seen (a white not on
the cloth is in hand; a white put down in the D after the video began is in hand at the start
and then ``place``d, however late the start is decided). Touching balls (Section 3 Rule 13)
are measured at each rest from the mean of the rest window's positions (noise shrinks by the
square root of its length) and reported when the gap is under
:attr:`~vision.events.config.EventConfig.touching_mm`; the gaps ride along as
``touching_gap_mm`` (unknown keys are ignored by readers).
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

import numpy as np
import numpy.typing as npt

from adjudicator.eventlog import FrameStart, InputEvent, Place, Rest
from calibration.table import TABLE, TableSpec, colour_of
from vision.events.analysis import white_first
from vision.events.appear import may_be_put
from vision.events.buffer import TrackFrame, still_mean
from vision.events.config import EventConfig
from vision.events.geometry import pocket_entry
from vision.events.kinematics import fit_motion
from vision.events.replaced import Replaced
from vision.events.stroke import StrokeFrames, analyse_stroke
from vision.tracks import Tracks, TrackState

FloatArray = npt.NDArray[np.float64]

#: Rest positions remembered per ball: a replacement (Section 3 Rule 14) puts the balls back
#: where they were before the last stroke, so a few strokes back is ample.
REMEMBERED_RESTS = 4


@dataclass(frozen=True)
class MeasuredRest(Rest):
    """A ``rest`` that also carries the measured gap (mm) of each ``touching`` pair, and
    ``settled_t``: when every ball was first found settled. The event's own ``t`` may be
    later (no earlier than the stroke's last contact, which balls creeping into each other
    can make in the rest window), so the rest-to-call latency is measured from this."""

    touching_gap_mm: tuple[float, ...] | None = None
    settled_t: float | None = None


def _xy(p: FloatArray) -> tuple[float, float]:
    return (round(float(p[0]), 2), round(float(p[1]), 2))


class Phase(Enum):
    """Where the inferer is between strokes."""

    STARTING = "starting"
    AT_REST = "at_rest"
    MOVING = "moving"


class EventInferer:
    """Online event inference from per-frame ball positions.

    Args:
        ball_names: event-log names of the tracked balls, in the column order of ``update``.
        table: table geometry.
        fps: frame rate (sets every time-based threshold, see :class:`EventConfig`).
        noise_mm: the tracker's position noise (one standard deviation, mm).
        bias_mm: the tracker's systematic error of a resting ball's position (mm; see
            :meth:`EventConfig.derive`).
        players: names for the ``frame_start``.
        striker: who is to play first (0 or 1).
        config: explicit thresholds, overriding ``table``, ``fps``, ``noise_mm`` and ``bias_mm``.
    """

    def __init__(
        self,
        ball_names: Sequence[str],
        table: TableSpec = TABLE,
        fps: float = 30.0,
        noise_mm: float = 1.0,
        bias_mm: float = 0.0,
        players: tuple[str, str] = ("Player 1", "Player 2"),
        striker: int = 0,
        config: EventConfig | None = None,
    ) -> None:
        for name in ball_names:
            colour_of(name)
        self.names = tuple(ball_names)
        self.cfg = config or EventConfig.derive(table, fps, noise_mm, bias_mm)
        self.players = players
        self.striker = striker
        self.phase = Phase.STARTING
        self.rest = np.full((len(self.names), 2), np.nan)
        # Per ball: its last rest positions (where a replacement after a foul puts it back).
        self._rested: list[deque[FloatArray]] = [deque(maxlen=REMEMBERED_RESTS) for _ in self.names]
        self._frames: list[TrackFrame] = []
        self._stroke_from = 0
        # Index in the buffer where every ball was first found settled, and their means then.
        self._settled_at: int | None = None
        self._settle_mean = np.full((len(self.names), 2), np.nan)
        # Whether the white was put down by hand since the last stroke (in hand: a hand may
        # still roll it about the D, which is no stroke).
        self._in_hand = False
        self._t_last = 0.0
        # Per ball: consecutive unmeasured frames now, and whether it has been out of sight
        # (or jumped) since its rest position was last set: only such a ball can be placed.
        self._unseen_run = np.zeros(len(self.names), dtype=np.int64)
        self._handled = np.zeros(len(self.names), dtype=bool)
        # Of those, the balls out of sight for two frames and more (a hand over them), as
        # against seen to jump (a re-measured centre): only a hand moves a white in hand.
        self._hidden = np.zeros(len(self.names), dtype=bool)
        self._white = self.names.index("white") if "white" in self.names else -1
        # Per ball: not on the table in the clip's first frame (set by the first ``update``).
        self._absent_at_open: npt.NDArray[np.bool_] | None = None
        self._keep = max(self.cfg.rest_frames, self.cfg.fit_frames) + math.ceil(5.0 * self.cfg.fps)

    # ---- public API ----------------------------------------------------------------------
    def update(
        self,
        frame_index: int,
        t: float,
        positions: FloatArray,
        states: npt.NDArray[np.integer],
        hidden: FloatArray | None = None,
    ) -> list[InputEvent]:
        """Feed one frame; returns the events decided by it (often none).

        Args:
            frame_index: the video frame number.
            t: its time (s), increasing.
            positions: ``(B, 2)`` table mm (NaN where absent).
            states: ``(B,)`` :class:`~vision.tracks.TrackState` values.
            hidden: ``(P,)`` share of each pocket's approach hidden from the camera in this
                frame (:class:`vision.events.pocket_view.PocketView`, pockets in the order of
                the table's), or ``None`` when not measured. With it, a ball lost short of a
                mouth it was rolling into, in plain view, can be found potted; and a track
                into a pocket a player covers is not.
        """
        b = len(self.names)
        pos = np.asarray(positions, dtype=np.float64)
        st = np.asarray(states).astype(np.int8)
        if pos.shape != (b, 2) or st.shape != (b,):
            raise ValueError(f"frame {frame_index}: positions must be ({b}, 2) and states ({b},)")
        if self._frames and t <= self._frames[-1].t:
            raise ValueError(f"frame {frame_index}: time {t} does not increase")
        lost = np.isnan(pos).any(axis=1) & (st != TrackState.ABSENT)
        st = np.where(lost, TrackState.ABSENT, st).astype(np.int8)
        view = None
        if hidden is not None:
            view = np.asarray(hidden, dtype=np.float64)
            if view.shape != (len(self.cfg.table.pockets),):
                raise ValueError(
                    f"frame {frame_index}: hidden must have shape ({len(self.cfg.table.pockets)},), "
                    f"got {view.shape}"
                )
        frame = TrackFrame(frame_index, float(t), pos, st, view)
        if self._absent_at_open is None:
            self._absent_at_open = st == TrackState.ABSENT
        prev = self._frames[-1] if self._frames else None
        self._frames.append(frame)
        self._unseen_run = np.where(frame.seen, 0, self._unseen_run + 1)
        self._handled |= self._unseen_run >= 2
        self._hidden |= self._unseen_run >= 2
        if prev is not None:
            both = prev.seen & frame.seen
            step = np.hypot(*(frame.position - prev.position).T)
            self._handled |= both & (step > self.cfg.place_mm)
        if self.phase is Phase.STARTING:
            out = self._starting()
        elif self.phase is Phase.AT_REST:
            out = self._at_rest()
        else:
            out = self._moving(force=False)
        if self.phase is not Phase.MOVING and len(self._frames) > self._keep:
            del self._frames[: len(self._frames) - self._keep]
        return self._stamp(out)

    def finish(self) -> list[InputEvent]:
        """The video ended: close what is open (a stroke still moving gets its rest)."""
        if not self._frames:
            return []
        if self.phase is Phase.STARTING:
            return self._stamp(self._start_event(self._frames, force=True))
        if self.phase is Phase.MOVING:
            return self._stamp(self._moving(force=True))
        return []

    # ---- phases --------------------------------------------------------------------------
    def _window(self) -> list[TrackFrame]:
        return self._frames[-self.cfg.rest_frames :]

    def _starting(self) -> list[InputEvent]:
        if len(self._frames) < self.cfg.rest_frames:
            return []
        out = self._start_event(self._window(), force=False)
        return out or self._start_on_strike()

    def _start_on_strike(self) -> list[InputEvent]:
        """The frame start and the stroke when the white is struck before any opening window
        passed the still test. The creep test fails on noise alone about once in a hundred
        windows, so a few failures running are rare but happen; a clip that begins shortly
        before a stroke (a 1.2 m/s full-ball hit half a second in) then lost its whole stroke
        and started the frame only where the balls next stopped. The white's spot is the
        median of its last opening window before the two newest frames, and at least half a
        window of its sightings lie within the still radius of it (a white carried about in a
        hand has no spot, and its leaving one is no stroke); it was struck when it leaves that
        spot as it would leave a rest position (see ``_at_rest``), and the frame
        starts from the frames before it left (so a clip may open as little as 0.2 s before a
        stroke). A clip that opens with the white rolling has
        no such spot to come back to and waits for the next rest as before."""
        cfg = self.cfg
        w = self._white
        n = cfg.rest_frames
        frames = self._frames
        if w < 0 or len(frames) < 3 or not (frames[-1].seen[w] and frames[-2].seen[w]):
            return []
        pts = np.array([f.position[w] for f in frames[max(0, len(frames) - n - 2) : -2] if f.seen[w]])
        if len(pts) < (n + 1) // 2:
            return []
        spot = np.median(pts, axis=0)
        if int(np.sum(np.hypot(*(pts - spot).T) <= cfg.still_mm)) < (n + 1) // 2:
            return []  # no spot: a white carried about in a hand, never still (a 60 fps break-off)
        d = float(np.hypot(*(frames[-1].position[w] - spot)))
        d_prev = float(np.hypot(*(frames[-2].position[w] - spot)))
        if not (d > cfg.strike_mm and cfg.move_mm < d_prev < d):
            return []
        k = len(frames) - 2
        while k > 0 and not (
            frames[k - 1].seen[w] and float(np.hypot(*(frames[k - 1].position[w] - spot))) <= cfg.move_mm
        ):
            k -= 1
        if k == 0:
            return []
        out = self._start_event(frames[max(0, k - n) : k], force=True)
        self._begin_stroke()
        return out

    def _start_event(self, window: Sequence[TrackFrame], force: bool) -> list[InputEvent]:
        positions: dict[str, tuple[float, float]] = {}
        placed: list[InputEvent] = []
        for b, name in enumerate(self.names):
            mean = still_mean(self.cfg, window, b, min_seen=(len(window) + 1) // 2)
            if mean is None:
                if all(not f.seen[b] for f in window):
                    last = window[-1]
                    if last.state[b] == TrackState.PREDICTED and not force:
                        return []  # hidden: wait until it shows
                    if last.state[b] == TrackState.PREDICTED:
                        mean = last.position[b]
                    else:
                        continue
                elif not force:
                    return []
                else:
                    mean = still_mean(self.cfg, window, b, min_seen=1, creep=False)
                    if mean is None:
                        mean = next(f.position[b] for f in reversed(window) if f.seen[b])
            self._set_rest(b, mean)
            if self._put_in_hand(b, mean):
                placed.append(Place(t=window[0].t, ball=name, position=_xy(mean)))
            else:
                positions[name] = _xy(mean)
        reds = sum(1 for nm in self.names if nm.startswith("red"))
        self.phase = Phase.AT_REST
        if placed:
            self._in_hand = True
            self._handled[self._white] = self._hidden[self._white] = False
        return [
            FrameStart(
                t=window[0].t,
                players=self.players,
                striker=self.striker,
                reds=reds if reds in (6, 10, 15) else 15,
                positions=positions,
            ),
            *placed,
        ]

    def _set_rest(self, b: int, mean: FloatArray) -> None:
        """Ball ``b`` at rest at ``mean`` (remembered among its last rest positions)."""
        self.rest[b] = mean
        if np.all(np.isfinite(mean)):
            self._rested[b].append(np.array(mean, np.float64))

    def _may_be_put(self, b: int, mean: FloatArray) -> bool:
        """Whether a hand may have put ball ``b``, with no rest position known, down at
        ``mean``: on a spot or its spotting line, or where it rested before
        (:func:`vision.events.appear.may_be_put`; a measurement's tolerance of
        ``replace_mm``)."""
        colour = colour_of(self.names[b])
        return may_be_put(self.cfg.table, colour, mean, self.cfg.replace_mm, self._rested[b])

    def _put_in_hand(self, b: int, mean: FloatArray) -> bool:
        """Whether ball ``b``, found at rest at ``mean`` when the frame start is decided, was
        put down from in hand after the video began, so that the frame starts with the white
        in hand and a ``place`` puts it there (the contract: a white absent from ``positions``
        is in hand; a ``place`` is a ball put on the table by hand).

        Why: the frame start waits for a still window with every ball in sight, and a clip
        may open before a break-off's white is put in the D (or a ball the tracker holds
        hidden, the apex red behind the pink, can hold the start up until a hand has put it
        down): the white then sat in the start's positions as if it had been on the table
        all along. Only the white counts, and only inside the D, where a hand puts it from in
        hand (Section 3 Rule 5): a white found elsewhere was on the table with something
        over it as the clip opened, and a colour the detector misses in the first frame and
        finds later on its spot (green on green cloth) was there all along.
        """
        if b != self._white or self._absent_at_open is None or not self._absent_at_open[b]:
            return False
        return self.cfg.table.in_d(float(mean[0]), float(mean[1]), tol=self.cfg.still_mm)

    def _at_rest(self) -> list[InputEvent]:
        cfg = self.cfg
        w = self._white
        frames = self._frames
        cur = frames[-1]
        if w >= 0 and not np.isnan(self.rest[w, 0]) and cur.seen[w]:
            d = float(np.hypot(*(cur.position[w] - self.rest[w])))
            prev = next((f for f in reversed(frames[:-1]) if f.seen[w]), None)
            if prev is not None and d > cfg.strike_mm:
                d_prev = float(np.hypot(*(prev.position[w] - self.rest[w])))
                if cfg.move_mm < d_prev < d:
                    self._begin_stroke()
                    return []
                if d > 2.0 * cfg.radius and self._unseen_while_on(frames, prev):
                    # Lost while it moved (motion blur, a cue arm over it) and found a ball's
                    # width away: it was struck. A white picked up by hand is absent instead.
                    self._begin_stroke()
                    return []
        if self._rolling_off(frames):
            self._begin_stroke()
            return []
        out: list[InputEvent] = []
        if len(frames) < cfg.rest_frames:
            return out
        window = self._window()
        for b, name in enumerate(self.names):
            if all(f.state[b] == TrackState.ABSENT for f in window):
                self.rest[b] = np.nan  # picked up (a colour to re-spot, the white in hand)
                continue
            mean = still_mean(self.cfg, window, b, min_seen=(len(window) + 1) // 2)
            if mean is None:
                continue
            moved = float(np.hypot(*(mean - self.rest[b]))) if not np.isnan(self.rest[b, 0]) else np.inf
            # A white in hand goes where the hand puts it, out of sight under the hand; a ball
            # on the cloth found within a radius of its spot, or a white in hand seen all along,
            # was measured again, not moved (``replace_mm``).
            by_hand = self._in_hand and b == self._white and self._hidden[b]
            far = cfg.place_mm if by_hand else cfg.replace_mm
            if moved > cfg.place_mm:
                if np.isinf(moved) and not self._may_be_put(b, mean):
                    continue  # no hand puts it there: not a ball (see vision.events.appear)
                if np.isinf(moved) or (self._handled[b] and moved > far):
                    out.append(Place(t=window[0].t, ball=name, position=_xy(mean)))
                    self._in_hand |= b == self._white
                self._set_rest(b, mean)
                self._handled[b] = self._hidden[b] = False
            elif self._handled[b] and self._unseen_run[b] == 0:
                self._handled[b] = self._hidden[b] = False
        return out

    def _rolling_off(self, frames: Sequence[TrackFrame]) -> bool:
        """Whether a ball other than the white is rolling away from its rest position (over
        half a radius from it, further at each of its last three sightings, by more than
        the noise each time) while the white's track stays put: the white was struck and
        its track did not follow (stuck on its spot, lost in its streak), for nothing but a
        contact sets a ball at rest rolling. A hand lifts a ball to re-spot it (absent),
        and a track that jumps onto something else does so in one frame."""
        cfg = self.cfg
        if len(frames) < 3:
            return False
        last = frames[-3:]
        if any(g.index - f.index != 1 for f, g in itertools.pairwise(last)):
            return False
        for b in range(len(self.names)):
            if b == self._white or np.isnan(self.rest[b, 0]) or not all(f.seen[b] for f in last):
                continue
            d = [float(np.hypot(*(f.position[b] - self.rest[b]))) for f in last]
            if d[-1] > cfg.strike_mm and cfg.move_mm < d[0] and d[1] - d[0] > cfg.move_mm < d[2] - d[1]:
                return True
        return False

    def _unseen_while_on(self, frames: Sequence[TrackFrame], prev: TrackFrame) -> bool:
        """Whether the white went unmeasured between ``prev`` and the newest frame while the
        tracker still held it on the table (predicted, never absent)."""
        w = self._white
        k = len(frames) - 2
        between = []
        while k >= 0 and frames[k] is not prev:
            between.append(frames[k])
            k -= 1
        return bool(between) and all(f.state[w] == TrackState.PREDICTED for f in between)

    def _begin_stroke(self) -> None:
        """Mark where the stroke's buffer starts: a few still frames before the white left."""
        w = self._white
        k = len(self._frames) - 1
        while k > 0:
            f = self._frames[k - 1]
            if f.seen[w] and float(np.hypot(*(f.position[w] - self.rest[w]))) <= self.cfg.move_mm:
                break
            k -= 1
        self._stroke_from = max(0, k - self.cfg.fit_frames - 1)
        self._refresh_starts(k)
        self.phase = Phase.MOVING

    def _refresh_starts(self, k: int) -> None:
        """Move each object ball's rest position to where its last still samples before
        frame ``k`` (the white's last frame on its spot) put it, when those lie more than the
        noise (``move_mm``) and no more than a radius (``replace_mm``) off it.

        Why: a rest position is only replaced at rest when a whole window's mean lies over
        ``place_mm`` from it, so a track that a hand pulled off a ball and let go back in
        steps under that keeps the pulled position as the ball's start (a rendered in-off,
        seed 114: the hand that put the white in the D pulled a red 13 mm, and back in two
        7 mm steps; its departure, fitted from the wrong start, came 150 ms before the
        strike and its contact with the white was lost). The samples are taken before the
        white left, so a ball the white rolls into keeps its start (a nudge is not a
        re-measurement).
        """
        cfg = self.cfg
        before = self._frames[max(0, k - cfg.fit_frames) : k]
        if len(before) < cfg.fit_frames:
            return
        for b in range(len(self.names)):
            if b == self._white or np.isnan(self.rest[b, 0]) or not all(f.seen[b] for f in before):
                continue
            mean = still_mean(self.cfg, before, b, min_seen=len(before))
            if mean is not None and cfg.move_mm < float(np.hypot(*(mean - self.rest[b]))) <= cfg.replace_mm:
                self.rest[b] = mean

    def _settled(self, b: int, frames: Sequence[TrackFrame], window: Sequence[TrackFrame]) -> bool:
        """Whether ball ``b`` no longer holds up the rest."""
        cfg = self.cfg
        n_seen = sum(1 for f in window if f.seen[b])
        if n_seen > 0:
            # (Its own scatter sets the creep test: see still_mean.)
            mean = still_mean(self.cfg, window, b, min_seen=max(2, (len(window) + 1) // 2), own_scatter=True)
            return mean is not None
        seen = [f for f in frames if f.seen[b]]
        if not seen:
            return True
        if frames[-1].t - seen[-1].t > cfg.hide_timeout_s:
            return True
        last = seen[-cfg.fit_frames :]
        if len(last) < 2:
            return True
        ts = np.array([f.t for f in last])
        m = fit_motion(ts, np.array([f.position[b] for f in last]), cfg.noise_mm, cfg.accel_prior)
        if m is None:
            return True
        speed = float(np.hypot(*m.velocity(last[-1].t)))
        if speed * cfg.dt < cfg.move_mm:
            return True  # it was still when it was hidden
        horizon = 3.0 * cfg.dt
        reach = speed * horizon + cfg.radius
        return pocket_entry(m, last[-1].t, last[-1].t + horizon, cfg.table, reach) is not None

    def _moving(self, force: bool) -> list[InputEvent]:
        cfg = self.cfg
        end = len(self._frames)
        if not force:
            if self._settled_at is None:
                frames = self._frames[self._stroke_from :]
                if len(frames) < 2 * cfg.rest_frames:
                    return []
                window = self._window()
                long = frames[-1].t - frames[0].t > cfg.max_stroke_s
                on = [
                    b
                    for b in range(len(self.names))
                    if not np.isnan(self.rest[b, 0]) or any(f.seen[b] for f in frames)
                ]
                if not long and not all(self._settled(b, frames, window) for b in on):
                    return []
                self._settled_at = len(self._frames) - len(window)
                self._settle_mean = np.array(
                    [self._mean_or_nan(window, b) for b in range(len(self.names))]
                ).reshape(-1, 2)
            if self._changed():
                end -= 1  # that frame belongs to what comes next (a stroke, a hand)
            elif end - self._settled_at < cfg.touch_frames and self._touch_ambiguous(
                self._frames[self._settled_at : end]
            ):
                return []  # balls at rest stay put: average longer for an ambiguous gap
        settled_at = self._settled_at if self._settled_at is not None else end - cfg.rest_frames
        settled_at = max(self._stroke_from, min(settled_at, end - 1))
        frames = self._frames[self._stroke_from : end]
        window = self._frames[settled_at:end]
        sf = StrokeFrames(
            ball_names=self.names,
            times=np.array([f.t for f in frames]),
            position=np.array([f.position for f in frames]),
            seen=np.array([f.seen for f in frames]),
            absent=np.array([f.state == TrackState.ABSENT for f in frames]),
            start=self.rest.copy(),
            hidden=self._hidden_of(frames),
        )
        outcome = analyse_stroke(sf, cfg, final_window=len(window), t_min=self._t_last)
        events: list[InputEvent] = list(outcome.events)
        w = self._white
        # Was it a stroke at all? (see vision.events.replaced)
        judge = Replaced(self.cfg, self.names, self.rest, self._white, self._in_hand)
        rolled = judge.rolled_in_hand(outcome.events, window)
        if rolled is None:
            rolled = judge.jumped(outcome.events, frames, window)
        if rolled is not None:
            # The white in hand nudged round the D by a hand, or re-found by the tracker a
            # jump away: a placement, not a stroke. Back where it rested, nothing happened;
            # and as at rest (``_at_rest``), a white seen all along moved only by a hand that
            # hid it: within a radius it was measured again (a cue tip over it).
            near = cfg.place_mm if self._in_hand and self._hidden[w] else cfg.replace_mm
            back = float(np.hypot(*(rolled - self.rest[w]))) <= near
            self.rest[w] = rolled
            self.phase = Phase.AT_REST
            self._frames = self._frames[-cfg.rest_frames :]
            self._stroke_from = 0
            self._settled_at = None
            self._handled[:] = False
            self._hidden[:] = False
            if back:
                return []
            return [Place(t=max(window[0].t, self._t_last), ball="white", position=_xy(rolled))]
        positions: dict[str, tuple[float, float]] = {}
        for b, name in enumerate(self.names):
            if name in outcome.gone:
                self.rest[b] = np.nan
                continue
            mean = still_mean(self.cfg, window, b, min_seen=1)
            if mean is None:
                seen = [f for f in frames if f.seen[b]]
                if frames[-1].state[b] == TrackState.PREDICTED:
                    mean = frames[-1].position[b]
                elif seen:
                    mean = seen[-1].position[b]
                elif not np.isnan(self.rest[b, 0]):
                    mean = self.rest[b]
                else:
                    continue
            if np.isnan(self.rest[b, 0]) and not self._may_be_put(b, mean):
                # Off the table as the stroke began and come to rest away from every place a
                # hand puts it: no ball (see vision.events.appear).
                continue
            self._set_rest(b, mean)
            positions[name] = _xy(mean)
        t_rest = max(window[0].t, events[-1].t if events else 0.0)
        # Settled from the window's first frame: t_rest is never earlier, so never after it.
        rest = self._rest_event(t_rest, positions)
        events.append(dataclasses.replace(rest, settled_t=window[0].t))
        self._handled[:] = False
        self._hidden[:] = False
        self.phase = Phase.AT_REST
        self._frames = self._frames[-cfg.rest_frames :]
        self._stroke_from = 0
        self._settled_at = None
        self._in_hand = False
        return events

    def _hidden_of(self, frames: Sequence[TrackFrame]) -> FloatArray | None:
        """The stroke's ``(F, P)`` hidden shares (NaN in frames without them), or ``None``
        when no frame of it was measured."""
        if all(f.hidden is None for f in frames):
            return None
        none = np.full(len(self.cfg.table.pockets), np.nan)
        return np.array([none if f.hidden is None else f.hidden for f in frames])

    def _touch_ambiguous(self, frames: Sequence[TrackFrame]) -> bool:
        """Whether a gap between the white and another ball, measured from ``frames``, lies
        within ``touch_band_sigmas`` of its own noise of the touching threshold: only then is
        waiting for more frames worth the latency (see ``EventConfig.touch_band_sigmas``)."""
        cfg = self.cfg
        w = self._white
        if w < 0 or cfg.noise_mm <= 0:
            return False
        wm = still_mean(self.cfg, frames, w, min_seen=1)
        if wm is None:
            return False
        var_w = self._scatter(frames, w)
        for b in range(len(self.names)):
            if b == w:
                continue
            bm = still_mean(self.cfg, frames, b, min_seen=1)
            if bm is None:
                continue
            gap = float(np.hypot(*(wm - bm))) - 2.0 * cfg.radius
            sigma = math.sqrt(var_w + self._scatter(frames, b))
            if abs(gap - cfg.touching_mm) < cfg.touch_band_sigmas * sigma:
                return True
        return False

    def _scatter(self, frames: Sequence[TrackFrame], b: int) -> float:
        """Variance (mm^2) of ball ``b``'s mean position over ``frames`` along any direction,
        from the scatter of its own samples: averaging more frames narrows a gap only as far
        as the samples vary. A tracker whose positions of a ball at rest hardly move from
        frame to frame (its error is a fixed offset, which no averaging removes) gains
        nothing by waiting, and the rest is not held up for it."""
        pts = np.array([f.position[b] for f in frames if f.seen[b]]).reshape(-1, 2)
        if len(pts) < 3:
            return self.cfg.noise_mm**2 / max(len(pts), 1)
        return float(np.mean(np.var(pts, axis=0, ddof=1))) / len(pts)

    def _mean_or_nan(self, frames: Sequence[TrackFrame], b: int) -> FloatArray:
        mean = still_mean(self.cfg, frames, b, min_seen=1)
        return np.full(2, np.nan) if mean is None else mean

    def _changed(self) -> bool:
        """Whether the newest frame shows something move since every ball settled: a ball seen
        away from its settled mean by more than the still radius, a settled ball lifted off
        the cloth, or a ball put down: the rest's averaging stops there."""
        cur = self._frames[-1]
        known = ~np.isnan(self._settle_mean[:, 0])
        d = np.hypot(*(cur.position - np.where(known[:, None], self._settle_mean, 0.0)).T)
        moved = cur.seen & known & (d > self.cfg.still_mm)
        lifted = known & (cur.state == TrackState.ABSENT)
        put = cur.seen & ~known
        return bool((moved | lifted | put).any())

    def _rest_event(self, t: float, positions: dict[str, tuple[float, float]]) -> MeasuredRest:
        """The rest, with every touching pair (the white's first: Section 3 Rule 13 is about
        those) measured from the window's mean positions."""
        names = list(positions)
        xy = np.array([positions[n] for n in names]).reshape(-1, 2)
        found: list[tuple[float, tuple[str, str]]] = []
        if len(names) > 1:
            i, j = np.triu_indices(len(names), 1)
            gap = np.hypot(*(xy[i] - xy[j]).T) - 2.0 * self.cfg.radius
            for k in np.flatnonzero(gap < self.cfg.touching_mm):
                a, b = names[int(i[k])], names[int(j[k])]
                pair = white_first(a, b)
                found.append((round(float(gap[k]), 2), pair))
        found.sort(key=lambda g: (g[1][0] != "white", g[1]))
        pairs = [p for _, p in found]
        gaps = [g for g, _ in found]
        return MeasuredRest(
            t=t,
            positions=positions,
            touching=tuple(pairs) if pairs else None,
            touching_gap_mm=tuple(gaps) if gaps else None,
        )

    def _stamp(self, events: list[InputEvent]) -> list[InputEvent]:
        """Keep time from going backwards across batches (the contract forbids it)."""
        out = []
        for e in events:
            if e.t < self._t_last:
                e = dataclasses.replace(e, t=self._t_last)
            self._t_last = e.t
            out.append(e)
        return out


def infer_tracks(
    tracks: Tracks, noise_mm: float = 1.0, hidden: FloatArray | None = None, **kwargs: Any
) -> list[InputEvent]:
    """The whole event log of a clip's tracks (the offline form of :class:`EventInferer`);
    ``hidden``: the ``(F, P)`` pocket views, if measured."""
    fps = tracks.fps if math.isfinite(tracks.fps) else 30.0
    inferer = EventInferer(tracks.ball_names, fps=fps, noise_mm=noise_mm, **kwargs)
    out: list[InputEvent] = []
    for i, t in enumerate(tracks.times):
        view = None if hidden is None else hidden[i]
        out.extend(inferer.update(i, float(t), tracks.position[i], tracks.state[i], view))
    out.extend(inferer.finish())
    return out
