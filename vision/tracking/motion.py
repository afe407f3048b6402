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

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]


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
        gate_growth: extra gate per unseen frame, in ball radii: a ball that vanished may have
            been struck, and a struck ball covers up to about 12 radii per frame at 30 fps.
        gate_max: largest gate (pixels); beyond it only re-acquisition by appearance helps.
    """

    alpha: float = 0.85
    beta: float = 0.5
    unseen_decay: float = 0.9
    gate_radii: float = 2.2
    gate_along: float = 1.2
    gate_across: float = 0.4
    gate_growth: float = 8.0
    gate_max: float = 400.0


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
) -> FloatArray:
    """Normalised distance ``(B, N)`` of points from each ball's prediction (1 = gate's edge).

    The gate is an ellipse, long along the velocity and narrow across it, so a fast ball can be
    followed without letting it grab a neighbour beside its path.
    """
    speed = np.hypot(vel[:, 0], vel[:, 1])
    grow = cfg.gate_growth * radius * unseen
    along = np.minimum(cfg.gate_radii * radius + cfg.gate_along * speed + grow, cfg.gate_max)
    across = np.minimum(cfg.gate_radii * radius + cfg.gate_across * speed + grow, cfg.gate_max)
    safe = np.maximum(speed, 1e-9)
    ux, uy = vel[:, 0] / safe, vel[:, 1] / safe
    moving = speed > 1e-6
    ux = np.where(moving, ux, 1.0)
    uy = np.where(moving, uy, 0.0)
    d = points[None, :, :] - pred[:, None, :]
    da = d[..., 0] * ux[:, None] + d[..., 1] * uy[:, None]
    dc = -d[..., 0] * uy[:, None] + d[..., 1] * ux[:, None]
    return np.sqrt((da / along[:, None]) ** 2 + (dc / across[:, None]) ** 2)
