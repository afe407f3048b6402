"""Motion model of a snooker ball in the image: constant velocity, friction when unseen, a gate.

Why an alpha-beta filter and not a full Kalman filter: a snooker ball either rests (every
measurement agrees to a pixel) or rolls in a straight line that only bends at contacts, and
the detector's error is small next to the motion. Two gains (position ``alpha``, velocity
``beta``) capture this; contacts, the strike and a ball lifted by a hand are handled by the
gate instead, which opens along the motion (a 10 m/s cue ball travels 16 cm, about 5 ball
diameters, per frame at 60 fps and twice that at 30 fps) and grows with every unseen frame,
so a ball that vanished behind a player or into a blurred streak is re-acquired where it
reappears.

All functions are pure and vectorised over the tracks (rows).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]


#: Frame rate the per-frame gains and gates of the tracking stack were set on (the real footage's).
REFERENCE_FPS = 30.0


def frames_at(frames: int, fps: float) -> int:
    """A count of frames set at :data:`REFERENCE_FPS`, as many at ``fps`` for the same time (at
    least one)."""
    return max(1, round(frames * (fps / REFERENCE_FPS)))


@dataclass(frozen=True)
class MotionConfig:
    """Gains and gate sizes, in pixels and frames, relative to the ball radius where possible.

    Attributes:
        alpha: position gain (1: trust the measurement fully).
        beta: velocity gain.
        unseen_decay: velocity kept per unseen frame (a hidden ball is assumed to slow down;
            cloth friction and cushions do stop it).
        gate_radii: gate half-width at rest, in ball radii.
        gate_along: extra gate along the motion per pixel of speed (pixels per frame).
        gate_across: extra gate across the motion per pixel of speed.
        gate_growth: extra gate along the motion per unseen frame, in ball radii: a rolling
            ball lost in its streak keeps its line but its speed is uncertain (a struck ball
            covers up to about 12 radii per frame at 30 fps, and the prediction slows it).
        gate_growth_across: extra gate across the motion per unseen frame, in ball radii: a
            ball does not leave its line sideways unless it hits something, and then it is a
            new trajectory, not a re-appearance (Task2 clip 20: a lost red's gate, grown the
            same in every direction, took a blob 300 px off its path by a pocket: a false pot).
            Not much less than a third of the growth along: a ball hidden by a player may kiss a
            ball or a cushion behind him (synthetic 08_leaning_over, 1 radius a frame or at most
            6 radii: 99.3 -> 95.8% precision).
        gate_growth_rest: extra gate per unseen frame in every direction for a ball lost at
            rest (it may have been struck: a struck ball covers up to about 12 radii a frame at 30
            fps), up to ``gate_rest_max``.
        gate_rest_max: largest grown gate of a ball lost at rest, in ball radii (24 brought
            back synthetic 05_touching's recall, 85.8 -> 91.8%, and clip 20's false pot).
        gate_across_max: largest grown gate across a moving ball's line, in ball radii (about
            80 px at 720p, against clip 20's 300 px jump).
        moving_radii: speeds (ball radii per frame) between which a ball's direction of travel
            goes from unknown to known: slower, its measured direction is mostly noise, or a
            creep before the white strikes it (Task2 clip 23: a red creeping one way was struck
            the other way); the grown gate blends from the resting to the rolling shape.
        gate_max: largest gate (pixels); beyond it only re-acquisition by appearance helps.
    """

    alpha: float = 0.85
    beta: float = 0.5
    unseen_decay: float = 0.9
    gate_radii: float = 2.2
    gate_along: float = 1.2
    gate_across: float = 0.4
    gate_growth: float = 8.0
    gate_growth_across: float = 3.0
    gate_growth_rest: float = 8.0
    gate_rest_max: float = 16.0
    gate_across_max: float = 10.0
    moving_radii: tuple[float, float] = (0.3, 1.5)
    gate_max: float = 400.0

    def at_fps(self, fps: float) -> MotionConfig:
        """These gains and gates for video at ``fps``: every per-frame rate scaled from the 30 fps
        they were set on (:data:`REFERENCE_FPS`), so that a ball's reach in millimetres per second
        stays the same. At 60 fps a ball covers half as much a frame: counted per frame, its speed
        read as "at rest" and its gate grew twice as fast per second (a rendered 1080p60 break-off:
        a rolling blue's gate, grown as if it had stopped and might have been struck, took a blob
        in a middle pocket's shade 200 px away, and the blue was potted there). Sizes (gates at
        rest, the largest gates) are positions and do not change.
        """
        k = REFERENCE_FPS / fps
        return replace(
            self,
            unseen_decay=self.unseen_decay**k,
            gate_growth=self.gate_growth * k,
            gate_growth_across=self.gate_growth_across * k,
            gate_growth_rest=self.gate_growth_rest * k,
            moving_radii=(self.moving_radii[0] * k, self.moving_radii[1] * k),
        )


def predict(
    pos: FloatArray, vel: FloatArray, unseen: npt.NDArray[np.int64], cfg: MotionConfig
) -> tuple[FloatArray, FloatArray]:
    """One frame ahead: ``(B, 2)`` positions and velocities (pixels, pixels per frame).

    A ball seen in the last frame keeps its velocity; an unseen one slows by ``unseen_decay``.
    """
    decay = np.where(unseen > 0, cfg.unseen_decay, 1.0)[:, None]
    new_vel = vel * decay
    return pos + new_vel, new_vel


def correct(
    pred: FloatArray,
    vel: FloatArray,
    measured: FloatArray,
    unseen: npt.NDArray[np.int64],
    cfg: MotionConfig,
) -> tuple[FloatArray, FloatArray]:
    """Blend predictions with measurements (rows already matched).

    ``unseen`` is how many frames each ball went unmeasured before this one: the residual is
    spread over them, so a ball that reappears after a gap gets the velocity of the whole gap
    rather than of one frame.
    """
    res = measured - pred
    gap = (unseen + 1).astype(np.float64)[:, None]
    # After a gap the prediction is stale: trust the measurement fully.
    alpha = np.where(unseen[:, None] > 0, 1.0, cfg.alpha)
    return pred + alpha * res, vel + cfg.beta * res / gap


def gate_distance(
    pred: FloatArray,
    vel: FloatArray,
    radius: FloatArray,
    unseen: npt.NDArray[np.int64],
    points: FloatArray,
    cfg: MotionConfig,
    unique: npt.NDArray[np.bool_] | None = None,
) -> FloatArray:
    """Normalised distance ``(B, N)`` of points from each ball's prediction (1 = gate's edge).

    ``unique`` marks balls of a colour only one ball has: lost, they are re-acquired by colour
    anywhere on the table, so their grown gate need not cover a strike the tracker missed and
    keeps to their line from the lowest ``moving_radii`` on (Task2 clip 4: a slow yellow's
    gate, grown towards the resting shape, took a blob 150 px across its line).

    The gate is an ellipse, long along the velocity and narrow across it, so a fast ball can be
    followed without letting it grab a neighbour beside its path. While a ball is unseen the
    gate grows mostly along its direction of travel (its line is known, its speed is not); a
    ball lost at rest has no direction and its gate grows a little in every direction.
    """
    speed = np.hypot(vel[:, 0], vel[:, 1])
    k = unseen.astype(np.float64)
    base = cfg.gate_radii * radius
    lo, hi = cfg.moving_radii
    rel = speed / np.maximum(radius, 1e-9)
    w = np.clip((rel - lo) / max(hi - lo, 1e-9), 0.0, 1.0)
    if unique is not None:
        w = np.where(unique, (rel > lo).astype(np.float64), w)
    rest = np.minimum(cfg.gate_growth_rest * radius * k, cfg.gate_rest_max * radius)
    grow_along = w * cfg.gate_growth * radius * k + (1 - w) * rest
    grow_across = (
        w * np.minimum(cfg.gate_growth_across * radius * k, cfg.gate_across_max * radius) + (1 - w) * rest
    )
    along = np.minimum(base + cfg.gate_along * speed + grow_along, cfg.gate_max)
    across = np.minimum(base + cfg.gate_across * speed + grow_across, cfg.gate_max)
    safe = np.maximum(speed, 1e-9)
    ux, uy = vel[:, 0] / safe, vel[:, 1] / safe
    moving = speed > 1e-6
    ux = np.where(moving, ux, 1.0)
    uy = np.where(moving, uy, 0.0)
    d = points[None, :, :] - pred[:, None, :]
    da = d[..., 0] * ux[:, None] + d[..., 1] * uy[:, None]
    dc = -d[..., 0] * uy[:, None] + d[..., 1] * ux[:, None]
    return np.sqrt((da / along[:, None]) ** 2 + (dc / across[:, None]) ** 2)
