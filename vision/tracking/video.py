"""Driving the tracker through a video fast: detect only where something can have changed.

Why: detecting every ball in every 720p frame costs more than decoding it, and most of a
snooker video is balls at rest. Each frame is shrunk to a thumbnail and compared with the
previous one; a resting ball with no change around it is re-measured for free (its position
is carried as a measurement), a moving or disturbed ball is searched for only inside its
motion gate, and the whole table is searched periodically and whenever a ball is lost, so
births, re-acquisitions and lifted balls are still found.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import replace
from typing import Protocol, runtime_checkable

import cv2
import numpy as np
import numpy.typing as npt

from calibration.table import TABLE
from vision.detection.detections import UNKNOWN, BallDetections, BallDetector
from vision.source import thumbnail
from vision.tracking.appearance import disc_appearance, lab_distance, thumbnail_contrast
from vision.tracking.bed import on_bed_filter
from vision.tracking.departure import change_pull, find_departure
from vision.tracking.detection_sets import (
    concat,
    dedupe,
    hold,
    merge_windows,
    named_as_held,
    near,
    near_rows,
    shadowed,
    window,
)
from vision.tracking.local import search
from vision.tracking.physics import Cushions
from vision.tracking.pushes import pushable
from vision.tracking.respot import SpotWatch
from vision.tracking.rest_report import at_rest, confirm, reported_spot, search_offset
from vision.tracking.rest_spots import CUE_BALL, LONE_RADII, RED, FloatArray, Image, RestSpots
from vision.tracking.schedule import ScheduleConfig
from vision.tracking.shift import RestPatch, departing, leave_out, patch_shift, rest_patch
from vision.tracking.streaks import find_streaks, pick_ghost
from vision.tracking.thumbs import changed as _changed
from vision.tracking.thumbs import thumb_box as _thumb_box
from vision.tracking.tracker import Tracker, TrackerState
from vision.tracking.untouched import untouched
from vision.tracks import TrackState

#: Least confidence of a whole-table detection of a one-ball colour found away from where that
#: ball is carried for it to say the ball is not there (see ``_unsupported``).
ELSEWHERE_CONFIDENCE = 0.5
#: A ball whose leaving changes the thumbnail by less than this many times the change test's
#: level (see :func:`~vision.tracking.appearance.thumbnail_contrast`) is faint: the test may miss it
#: leave (the estimate takes the mean colours; a ball's shadow side and rim differ less).
FAINT_CHANGES = 1.5
#: Least share by which a track's radius may be off its ball's radius where it is (see
#: :meth:`VideoTracker._radii_where_they_are`) for it to be set to that.
RADIUS_STEP = 0.05
#: Half-width, in radii, of the detector's window round a slowly rolling ball's prediction
#: (see ``VideoTracker._measured_rolling``): the ball and a margin for the prediction's error.
_MEASURE_REACH = 1.6
#: Largest move (pixels, each way) of a resting ball's anchor for which its picture is still the
#: anchor's (see :func:`_same_spot`).
_SAME_SPOT = 0.05
#: A frame count far in the past: "never" for the per-ball frame counts (gone, unanchored).
_NEVER = -(10**9)


@runtime_checkable
class BedDetector(Protocol):
    """A detector that can be told which blobs may be balls before it names their colours (see
    :meth:`vision.detection.classical.ClassicalDetector.detect`)."""

    def detect(
        self,
        image: Image,
        roi: tuple[int, int, int, int] | None = None,
        keep: Callable[[FloatArray], npt.NDArray[np.bool_]] | None = None,
        white_in_hand: bool = False,
    ) -> BallDetections:
        """Balls in ``image``, colours assigned among the blobs ``keep`` accepts (none named
        the white only because its name is free, with ``white_in_hand``)."""
        ...


@runtime_checkable
class RadiusPrior(Protocol):
    """A detector that says what radius it gives a ball found at a pixel (see
    :meth:`vision.detection.classical.ClassicalDetector.expected_radius`)."""

    def expected_radius(self, pixels: FloatArray) -> FloatArray:
        """The radius (pixels) a ball found at ``pixels`` ``(N, 2)`` is given (NaN: not known)."""
        ...


@runtime_checkable
class AheadDetector(Protocol):
    """A detector that says whether its next whole-table detection changes what its other
    detections read (see :meth:`vision.detection.classical.ClassicalDetector.changes_on_whole_table`)."""

    def changes_on_whole_table(self) -> bool:
        """Whether the next whole-table detection changes what other detections read."""
        ...


class VideoTracker:
    """Detector + tracker + change test, one frame at a time.

    Args:
        detector: any :class:`~vision.detection.detections.BallDetector`.
        tracker: the tracker, seeded with the starting balls.
        schedule: the detection schedule.
        region: full-frame mask of the playing surface (None: search everywhere).
        edge: :func:`surface_edge` of ``region`` when it is made already (the ball stage makes
            it on a worker thread while it seeds the tracker).
    """

    def __init__(
        self,
        detector: BallDetector,
        tracker: Tracker,
        schedule: ScheduleConfig | None = None,
        region: npt.NDArray[np.bool_] | None = None,
        edge: npt.NDArray[np.float32] | None = None,
    ) -> None:
        self.detector = detector
        self.region = region
        self.tracker = tracker
        if region is not None and tracker.cushions is None:
            tracker.cushions = Cushions.from_mask(region)
        # Distance (pixels) of every pixel inside the playing surface to its edge.
        self._edge: npt.NDArray[np.float32] | None = (
            None if region is None else surface_edge(region) if edge is None else edge
        )
        self.schedule = schedule or ScheduleConfig()
        # The detector's fine measurements of balls at rest.
        self.spots = RestSpots(detector, tracker, self.schedule, self._edge)
        # Per ball, the thumbnail of the frame it was last measured in (None: never): a ball is
        # carried as resting only while its surroundings still match that frame.
        self._ref: list[npt.NDArray[np.int16] | None] = [None] * len(tracker.state.names)
        # Per ball, the thumbnail of the frame the detector last re-measured it at rest in (see
        # ``settle_change``; None: not since it last moved).
        self._tried: list[npt.NDArray[np.int16] | None] = [None] * len(tracker.state.names)
        self._tried_at = np.full((len(tracker.state.names), 2), np.nan)
        # Per ball, the thumbnail and the result (NaN: none found) of the detector's last
        # measurement of it at rest, with the cloth round it then: the same picture round the
        # same ball measures the same (see _rest_again).
        self._rested_img: list[npt.NDArray[np.int16] | None] = [None] * len(tracker.state.names)
        self._rested_at = np.full((len(tracker.state.names), 2), np.nan)
        self._rested_cloth = np.full((len(tracker.state.names), 3), np.nan)
        # Per ball, where its colour search puts it at rest minus where it is carried at rest,
        # measured when it settles (NaN: not known): see vision.tracking.rest_report.
        self._offset = np.full((len(tracker.state.names), 2), np.nan)
        # Per ball, consecutive frames it was searched and stayed where its search put it at rest.
        self._rest_run = np.zeros(len(tracker.state.names), np.int64)
        self.frames = 0
        self.full_detections = 0
        self.roi_detections = 0
        self.local_searches = 0
        self.settles_reused = 0
        self.departed = np.zeros(len(tracker.state.names), bool)
        self._cue_ball = np.array(tracker.state.names) == CUE_BALL
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
        # Per ball, the frame count at which its prediction carried it off a spot it had long
        # rested on (far in the past: never): struck there, whether or not the search saw it go.
        self._unanchored = np.full(len(tracker.state.names), _NEVER, np.int64)
        # Per object ball, the frame count at which it last lay, at rest, within a moving ball's
        # reach (see _struck): it may have been set creeping, too slowly to change its picture.
        self._reached_at = np.full(len(tracker.state.names), _NEVER, np.int64)
        # Per ball, frames left during which the detector re-measures it at rest every
        # ``settle_every`` frames: a ball that came to rest against it may have pushed it (see
        # _recheck_beside).
        self._recheck_left = np.zeros(len(tracker.state.names), np.int64)
        # Per ball, whether it was given its re-measurements since it last came to rest where it
        # is (once: a pusher creeping on, or a pack's reds settling by turns, do not renew them).
        self._recheck_given = np.zeros(len(tracker.state.names), bool)
        # Per cue ball, the spot its stroke left (NaN: none since it settled): a slow white's
        # heading, for the creep test, is from there (its measured velocity wobbles across);
        # and per ball, its heading when it was last seen rolling (see _creeps_along).
        self._origin = np.full((len(tracker.state.names), 2), np.nan)
        # Per cue ball, its picture where it rests addressed (see vision.tracking.shift; None:
        # none taken) and the thumbnail of that frame; the
        # picture's shifts measured on the frames since (the last ``depart_shifts``) and the
        # frame count of the last one; whether it is followed by them while it creeps on; and
        # where it last crept from (see _shifted).
        self._patch: list[RestPatch | None] = [None] * len(tracker.state.names)
        # Per object ball, its picture where it was anchored before a ball came to rest beside
        # it (None: none taken), and which ball that was (-1: none): a push is measured by
        # that picture's shift (see _lone_shifted).
        self._lone_patch: list[RestPatch | None] = [None] * len(tracker.state.names)
        self._pusher = np.full(len(tracker.state.names), -1, np.int64)
        self._patch_thumb: list[npt.NDArray[np.int16] | None] = [None] * len(tracker.state.names)
        self._shifts: list[list[FloatArray]] = [[] for _ in tracker.state.names]
        self._shift_frame = np.full(len(tracker.state.names), _NEVER, np.int64)
        self._following = np.zeros(len(tracker.state.names), bool)
        # Per cue ball, the frame its addressed picture's shift last said it had not left
        # (under ``hold_radii``): the search's blob off its spot is then the cue's tip merged
        # with it (see _local).
        self._stays_at = np.full(len(tracker.state.names), _NEVER, np.int64)
        self._crept_from = np.full((len(tracker.state.names), 2), np.nan)
        # Per cue ball, where its picture's shift last put it (NaN: nowhere yet; see _shifted).
        self._shifted_to = np.full((len(tracker.state.names), 2), np.nan)
        # This frame's velocity (pixels a frame) of a cue ball that its picture's shift found
        # rolling faster than a creep (NaN: none; see _shifted): its track's velocity from here.
        self._rolling_at = np.full((len(tracker.state.names), 2), np.nan)
        # Per cue ball, the frame its picture's shift last handed it to the tracker's motion and
        # search (see _rolls_on): the next frame it may be found far on by its departure's search.
        self._handed_at = np.full(len(tracker.state.names), _NEVER, np.int64)
        self._heading = np.zeros((len(tracker.state.names), 2))
        self._settle_at = np.full((len(tracker.state.names), 2), np.nan)
        # Per ball, its track's radius over the detector's where the tracker was seeded (1: off
        # the table then), once the detector has a cloth model: see _radii_where_they_are.
        self._radius_ratio = np.ones(len(tracker.state.names))
        self._radius_seeded = False
        # Per ball, the summed pull of the changes round it while it rested disturbed (see
        # _change_pull): which side the cue and the hand came from.
        self._cue_side = np.zeros((len(tracker.state.names), 2))
        # Per ball, this frame's pull, added to ``_cue_side`` only once the next frame still sees
        # the ball: the frame a stroke moves it in holds the ball's own departure's changes.
        self._side_pending = np.zeros((len(tracker.state.names), 2))
        # Per ball, the cloth's Lab colour round it when it last came to rest (NaN: not known),
        # and whether it was carried at rest this frame.
        self._cloth_at = np.full((len(tracker.state.names), 3), np.nan)
        self._carried = np.zeros(len(tracker.state.names), bool)
        # Per ball, whether its leaving its resting spot may change no thumbnail pixel by
        # ``change`` (see thumbnail_contrast): then a moving ball that can reach it has it searched,
        # however quiet the picture round it.
        self._faint = np.zeros(len(tracker.state.names), bool)
        # This frame's detections of the balls carried at rest (see _local), in the order of
        # ``np.flatnonzero(self._carried)``.
        self._held = BallDetections.empty()
        self._covered = np.zeros(len(tracker.state.names), bool)
        # Per ball, the frame count at which the tracker last took it off the table (see
        # ``gone_for``; far in the past: never).
        self._gone_at = np.full(len(tracker.state.names), _NEVER, np.int64)
        # This frame's detections of a cue ball found where it departed to (see find_departure),
        # and of struck balls' ghosts (see _ghost), with their looks (NaN: to be measured).
        self._left: list[BallDetections] = []
        self._left_looks: list[FloatArray] = []
        # Per ball, the last frame it was measured in (None: never): the cloth a struck ball's
        # ghost crosses was bare in it (see _ghost).
        self._seen_img: list[Image | None] = [None] * len(tracker.state.names)
        # Per ball, whether its track follows its ghost: struck off a spot it rested on, or
        # streaking, it was last found as a ghost and is still rolling (see _local).
        self._ghosting = np.zeros(len(tracker.state.names), bool)
        self._ghost_at = np.full((len(tracker.state.names), 2), np.nan)
        # Whether a whole-table detection may run on a worker thread beside the balls' own
        # searches (see _whole_table_ahead; the result is the same either way), and that thread.
        self.overlap = True
        self._pool: ThreadPoolExecutor | None = None
        # The spots of the colours off the table, looked at when their picture changes (a
        # re-spot found at once, not at the next whole-table search; None: not watched).
        self.spot_watch: SpotWatch | None = None

    def process(self, frame: Image, thumb: npt.NDArray[np.int16] | None = None) -> TrackerState:
        """Fold one BGR frame in; returns the tracker state after it.

        ``thumb``: the frame's :func:`thumbnail` at the schedule's scale when it is made already
        (the frame source's reader thread makes it, off this thread).
        """
        sch = self.schedule
        state = self._radii_where_they_are()
        if thumb is None:
            thumb = thumbnail(frame, sch.thumb)
        # Balls off the table (potted, in hand) come back through the periodic full search
        # only; a ball lost on the table triggers one at once.
        lost = (state.state != TrackState.ABSENT) & (state.unseen >= sch.lost_full)
        lost |= (state.state == TrackState.ABSENT) & (self.frames - self._gone_at < sch.gone_for)
        # The white off the table is in hand, soon put down in the D (Section 3 Rule 5): it is
        # looked for as a lost ball, not once a second. At a break-off the cue's arm comes
        # over it a second or so after it is put down, and a white put on the D's line, its
        # blob joined to the chalk, is not found every time: at 960x540 the one periodic
        # search between the two split it off the line and missed it, and the white was
        # found only once struck, its stroke lost (a rendered break-off, seed 112).
        lost |= (state.state == TrackState.ABSENT) & self._cue_ball
        periodic = sch.full_every > 0 and self.frames % sch.full_every == 0
        self.frames += 1
        self.departed[:] = False
        self._rolling_at[:] = np.nan
        self._settle_at[:] = np.nan
        self._left = []
        self._left_looks = []
        self._ghost_at[:] = np.nan
        whole_table = periodic or (np.any(lost) and self.frames % sch.lost_every == 0)
        ahead = self._whole_table_ahead(frame) if whole_table else None
        det, app, disturbed = self._local(frame, state, thumb)
        elsewhere = np.zeros(len(state.names), bool)  # (carried, and found away from it: see below)
        if whole_table:
            full = named_as_held(self._whole_table(frame) if ahead is None else ahead.result(), self._held)
            # A resting ball beside another, measured from their pair's blob, re-measured beside
            # it (the event stage measures TOUCHING BALL from resting positions).
            full = self.spots.beside(frame, full, np.hypot(state.vel[:, 0], state.vel[:, 1]) < sch.rest_speed)
            # The detector's centres come first so they win over the carried and searched ones
            # (it measures a resting ball to a fraction of a pixel; the colour search is biased
            # towards the lit side of a ball).
            # Which rows came from the whole-table search (the others from the balls' own).
            whole = np.r_[np.ones(len(full), bool), np.zeros(len(det), bool)]
            # A ball carried where the whole table shows no ball, on bare cloth, is not there: its
            # carried row goes, and it is searched for as a ball gone from its spot.
            gone_from, found_away = self._unsupported(frame, state, full)
            elsewhere[np.flatnonzero(self._carried)[found_away]] = True
            own = np.ones(len(det), bool)
            own[: len(self._held)] = ~gone_from
            det, app, whole = concat([full, det[own]]), app[own], whole[np.r_[np.ones(len(full), bool), own]]
            app = np.concatenate([np.full((len(full), 3), np.nan), app])
            self.full_detections += 1
            if self._left:
                # Except a struck white's streak: the colour model calls a blurred white any
                # colour, and a colour the white is not would keep it unmatched.
                left = concat(self._left)
                det = concat([left, det])
                app = np.concatenate([*self._left_looks, app])
                whole = np.r_[np.zeros(len(left), bool), whole]
            # A whole-table detection where a ball's own search measured it, in the colour of a
            # ball off the table, keeps its centre but not its colour: the track already names the
            # ball, and the colour model calls a blurred white green at times (which then took the
            # white's place as a re-spotted green).
            gone = np.unique(state.colour[(state.state == TrackState.ABSENT) & (state.colour >= 0)])
            misnamed = shadowed(det, whole) & np.isin(det.colour, gone)
            if np.any(misnamed):
                det = det.with_colour(np.where(misnamed, UNKNOWN, det.colour), det.confidence)
        # Off the table since the tracker saw it there (potted): a colour absent since the video
        # began is left to the whole-table search (on Task2 clip 21 the green, never seen, was
        # found on its spot by turns and the frame's start waited for it past the stroke).
        absent = (state.state == TrackState.ABSENT) & (self._gone_at > _NEVER)
        if self.spot_watch is not None and not whole_table and np.any(absent):
            # (A whole-table search looks at the spots already.)
            on_spot = self.spot_watch.look(
                frame,
                thumb,
                sch.thumb,
                self.frames,
                absent,
                state.colour,
                float(np.median(state.radius)),
                self.detector,
                state.pos[(state.state != TrackState.ABSENT) & np.all(np.isfinite(state.pos), axis=1)],
            )
            if len(on_spot):
                det = concat([det, on_spot])
                app = np.concatenate([app, np.full((len(on_spot), 3), np.nan)])
        keep = dedupe(det, self.tracker.table_of(det.pixel) if len(det) else None)
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
            # The stroke's first frame: the white's gate must reach where its search found it,
            # grown for each frame it may have travelled (found a frame late, its gate grown for
            # one, a 960x540@60 break-off's white 9.5 radii off its spot was refused).
            st = self.tracker.state
            unseen = np.where(self.departed, st.unseen + 1, st.unseen)
            self.tracker.state = replace(st, unseen=unseen)
        if np.any(elsewhere):
            # Found away from where it was carried: lost there, its gate grown to the whole-table
            # search's reach at once (searched round the bare spot, the green's colour search took
            # the chalk there for it again).
            st = self.tracker.state
            unseen = np.where(elsewhere, np.maximum(st.unseen, sch.lost_full), st.unseen)
            self.tracker.state = replace(st, unseen=unseen)
        self._covered = self._hidden(frame, state)
        new = self.tracker.update(det, app, self._covered, self._cloth_at)
        # A ball carried at rest did not move (the picture round it is unchanged): a whole-table
        # centre that took its carried row's place a pixel off is a better measurement of where it
        # rests, not a step. Given the step as a velocity, the green on the end of the baulk line
        # (its blob joined to the chalk) rolled off by its prediction and was searched as a
        # moving ball, which the colour search, green on green at the far end, did not find (a
        # rendered 1080p60 break-off, random camera).
        # Only a whole-table search's centre: in other frames the carried row is the ball's spot
        # itself, and a carried track matched off it has met a ball rolling through its spot.
        still = self._carried & (new.state == TrackState.SEEN) & (new.unseen == 0) & whole_table
        still &= np.linalg.norm(new.pos - state.pos, axis=1) < self.schedule.hold_radii * state.radius
        if np.any(still & np.any(new.vel != 0.0, axis=1)):
            new = replace(new, vel=np.where(still[:, None], 0.0, new.vel))
            self.tracker.state = new
        if np.any(still):
            self.spots.carry_spots(new.pos, still)
        new = self._untouched(new)
        left = self.departed & (new.state == TrackState.SEEN) & (new.unseen == 0)
        if np.any(left):
            # A cue ball found leaving its spot moves at least its whole step a frame (the strike
            # fell inside the exposure), not the fraction of it the motion filter gives a ball
            # that was at rest: with that, a hard stroke's white (a rendered 1080p60 break-off:
            # 26 px in its first frame, 37 in its second) fell outside its next window.
            # Found a frame or more late (its departure unseen), its step spans those frames and
            # part of the stroke's first.
            step = (new.pos - state.pos) / np.maximum(1.0, state.unseen + 0.5)[:, None]
            # (Or, found leaving by its picture's shift, the shift's last step: see _shifted.)
            measured = np.all(np.isfinite(self._rolling_at), axis=1)
            step = np.where(measured[:, None], self._rolling_at, step)
            new = replace(new, vel=np.where(left[:, None], step, new.vel))
            self.tracker.state = new
        self._report_at_rest(new)
        # A ball found again after it was lost has no reference frame showing it where it is: the
        # white, re-found after a blurred run, was compared with a frame from before it got there,
        # found "undisturbed" and carried at that spot while it rolled on (synthetic 01_break_off).
        # Only a ball back from off the table: one missed for a while is mostly still where its
        # reference shows it, and searched instead of carried, resting balls drifted onto the
        # balls beside them (Task2 clips 9 and 18 lost their pots).
        found = (state.state == TrackState.ABSENT) & (new.state == TrackState.SEEN)
        for i in np.flatnonzero(found):
            self._ref[i] = None
            self._rested_img[i] = None
        gone = (state.state != TrackState.ABSENT) & (new.state == TrackState.ABSENT)
        self._gone_at[gone] = self.frames
        # A ball that took its ghost is looked for as one until it comes to rest or leaves the
        # table: a broadcast's blended frames show it sharp enough for its colour one frame and
        # as a ghost the next (Task2 clip 6).
        took = np.linalg.norm(new.pos - self._ghost_at, axis=1) < 0.5 * new.radius
        rolling = np.hypot(new.vel[:, 0], new.vel[:, 1]) >= self.schedule.roll_speed
        self._ghosting = (self._ghosting | took) & rolling & (new.state != TrackState.ABSENT)
        seen = (new.state == TrackState.SEEN) & (new.unseen == 0)
        # Searched no more by its own search: no ghost to find.
        dropped = ~seen & ((new.state == TrackState.ABSENT) | (new.unseen >= self.schedule.lost_full))
        for i in np.flatnonzero(seen):
            self._seen_img[i] = frame  # (frames are not written to once processed)
        for i in np.flatnonzero(dropped):
            self._seen_img[i] = None
        return new

    def _radii_where_they_are(self) -> TrackerState:
        """The tracker's state with each ball's radius kept to the radius the detector gives a
        ball where it is (:class:`RadiusPrior`), times the ball's own ratio to it where the
        tracker was seeded, before this frame's searches: set to that once
        :data:`RADIUS_STEP` or more off it.

        Why: the searches, gates and tolerances are sized by the track's radius, which follows
        the detector's only when the detector measures the ball, by a tenth a frame; a ball
        followed by its colour search or carried at rest kept the radius it had where it was
        last detected. A red broken from a pack near a broadcast camera (13 working pixels) to
        the far end (10) was searched as a ball a third too large: its colour search's core
        test refused it each time its picture changed as it crept to rest, and the track,
        unseen and then held where it stood as if dragged, stayed 50 mm behind the red (a
        rendered 1080p60 break-off, seed 102). The ball's own ratio: a track seeded with a
        ball's own size (Task3's first-frame boxes, a fifth under the detector's radius) keeps
        to it. Only by steps: a resting ball's centre dragged by a cue or a hand has not moved,
        and its departure depends on its radius to a fraction of a percent (sample 06: the
        white's 0.3% larger took the cue's tip for its departure).
        """
        st = self.tracker.state
        on = (st.state != TrackState.ABSENT) & np.all(np.isfinite(st.pos), axis=1)
        if not isinstance(self.detector, RadiusPrior) or not np.any(on):
            return st
        prior = np.full(len(st.names), np.nan)
        prior[on] = self.detector.expected_radius(st.pos[on])
        with np.errstate(invalid="ignore", divide="ignore"):
            if not self._radius_seeded and np.all(np.isfinite(prior[on])):
                # (A ball off the table at the seed, the white in hand, has no size of its own.)
                self._radius_ratio = np.where(on, st.radius / prior, 1.0)
                self._radius_seeded = True
            target = self._radius_ratio * prior
            off = on & (np.abs(st.radius / target - 1.0) >= RADIUS_STEP)
        if not np.any(off):
            return st
        st = replace(st, radius=np.where(off, target, st.radius))
        self.tracker.state = st
        return st

    def _untouched(self, new: TrackerState) -> TrackerState:
        """``new`` with no velocity for the object balls long at rest, still within their hold
        radius of their rest spots, that no ball can have touched (see
        :mod:`vision.tracking.untouched`)."""
        sch = self.schedule
        rested = np.all(np.isfinite(self._anchor), axis=1) & (self._anchor_age >= sch.settle_for)
        active = new.state != TrackState.ABSENT
        near = np.linalg.norm(new.pos - self._anchor, axis=1) < sch.hold_radii * new.radius
        cand = rested & active & near & np.any(new.vel != 0.0, axis=1)
        cand &= (np.array(new.names) != CUE_BALL) & (new.unseen > 0)
        if not np.any(cand):
            return new
        calm = untouched(self.tracker.table_of(new.pos), active, cand, TABLE.ball_radius, sch.hold_radii)
        if not np.any(calm):
            return new
        new = replace(new, vel=np.where(calm[:, None], 0.0, new.vel))
        self.tracker.state = new
        return new

    def _search_offset(self, frame: Image, state: TrackerState, i: int, at: FloatArray) -> FloatArray:
        """Where ball ``i``'s colour search puts it, carried at rest at ``at``, minus ``at`` (NaN:
        its look not known, or no blob of it near): see :mod:`vision.tracking.rest_report`."""
        if not np.all(np.isfinite(state.appearance[i])) or not np.all(np.isfinite(at)):
            return np.full(2, np.nan)
        r = float(state.radius[i])
        u, v = float(at[0]), float(at[1])
        roi = window(u, v, u, v, self.schedule.margin_radii * r, frame.shape)
        cloth = None if self.schedule.cloth is None else np.array(self.schedule.cloth)
        half = self.spots.half(u, v, u, v, r)
        found = search(frame, roi, state.appearance[i], r, cloth, self.region, min_half=half)
        self.local_searches += 1
        return search_offset(found, at, r)

    def _report_at_rest(self, new: TrackerState) -> None:
        """Report the object balls searched this frame that stayed where their search put them at
        rest (this frame and the one before) at their rest spots (see
        :mod:`vision.tracking.rest_report`); the tracker keeps following their searched centres.
        The cue ball is left out: it is held to its spot while the cue is about it, and its
        departure is found apart.

        The rest spot reported is the anchor moved by the detector's finer measurement of it
        (:meth:`RestSpots.fine_spot`, :func:`~vision.tracking.rest_report.reported_spot`), for those
        balls and for the object balls carried at rest this frame (not measured)."""
        names = np.array(new.names)
        eligible = (new.state == TrackState.SEEN) & (new.unseen == 0) & ~self._carried & (names != CUE_BALL)
        rows = at_rest(new.pos, self._anchor, self._offset, new.radius, eligible)
        self._rest_run, rows = confirm(self._rest_run, rows)
        spot = reported_spot(self._anchor, self.spots.spot, self.spots.spot_at, new.radius, self.spots.limb)
        # Carried at rest (not measured this frame): at its finer spot too, the cue ball apart
        # (the cue about it: its spot was measured with the cue's tip beside it, and on
        # 01_break_off the white's error at rest went 2.9 -> 4.5 mm).
        carried = self._carried & (new.state == TrackState.SEEN) & (names != CUE_BALL)
        rows |= carried & np.all(np.isclose(new.pos, self._anchor), axis=1)
        if np.any(rows):
            self.tracker.report(rows, spot)

    def _whole_table(self, frame: Image) -> BallDetections:
        """The detector's balls over the whole frame, colours named among those on the bed.

        Why on the bed only: the colours are named under the ball-set prior (one of each, the
        white always), so a blob off the bed (a piece of a cushion's green nose by a pocket)
        named green left the green on its spot to be named the white, which took it as the
        white in hand put down, while the green's track wandered off (a rendered 1080p60
        break-off). The tracker drops such blobs anyway (:func:`vision.tracking.bed.off_bed`).
        """
        tracker = self.tracker
        if tracker.to_table is None or not isinstance(self.detector, BedDetector):
            return self.detector.detect(frame)
        tol = tracker.config.bed_tol
        # With the white off the table (in hand) no other ball takes its name: after an in-off
        # at 960x540 the pink on its spot was named the white, and the white's track took it.
        in_hand = bool(np.any(self._cue_ball & (tracker.state.state == TrackState.ABSENT)))
        return self.detector.detect(frame, keep=on_bed_filter(tracker.table_of, tol), white_in_hand=in_hand)

    def _whole_table_ahead(self, frame: Image) -> Future[BallDetections] | None:
        """The whole-table detection of ``frame`` started on a worker thread, or ``None`` where it
        must run in its turn, after the balls' own searches (:attr:`overlap` unset, or a
        detection that changes what the searches' detections read).

        Why: it is the costliest step of a frame (about 13 ms at 720p, a frame in seven on real
        broadcast clips), and while it changes neither the cloth model nor the cluster prior
        (:meth:`vision.detection.classical.ClassicalDetector.changes_on_whole_table`) nothing of
        the searches depends on it nor it on them; much of each is OpenCV and compiled work that
        releases the GIL, so the two share the second core the reader thread leaves idle.
        """
        if not self.overlap or not isinstance(self.detector, AheadDetector):
            return None
        if self.detector.changes_on_whole_table():
            return None
        if self._pool is None:
            self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="whole-table")
        return self._pool.submit(self._whole_table, frame)

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
        parts: list[BallDetections] = []
        looks: list[FloatArray] = []
        # Balls carried at rest come first, so that they win the dedupe (see dedupe) over a blob
        # another ball's search found on them: a lost ball's window grows by a diameter a frame
        # and its colour search (a red's) finds a resting brown, whose centre it measures off by
        # a pixel or two; taken for the brown, that set the brown moving and searching itself,
        # never still again while the red stayed lost (a rendered 1080p60 break-off).
        held: list[int] = []  # (one detection set built for them all: 22 built one by one cost more)
        held_at: list[FloatArray] = []
        rois: list[tuple[int, int, int, int]] = []
        # Windows of balls in a pack of their colour, by colour (see _packed).
        packs: dict[int, list[tuple[int, int, int, int]]] = {}
        cloth = None if sch.cloth is None else np.array(sch.cloth)
        self._carried[:] = False
        for i in map(int, np.flatnonzero(state.state != TrackState.ABSENT)):
            u, v = state.pos[i]
            r = state.radius[i]
            self._hold_at[i] = state.pos[i]
            anchored = self._anchored(state, i)
            if anchored:
                self._hold_at[i] = self._anchor[i]
            reach = sch.margin_radii * r + 1.5 * speed[i]
            box = _thumb_box(thumb.shape, u, v, reach, sch.thumb)
            still = speed[i] < sch.rest_speed and state.unseen[i] == 0
            ref = self._ref[i]
            quiet = ref is not None and not _changed(thumb, ref, box, sch.change)
            # A cue ball at rest whose picture's shift since it came to rest says it left, or
            # creeps on: measured there (see _shifted), disturbed or not.
            shifted = None
            if self._cue_ball[i] and still:
                shifted = self._shifted(frame, state, i, thumb, box, anchored)
            if shifted is not None and np.all(np.isfinite(self._rolling_at[i])):
                # Rolling faster than a creep: followed from here as a struck ball, by its
                # motion and its search, from where its picture moved to.
                left_at = BallDetections.build(shifted[None, :], [float(r)], colour=state.colour[i : i + 1])
                self._left.append(left_at)
                self._left_looks.append(np.full((1, 3), np.nan))
                self.departed[i] = True
                self._anchor[i] = np.nan
                self._ref[i] = thumb
                self._settled[i] = False
                parts.append(left_at)
                looks.append(np.full((1, 3), np.nan))
                continue
            # Found rolled on from where it is carried (see RestSpots.strayed_to): the detector's blob of it.
            stray: BallDetections | None = None
            strayed = False
            # A faint ball (its leaving may not show in the thumbnail) that a moving ball can reach
            # is measured by the detector instead, still or not (see ``_faint``).
            exposed = still and quiet and self._faint[i] and self._struck(state, i, speed)
            if still and (quiet or shifted is not None) and not exposed:
                at = state.pos[i : i + 1] if shifted is None else shifted[None, :]
                self._carried[i] = True
                nudged = self._recheck_left[i] > 0 and self._recheck_left[i] % sch.settle_every == 0
                self._recheck_left[i] = max(0, self._recheck_left[i] - 1)
                if nudged:
                    # Settled anew by the detector (a push of a pixel changes the thumbnail by
                    # less than ``change``): pushed by a ball come to rest against it?
                    # (_pushed decides; if not, it stays at its anchor.)
                    self._settled[i] = False
                    self._rested_img[i] = None
                pushed_to = self._lone_shifted(frame, state, i) if nudged else None
                if pushed_to is not None:
                    # Pushed by the ball come to rest beside it, measured by its own picture's
                    # shift (see _lone_shifted): held there, and looked at again while the
                    # re-measurements last (the push takes a few tenths of a second to end).
                    shifted = pushed_to
                    at = shifted[None, :]
                if shifted is not None:
                    # Measured where its picture moved to, to a fraction of a pixel: the
                    # detector's centre, to a pixel, would take it back and forth.
                    self._settled[i] = True
                    self._settle_at[i] = shifted
                    self._ref[i] = thumb
                elif not self._settled[i]:
                    self._settled[i] = True
                    self._resting[i] = 0
                    if self._rest_again(i, state.pos[i], thumb):
                        self._cloth_at[i] = self._rested_cloth[i]
                        rested = self._rested_at[i].copy()
                        self.settles_reused += 1
                    else:
                        self._cloth_at[i] = _ring(frame, at[0], float(r), self.region)
                        rested = self.spots.settle(frame, i, at[0], float(r), int(state.colour[i]))
                        stray = None if rested is not None else self.spots.strayed_to(frame, state, i, at[0])
                        strayed = stray is not None
                        self._rested_img[i] = thumb
                        self._rested_at[i] = np.nan if rested is None else rested
                        self._rested_cloth[i] = self._cloth_at[i]
                    self._tried[i], self._tried_at[i] = thumb, state.pos[i]
                    contrast = thumbnail_contrast(state.appearance[i], self._cloth_at[i], float(r), sch.thumb)
                    self._faint[i] = contrast < FAINT_CHANGES * sch.change
                    if self._creeping(i, rested, float(r)):
                        # Come to rest again further along its path: still rolling to a stop
                        # (slower than ``rest_speed`` at the far end of a 1080p view, a ball rolls
                        # on for 20 cm), not long at rest; it is followed, not held to its anchor.
                        self._anchor_age[i] = 0
                    if anchored and not strayed and self._anchor_age[i] >= sch.settle_for:
                        # (The cue ball's pushes are the cue's, judged as ever.)
                        least = sch.nudge_radii if nudged and state.names[i] != CUE_BALL else sch.push_radii
                        if self._pushed(state, i, rested, least):
                            # Moved away from what pushed it by more than its noise: a gentle
                            # stroke or contact, not a drag; it may roll on from here.
                            self._struck_white[i] = state.names[i] == CUE_BALL
                            self._rolled[i] = True
                            self._origin[i] = self._anchor[i]
                            self._anchor[i] = np.nan
                            self._recheck_left[i] = 0
                        else:
                            # Long at rest there (an addressed white): the cue's tip by it drags
                            # the detector's centre too. Within its first ``settle_for`` frames
                            # at rest a ball may still creep on (sample 02's white, its stroke's
                            # departure unseen, froze 4 px short and then jumped: read as a hand
                            # placing it).
                            rested = self._anchor[i].copy()
                    if rested is not None:
                        at = rested[None, :]
                        self._settle_at[i] = rested
                    if not strayed:
                        self._offset[i] = self._search_offset(frame, state, i, at[0])
                        self.spots.fine_spot(frame, i, at[0], float(r), int(state.colour[i]))
                        if self._rolled[i]:
                            self._recheck_beside(state, i, at[0])
                elif (
                    self._rolled[i]
                    and self._resting[i] < sch.settle_for
                    and self._resting[i] % sch.settle_every == 0
                    and self._stirred(i, state.pos[i], thumb, box)
                ):
                    rested = self.spots.settle(frame, i, at[0], float(r), int(state.colour[i]))
                    stray = None if rested is not None else self.spots.strayed_to(frame, state, i, at[0])
                    strayed = stray is not None
                    if rested is not None:
                        crept = self._crept_to(frame, state, i)
                        rested = rested if crept is None else crept
                    self._tried[i], self._tried_at[i] = thumb, state.pos[i]
                    self._rested_img[i] = None  # (measured again at its next rest)
                    if rested is not None and self._creeps_along(i, rested - at[0], at[0], float(r)):
                        # Still creeping: measured where it is now, watched from this frame on.
                        at = rested[None, :]
                        self._settle_at[i] = rested
                        self._ref[i] = thumb
                        self._resting[i] = 0
                        self._offset[i] = self._search_offset(frame, state, i, at[0])
                        self.spots.fine_spot(frame, i, at[0], float(r), int(state.colour[i]))
                        self._recheck_beside(state, i, at[0])
                if not strayed:
                    self._resting[i] += 1
                    self._rolled[i] &= self._resting[i] < sch.settle_for
                    self._struck_white[i] &= self._rolled[i]
                    if not self._rolled[i]:
                        self._origin[i] = np.nan
                    if not np.all(np.isfinite(self._anchor[i])):
                        self._anchor_age[i] = 0
                        self._recheck_given[i] = False
                    self._anchor[i] = at[0]
                    self._anchor_age[i] += 1
                    self._take_patch(frame, state, i, thumb)
                    self._take_lone_patch(frame, state, i)
                    held.append(i)
                    held_at.append(at[0])
                    continue
                # Not at rest where it is carried: measured where the detector found it (below), not
                # held to its spot (see RestSpots.strayed_to).
                self._carried[i] = False
                self._settle_at[i] = np.nan
                self._anchor[i] = np.nan
                self._offset[i] = np.nan
                self._rested_img[i] = None
                self._tried[i] = None
                anchored = False
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
            alone = (still or anchored) and not cue and not left and not strayed
            if alone and self._struck(state, i, speed):
                alone = False
                self._reached_at[i] = self.frames
            # Where the changes round it came from before this frame (this frame's own change is
            # the ball leaving when it is struck).
            side = self._cue_side[i].copy()
            if cue and ref is not None:
                # Not the stroke's own frame: the changes there are the white's streak leaving,
                # on the side away from the cue; counted, they turned the cue's side round, and
                # a 960x540@60 break-off's white, unseen in the stroke's first frame, was refused
                # in the second as lying on the cue's side (a rendered clip, seed 114).
                if state.unseen[i] == 0:
                    self._cue_side[i] = sch.side_decay * self._cue_side[i] + self._side_pending[i]
                self._side_pending[i] = change_pull(thumb, ref, sch, state.pos[i], float(r))
            elif not still:
                self._cue_side[i] = 0.0
                self._side_pending[i] = 0.0
            self._ref[i] = thumb
            self._settled[i] = False
            rolling = speed[i] >= sch.roll_speed and (state.names[i] != CUE_BALL or self._struck_white[i])
            self._rolled[i] = rolling or strayed or (self._rolled[i] and not quiet)
            if speed[i] >= sch.roll_speed:
                self._heading[i] = state.vel[i] / speed[i]
            disturbed[i] = cue or alone
            if stray is not None:
                # Measured where it rolled on to by the detector, not the colour search: that is
                # biased towards a ball's shadow (a green on the green cloth, pushed by the white
                # and searched so, was measured 0.6 radii off while it crept to rest).
                parts.append(stray)
                looks.append(np.full((1, 3), np.nan))
                continue
            pu, pv = u + state.vel[i, 0], v + state.vel[i, 1]
            if state.unseen[i] >= sch.lost_full:
                continue  # left to the whole-table search
            ext = sch.margin_radii * r + 1.3 * speed[i] + growth * r * state.unseen[i]
            roi = window(min(u, pu), min(v, pv), max(u, pu), max(v, pv), ext, frame.shape)
            if not cue and self._packed(state, i, speed):
                packs.setdefault(int(state.colour[i]), []).append(roi)
            elif exposed:
                # Still where it rested, as far as anything shows: the detector measures it to a
                # fraction of a pixel; the colour search, biased to its lit side by 2-4 pixels,
                # moved every faint ball a rolling ball passed (05_touching: rest 2.2 -> 3.4 mm).
                rois.append(roi)
            elif (
                measured := self._measured_rolling(
                    frame, state, i, np.array([pu, pv]), cue or anchored, speed
                )
            ) is not None:
                parts.append(measured)
                looks.append(np.full((len(measured), 3), np.nan))
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
                    min_half=self.spots.half(u, v, pu, pv, r),
                )
                # Handed over by its picture's shift last frame, it may have left faster than
                # that frame's step: the cue's tip met it late in the exposure (a rendered
                # 720p60 break-off: 0.6 px in the stroke's first frame, 21 px in its second,
                # outside the window its step gave it; the search took the cue's tip).
                handed = self._handed_at[i] == self.frames - 1
                if (cue or handed) and not near(found.pixel, state.pos[i], sch.hold_radii * r):
                    left = find_departure(frame, state, i, sch, self.region, cloth, found, side)
                    self.local_searches += 1
                    if left is not None:
                        found = left
                        self._left.append(left)
                        self._left_looks.append(np.full((len(left), 3), np.nan))
                        self.departed[i] = True
                        self._struck_white[i] = True
                        self._anchor[i] = np.nan
                        # Struck, it rolls however slowly it is measured to go (a gentle stroke
                        # along the table at the far end of a steep view: a third of a pixel a
                        # frame), and is re-settled while it creeps on (see ``settle_for``).
                        self._rolled[i] = True
                        if not handed:
                            self._origin[i] = state.pos[i]
                    elif state.unseen[i] > 0 or self._stays_at[i] == self.frames:
                        # Hidden on its spot: nothing that left it looks like the ball. Or its own
                        # picture says it has not left its spot (see _shifted): the blob off it
                        # is the cue's tip merged with it as the cue feathers. Taken, it dragged
                        # the white 3 px a frame after the tip and the track stayed on the tip (a
                        # rendered 1080p60 in-off: a stroke read 0.85 s early, the white lost,
                        # its in-off missed); seen there, it is measured on its spot.
                        found = found[near_rows(found.pixel, self._hold_at[i], sch.hold_radii * r)]
                        if not len(found) and state.unseen[i] == 0:
                            found = BallDetections.build(
                                self._hold_at[i][None, :], [float(r)], colour=state.colour[i : i + 1]
                            )
                elif alone and anchored and len(found):
                    # No ball can reach it, so it is where it rests: what its search finds farther
                    # off is the part of it a sleeve or a hand leaves uncovered, or that cover,
                    # unless it looks as the ball does, whole (a ball creeping on to rest when
                    # the video began).
                    far = ~near_rows(found.pixel, self._hold_at[i], sch.hold_radii * r)
                    if np.any(far):
                        keep = ~far
                        keep[np.flatnonzero(far)[self.spots.looks_as(frame, found[far], i)]] = True
                        found = found[keep]
                found_looks = np.full((len(found), 3), np.nan)
                # Struck off a spot it rested on (the spot bare), or rolling on from there as a
                # ghost, and not found by its colour where it can be: its ghost. Not any fast
                # track: one that wandered off its ball onto a cue or a player's legs moves as
                # fast (Task2 clip 11: the green's, past the players' legs at the cushion). Its
                # look is the ball's: what it shows is mostly the cloth (a fifth to a third of
                # the ball's colour), which the look's limit refuses.
                # (Or moved off it by its prediction this frame: the tracker saw the ball that
                # struck it arrive, and gave it the contact's velocity before its search saw it
                # go; Task2 clip 6's black, the white tracked into it, then was never found.)
                struck_off = left and (
                    (anchored and self._anchor_age[i] >= sch.ghost_rest) or self._unanchored[i] == self.frames
                )
                streaking = self._ghosting[i] and speed[i] >= sch.roll_speed
                wanted = (struck_off or streaking) and state.names[i] != CUE_BALL
                if wanted and not near(found.pixel, np.array([pu, pv]), 2.0 * r + 1.5 * speed[i]):
                    ghost = self._ghost(frame, state, i, roi)
                    if len(ghost):
                        look = state.appearance[i : i + 1].copy()
                        found = concat([ghost, found])
                        found_looks = np.concatenate([look, found_looks])
                        self._left.append(ghost)
                        self._left_looks.append(look)
                        self._ghost_at[i] = ghost.pixel[0]
                parts.append(found)
                looks.append(found_looks)
                self.local_searches += 1
            else:
                rois.append(roi)
        # A pack's balls the detector finds in the pack's colour come before the colour searches'
        # blobs, so that they win the dedupe: a searched blob of unknown colour beside a pack (the
        # white's search, biased a few pixels) took the place of the detector's red there as the
        # break moved it, and two reds' tracks swapped (synthetic 01_break_off: 13 switches in
        # the break with the white tracked into it). Only the pack's colour: the detector's other
        # names there (it calls a red pressed against another pink at times) keep their place.
        for colour, boxes in packs.items():
            for roi in merge_windows(boxes):
                # Every ball the detector finds there is kept: keeping only the pack's colour left a
                # red's track free to take a blob of the white's or the pink's colour search
                # beside the pack (a rendered 1080p60 break-off: 19 -> 38 red switches).
                found = self.detector.detect(frame, roi)
                own = found.colour == colour
                parts.insert(0, found[own])
                looks.insert(0, np.full((int(own.sum()), 3), np.nan))
                parts.append(found[~own])
                looks.append(np.full((int((~own).sum()), 3), np.nan))
                self.roi_detections += 1
        for roi in merge_windows(rois):
            found = self.detector.detect(frame, roi)
            parts.append(found)
            looks.append(np.full((len(found), 3), np.nan))
            self.roi_detections += 1
        self._held = BallDetections.empty()
        if held:
            self._held = BallDetections.build(
                np.array(held_at), state.radius[held], colour=state.colour[held]
            )
            parts.insert(0, self._held)
            looks.insert(0, state.appearance[held])
        app = np.concatenate(looks) if looks else np.zeros((0, 3))
        return concat(parts), app, disturbed

    def _measured_rolling(
        self,
        frame: Image,
        state: TrackerState,
        i: int,
        predicted: FloatArray,
        held: bool,
        speed: FloatArray,
    ) -> BallDetections | None:
        """The detector's balls within a radius of ball ``i``'s prediction, in a window round it,
        where it rolls too slowly to blur; None (none there) where the colour search is to find
        it (a ball at rest is measured as :meth:`_local` says).

        Why: the colour search takes the pixels on the segment between the ball's remembered
        look and the cloth's, which a ball lit from above does not lie on: its top is lighter
        and yellower than its mean, its underside darker. At the far end of a steep view the
        search's blob of a rolling yellow was its shaded underside, its centre 3-4 px (a third
        of a radius) low, and the look learnt from there fell from lightness 127 to 75 in a
        second; the search then took the cushion's shade for it and lost it (a rendered
        1080p60 stroke, broadcast camera). Unblurred, the detector measures the whole ball.
        Not the cue ball: its departure, its following by its picture's shift and its rests
        are found apart, round the cue's tip and the hand that place and strike it, and the
        detector's centre of a white barely moved by a phantom departure (the cue's tip beside
        it), followed, made that a stroke while the player addressed it (a rendered 1080p60
        clearance). Nor an object ball ``held`` at its rest spot, however fast a contact
        predicts it (its rest is reported from its searches: see :meth:`_report_at_rest`), one
        lost for ``lost_full`` frames, a ghost (see :meth:`_ghost`), or one whose look is not
        known (measured by the detector anyway).
        """
        r = float(state.radius[i])
        if (
            held
            or self._cue_ball[i]
            or state.unseen[i] >= self.schedule.lost_full
            or self._ghosting[i]
            or not np.all(np.isfinite(state.appearance[i]))
            or self._handed_at[i] == self.frames - 1
            or not self.schedule.rest_speed <= speed[i] < self.schedule.measure_radii * r
        ):
            return None
        # A window round its prediction, not its search's (grown for a streak): at this speed the
        # prediction is within a fraction of a radius, and the detector's cost is its window's.
        u, v = float(predicted[0]), float(predicted[1])
        found = self.detector.detect(frame, window(u, v, u, v, _MEASURE_REACH * r, frame.shape))
        self.roi_detections += 1
        # Only its own: the balls beside it in the window have their own measurements (a resting
        # red beside the white, measured so in the white's window, took that centre, a pixel off
        # its rest spot's finer one: sample 05, reported 2 px off in 6 frames).
        own = near_rows(found.pixel, predicted, r)
        if not np.any(own):
            return None
        # And only where it looks as the ball does: a ball of another colour there is that ball
        # (unnamed where the detector names nothing: Task3), and this one is searched for by its
        # own colour (Task3 clip 19: ball2's track, put on a neighbour as it was struck, rode it
        # for seconds, measured so, while the search would have found it again).
        look = disc_appearance(frame, found.pixel[own], found.radius[own])
        alike = lab_distance(look, state.appearance[i]) < self.tracker.config.appearance_gate
        # Nor one the detector names another colour, however weakly: the tracker refuses it for
        # this ball, which would go unseen with its colour search not asked (a pink pushed in a
        # break-off's pack, named the white at confidence 0.1-0.2 for four frames: its grown
        # gate took a red, which its track then followed).
        named = found.colour[own]
        alike &= (named == UNKNOWN) | (state.colour[i] == UNKNOWN) | (named == state.colour[i])
        own[own] = alike
        return found[own] if np.any(own) else None

    def _ghost(
        self, frame: Image, state: TrackerState, i: int, roi: tuple[int, int, int, int]
    ) -> BallDetections:
        """Ball ``i``'s ghost in ``roi`` (:func:`vision.tracking.streaks.find_streaks`), in its
        colour, or nothing: for an object ball of known colour and look, against the frame it
        was last measured in.

        Why its colour: the colour model names a black's ghost green (Task2 clip 6), and a
        whole-table detection of it in that colour would keep it from the black. The cue ball is
        left to its departure's search (:func:`find_departure`): a hand or a cue by it is on
        its own colour's segment as often as its streak is.
        """
        before = self._seen_img[i]
        look = state.appearance[i]
        if before is None or state.colour[i] < 0 or not np.all(np.isfinite(look)):
            return BallDetections.empty()
        r = float(state.radius[i])
        cloth = self._cloth_at[i] if np.all(np.isfinite(self._cloth_at[i])) else None
        found = find_streaks(frame, before, roi, look, r, state.pos[i], self.region, cloth=cloth)
        if not len(found):
            return found
        on = state.others_on_table(i)
        others = np.where(on[:, None], state.pos + state.vel, np.nan)
        pred = state.pos[i] + state.vel[i] * (state.unseen[i] + 1)
        ghost = pick_ghost(found, pred, others, state.radius)
        if not len(ghost):
            return ghost
        return ghost.with_colour(state.colour[i : i + 1].copy(), ghost.confidence)

    def _recheck_beside(self, state: TrackerState, i: int, at: FloatArray) -> None:
        """Have the detector re-measure, every ``settle_every`` frames for ``settle_for``
        frames, the balls at rest that ball ``i``, come to rest (or crept on) at ``at``, can
        have pushed (:func:`~vision.tracking.pushes.pushable`): one long at rest that it pushed
        off its anchor is found moved (:meth:`_pushed`), one that it did not stays at its
        anchor; an object ball only just at rest that a moving ball came within reach of
        (:meth:`_struck`), not in a pack of its colour, is measured afresh.

        Why: a ball at rest is re-measured only when the picture round it changes, and a ball
        rolled up against another pushes it a few millimetres, a pixel at the far end of a
        view, which can leave the thumbnail as it was: carried where it stood, the pushed ball
        made the gap between the two too small by the push (a rendered 1080p60 free ball: the
        white 5.8 mm from the green it had moved 6.5 mm, measured 0.8 mm apart, TOUCHING BALL
        called). The push takes a few tenths of a second to end, so it is looked at more than
        once, and found moved by ``nudge_radii`` (before the event stage takes the rest).
        Every frame, for every ball beside and renewed as each ball crept on, cost thirteen
        times the detector's rest measurements of the 1080p60 speed render, a break-off whose
        reds come to rest all over the pack (321 to 4340); within reach and in front, every
        ``settle_every`` frames and once per rest, 329 to 434.
        Not only the balls long at rest: the white that came up to the green slowly set it
        creeping (12 mm in half a second), and the green, measured afresh as the white came
        near and anchored there a few frames before, was carried there while it crept (its
        thumbnail, green on green, changed too little); the event stage took the rest as the
        white stopped and TOUCHING BALL was called on an 11 mm gap (a rendered 1080p60 free
        ball, seed 143). But not every ball only just at rest: one that rolled to rest itself
        is measured as it settles, and re-measured in turn, a red come to rest by a touching
        white had the white re-measured in the blob it made with the red it touched, 7 mm off
        it (seed 145, a touching ball).
        """
        sch = self.schedule
        at_rest = np.all(np.isfinite(self._anchor), axis=1)
        long_at_rest = at_rest & (self._anchor_age >= sch.settle_for)
        reached = at_rest & (self.frames - self._reached_at <= sch.settle_for)
        on = at_rest & (state.state != TrackState.ABSENT)
        straight = pushable(
            state.pos, state.radius, on, i, at, self._heading[i], sch.hold_radii, sch.push_cos
        )
        straight &= long_at_rest
        near = pushable(state.pos, state.radius, on, i, at, self._heading[i], sch.hold_radii, sch.ahead_cos)
        near &= long_at_rest | reached
        speed = np.hypot(state.vel[:, 0], state.vel[:, 1])
        for k in np.flatnonzero(near & ~straight):
            # Cut or just reached: only a ball not in a pack of its colour besides ball i
            # (re-measured there, a break-off's reds, level with a red come to rest, swapped
            # names).
            near[k] = not self._packed(state, int(k), speed, leave_out=i)
        near |= straight
        near &= ~self._recheck_given
        self._recheck_given |= near
        self._recheck_left[near] = sch.settle_for
        self._pusher[near] = i

    def _stirred(
        self, i: int, at: FloatArray, thumb: npt.NDArray[np.int16], window: tuple[int, int, int, int]
    ) -> bool:
        """Whether ball ``i``'s thumbnail ``window`` changed by more than ``settle_change``, or
        the ball was moved (to ``at``), since the detector last measured it at rest: if neither,
        the detector would say what it said then."""
        tried = self._tried[i]
        if tried is None or not np.allclose(self._tried_at[i], at, atol=1e-3):
            return True
        return _changed(thumb, tried, window, self.schedule.settle_change)

    def _creeping(self, i: int, rested: FloatArray | None, r: float) -> bool:
        """Whether ball ``i``, rolled to rest and re-measured at ``rested``, lies further on along
        the path it rolled (from where its stroke left, or its last heading) than where it is
        anchored, by more than ``settle_move`` radii: it creeps on. A measurement dragged by a
        cue's tip or a hand goes any way; a rolling ball only on."""
        if not self._rolled[i] or rested is None or not np.all(np.isfinite(self._anchor[i])):
            return False
        return self._creeps_along(i, rested - self._anchor[i], self._anchor[i], r)

    def _creeps_along(self, i: int, step: FloatArray, at: FloatArray, r: float) -> bool:
        """Whether ball ``i``, resting at ``at`` and re-measured ``step`` pixels off, crept on
        (:meth:`_creeps_on`) along the line from where its stroke left to ``at``, or along its
        heading when it was last seen rolling.

        Why both: a slow white's measured velocity wobbles across its path, so the line from
        its stroke's spot is the steadier heading; but a white that came off a cushion or a
        ball since then goes elsewhere (a rendered 1080p60 touching ball, seed 103: off two
        cushions and a red, the white crept its last 7 mm into a red almost square to the line
        from its spot, was held there as dragged, and TOUCHING BALL was missed). A drag by a
        cue's tip or a hand beside a ball that has just rolled to rest is rare; a ball that
        rolled creeps on along the path it came.
        """
        away = at - self._origin[i]
        n = float(np.hypot(*away))
        if n > 0 and self._creeps_on(step, away / n, at, r):  # (NaN: no stroke's spot known)
            return True
        return self._creeps_on(step, self._heading[i], at, r)

    def _creeps_on(self, step: FloatArray, heading: FloatArray, at: FloatArray, r: float) -> bool:
        """Whether a ball resting at ``at``, re-measured ``step`` pixels off, crept on along its
        ``heading`` (:func:`_creeps`) or, beside a cushion it rolled into, back off it: along the
        heading mirrored in the cushion (:func:`bounced`).

        Why: a slow ball that reaches a cushion comes back off it, its speed across the cushion
        reversed, at a rolling ball's crawl (a red at the top cushion of a 1080p60 break-off
        came back 35 mm over 0.8 s); re-measured going back, it was taken for a drag and held
        where it touched the cushion, and its rest was reported there, 36 mm off, until a later
        search found it and the jump read as the red placed by hand.
        """
        least = self.schedule.settle_move * r
        if _creeps(step, heading, least):
            return True
        normal = self._cushion_normal(at, r)
        return normal is not None and _creeps(step, bounced(heading, normal), least)

    def _shifted(
        self,
        frame: Image,
        state: TrackerState,
        i: int,
        thumb: npt.NDArray[np.int16],
        box: tuple[int, int, int, int],
        anchored: bool,
    ) -> FloatArray | None:
        """Where cue ball ``i``, at rest, is this frame when its picture's shift since it came
        to rest (:mod:`vision.tracking.shift`) says it left its spot or creeps on (None: it did
        not, or the shift could not be measured: the usual measurements stand).

        Addressed (anchored where its picture was taken, not struck since), it left when the
        shift grows away from the cue for ``depart_shifts`` frames past ``depart_radii``
        (:func:`~vision.tracking.shift.departing`): then it is struck, and from there followed
        by the shift, its picture taken again every :data:`REPATCH_RADII` radii, while it rolls
        to rest (``settle_for`` frames with no creep of ``settle_move`` radii). A step of
        ``rest_speed`` or more a frame hands it to the tracker's motion and search
        (:meth:`_rolls_on`). Why: a gentle
        stroke at the far end of a steep view moves the white a fifth of a pixel a frame, under
        the cue's tip that followed through; the detector's centre (to a pixel, and dragged by
        the tip) and the search's (held to the spot within ``hold_radii``) found its departure
        13 frames late or never, and its creep to the ball it struck not at all (a rendered
        1080p60 free ball, broadcast camera: no strike, no first contact).
        """
        sch = self.schedule
        r = float(state.radius[i])
        if self._shift_frame[i] != self.frames - 1:
            self._shifts[i] = []
            if self._following[i]:
                self._stop_following(i)
        self._shift_frame[i] = self.frames
        patch = self._patch[i]
        others = state.others_on_table(i)
        rests_there = patch is not None and anchored and np.allclose(patch.centre, self._anchor[i], atol=1e-6)
        if self._following[i]:
            moved = not np.allclose(state.pos[i], self._shifted_to[i], atol=SHIFTED_PX)
            if patch is None or not self._rolled[i] or not self._shifts[i] or moved:
                # (Moved since by another measurement, a whole-table search's: the shift, taken
                # from a picture where the track then stood, no longer says where the ball is; a
                # white's track put on the cue's tip, a rendered 1080p60 break-off, was put back
                # there by it after the whole-table search had found the white, and a second
                # placing of the white was read.)
                self._stop_following(i)
                return None
            shift = patch_shift(frame, patch, self._shifts[i][-1])
            if shift is None:
                self._stop_following(i)
                return None
            at: FloatArray = patch.centre + shift.d
            if float(np.hypot(*(at - state.pos[i]))) >= sch.rest_speed:
                return self._rolls_on(i, at, at - state.pos[i])
            self._shifts[i] = [shift.d]
            if float(np.hypot(*shift.d)) > REPATCH_RADII * r:
                again = rest_patch(frame, at, r, state.pos[others], state.radius[others])
                if again is None:
                    self._stop_following(i)
                    return None
                self._patch[i], self._shifts[i] = again, [np.zeros(2)]
            step = at - self._crept_from[i]
            n = float(np.hypot(*step))
            if n > sch.settle_move * r:
                # Crept on: still rolling to a stop, and it may push what it rolled up to.
                self._heading[i] = step / n
                self._crept_from[i] = at
                self._resting[i] = 0
                self._anchor_age[i] = 0
                self._recheck_beside(state, i, at)
            self._shifted_to[i] = at
            return at
        if self._struck_white[i] or patch is None or not rests_there:
            self._shifts[i] = []
            return None
        seen = self._patch_thumb[i]
        if seen is not None and not _changed(thumb, seen, box, sch.settle_change):
            d = np.zeros(2)  # (the picture round it as it was: not moved)
        else:
            found = patch_shift(frame, patch, self._shifts[i][-1] if self._shifts[i] else None)
            if found is None:
                self._shifts[i] = []
                return None
            d = found.d
        if float(np.hypot(*d)) < sch.hold_radii * r:
            self._stays_at[i] = self.frames
        self._shifts[i] = (self._shifts[i] + [d])[-sch.depart_shifts :]
        if len(self._shifts[i]) < sch.depart_shifts or not departing(
            self._shifts[i], sch.depart_radii * r, -self._cue_side[i], sch.push_cos
        ):
            return None
        at = patch.centre + d
        self._struck_white[i] = True
        self._rolled[i] = True
        self._origin[i] = patch.centre
        self._heading[i] = d / float(np.hypot(*d))
        self._recheck_left[i] = 0
        last = d - self._shifts[i][-2]
        if float(np.hypot(*last)) >= sch.rest_speed:
            return self._rolls_on(i, at, last)
        self._following[i] = True
        self._crept_from[i] = at
        self._shifted_to[i] = at
        self._resting[i] = 0
        self._anchor_age[i] = 0
        return at

    def _rolls_on(self, i: int, at: FloatArray, step: FloatArray) -> FloatArray:
        """Cue ball ``i``, found by its picture's shift at ``at``, its last step ``step`` a frame
        (at least ``rest_speed``), is left to the tracker's motion and search from here: a ball
        that fast is no longer carried at rest, and the shift, measured against a picture taken
        again every few pixels, drifts behind it (a rendered 1080p60 touching ball: a normal
        stroke's white followed by it 14 mm behind for four seconds)."""
        self._stop_following(i)
        self._rolling_at[i] = step
        self._handed_at[i] = self.frames
        return at

    def _stop_following(self, i: int) -> None:
        """Ball ``i`` is no longer followed by its picture's shift (see :meth:`_shifted`)."""
        self._following[i] = False
        self._patch[i] = None
        self._shifts[i] = []

    def _take_patch(self, frame: Image, state: TrackerState, i: int, thumb: npt.NDArray[np.int16]) -> None:
        """Take cue ball ``i``'s picture where it rests addressed, carried at its anchor (once
        per anchor; not once struck), for :meth:`_shifted`."""
        if not self._cue_ball[i] or self._struck_white[i] or self._following[i]:
            return
        a = self._anchor[i]
        patch = self._patch[i]
        if patch is not None and np.allclose(patch.centre, a, atol=1e-6):
            return
        others = state.others_on_table(i)
        self._patch[i] = rest_patch(frame, a, float(state.radius[i]), state.pos[others], state.radius[others])
        self._patch_thumb[i] = thumb
        self._shifts[i] = []

    def _take_lone_patch(self, frame: Image, state: TrackerState, i: int) -> None:
        """Take ball ``i``'s picture where it is anchored (once per anchor), unless a ball come
        to rest beside it may be pushing it (its re-measurements under way): the picture a
        push is measured against is the one from before the push (see :meth:`_lone_shifted`),
        and a creep the one from where it came to rest (:meth:`_crept_to`)."""
        if self._recheck_left[i] > 0:
            return
        a = self._anchor[i]
        patch = self._lone_patch[i]
        # (Scalars compared: np.allclose, asked for every resting ball every frame, cost 0.2 ms
        # a frame on real 720p video.)
        if patch is not None and _same_spot(patch.centre, a):
            return
        others = state.others_on_table(i)
        self._lone_patch[i] = rest_patch(
            frame, a, float(state.radius[i]), state.pos[others], state.radius[others]
        )
        self._pusher[i] = -1

    def _crept_to(self, frame: Image, state: TrackerState, i: int) -> FloatArray | None:
        """Where ball ``i``, come to rest beside another ball (one within
        :data:`~vision.tracking.rest_spots.LONE_RADII` radii), is now by the shift of its
        picture taken where it is anchored, the other balls' discs left out (None: no ball that
        near, no picture taken there, or no shift measured).

        Why not the detector's centre: beside another ball it is pulled back towards it by
        the pair's blob and shade, and a ball creeping its last millimetres into another is
        re-measured short of its creep (a rendered 720p59.94 touching ball: the white crept
        0.7 px into a red, re-measured 0.17-0.2 px on, under ``settle_move``; held, its gap
        read 2.4 mm, true 0.3: TOUCHING BALL missed). Its picture's shift tells the creep to
        a few hundredths of a pixel, and it is measured from one picture while the ball
        rests there, so the creep adds up until it counts.
        """
        patch = self._lone_patch[i]
        if patch is None or not _same_spot(patch.centre, self._anchor[i]):
            return None
        r = float(state.radius[i])
        others = state.others_on_table(i)
        d = np.hypot(*(state.pos - patch.centre).T)
        near = others & (np.nan_to_num(d, nan=np.inf) < LONE_RADII * r)
        if not np.any(near):
            return None
        found = patch_shift(frame, leave_out(patch, state.pos[near], state.radius[near]))
        if found is None:
            return None
        out: FloatArray = patch.centre + found.d
        return out

    def _lone_shifted(self, frame: Image, state: TrackerState, i: int) -> FloatArray | None:
        """Where object ball ``i``, re-measured because a ball came to rest beside it
        (:meth:`_recheck_beside`), was pushed to, by the shift of its picture taken before
        that ball came (None: no such picture, no shift measured, one within
        ``nudge_shift_radii`` of nothing, or one not away from that ball).

        Why not the detector's centre: beside the ball that pushed it, the pair's blob and
        shade pull the detector's centre of it back towards that ball by a third of a pixel
        and more, about what a gentle push moves it (a rendered 1080p60 free ball: the brown
        pushed 2.7 mm, 0.57 working pixels, re-measured 0.17 pixels off its anchor and held
        there; the white's gap to it read 1.2 mm, not 2.4: TOUCHING BALL called). The ball's
        own picture, its rim against the cloth with the pusher's disc left out, tells the
        shift to a few hundredths of a pixel (:mod:`vision.tracking.shift`).
        """
        patch = self._lone_patch[i]
        k = int(self._pusher[i])
        if patch is None or k < 0 or state.state[k] == TrackState.ABSENT:
            return None
        # The pusher's disc as it is now, and the ring its rim blurs into, are not compared.
        found = patch_shift(frame, leave_out(patch, state.pos[k : k + 1], state.radius[k : k + 1]))
        if found is None:
            return None
        d = found.d
        n = float(np.hypot(*d))
        if n < self.schedule.nudge_shift_radii * patch.radius:
            return None
        away = patch.centre - state.pos[k]
        norm = float(np.hypot(*away))
        if norm <= 0 or float(d @ away) / (n * norm) <= self.schedule.push_cos:
            return None
        out: FloatArray = patch.centre + d
        return out

    def _cushion_normal(self, at: FloatArray, r: float) -> FloatArray | None:
        """The unit normal (pixels, pointing onto the bed) of the playing surface's edge nearest
        ``at``, when that edge lies within ``edge_radii`` radii of it (``None``: no cushion that
        near, or no surface mask): the distance-to-edge map's gradient there."""
        edge = self._edge
        if edge is None or not np.all(np.isfinite(at)):
            return None
        h, w = edge.shape
        x, y = round(float(at[0])), round(float(at[1]))
        d = max(2, round(0.5 * r))
        if not (d <= x < w - d and d <= y < h - d) or edge[y, x] >= self.schedule.edge_radii * r:
            return None
        g = np.array([edge[y, x + d] - edge[y, x - d], edge[y + d, x] - edge[y - d, x]], np.float64)
        n = float(np.hypot(*g))
        return g / n if n > 0 else None

    def _rest_again(self, i: int, at: FloatArray, thumb: npt.NDArray[np.int16]) -> bool:
        """Whether ball ``i``, come to rest again at ``at``, shows just as it did when the
        detector last measured it at rest (the thumbnail within ``rest_radii`` of the centre
        measured then changed by no more than ``settle_change``, and ``at`` within ``hold_radii``
        of it): the detector would say what it said then, so that is taken.

        Why: a resting ball that motion round it disturbs (a player walking past, balls running
        by a pack) is searched while disturbed and measured afresh when the picture is still
        again; in a break-off most such measurements (4 ms each at 1080p) found the ball where the
        last one had, the picture round it as it was (199 of 361 on the 1080p60 speed render).
        A ball that was moved changes its window, and is measured again.
        """
        img = self._rested_img[i]
        last = self._rested_at[i]
        if img is None or not np.all(np.isfinite(last)) or self._rolled[i]:
            # (A ball come to rest from rolling may creep on by less than the picture shows at
            # the far end of a view: it is measured afresh while it may; see ``settle_for``.)
            return False
        r = float(self.tracker.state.radius[i])
        if float(np.hypot(*(at - last))) > self.schedule.hold_radii * r:
            return False
        sch = self.schedule
        box = _thumb_box(thumb.shape, last[0], last[1], sch.rest_radii * r, sch.thumb)
        return not _changed(thumb, img, box, sch.settle_change)

    def _unsupported(
        self, frame: Image, state: TrackerState, full: BallDetections
    ) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
        """Which of this frame's carried rows (``self._held``) the whole-table search ``full``
        finds no ball on (none within a radius), their spot showing the cloth it rested on; and
        which of those it found elsewhere (see below).

        Why: a ball is carried while the picture round its spot stays unchanged, which also holds
        for a track left on bare cloth: one that froze where its ball crept on, or a red the
        change test cannot see leave at the far end of a view (a red on green cloth differs from
        it by a few grey levels in the thumbnail). Carried, its row wins every dedupe and the
        track never looks again; the ball itself, found by the whole-table search, stays
        unmatched (a rendered 1080p60 break-off, random camera: 13 of 22 tracks on bare cloth
        for the clip's last 10 s).

        A ball of a one-ball colour the search finds, confidently, elsewhere (two radii and more
        away) is not on its carried spot either, however the spot looks: the chalk where the
        baulk line meets the D made the green's spot, the green gone, look covered, and its
        track stayed there while the green rolled to a cushion and back (a rendered
        red-then-colour, random camera).
        """
        out = np.zeros(len(self._held), bool)
        away = np.zeros(len(self._held), bool)
        for k, i in enumerate(np.flatnonzero(self._carried)):
            at, r, colour = self._held.pixel[k], float(self._held.radius[k]), int(self._held.colour[k])
            if near(full.pixel, at, r):
                continue
            if colour >= 0 and colour != RED:
                mine = (full.colour == colour) & (full.confidence >= ELSEWHERE_CONFIDENCE)
                if np.any(mine) and not near(full.pixel[mine], at, 2.0 * r):
                    away[k] = bool(np.any(self.spots.looks_as(frame, full[mine], int(i))))
            out[k] = away[k] or self._bare(frame, state, int(i))
        return out, away

    def _bare(self, frame: Image, state: TrackerState, i: int) -> bool:
        """Whether ball ``i``'s spot shows the cloth it rested on (within ``cover``); unknown
        cloth counts as bare (the ball is then searched as before)."""
        if not np.all(np.isfinite(self._cloth_at[i])):
            return True
        look = disc_appearance(frame, state.pos[i : i + 1], state.radius[i : i + 1])[0]
        if not np.all(np.isfinite(look)):
            return True
        return float(lab_distance(look, self._cloth_at[i])) <= self.schedule.cover

    def _pushed(self, state: TrackerState, i: int, rested: FloatArray | None, least: float) -> bool:
        """Whether ball ``i``, long at rest at its anchor, re-measured at ``rested`` more than
        ``least`` radii from it (within ``push_cos`` of straight away from what pushed it), was
        moved, not dragged: a contact too gentle to leave in one frame.

        What pushes the cue ball is the cue, from the side the changes round it came from while
        it was addressed (:func:`change_pull`); what pushes an object ball is a ball that came to
        rest against it since it stopped there (a white rolled up to it for a free ball: the red
        or colour moves 3-7 mm, less than a radius). The cue's tip, the bridge hand and a sleeve
        drag a measured centre towards them, never away.
        """
        if rested is None:
            return False
        moved = rested - self._anchor[i]
        dist = float(np.hypot(*moved))
        r = float(state.radius[i])
        if dist < least * r:
            return False
        if state.names[i] == CUE_BALL:
            away = -self._cue_side[i]
        else:
            # The nearest ball touching it that came to rest after it did (not a pack's
            # neighbour, which was there all along).
            on = state.others_on_table(i)
            d = np.where(on, np.linalg.norm(state.pos - self._anchor[i], axis=1), np.inf)
            k = int(np.argmin(d))
            if not np.isfinite(d[k]) or d[k] > 2.5 * r or self._anchor_age[k] >= self._anchor_age[i]:
                return False
            away = self._anchor[i] - state.pos[k]
        norm = float(np.hypot(*away))
        if norm <= 0:
            return False
        return float(moved @ away) / (dist * norm) > self.schedule.push_cos

    def _anchored(self, state: TrackerState, i: int) -> bool:
        """Whether ball ``i`` is still within ``hold_radii`` of where it was last carried at rest
        (see ``_anchor``); a ball farther off has been moved and rests anew when it stops."""
        a = self._anchor[i]
        if not np.all(np.isfinite(a)):
            return False
        close = float(np.hypot(*(state.pos[i] - a))) < self.schedule.hold_radii * float(state.radius[i])
        if not close:
            if self._anchor_age[i] >= self.schedule.ghost_rest:
                self._unanchored[i] = self.frames
            self._anchor[i] = np.nan
        return close

    def _packed(self, state: TrackerState, i: int, speed: FloatArray, leave_out: int = -1) -> bool:
        """Whether ball ``i`` of known colour, slow (unblurred), touches another ball of its colour
        (a red, a red; not ball ``leave_out``): then the detector, not the colour search,
        measures it.

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
        others = state.others_on_table(i) & (state.colour == state.colour[i])
        if leave_out >= 0:
            others[leave_out] = False
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


def surface_edge(region: npt.NDArray[np.bool_]) -> npt.NDArray[np.float32]:
    """Distance (pixels) of every pixel inside the playing surface ``region`` to its edge."""
    return np.asarray(cv2.distanceTransform(region.astype(np.uint8), cv2.DIST_L2, 3), np.float32)


def _ring(frame: Image, at: FloatArray, r: float, region: npt.NDArray[np.bool_] | None) -> FloatArray:
    """Median Lab colour of the playing surface 2 to 3.5 radii round ``at`` (NaN: none seen)."""
    x0, y0, x1, y1 = window(at[0], at[1], at[0], at[1], 3.5 * r, frame.shape)
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


def bounced(heading: FloatArray, normal: FloatArray) -> FloatArray:
    """``heading`` (unit) of a ball that rolled into a cushion of onward ``normal`` (unit, onto
    the bed), after it: its part across the cushion reversed, its part along it kept. A heading
    away from the cushion already comes back unchanged."""
    across = float(heading @ normal)
    if across >= 0.0:
        return heading
    out: FloatArray = heading - 2.0 * across * normal
    return out


#: How far across its path (pixels) the detector may put a creeping ball's centre beyond what
#: its step along it allows (see :func:`_creeps`). Why: a ball a few pixels across is measured
#: to about a pixel (its blob in whole pixels, the video's colour at half resolution); at
#: 960x540 (3 px in radius) the white creeping 1.5 px between two re-measurements was put
#: 0.7 px across its path and 0.5 px along it, read as a drag, and held at that spot for the
#: 0.4 s of a rest window while it crept on: the stroke ended there and the white's next move,
#: 40 mm on, was read as a new stroke touching nothing (a rendered clearance, seed 114). On a
#: 1080p view (9 px in radius) a pixel is a ninth of a radius, well under a hand's drag.
CREEP_ACROSS_PX = 1.0

#: A cue ball followed by its picture's shift (:meth:`VideoTracker._shifted`) has its picture
#: taken again where it is once the shift passes this many radii: the registration holds to
#: :data:`~vision.tracking.shift.MAX_SHIFT_RADII`, and a ball creeping on goes farther.
REPATCH_RADII = 0.4
#: A followed cue ball's track farther than this (pixels) from where its picture's shift last
#: put it was moved by another measurement since (see :meth:`VideoTracker._shifted`).
SHIFTED_PX = 0.05


def _same_spot(a: FloatArray, b: FloatArray) -> bool:
    """Whether a resting ball's picture taken at ``a`` is one of its anchor ``b``: within
    :data:`_SAME_SPOT` pixels, each way.

    Why not exactly: a resting ball's anchor moves by its re-measurements' jitter, and of 847
    pictures taken on Task2 clips 1 5 10 15 20, 448 were for a move under 0.05 px (median
    0.026), each costing a frame 0.3-0.6 ms; a shift measured from a picture is measured from
    where that picture was taken.
    """
    return abs(float(a[0]) - float(b[0])) <= _SAME_SPOT and abs(float(a[1]) - float(b[1])) <= _SAME_SPOT


def _creeps(step: FloatArray, heading: FloatArray, least: float) -> bool:
    """Whether a resting ball re-measured ``step`` pixels from where it was carried crept on: by
    more than ``least``, onwards along its last ``heading`` (unit) and not across it (by more
    than that, and :data:`CREEP_ACROSS_PX` for the measurement). A ball rolls on along its path
    as it stops; a measurement dragged by a hand or a cue's tip beside it (a white just placed,
    a white addressed) goes any way."""
    along = float(step @ heading)
    across = abs(float(step[0] * heading[1] - step[1] * heading[0]))
    return along > least and across < along + CREEP_ACROSS_PX
