"""When and where the video tracker detects: the schedule's settings, in one frozen value.

Why a module of its own: the settings are read by the tracker, the pipeline's command line,
the benchmarks and the frame source (its thumbnail scale), and each carries the measurement
that set it; they outgrew the tracker's module.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from vision.tracking.motion import REFERENCE_FPS, frames_at


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
        gone_for: frames after a ball left the table (potted, by the tracker's reckoning) during
            which the whole table is searched every ``lost_every`` frames, as for a lost ball: a
            ball that struck the cushion beside a pocket's jaws, measured once over the mouth,
            is taken off the table at once, and searched for only every ``full_every`` frames
            it rolled on unseen for up to a second (a rendered break-off: the white, back after
            0.8 s, read as potted and a foul called).
        cloth: Lab colour of the cloth for the local search (None: each window's median).
        streak_mix: smallest share of the ball's colour in a pixel when the ball is unseen or
            fast (a streak ``k`` diameters long gives each pixel about ``1/k``; 0.25 keeps a
            ball at four diameters a frame, 10 m/s at 60 fps).
        measure_radii: speed (ball radii per frame) under which a rolling ball seen last frame
            is measured by the detector in its window, the colour search only where that finds
            nothing near its prediction (see ``VideoTracker._measured_rolling``). Unblurred,
            the detector's centre is the ball's; the colour search's is biased by its light.
        blur_radii: speed (ball radii per frame) from which a ball is searched as a streak
            (``streak_mix``); slower balls are searched with the resting share, which keeps
            a slow object ball off a cue or a hand beside it (on Task3, 0.5 lost clip 25's ball).
        hold_radii: a resting cue ball with motion around it, or an object ball no moving ball can
            reach (:meth:`~vision.tracking.video.VideoTracker._struck`), is measured where it
            rests unless it is found farther than this (ball radii) from there: a cue tip or a
            hand touching its
            blob drags the blob's centre by a fraction of a radius, and the stroke's first
            frame moves a struck ball more than that.
        strike_radii: farthest (ball radii) a cue ball that left its spot is looked for in the
            stroke's first frame (0: never): the strike falls inside the exposure, so the first
            frame shows at most part of a frame's travel; 10 keeps an 8 m/s stroke at 30 fps
            and a 16 m/s one at 60. Not scaled with the frame rate: what limits it is where the
            bridge hand lies, a distance on the table, not a frame's travel (halved at 60 fps,
            a rendered 1080p60 break-off's white, 3.9 radii off its spot in the stroke's first
            frame, was never found leaving, and its track took the cue's tip). At 5 a 720p30
            break-off's white, 7.7 radii off its spot in its first frame, was never found
            leaving and its track took the cue's ferrule behind the spot (the white's first
            contact read as a cushion, a rendered clip, seed 107), and a 960x540@60 one's, 5.3
            radii off, stayed lost until the pack (seed 114). At 13 the real footage's bridge
            hand came within reach: Task3 clip 13 (30 fps) lost its white to it; at 10 Task3
            tracks frame for frame as at 5.
        push_radii: a ball long at rest re-measured this far (ball radii) from its anchor, away
            from what can push it (the cue, for the cue ball; a ball come to rest against it,
            for an object ball), was pushed, not dragged
            (:meth:`~vision.tracking.video.VideoTracker._pushed`): 0.2 is over the detector's
            noise on a resting ball (a tenth of a radius) and under the 3-7 mm a white nudged
            into a ball moves it at the far end of a broadcast view.
        nudge_radii: ``push_radii`` for an object ball re-measured because a ball came to rest
            against it (:meth:`~vision.tracking.video.VideoTracker._recheck_beside`): no cue or
            hand is by it to drag its centre, and the ball that came to rest drags it towards
            itself, not away, so only the detector's jitter on a still ball (0.03-0.05 radii on
            a rendered free ball's resting green) must be cleared. At ``push_radii`` a green
            pushed 6.5 mm by the white (0.25 radii, a pixel) was found moved only as the event
            stage took the rest, and the gap came out 0.8 mm: TOUCHING BALL called.
        nudge_shift_radii: least shift (ball radii) of an object ball's picture, taken before a
            ball came to rest beside it, for which that ball pushed it
            (:meth:`~vision.tracking.video.VideoTracker._lone_shifted`): as ``depart_radii``,
            over ten times the shift measured on a still ball (0.01-0.03 px on the 1080p60
            renders), under the pushes that decide a touching ball (2-7 mm, half a working
            pixel and more at the far end of a view).
        push_cos: ... within this cosine of straight away from it.
        ahead_cos: a resting ball lies in front of a ball come to rest beside it, which can
            have pushed it (:func:`~vision.tracking.pushes.pushable`), when the line to it is
            within this cosine of the way that ball last rolled. A ball pushes along the line
            of centres, which a cut takes far off the way it rolled: at ``push_cos`` (45
            degrees) a free ball's white that cut the brown 67 degrees off its path had the
            brown, pushed 11 mm, carried where it stood (TOUCHING BALL called on a 9.8 mm
            gap; a rendered 1080p60 clip, seed 145). Under 0.25 (75 degrees) the ball is level
            with it: a pack's reds beside a red come to rest. Only for a ball not in a pack of
            its colour: a break-off's pack reds within it were re-measured and swapped names
            (seed 101, broadcast: 2 red switches to 4); in a pack ``push_cos`` stands.
        depart_radii: least shift (ball radii) of a resting cue ball's picture since it came to
            rest (:mod:`vision.tracking.shift`) that, growing over ``depart_shifts`` frames away
            from the cue, is its departure: over ten times the shift measured on a still ball
            under a cue's tip (0.01-0.03 px on the 1080p60 renders), under the first frames of the
            gentlest stroke's travel (a free ball's white at the far end of a broadcast view: 0.4,
            then 0.6 px, a radius of 10). ``push_radii`` (0.2), the detector's noise, was read
            13 frames after the strike, or never.
        depart_shifts: consecutive measurements of that shift, each farther than the one before,
            that make a departure (the first of them may be the ball still on its spot).
        side_decay: share of the remembered side of the changes round a disturbed resting cue ball
            kept per frame it is disturbed again (the latest, the cue's feathering, count most;
            a hand that placed the ball seconds before, least).
        pack_radii: centre distance (ball radii) within which two balls touch, for the pack test
            (:meth:`~vision.tracking.video.VideoTracker._packed`).
        pack_speed: fastest a ball in a pack is measured by the detector (ball radii a frame): faster
            it is blurred, a streak the detector does not find. Not scaled with the frame rate: the
            blur is the travel in one exposure, a frame.
        cover: weighted Lab distance (lightness counts half) from the cloth beside a resting
            ball at which its spot, with no ball measured there, counts as covered (see
            :meth:`~vision.tracking.video.VideoTracker._hidden`).
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
        rest_radii: reach (ball radii) round a ball's last measured resting centre within which
            its thumbnail must be unchanged (``settle_change``) for that measurement to stand
            when it comes to rest again (:meth:`~vision.tracking.video.VideoTracker._rest_again`):
            the ball and what touches it, not the pack beside it, whose other balls move in a
            break-off while it does not.
        ghost_rest: frames an object ball must have rested on its spot (carried there) for its
            disappearance from it, the spot bare, to count as a strike whose ghost is looked for
            (:mod:`vision.tracking.streaks`): a track that wandered off its ball (onto a cue's
            tip, a shadow by a cushion) and lost what it followed has no spot to leave; the
            struck blacks of Task2 clips 6 and 12 had rested 22 and 42 frames.
        stray_radii: farthest (ball radii) from where a ball is carried at rest that a ball of its
            colour, found by the detector when it finds none there, is taken for it rolled on
            (:meth:`~vision.tracking.rest_spots.RestSpots.strayed_to`): the search window's
            margin (``margin_radii``), which the ball's gate search then covers.
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
    gone_for: int = 30
    cloth: tuple[float, ...] | None = None
    streak_mix: float = 0.25
    hold_radii: float = 0.5
    blur_radii: float = 2.0
    strike_radii: float = 10.0
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
    rest_radii: float = 1.5
    push_radii: float = 0.2
    nudge_radii: float = 0.1
    nudge_shift_radii: float = 0.05
    push_cos: float = 0.7
    ahead_cos: float = 0.25
    depart_radii: float = 0.05
    depart_shifts: int = 3
    pack_radii: float = 2.5
    pack_speed: float = 0.5
    ghost_rest: int = 15
    stray_radii: float = 2.0
    measure_radii: float = 0.5

    def at_fps(self, fps: float) -> ScheduleConfig:
        """This schedule for video at ``fps``: search intervals kept in seconds and per-frame
        speeds and rates scaled from the 30 fps they were set on (see
        :meth:`vision.tracking.motion.MotionConfig.at_fps`). Not ``rest_speed``: it tells a ball
        at rest from the frame-to-frame jitter of its measured centre, which is as large a frame
        at any rate (halved at 60 fps, resting balls were searched instead of carried, and a
        rendered 1080p60 roll-up lost its contact), nor ``strike_radii`` (a distance on the
        table: see its note)."""
        ratio = fps / REFERENCE_FPS
        k = 1.0 / ratio
        return replace(
            self,
            full_every=frames_at(self.full_every, fps) if self.full_every > 0 else 0,
            lost_full=frames_at(self.lost_full, fps),
            lost_every=frames_at(self.lost_every, fps),
            gone_for=frames_at(self.gone_for, fps),
            settle_every=frames_at(self.settle_every, fps),
            settle_for=frames_at(self.settle_for, fps),
            ghost_rest=frames_at(self.ghost_rest, fps),
            roll_speed=self.roll_speed * k,
            blur_radii=self.blur_radii * k,
            side_decay=self.side_decay**k,
        )

    def at_upscale(self, upscale: float) -> ScheduleConfig:
        """This schedule for frames whose balls are too small for the detector at the working
        size, which it works on upscaled ``upscale`` times
        (:attr:`vision.detection.cloth.ClothModel.upscale`; a 640x360 picture of the whole
        table, balls 2 to 3 px in radius): the per-frame speeds ``rest_speed`` and
        ``roll_speed`` in pixels of that upscaled picture, and the thumbnail's cells as many
        of its pixels (``thumb`` times ``upscale``), as every pixel constant means at the ball
        sizes it was set at.

        Why: a working pixel there spans 13 mm of the bed, twice a 1080p view's; at 0.4 px a
        frame a white rolling at 400 mm/s (60 fps) fell under ``rest_speed`` and was carried at
        rest, and a 1/8 thumbnail's cell (3 radii) averaged its motion away for a dozen frames
        at a time (a rendered roll-up to a red, seed 124: the white held still twice for 0.2 s,
        read as a rest and a second stroke, its contact lost). The speeds' jitter argument
        (see :meth:`at_fps`) holds in the detector's pixels, where it measures the centre.
        Larger balls (no upscaling) keep the schedule as set: scaled by the radius at 960x540
        too (balls 3-3.7 px), a rendered break-off there lost a pot."""
        if not upscale > 1.0:
            return self
        k = 1.0 / upscale
        return replace(
            self, rest_speed=self.rest_speed * k, roll_speed=self.roll_speed * k, thumb=self.thumb / k
        )
