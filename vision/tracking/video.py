"""Driving the tracker through a video fast: detect only where something can have changed.

Why: detecting every ball in every 720p frame costs more than decoding it, and most of a
snooker video is balls at rest. Each frame is shrunk to a thumbnail and compared with the
previous one; a resting ball with no change around it is re-measured for free (its position
is carried as a measurement), a moving or disturbed ball is searched for only inside its
motion gate, and the whole table is searched periodically and whenever a ball is lost, so
births, re-acquisitions and lifted balls are still found.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Protocol, runtime_checkable

import cv2
import numpy as np
import numpy.typing as npt

from calibration.table import Colour
from vision.detection.detections import UNKNOWN, BallDetections, BallDetector
from vision.source import thumbnail
from vision.tracking.appearance import disc_appearance
from vision.tracking.local import search
from vision.tracking.motion import REFERENCE_FPS, frames_at
from vision.tracking.physics import Cushions
from vision.tracking.tracker import Tracker, TrackerState
from vision.tracks import TrackState

FloatArray = npt.NDArray[np.float64]
Image = npt.NDArray[np.uint8]

#: The event-log name of the cue ball, the one ball the cue touches.
CUE_BALL = Colour.WHITE.value


@dataclass(frozen=True)
class ScheduleConfig:
    """When and where to detect.

    Attributes:
        thumb: thumbnail scale for the change test (1/8: 160x90 for 720p).
        change: grey-level change (0..255) in the thumbnail that counts as motion.
        full_every: frames between whole-table detections (0: never periodically).
        margin_radii: ROI margin around a gate, in ball radii.
        rest_speed: speed (pixels per frame) under which a ball counts as at rest.
        lost_full: unseen frames after which a lost ball is no longer searched locally but by
            whole-table searches.
        lost_every: frames between whole-table searches while a ball is lost.
        cloth: Lab colour of the cloth for the local search (None: each window's median).
        streak_mix: smallest share of the ball's colour in a pixel when the ball is unseen or
            fast (a streak ``k`` diameters long gives each pixel about ``1/k``; 0.25 keeps a
            ball at four diameters a frame, 10 m/s at 60 fps).
        blur_radii: speed (ball radii per frame) from which a ball is searched as a streak
            (``streak_mix``); slower balls are searched with the resting share, which keeps
            a slow object ball off a cue or a hand beside it (on Task3, 0.5 lost clip 25's ball).
        hold_radii: a resting cue ball with motion around it, or an object ball no moving ball can
            reach (:meth:`VideoTracker._struck`), is measured where it rests unless it is found
            farther than this (ball radii) from there: a cue tip or a hand touching its
            blob drags the blob's centre by a fraction of a radius, and the stroke's first
            frame moves a struck ball more than that.
        strike_radii: farthest (ball radii) a cue ball that left its spot is looked for in the
            stroke's first frame (0: never): the strike falls inside the exposure, so the first
            frame shows at most part of a frame's travel; 5 keeps a 4 m/s stroke at 30 fps, and
            on Task3 a reach of 10 took the bridge hand's fingers for the white in two clips.
        side_decay: share of the remembered side of the changes round a disturbed resting cue ball
            kept per frame it is disturbed again (the latest, the cue's feathering, count most;
            a hand that placed the ball seconds before, least).
        pack_radii: centre distance (ball radii) within which two balls touch, for the pack test
            (:meth:`VideoTracker._packed`).
        pack_speed: fastest a ball in a pack is measured by the detector (ball radii a frame): faster
            it is blurred, a streak the detector does not find. Not scaled with the frame rate: the
            blur is the travel in one exposure, a frame.
        cover: weighted Lab distance (lightness counts half) from the cloth beside a resting
            ball at which its spot, with no ball measured there, counts as covered (see
            :meth:`VideoTracker._hidden`).
        purity: largest distance off the cloth-to-ball colour segment, as a share of the
            segment, of a blob taken for the departing cue ball (real footage: the ball's
            streak 0.06-0.14, fingers 0.34-0.43; synthetic: streak 0.02-0.12, cue 0.18-0.22).
        settle_every: frames between the detector's re-measurements of a ball that came to rest
            (see ``settle_for``).
        settle_for: frames after coming to rest during which a carried ball is re-measured
            every ``settle_every`` frames; each re-measurement that finds it moved by more than
            ``settle_move`` radii starts the count again. Why: a ball is carried as soon as its
            speed falls under ``rest_speed``, but a rolling ball that slow still creeps on
            (``v^2 / (2 mu g)``: a centimetre and more, at a pixel every few frames, too little
            to change the thumbnail), and the last centimetre is the one that decides whether
            the white ends touching a ball (a rendered roll-up to a red at 60 fps froze 10 mm
            short of it and lost the TOUCHING BALL).
        settle_move: smallest move (radii) of a re-measured resting ball taken as creeping: a
            few times the detector's frame-to-frame jitter on a still ball.
        settle_look: weighted Lab distance (lightness counts half) from a resting ball's
            remembered look within which a blob the colour model names otherwise is still taken
            for it when it settles: under the spread of one ball's look across the table, far
            under a hand's or a cue's distance from any ball's.
        settle_change: smallest grey-level change in the thumbnail round a carried ball, since the
            detector last re-measured it, for which it is re-measured again (``settle_for``):
            with the picture unchanged (within the codec's noise, 0-2 levels on the real
            broadcast clips) the detector would say what it said, and asking it again for every
            still ball cost 1.2 ms and more a 720p frame.
        roll_speed: speed (pixels per frame) from which an object ball counts as rolled, and is
            re-settled when it comes to rest (the cue ball only after its stroke's departure: a
            hand that places it moves it too, and a measurement dragged by the hand read as a
            stroke on a rendered clearance). At ``rest_speed``: 2.5 times it saved 1.2 ms a
            720p frame but froze a red creeping into a pocket (Task2 clip 23 lost its pot).
    """

    thumb: float = 0.125
    change: float = 12.0
    full_every: int = 30
    margin_radii: float = 2.0
    rest_speed: float = 0.4
    lost_full: int = 6
    lost_every: int = 3
    cloth: tuple[float, ...] | None = None
    streak_mix: float = 0.25
    hold_radii: float = 0.5
    blur_radii: float = 2.0
    strike_radii: float = 5.0
    purity: float = 0.2
    edge_radii: float = 3.0
    half_thickness: float = 0.3
    settle_radii: float = 0.8
    cover: float = 25.0
    side_decay: float = 0.9
    settle_every: int = 3
    settle_for: int = 30
    settle_move: float = 0.03
    roll_speed: float = 0.4
    settle_look: float = 10.0
    settle_change: float = 3.0
    pack_radii: float = 2.5
    pack_speed: float = 0.5

    def at_fps(self, fps: float) -> ScheduleConfig:
        """This schedule for video at ``fps``: search intervals kept in seconds and per-frame
        speeds and rates scaled from the 30 fps they were set on (see
        :meth:`vision.tracking.motion.MotionConfig.at_fps`). Not ``rest_speed``: it tells a ball
        at rest from the frame-to-frame jitter of its measured centre, which is as large a frame
        at any rate (halved at 60 fps, resting balls were searched instead of carried, and a
        rendered 1080p60 roll-up lost its contact)."""
        ratio = fps / REFERENCE_FPS
        k = 1.0 / ratio
        return replace(
            self,
            full_every=frames_at(self.full_every, fps) if self.full_every > 0 else 0,
            lost_full=frames_at(self.lost_full, fps),
            lost_every=frames_at(self.lost_every, fps),
            settle_every=frames_at(self.settle_every, fps),
            settle_for=frames_at(self.settle_for, fps),
            roll_speed=self.roll_speed * k,
            blur_radii=self.blur_radii * k,
            strike_radii=self.strike_radii * k,
            side_decay=self.side_decay**k,
        )


@runtime_checkable
class RestMeasurer(Protocol):
    """A detector that can re-measure the balls it found beside each other (see
    :meth:`vision.detection.classical.ClassicalDetector.remeasure`)."""

    def remeasure(
        self,
        image: Image,
        det: BallDetections,
        balls: FloatArray,
        radii: FloatArray,
        anchors: npt.NDArray[np.bool_],
    ) -> BallDetections:
        """``det`` with the detections of the ``anchors`` among the known ``balls`` (pixels and
        radii) re-measured beside the other known balls."""
        ...


class VideoTracker:
    """Detector + tracker + change test, one frame at a time.

    Args:
        detector: any :class:`~vision.detection.detections.BallDetector`.
        tracker: the tracker, seeded with the starting balls.
        schedule: the detection schedule.
        region: full-frame mask of the playing surface (None: search everywhere).
    """

    def __init__(
        self,
        detector: BallDetector,
        tracker: Tracker,
        schedule: ScheduleConfig | None = None,
        region: npt.NDArray[np.bool_] | None = None,
    ) -> None:
        self.detector = detector
        self.region = region
        self.tracker = tracker
        if region is not None and tracker.cushions is None:
            tracker.cushions = Cushions.from_mask(region)
        # Distance (pixels) of every pixel inside the playing surface to its edge.
        self._edge: npt.NDArray[np.float32] | None = (
            None
            if region is None
            else np.asarray(cv2.distanceTransform(region.astype(np.uint8), cv2.DIST_L2, 3), np.float32)
        )
        self.schedule = schedule or ScheduleConfig()
        # Per ball, the thumbnail of the frame it was last measured in (None: never): a ball is
        # carried as resting only while its surroundings still match that frame.
        self._ref: list[npt.NDArray[np.int16] | None] = [None] * len(tracker.state.names)
        # Per ball, the thumbnail of the frame the detector last re-measured it at rest in (see
        # ``settle_change``; None: not since it last moved).
        self._tried: list[npt.NDArray[np.int16] | None] = [None] * len(tracker.state.names)
        self._tried_at = np.full((len(tracker.state.names), 2), np.nan)
        self.frames = 0
        self.full_detections = 0
        self.roi_detections = 0
        self.local_searches = 0
        self.departed = np.zeros(len(tracker.state.names), bool)
        # Whether each ball, since it last came to rest, was measured by the detector (True) or
        # only by the colour search; and where the detector put it this frame (NaN: not asked).
        self._settled = np.zeros(len(tracker.state.names), bool)
        # Per ball, frames it has been carried since it last came to rest (re-settled while under
        # ``settle_for``), and whether it came to rest from rolling (only such a ball creeps on: a
        # ball carried since the video began, or searched only because a hand moved near it,
        # is where it was).
        self._resting = np.zeros(len(tracker.state.names), np.int64)
        self._rolled = np.zeros(len(tracker.state.names), bool)
        # Per ball, whether it was struck (the cue ball's departure found) since it last settled:
        # a cue ball rolls only after a stroke; before one, a hand moves it.
        self._struck_white = np.zeros(len(tracker.state.names), bool)
        # Per ball, where it was last carried at rest (NaN: not resting, or struck since): the
        # cue's tip, the player's hand and sleeve touch a resting ball's blob and drag every
        # measurement of it by a pixel or two, and measured afresh each frame from where the
        # last one put it, the drags added up (sample 05: the white crept 25 mm, a phantom
        # stroke; the pink followed the sleeve off the table). Held to this spot until it truly
        # leaves (struck, or moved by a hand more than ``hold_radii``).
        self._anchor = np.full((len(tracker.state.names), 2), np.nan)
        self._hold_at = np.full((len(tracker.state.names), 2), np.nan)
        # Per ball, frames it has been carried at its anchor since it first stopped there.
        self._anchor_age = np.zeros(len(tracker.state.names), np.int64)
        # Per cue ball, the spot its stroke left (NaN: none since it settled): a slow white's
        # heading, for the creep test, is from there (its measured velocity wobbles across).
        self._origin = np.full((len(tracker.state.names), 2), np.nan)
        self._heading = np.zeros((len(tracker.state.names), 2))
        self._settle_at = np.full((len(tracker.state.names), 2), np.nan)
        # Per ball, the summed pull of the changes round it while it rested disturbed (see
        # _change_pull): which side the cue and the hand came from.
        self._cue_side = np.zeros((len(tracker.state.names), 2))
        # Per ball, the cloth's Lab colour round it when it last came to rest (NaN: not known),
        # and whether it was carried at rest this frame.
        self._cloth_at = np.full((len(tracker.state.names), 3), np.nan)
        self._carried = np.zeros(len(tracker.state.names), bool)
        self._covered = np.zeros(len(tracker.state.names), bool)
        # This frame's detections of a cue ball found where it departed to (see _departure).
        self._left: list[BallDetections] = []

    def process(self, frame: Image, thumb: npt.NDArray[np.int16] | None = None) -> TrackerState:
        """Fold one BGR frame in; returns the tracker state after it.

        ``thumb``: the frame's :func:`thumbnail` at the schedule's scale when it is made already
        (the frame source's reader thread makes it, off this thread).
        """
        sch = self.schedule
        state = self.tracker.state
        if thumb is None:
            thumb = thumbnail(frame, sch.thumb)
        # Balls off the table (potted, in hand) come back through the periodic full search
        # only; a ball lost on the table triggers one at once.
        lost = (state.state != TrackState.ABSENT) & (state.unseen >= sch.lost_full)
        periodic = sch.full_every > 0 and self.frames % sch.full_every == 0
        self.frames += 1
        self.departed[:] = False
        self._settle_at[:] = np.nan
        self._left = []
        det, app, disturbed = self._local(frame, state, thumb)
        if periodic or (np.any(lost) and self.frames % sch.lost_every == 0):
            full = self.detector.detect(frame)
            # A resting ball beside another, measured from their pair's blob, re-measured beside
            # it (the event stage measures TOUCHING BALL from resting positions).
            full = self._beside(frame, full, np.hypot(state.vel[:, 0], state.vel[:, 1]) < sch.rest_speed)
            # The detector's centres come first so they win over the carried and searched ones
            # (it measures a resting ball to a fraction of a pixel; the colour search is biased
            # towards the lit side of a ball).
            # Which rows came from the whole-table search (the others from the balls' own).
            whole = np.r_[np.ones(len(full), bool), np.zeros(len(det), bool)]
            det = concat([full, det])
            app = np.concatenate([np.full((len(full), 3), np.nan), app])
            self.full_detections += 1
            if self._left:
                # Except a struck white's streak: the colour model calls a blurred white any
                # colour, and a colour the white is not would keep it unmatched.
                left = concat(self._left)
                det = concat([left, det])
                app = np.concatenate([np.full((len(left), 3), np.nan), app])
                whole = np.r_[np.zeros(len(left), bool), whole]
            # A whole-table detection where a ball's own search measured it, in the colour of a
            # ball off the table, keeps its centre but not its colour: the track already names the
            # ball, and the colour model calls a blurred white green at times (which then took the
            # white's place as a re-spotted green).
            gone = np.unique(state.colour[(state.state == TrackState.ABSENT) & (state.colour >= 0)])
            shadowed = _shadowed(det, whole) & np.isin(det.colour, gone)
            if np.any(shadowed):
                det = det.with_colour(np.where(shadowed, UNKNOWN, det.colour), det.confidence)
        keep = _dedupe(det)
        det, app = det[keep], app[keep]
        # A cue ball whose departure was found is not held: its streak's first frame can lie
        # nearer its spot than ``hold_radii`` (a gentle stroke), and put back there, the white
        # was found resting, re-measured off its spot and frozen there while it rolled on.
        disturbed &= ~self.departed
        det = hold(det, self._hold_at[disturbed], state.radius[disturbed] * sch.hold_radii)
        todo = ~np.all(np.isfinite(app), axis=1)
        if np.any(todo):
            app[todo] = disc_appearance(frame, det.pixel[todo], det.radius[todo])
        settled = np.all(np.isfinite(self._settle_at), axis=1)
        if np.any(settled):
            # The detector's centre replaces the searched one outright (no velocity from the step).
            st = self.tracker.state
            self.tracker.state = replace(
                st,
                pos=np.where(settled[:, None], self._settle_at, st.pos),
                vel=np.where(settled[:, None], 0.0, st.vel),
            )
        if np.any(self.departed):
            # The stroke's first frame: the white's gate must reach where its search found it.
            st = self.tracker.state
            unseen = np.where(self.departed, np.maximum(st.unseen, 1), st.unseen)
            self.tracker.state = replace(st, unseen=unseen)
        self._covered = self._hidden(frame, state)
        new = self.tracker.update(det, app, self._covered)
        # A ball found again after it was lost has no reference frame showing it where it is: the
        # white, re-found after a blurred run, was compared with a frame from before it got there,
        # found "undisturbed" and carried at that spot while it rolled on (synthetic 01_break_off).
        # Only a ball back from off the table: one missed for a while is mostly still where its
        # reference shows it, and searched instead of carried, resting balls drifted onto the
        # balls beside them (Task2 clips 9 and 18 lost their pots).
        found = (state.state == TrackState.ABSENT) & (new.state == TrackState.SEEN)
        for i in np.flatnonzero(found):
            self._ref[i] = None
        return new

    def _local(
        self, frame: Image, state: TrackerState, thumb: npt.NDArray[np.int16]
    ) -> tuple[BallDetections, FloatArray, npt.NDArray[np.bool_]]:
        """Resting undisturbed balls re-measured in place; the others searched in their gates.

        "Undisturbed" is judged against the frame the ball was last measured in, not the previous
        frame: a ball creeping to rest at a pixel a frame changes the thumbnail too little from
        one frame to the next, and compared frame to frame it was frozen where its speed first
        fell under ``rest_speed`` while it rolled on for half a diameter (Task3 clip 19).

        Returns the detections, their appearances (NaN: not measured yet) and which balls were
        at rest with motion around them (disturbed).
        """
        sch = self.schedule
        growth = self.tracker.config.motion.gate_growth  # radii a frame a lost ball's window grows
        disturbed = np.zeros(len(state.names), bool)
        speed = np.hypot(state.vel[:, 0], state.vel[:, 1])
        th, tw = thumb.shape
        parts: list[BallDetections] = []
        looks: list[FloatArray] = []
        # Balls carried at rest come first, so that they win the dedupe (see _dedupe) over a blob
        # another ball's search found on them: a lost ball's window grows by a diameter a frame
        # and its colour search (a red's) finds a resting brown, whose centre it measures off by
        # a pixel or two; taken for the brown, that set the brown moving and searching itself,
        # never still again while the red stayed lost (a rendered 1080p60 break-off).
        held: list[BallDetections] = []
        held_looks: list[FloatArray] = []
        rois: list[tuple[int, int, int, int]] = []
        # Windows of balls in a pack of their colour, by colour (see _packed).
        packs: dict[int, list[tuple[int, int, int, int]]] = {}
        cloth = None if sch.cloth is None else np.array(sch.cloth)
        self._carried[:] = False
        for i in range(len(state.names)):
            if state.state[i] == TrackState.ABSENT:
                continue
            u, v = state.pos[i]
            r = state.radius[i]
            self._hold_at[i] = state.pos[i]
            anchored = self._anchored(state, i)
            if anchored:
                self._hold_at[i] = self._anchor[i]
            reach = sch.margin_radii * r + 1.5 * speed[i]
            tx0, ty0 = int(max(0, (u - reach) * sch.thumb)), int(max(0, (v - reach) * sch.thumb))
            tx1, ty1 = int(min(tw, (u + reach) * sch.thumb + 1)), int(min(th, (v + reach) * sch.thumb + 1))
            still = speed[i] < sch.rest_speed and state.unseen[i] == 0
            ref = self._ref[i]
            quiet = ref is not None and not bool(
                (np.abs(thumb[ty0:ty1, tx0:tx1] - ref[ty0:ty1, tx0:tx1]) > sch.change).any()
            )
            if still and quiet:
                at = state.pos[i : i + 1]
                self._carried[i] = True
                if not self._settled[i]:
                    self._settled[i] = True
                    self._resting[i] = 0
                    self._cloth_at[i] = _ring(frame, at[0], float(r), self.region)
                    rested = self._settle(frame, i, at[0], float(r), int(state.colour[i]))
                    self._tried[i], self._tried_at[i] = thumb, state.pos[i]
                    if anchored and self._anchor_age[i] >= sch.settle_for:
                        # Long at rest there (an addressed white): the cue's tip by it drags the
                        # detector's centre too. Within its first ``settle_for`` frames at rest a
                        # ball may still creep on (sample 02's white, its stroke's departure
                        # unseen, froze 4 px short and then jumped: read as a hand placing it).
                        rested = self._anchor[i].copy()
                    if rested is not None:
                        at = rested[None, :]
                        self._settle_at[i] = rested
                elif (
                    self._rolled[i]
                    and self._resting[i] < sch.settle_for
                    and self._resting[i] % sch.settle_every == 0
                    and self._stirred(i, state.pos[i], thumb, (tx0, ty0, tx1, ty1))
                ):
                    rested = self._settle(frame, i, at[0], float(r), int(state.colour[i]))
                    self._tried[i], self._tried_at[i] = thumb, state.pos[i]
                    away = at[0] - self._origin[i]
                    if np.all(np.isfinite(away)) and float(np.hypot(*away)) > 0:
                        self._heading[i] = away / float(np.hypot(*away))
                    if rested is not None and _creeps(rested - at[0], self._heading[i], sch.settle_move * r):
                        # Still creeping: measured where it is now, watched from this frame on.
                        at = rested[None, :]
                        self._settle_at[i] = rested
                        self._ref[i] = thumb
                        self._resting[i] = 0
                self._resting[i] += 1
                self._rolled[i] &= self._resting[i] < sch.settle_for
                self._struck_white[i] &= self._rolled[i]
                if not self._rolled[i]:
                    self._origin[i] = np.nan
                if not np.all(np.isfinite(self._anchor[i])):
                    self._anchor_age[i] = 0
                self._anchor[i] = at[0]
                self._anchor_age[i] += 1
                carried = BallDetections.build(at, state.radius[i : i + 1], colour=state.colour[i : i + 1])
                held.append(carried)
                held_looks.append(state.appearance[i : i + 1])
                continue
            # Only the cue ball is addressed by the cue; an object ball at rest is moved by a ball,
            # gently at times (a kiss of a fraction of a radius a frame), and must follow at once
            # when one comes near it; with none near, the motion round it is a player, a cue or a
            # hand, which drag its searched centre as they drag the cue ball's.
            # The cue ball stays addressed while the cue or the hand hides it (unseen, but it
            # never moved): searched only round its spot, it took the player's sleeve beside it
            # for itself (sample 05: a phantom stroke 0.7 s before the real one).
            # Gone from its spot, which shows bare cloth (not covered by a hand, a cue or a
            # sleeve): it was struck, whether or not the ball that struck it was seen (a fast
            # white lost in its streak; Task2 clip 6: the black, held to its spot, lost its own
            # streak; Task3 clip 16: the white, waiting for a departure, was never found again).
            left = state.unseen[i] > 0 and not self._covered[i]
            if left and state.names[i] == CUE_BALL:
                left = self._bare(frame, state, i)  # (_hidden leaves the cue ball out)
            cue = state.names[i] == CUE_BALL and (speed[i] < sch.rest_speed or anchored) and not left
            alone = (still or anchored) and not cue and not left and not self._struck(state, i, speed)
            # Where the changes round it came from before this frame (this frame's own change is
            # the ball leaving when it is struck).
            side = self._cue_side[i].copy()
            if cue and ref is not None:
                pull = _change_pull(thumb, ref, sch, state.pos[i], float(r))
                self._cue_side[i] = sch.side_decay * self._cue_side[i] + pull
            elif not still:
                self._cue_side[i] = 0.0
            self._ref[i] = thumb
            self._settled[i] = False
            rolling = speed[i] >= sch.roll_speed and (state.names[i] != CUE_BALL or self._struck_white[i])
            self._rolled[i] = rolling or (self._rolled[i] and not quiet)
            if speed[i] >= sch.roll_speed:
                self._heading[i] = state.vel[i] / speed[i]
            disturbed[i] = cue or alone
            pu, pv = u + state.vel[i, 0], v + state.vel[i, 1]
            if state.unseen[i] >= sch.lost_full:
                continue  # left to the whole-table search
            ext = sch.margin_radii * r + 1.3 * speed[i] + growth * r * state.unseen[i]
            roi = _window(min(u, pu), min(v, pv), max(u, pu), max(v, pv), ext, frame.shape)
            if not cue and self._packed(state, i, speed):
                packs.setdefault(int(state.colour[i]), []).append(roi)
            elif np.all(np.isfinite(state.appearance[i])):
                # A ball that vanished may have been struck: blurred over a streak several diameters
                # long, it colours each pixel for only a fraction of the exposure.
                mix = sch.streak_mix if state.unseen[i] > 0 or speed[i] > sch.blur_radii * r else 0.4
                found = search(
                    frame,
                    roi,
                    state.appearance[i],
                    float(r),
                    cloth,
                    self.region,
                    mix=mix,
                    min_half=self._half(u, v, pu, pv, r),
                )
                if cue and not _near(found.pixel, state.pos[i], sch.hold_radii * r):
                    left = self._departure(frame, state, i, cloth, found, side)
                    if left is not None:
                        found = left
                        self._left.append(left)
                        self.departed[i] = True
                        self._struck_white[i] = True
                        self._anchor[i] = np.nan
                        # Struck, it rolls however slowly it is measured to go (a gentle stroke
                        # along the table at the far end of a steep view: a third of a pixel a
                        # frame), and is re-settled while it creeps on (see ``settle_for``).
                        self._rolled[i] = True
                        self._origin[i] = state.pos[i]
                    elif state.unseen[i] > 0:
                        # Hidden on its spot: nothing that left it looks like the ball.
                        found = found[_near_rows(found.pixel, self._hold_at[i], sch.hold_radii * r)]
                elif alone and anchored and len(found):
                    # No ball can reach it, so it is where it rests: what its search finds farther
                    # off is the part of it a sleeve or a hand leaves uncovered, or that cover,
                    # unless it looks as the ball does, whole (a ball creeping on to rest when
                    # the video began).
                    far = ~_near_rows(found.pixel, self._hold_at[i], sch.hold_radii * r)
                    if np.any(far):
                        keep = ~far
                        keep[np.flatnonzero(far)[self._looks_as(frame, found[far], i)]] = True
                        found = found[keep]
                parts.append(found)
                looks.append(np.full((len(found), 3), np.nan))
                self.local_searches += 1
            else:
                rois.append(roi)
        for boxes in packs.values():
            for roi in _merge(boxes):
                # Every ball the detector finds there is kept: keeping only the pack's colour left a
                # red's track free to take a blob of the white's or the pink's colour search
                # beside the pack (a rendered 1080p60 break-off: 19 -> 38 red switches).
                found = self.detector.detect(frame, roi)
                parts.append(found)
                looks.append(np.full((len(found), 3), np.nan))
                self.roi_detections += 1
        for roi in _merge(rois):
            found = self.detector.detect(frame, roi)
            parts.append(found)
            looks.append(np.full((len(found), 3), np.nan))
            self.roi_detections += 1
        parts, looks = held + parts, held_looks + looks
        app = np.concatenate(looks) if looks else np.zeros((0, 3))
        return concat(parts), app, disturbed

    def _stirred(
        self, i: int, at: FloatArray, thumb: npt.NDArray[np.int16], window: tuple[int, int, int, int]
    ) -> bool:
        """Whether ball ``i``'s thumbnail ``window`` changed by more than ``settle_change``, or
        the ball was moved (to ``at``), since the detector last measured it at rest: if neither,
        the detector would say what it said then."""
        tried = self._tried[i]
        if tried is None or not np.allclose(self._tried_at[i], at, atol=1e-3):
            return True
        x0, y0, x1, y1 = window
        return bool((np.abs(thumb[y0:y1, x0:x1] - tried[y0:y1, x0:x1]) > self.schedule.settle_change).any())

    def _looks_as(self, frame: Image, found: BallDetections, i: int) -> npt.NDArray[np.bool_]:
        """Which of ``found`` look as ball ``i`` has looked all along, whole (within
        ``settle_look``): the ball itself, not a hand, a cue's tip or a part of the ball."""
        look = disc_appearance(frame, found.pixel, found.radius)
        ref = self.tracker.state.appearance[i]
        return np.asarray(np.linalg.norm((look - ref) * _LAB_W, axis=1) < self.schedule.settle_look, bool)

    def _bare(self, frame: Image, state: TrackerState, i: int) -> bool:
        """Whether ball ``i``'s spot shows the cloth it rested on (within ``cover``); unknown
        cloth counts as bare (the ball is then searched as before)."""
        if not np.all(np.isfinite(self._cloth_at[i])):
            return True
        look = disc_appearance(frame, state.pos[i : i + 1], state.radius[i : i + 1])[0]
        if not np.all(np.isfinite(look)):
            return True
        return float(np.linalg.norm((look - self._cloth_at[i]) * _LAB_W)) <= self.schedule.cover

    def _anchored(self, state: TrackerState, i: int) -> bool:
        """Whether ball ``i`` is still within ``hold_radii`` of where it was last carried at rest
        (see ``_anchor``); a ball farther off has been moved and rests anew when it stops."""
        a = self._anchor[i]
        if not np.all(np.isfinite(a)):
            return False
        near = float(np.hypot(*(state.pos[i] - a))) < self.schedule.hold_radii * float(state.radius[i])
        if not near:
            self._anchor[i] = np.nan
        return near

    def _packed(self, state: TrackerState, i: int, speed: FloatArray) -> bool:
        """Whether ball ``i`` of known colour, slow (unblurred), touches another ball of its colour
        (a red, a red): then the detector, not the colour search, measures it.

        Why: the colour search splits a blob of touching balls at its distance transform's
        peaks, and inside a pack of reds the deepest points lie between the balls, not at their
        centres: pack reds were measured 5-10 pixels off, or merged two into one blob, and their
        tracks swapped names and left balls untracked (a rendered 1080p60 break-off). The
        detector splits clusters by the balls' outlines (:mod:`vision.detection.cluster`). Balls
        of different colours are told apart by the colour search itself, and better: on synthetic
        06_free_ball, the detector took the white put down beside the brown, under the hand, for
        the brown.
        """
        r = float(state.radius[i])
        if state.colour[i] < 0 or speed[i] > self.schedule.pack_speed * r:
            return False
        others = (
            (state.state != TrackState.ABSENT)
            & (np.arange(len(state.names)) != i)
            & (state.colour == state.colour[i])
        )
        if not np.any(others):
            return False
        d = np.linalg.norm(state.pos[others] - state.pos[i], axis=1)
        return bool(np.any(d < self.schedule.pack_radii * r))

    def _struck(self, state: TrackerState, i: int, speed: FloatArray) -> bool:
        """Whether a moving ball (one lost in its streak with its gate's growth) can reach resting
        ball ``i`` this frame: then ``i`` may be struck and must follow its measurements."""
        sch = self.schedule
        moving = (state.state != TrackState.ABSENT) & (speed >= sch.rest_speed) & ~self._covered
        moving[i] = False
        if not np.any(moving):
            return False
        r = state.radius
        lost = np.minimum(state.unseen[moving], sch.lost_full)
        growth = self.tracker.config.motion.gate_growth
        reach = (2.0 + sch.margin_radii) * r[i] + 2.0 * speed[moving] + growth * r[moving] * lost
        d = np.linalg.norm(state.pos[moving] - state.pos[i], axis=1)
        return bool(np.any(~np.isfinite(d) | (d < reach)))

    def _hidden(self, frame: Image, state: TrackerState) -> npt.NDArray[np.bool_]:
        """Which object balls at rest, not carried this frame, have their spot covered.

        Why: a resting ball moves only when a ball strikes it, and a ball the detector does not
        find on a spot that does not look like the cloth is still there, under a player's arm, a
        cue or a hand (or unmeasured). Left to grow its gate and to be re-acquired by colour, it
        took a blob on the player's sleeve (synthetic 05_touching: the pink under the striker's
        arm went 60 pixels off and the stroke read a ball placed). A spot showing cloth again is
        a ball gone (struck unseen, lifted), and the usual search takes over; so does a ball a
        moving ball can have reached (that ball may cover its spot as it leaves).
        """
        speed = np.hypot(state.vel[:, 0], state.vel[:, 1])
        active = state.state != TrackState.ABSENT
        cand = (
            active
            & ~self._carried
            & (speed < self.tracker.config.motion.moving_radii[0] * state.radius)
            & np.all(np.isfinite(self._cloth_at), axis=1)
            & (np.array(state.names) != CUE_BALL)
        )
        out = np.zeros(len(state.names), bool)
        for i in np.flatnonzero(cand):
            if self._struck(state, i, speed):
                continue
            out[i] = not self._bare(frame, state, i)
        return out

    def _settle(self, frame: Image, i: int, at: FloatArray, r: float, colour: int) -> FloatArray | None:
        """The detector's centre of a ball of ``colour`` come to rest at ``at`` (None: none there).

        Why: the colour search that follows a moving ball is biased towards the ball's lit side
        and its shadow (1-5 pixels on the synthetic clips, 10-30 mm there), and a ball carried at
        rest keeps its last searched centre; the detector measures a resting ball to a fraction
        of a pixel. It runs once per ball and stop (and while a ball rolled to rest may still
        creep: ``settle_for``), on a window of a few radii, and only for a ball of known colour
        whose colour the detector agrees with (a touching neighbour of another colour, a cue's
        tip or a hand is not it; on Task3, whose two balls have no colour, taking the nearest
        blob lost four clips; taking the one blob there for a ball misnamed took a player's arm
        for the pink in sample 05). A ball beside another is re-measured beside it (the
        detector's :meth:`remeasure`, when it has one).
        """
        if colour < 0:
            return None
        roi = _window(at[0], at[1], at[0], at[1], 3.0 * r, frame.shape)
        found = self.detector.detect(frame, roi)
        self.roi_detections += 1
        found = self._beside(frame, found, np.arange(len(self.tracker.state.names)) == i)
        found = found[np.linalg.norm(found.pixel - at, axis=1) < self.schedule.settle_radii * r]
        same = found.colour == colour
        if not np.any(same) and len(found):
            # The colour model names a ball wrongly at times (a white in shade called brown on
            # sample 01, a dark brown called black on a broadcast render): a blob that looks as
            # the ball has looked all along is it; a hand or a cue's tip does not.
            same = self._looks_as(frame, found, i)
        found = found[same]
        if not len(found):
            return None
        k = int(np.argmin(np.linalg.norm(found.pixel - at, axis=1)))
        return np.asarray(found.pixel[k], np.float64)

    def _beside(self, frame: Image, found: BallDetections, anchors: npt.NDArray[np.bool_]) -> BallDetections:
        """``found`` with the detections of the ``anchors`` balls re-measured beside the other
        balls on the table, when the detector can (:class:`RestMeasurer`)."""
        if not isinstance(self.detector, RestMeasurer) or not len(found):
            return found
        st = self.tracker.state
        on = st.state != TrackState.ABSENT
        pos = np.where(on[:, None], st.pos, np.nan)
        return self.detector.remeasure(frame, found, pos, st.radius, anchors & on)

    def _half(self, u: float, v: float, pu: float, pv: float, r: float) -> float | None:
        """``min_half`` for a ball at ``(u, v)`` heading for ``(pu, pv)``: set only beside a cushion."""
        edge = self._edge
        if edge is None:
            return None
        h, w = edge.shape
        near = False
        for x, y in ((u, v), (pu, pv)):
            if np.isfinite(x) and np.isfinite(y):
                xi, yi = int(min(max(x, 0), w - 1)), int(min(max(y, 0), h - 1))
                near |= bool(edge[yi, xi] < self.schedule.edge_radii * r)
        return self.schedule.half_thickness if near else None

    def _departure(
        self,
        frame: Image,
        state: TrackerState,
        i: int,
        cloth: FloatArray | None,
        beside: BallDetections,
        side: FloatArray,
    ) -> BallDetections | None:
        """Where the resting cue ball went when it is no longer on its spot (None: hidden).

        Why: in the stroke's first frame the white is a streak a few radii off its spot and the
        cue's tip and shaft have followed through onto the spot behind it. Searched only around
        its spot, the white took the nearest cue-coloured piece of the cue and then followed the
        cue back to the player's sleeve. The white leaves along the cue, away from it, by up to
        ``strike_radii`` radii. What tells the ball from the cue, the hand and the sleeve is its
        colour: a blurred ball is a mix of the ball and the cloth, on the colour segment between
        them, while the cue's wood, skin and cloth sleeves lie off it (:func:`_purity`). So an
        impure blob found ``beside`` the spot is the cue's end, the ball is on the far side of
        the spot from it, and of the pure blobs there the nearest to the spot is the ball (a
        stroke's first frame moves it least). With no impure blob beside it, ``side`` (where the
        changes round the ball came from while it rested disturbed, :func:`_change_pull`) is the
        cue's side.
        """
        sch = self.schedule
        if sch.strike_radii <= 0:
            return None
        u, v = state.pos[i]
        r = float(state.radius[i])
        roi = _window(u, v, u, v, sch.strike_radii * r, frame.shape)
        wide = search(frame, roi, state.appearance[i], r, cloth, self.region, mix=sch.streak_mix)
        cand = concat([beside, wide])
        self.local_searches += 1
        if not len(cand):
            return None
        others = (state.state != TrackState.ABSENT) & (np.arange(len(state.names)) != i)
        if np.any(others):
            d = np.linalg.norm(cand.pixel[:, None, :] - state.pos[others][None, :, :], axis=2).min(axis=1)
            cand = cand[d > state.radius[others].min()]
        if not len(cand):
            return None
        crop = frame[roi[1] : roi[3], roi[0] : roi[2]]
        ref = np.median(cv2.cvtColor(crop, cv2.COLOR_BGR2LAB).reshape(-1, 3)[::9], axis=0)
        look = disc_appearance(frame, cand.pixel, np.full(len(cand), r))
        t, off = _purity(look, state.appearance[i], ref)
        pure = (off < sch.purity) & (t > sch.streak_mix)
        cue = cand.pixel[: len(beside)][~pure[: len(beside)]]
        ok = pure
        back = np.mean(cue - state.pos[i], axis=0) if len(cue) else side
        if np.any(back != 0):
            ok &= (cand.pixel - state.pos[i]) @ back < 0
        if not np.any(ok):
            return None
        cand = cand[ok]
        k = int(np.argmin(np.linalg.norm(cand.pixel - state.pos[i], axis=1)))
        return cand[k : k + 1]


def _ring(frame: Image, at: FloatArray, r: float, region: npt.NDArray[np.bool_] | None) -> FloatArray:
    """Median Lab colour of the playing surface 2 to 3.5 radii round ``at`` (NaN: none seen)."""
    x0, y0, x1, y1 = _window(at[0], at[1], at[0], at[1], 3.5 * r, frame.shape)
    if x1 <= x0 or y1 <= y0:
        return np.full(3, np.nan)
    yy, xx = np.mgrid[y0:y1, x0:x1]
    d2 = (xx - at[0]) ** 2 + (yy - at[1]) ** 2
    ring = (d2 >= (2.0 * r) ** 2) & (d2 <= (3.5 * r) ** 2)
    if region is not None:
        ring &= region[y0:y1, x0:x1]
    if not np.any(ring):
        return np.full(3, np.nan)
    lab = cv2.cvtColor(frame[y0:y1, x0:x1], cv2.COLOR_BGR2LAB)
    return np.asarray(np.median(lab[ring].astype(np.float64), axis=0), np.float64)


def _change_pull(
    thumb: npt.NDArray[np.int16], ref: npt.NDArray[np.int16], sch: ScheduleConfig, at: FloatArray, r: float
) -> FloatArray:
    """Where, relative to ``at`` (full-frame pixels), the thumbnail changed between 1.5 and 4
    radii from it, as the change-weighted sum of offsets (zero when nothing changed past
    ``sch.change``). Nearer, the change is the ball's own (a stroke's first frame can move it
    less than ``hold_radii``).

    Why: before a stroke the cue feathers and the bridge hand settles behind the cue ball, and
    every change round the resting ball is on that side; the ball leaves on the other. In the
    stroke's first frame the cue's end has followed through beside the ball's streak and both
    can look like a blurred white (synthetic 03_colours_clearance: the cue 0.19 off the
    cloth-to-white segment, the streak 0.14), so the side the changes came from tells them apart.
    """
    th, tw = thumb.shape
    k = sch.thumb
    x0, y0 = int(max(0, (at[0] - 4 * r) * k)), int(max(0, (at[1] - 4 * r) * k))
    x1, y1 = int(min(tw, (at[0] + 4 * r) * k + 1)), int(min(th, (at[1] + 4 * r) * k + 1))
    if x1 <= x0 or y1 <= y0:
        return np.zeros(2)
    diff = np.abs(thumb[y0:y1, x0:x1] - ref[y0:y1, x0:x1]).astype(np.float64)
    yy, xx = np.mgrid[y0:y1, x0:x1]
    dx, dy = (xx + 0.5) / k - at[0], (yy + 0.5) / k - at[1]
    w = np.maximum(diff - sch.change, 0.0) * (np.hypot(dx, dy) > 1.5 * r)
    total = float(w.sum())
    if total <= 0:
        return np.zeros(2)
    return np.array([float((dx * w).sum()), float((dy * w).sum())]) / total * min(total / 255.0, 1.0)


def _purity(look: FloatArray, ball: FloatArray, cloth: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Where each Lab colour in ``look`` lies on the cloth-to-ball segment (``t``: 0 cloth, 1 ball)
    and how far off it, as a share of the segment's length (lightness counts half)."""
    u = (ball - cloth) * _LAB_W
    sep = max(float(np.linalg.norm(u)), 1e-6)
    d = (look - cloth) * _LAB_W
    t = d @ u / sep**2
    off = np.linalg.norm(d - t[:, None] * u, axis=1) / sep
    return np.nan_to_num(t, nan=-1.0), np.nan_to_num(off, nan=np.inf)


_LAB_W = np.array([0.5, 1.0, 1.0])


def region_mask(
    region: npt.NDArray[np.uint8], shape: tuple[int, ...], grow: int = 0
) -> npt.NDArray[np.bool_]:
    """A working-scale playing-surface mask brought to full resolution ``shape``.

    ``grow`` dilates it by that many pixels (a ball against a cushion overhangs the cloth's edge
    as the camera sees it); on Task3, 8 pixels fixed one clip and broke two, so the default is 0.
    """
    full = cv2.resize(region, (shape[1], shape[0]), interpolation=cv2.INTER_NEAREST)
    if grow > 0:
        full = cv2.dilate(full, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * grow + 1, 2 * grow + 1)))
    return np.asarray(full) > 0


def _merge(rois: list[tuple[int, int, int, int]]) -> list[tuple[int, int, int, int]]:
    """Merge overlapping rectangles (detecting twice in one place costs twice and duplicates)."""
    out = list(rois)
    merged = True
    while merged:
        merged = False
        for i in range(len(out)):
            for j in range(i + 1, len(out)):
                a, b = out[i], out[j]
                if a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]:
                    out[i] = (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))
                    del out[j]
                    merged = True
                    break
            if merged:
                break
    return out


def concat(parts: list[BallDetections]) -> BallDetections:
    """Stack detection sets (the container itself has no concatenation)."""
    if not parts:
        return BallDetections.empty()
    pos = None
    if all(p.position is not None for p in parts):
        pos = np.concatenate([p.position for p in parts if p.position is not None])
    return BallDetections(
        np.concatenate([p.pixel for p in parts]),
        np.concatenate([p.radius for p in parts]),
        np.concatenate([p.colour for p in parts]),
        np.concatenate([p.confidence for p in parts]),
        pos,
    )


def hold(det: BallDetections, rest: FloatArray, reach: FloatArray) -> BallDetections:
    """Detections with the one nearest each resting ball, within ``reach`` pixels, put back on it.

    Why: a ball at rest moves only when struck, and a struck ball leaves its spot by more than a
    fraction of its radius in the stroke's first frame; a smaller shift of its measured centre
    is the cue tip, a hand or a shadow merging with its blob. Left in, the drift reads as the
    white creeping before the stroke (an early strike) and as a worse rest position.
    """
    if not len(det) or not len(rest):
        return det
    d = np.linalg.norm(det.pixel[None, :, :] - rest[:, None, :], axis=2)
    j = np.argmin(d, axis=1)
    near = d[np.arange(len(rest)), j] < reach
    if not np.any(near):
        return det
    pixel = det.pixel.copy()
    pixel[j[near]] = rest[near]
    return BallDetections(pixel, det.radius, det.colour, det.confidence, None)


def _window(
    x0: float, y0: float, x1: float, y1: float, ext: float, shape: tuple[int, ...]
) -> tuple[int, int, int, int]:
    """The box ``(x0, y0)``-``(x1, y1)`` grown by ``ext`` pixels on every side, clipped to a frame
    of ``shape`` (rows, columns), as an integer ROI ``(x0, y0, x1, y1)``."""
    h, w = shape[:2]
    return int(max(0, x0 - ext)), int(max(0, y0 - ext)), int(min(w, x1 + ext)), int(min(h, y1 + ext))


def _shadowed(det: BallDetections, whole: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_]:
    """Rows from the whole-table search (``whole``) with a ball's own measurement within a radius."""
    out = np.zeros(len(det), bool)
    own = np.flatnonzero(~whole)
    if not len(own) or not np.any(whole):
        return out
    for i in np.flatnonzero(whole):
        out[i] = bool(np.any(np.linalg.norm(det.pixel[own] - det.pixel[i], axis=1) < det.radius[i]))
    return out


def _creeps(step: FloatArray, heading: FloatArray, least: float) -> bool:
    """Whether a resting ball re-measured ``step`` pixels from where it was carried crept on: by
    more than ``least``, onwards along its last ``heading`` (unit) and not across it. A ball
    rolls on along its path as it stops; a measurement dragged by a hand or a cue's tip beside
    it (a white just placed, a white addressed) goes any way."""
    along = float(step @ heading)
    return along > least and abs(float(step[0] * heading[1] - step[1] * heading[0])) < along


def _near(points: FloatArray, p: FloatArray, reach: float) -> bool:
    """Whether any of ``points`` lies within ``reach`` of ``p``."""
    return bool(_near_rows(points, p, reach).any())


def _near_rows(points: FloatArray, p: FloatArray, reach: float) -> npt.NDArray[np.bool_]:
    """Which of ``points`` lie within ``reach`` of ``p``."""
    return np.asarray(np.linalg.norm(points - p, axis=1) < reach, dtype=bool)


def _dedupe(det: BallDetections) -> npt.NDArray[np.bool_]:
    """Rows to keep: a detection closer than one radius to an earlier one is its duplicate."""
    keep = np.ones(len(det), bool)
    for i in range(len(det) - 1):
        if not keep[i]:
            continue
        d = np.linalg.norm(det.pixel[i + 1 :] - det.pixel[i], axis=1)
        keep[i + 1 :] &= d > det.radius[i]
    return keep
