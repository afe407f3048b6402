"""Every threshold of event inference, derived from the table and the frame rate.

Nothing here is tuned to a clip: each number is a physical quantity of the game (ball radius,
pocket mouth, cloth friction) combined with the two properties of the measurement (the frame
interval and the tracker's position noise). A camera at another frame rate or a tracker with
another noise level changes the thresholds through :meth:`EventConfig.derive`, not by hand.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from calibration.table import TABLE, TableSpec
from vision.events.pocket_view import APPROACH_MM

#: Sliding friction of a ball on the cloth (dimensionless). Bounds how fast a ball may
#: decelerate between two frames, so a fit may bend that much and no more.
SLIDING_FRICTION = 0.2
#: Gravity (mm/s^2).
GRAVITY = 9810.0


def least_slide_mm(speed_mm_s: float) -> float:
    """How far a ball moving at ``speed_mm_s`` goes on at least before it stops, touching
    nothing: the cloth slows it by at most ``SLIDING_FRICTION * g``, so ``v^2 / (2 mu g)``."""
    return speed_mm_s * speed_mm_s / (2.0 * SLIDING_FRICTION * GRAVITY)


#: The fastest a ball moves on the cloth (mm/s): a power break-off sends the white at about
#: 10 m/s (issue 5), and a struck ball leaves no faster than what hit it. A track's path any
#: faster follows something else (a jump onto a highlight, a hand).
MAX_BALL_SPEED = 12000.0
#: Rolling resistance of a ball on the cloth (dimensionless): how far a rolling ball still
#: goes (``v^2 / (2 mu g)``), which bounds how far past its last sighting a ball can reach.
ROLLING_RESISTANCE = 0.013
#: Least speed limit (mm/s) of the creep test of a ball at rest (see ``rest_speed_mm_s``).
CREEP_FLOOR_MM_S = 5.0


@dataclass(frozen=True)
class EventConfig:
    """The thresholds of :class:`vision.events.infer.EventInferer`.

    Attributes:
        table: the table geometry (ball radius, pockets, cushions).
        fps: frame rate of the tracks (frames per second).
        noise_mm: standard deviation of one tracked position (mm); the tracker's figure.
        rest_frames: frames a ball must stay still before it counts as at rest: 0.4 s,
            at least 4 frames. The hysteresis of "rest": noise never restarts a stroke, and
            the window's mean positions are what touching is measured from.
        still_mm: a ball is still when every position of the rest window lies within this
            distance of the window's mean: 4 noise sigmas plus 1 mm of slack for the
            slowest creep a ball on cloth can have before it stops.
        rest_speed_mm_s: a still ball's speed fitted over the rest window must be under
            this: 3 standard deviations of that fitted speed, at least 5 mm/s, so a ball
            creeping to a stop is not at rest yet.
        creep_floor_mm_s: the least that limit may be where it is taken from the samples' own
            scatter (:func:`vision.events.buffer.still_mean`): 5 mm/s, 2 mm over the 0.4 s
            window, a few tenths of a pixel of a resting ball's re-measurement.
        strike_mm: the white must leave its rest position by half a ball radius, moving
            away, to start a stroke. A cue feathering (or a detector jittering under a cue)
            moves it by a few millimetres at most and comes back; a real stroke moves it
            a radius within a frame or two.
        move_mm: a ball has left its position when it is this far from it (3 sigmas + 1 mm).
        push_mm: a ball at rest before and after a stroke that moved by more than this was
            touched: 4 standard deviations of the difference of two rest-window means,
            plus 0.5 mm. Finds contacts too gentle to show in the velocities.
        place_mm: a ball at rest elsewhere than before by this much, without a stroke, was
            put there by hand: a quarter of a ball radius, at least 5 noise sigmas.
        replace_mm: a ball that rested on the cloth and is found at rest again, with no
            stroke between, is reported ``place``d (put back by hand) only when it is this far
            from where it rested: one ball radius. Nearer is the tracker measuring the same
            ball again: a cue's tip or a hand over a resting white pulls its blob's centre by
            up to half a radius (the tracker re-measures a ball it holds at rest within that,
            ``Schedule.hold_radii``), which 20 false places on 56 rendered clips were; a hand
            that moves a ball on the cloth by less than its radius has not replaced it. Its
            resting position still follows, silently.
        fit_frames: samples each side of a contact used to fit a trajectory: 0.15 s, 3 to 8.
        accel_prior: deceleration a trajectory fit may bend by without penalty (mm/s^2):
            sliding friction times gravity, the largest a ball on cloth has between contacts.
        impulse_mm_s: smallest change of velocity along the line of centres (or the cushion
            normal) that counts as a contact: the velocity noise of two fits, 4 sigmas,
            at least 40 mm/s (a ball moving slower than this travels under 1.5 mm a frame
            at 30 fps and cannot be told from noise).
        simultaneous_mm: two contacts of the white are reported at the same ``t``
            (simultaneous: Section 3 Rule 11(c) and Rule 6) when the white travelled less than
            this between them. Each contact is where a straight-line fit to ``fit_frames``
            noisy samples, extrapolated to its end, meets a ball: that end point has a
            standard deviation of ``noise * sqrt((4n - 2) / (n (n + 1)))`` along the path,
            and the difference of two contacts ``sqrt(2)`` times that; closer than 3 such
            sigmas, no camera can order them.
        touch_frames: the most frames of rest averaged for the touching gaps (1.5 s, cut
            short when anything moves again), used only while a gap of the white is
            ambiguous (see ``touch_band_sigmas``): the gap's noise shrinks with the square
            root of the frames, and balls at rest stay put until the next stroke.
        touching_mm: the white and a ball at rest are touching when the measured gap
            between them is under this: 1 mm (the gap a referee can judge from above the
            table, and the physics' own definition) plus 2 standard deviations of the gap
            measured from ``touch_frames`` mean positions, plus the gap's systematic error
            (see :meth:`derive`): a gap reported as open is open beyond the noise and the bias.
        touch_band_sigmas: the trade-off between latency and touching precision. The rest is
            normally called as soon as the rest window confirms it (about 0.4 s after the
            balls stop, within the product's 0.5 s: issue 7), its touching pairs decided from
            that window's ``m`` frames. Only when a gap of the white lies within this many of
            that window's gap sigmas of ``touching_mm`` is the decision a coin toss of the
            noise; then, and only then, the rest waits for more frames (up to
            ``touch_frames``) and the call comes later. 2 sigmas: an early decision differs
            from the long-averaged one in under 2.5% of those rare gaps. The gap sigma is
            measured from the two balls' own scatter over the window (``noise * sqrt(2 / m)``
            for a tracker with the stated white noise): a tracker whose rest positions do
            not vary frame to frame has nothing for more frames to average away.
        blind_mm: how far short of a pocket's mouth a ball rolling in may be last measured and
            still be found potted (:mod:`vision.events.exits`): the stretch of bed whose view
            is measured (:data:`vision.events.pocket_view.APPROACH_MM`), where the pocket's
            shade hides balls from the detector.
        blind_speed_mm_s: the least speed at which a ball lost that far short rolls on into
            the mouth: a ball rolling at ``v`` goes ``v^2 / (2 mu g)`` further (rolling
            resistance ``mu``), so this is the speed that carries it over ``blind_mm``.
        hidden_fraction: a pocket's approach is hidden (by a player, a cue, a hand) when more
            than this share of its cloth is not seen as cloth: a ball covers under a tenth of
            it, an arm or a body far more (:mod:`vision.events.pocket_view`).
        hide_timeout_s: a ball hidden while still moving stops holding up the rest after this.
        max_stroke_s: a stroke still moving after this is closed with a rest anyway.
    """

    table: TableSpec
    fps: float
    noise_mm: float
    rest_frames: int
    still_mm: float
    rest_speed_mm_s: float
    creep_floor_mm_s: float
    strike_mm: float
    move_mm: float
    push_mm: float
    place_mm: float
    replace_mm: float
    fit_frames: int
    accel_prior: float
    impulse_mm_s: float
    simultaneous_mm: float
    touch_frames: int
    touching_mm: float
    touch_band_sigmas: float
    blind_mm: float
    blind_speed_mm_s: float
    hidden_fraction: float
    hide_timeout_s: float
    max_stroke_s: float

    @property
    def dt(self) -> float:
        """Frame interval (s)."""
        return 1.0 / self.fps

    @property
    def radius(self) -> float:
        """Ball radius (mm)."""
        return self.table.ball_radius

    @classmethod
    def derive(
        cls, table: TableSpec = TABLE, fps: float = 30.0, noise_mm: float = 1.0, bias_mm: float = 0.0
    ) -> EventConfig:
        """Thresholds for a table, a frame rate and a tracker's noise level and bias.

        ``bias_mm`` is the part of a gap's error between two resting balls that averaging
        over frames does not remove (each ball's shade and its neighbour's move its measured
        centre the same way in every frame); it widens ``touching_mm`` only. Missing a
        TOUCHING BALL costs more than calling one on a gap that small: a play-away from a
        ball taken as not touching is a push stroke or a wrong ball first, while a ball called
        touching that is a hair off only has the striker play away from it (Section 3
        Rule 13).
        """
        if not fps > 0:
            raise ValueError(f"fps must be positive, got {fps}")
        if not noise_mm >= 0:
            raise ValueError(f"noise_mm must be >= 0, got {noise_mm}")
        if not bias_mm >= 0:
            raise ValueError(f"bias_mm must be >= 0, got {bias_mm}")
        r = table.ball_radius
        # A frame rate measured from timestamps must not add a frame: 30.000000000000007 from
        # floats, 30.0003 from times written to the microsecond (a tracks CSV), whose 1e-5
        # relative error is 4e-4 of a frame here.
        rest_frames = max(4, math.ceil(0.4 * fps - 1e-3))
        m = rest_frames
        sigma_rest_v = noise_mm * fps * math.sqrt(12.0 / (m * (m * m - 1)))
        fit_frames = min(8, max(3, round(0.15 * fps)))
        # Velocity noise of a straight-line fit to n samples of noise sigma spaced dt apart.
        n = fit_frames
        sigma_v = noise_mm * fps * math.sqrt(12.0 / (n * (n * n - 1)))
        gap_sigma = noise_mm * math.sqrt(2.0 / rest_frames)
        touch_frames = max(rest_frames, math.ceil(1.5 * fps - 1e-3))
        touch_sigma = noise_mm * math.sqrt(2.0 / touch_frames)
        end_sigma = noise_mm * math.sqrt((4.0 * n - 2.0) / (n * (n + 1.0)))
        return cls(
            table=table,
            fps=float(fps),
            noise_mm=float(noise_mm),
            rest_frames=rest_frames,
            still_mm=4.0 * noise_mm + 1.0,
            rest_speed_mm_s=max(CREEP_FLOOR_MM_S, 3.0 * sigma_rest_v),
            creep_floor_mm_s=CREEP_FLOOR_MM_S,
            strike_mm=r / 2.0,
            move_mm=3.0 * noise_mm + 1.0,
            push_mm=4.0 * gap_sigma + 0.5,
            place_mm=max(r / 4.0, 5.0 * noise_mm),
            replace_mm=max(r, 5.0 * noise_mm),
            fit_frames=fit_frames,
            accel_prior=SLIDING_FRICTION * GRAVITY,
            impulse_mm_s=max(40.0, 4.0 * math.sqrt(2.0) * sigma_v),
            simultaneous_mm=3.0 * math.sqrt(2.0) * end_sigma,
            touch_frames=touch_frames,
            touching_mm=1.0 + 2.0 * touch_sigma + bias_mm,
            touch_band_sigmas=2.0,
            blind_mm=APPROACH_MM,
            blind_speed_mm_s=math.sqrt(2.0 * ROLLING_RESISTANCE * GRAVITY * APPROACH_MM),
            hidden_fraction=0.2,
            hide_timeout_s=3.0,
            max_stroke_s=120.0,
        )
