"""Contacts and cushions in the one-frame prediction: where a ball goes when its path is blocked.

Why: the constant-velocity prediction of :mod:`vision.tracking.motion` is wrong exactly at the
moments identities are lost. When a moving ball reaches a resting ball of the same colour class
(a red into a red), the naive prediction carries the moving ball straight through, so the
assignment gives the moving ball's name to whichever detection lies ahead -- usually the struck
ball -- and the two names swap. Likewise after a cushion the white's prediction runs off the
cloth and its gate no longer covers where it really went.

Both are fixed by predicting the physics of the event itself:

* **Contact.** For equal masses, the impulse acts along the line of centres at contact: the
  struck ball leaves along that line with the moving ball's velocity component along it, and the
  moving ball keeps only the perpendicular component (stun shot; spin changes this later, and
  the gate absorbs it). Both predictions are then one hypothesis each, and the Hungarian
  assignment in :func:`vision.tracking.tracker.step` chooses between "A went on, B stayed" and
  "A stopped, B left" by which detections lie where.
* **Cushion.** The velocity is reflected about the cushion's normal where the ball's centre
  would come closer than one radius to the edge of the playing surface.

All functions are pure and vectorised over balls; pixel space throughout.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Cushions:
    """The playing surface's edge as a distance field (pixels from the nearest off-cloth pixel).

    Attributes:
        distance: ``(H, W)`` distance of each pixel inside the surface to its edge (0 outside).
        grad: ``(H, W, 2)`` unit gradient of the distance (the inward normal of the nearest edge).
    """

    distance: npt.NDArray[np.float32]
    grad: npt.NDArray[np.float32]

    def __post_init__(self) -> None:
        if self.distance.ndim != 2 or self.grad.shape != (*self.distance.shape, 2):
            raise ValueError(
                f"Cushions: distance must be (H, W) and grad (H, W, 2), got {self.distance.shape} "
                f"and {self.grad.shape}"
            )

    @classmethod
    def from_mask(cls, region: npt.NDArray[np.bool_]) -> Cushions:
        """Build from a full-resolution playing-surface mask."""
        m = np.ascontiguousarray(region, dtype=np.uint8)
        dist = cv2.distanceTransform(m, cv2.DIST_L2, 5).astype(np.float32)
        # Smooth before differencing: the mask's pixel steps would make the normals jitter.
        smooth = cv2.GaussianBlur(dist, (0, 0), 3.0)
        gx = cv2.Sobel(smooth, cv2.CV_32F, 1, 0, ksize=3)
        gy = cv2.Sobel(smooth, cv2.CV_32F, 0, 1, ksize=3)
        norm = np.maximum(np.hypot(gx, gy), 1e-6)
        return cls(dist, np.stack([gx / norm, gy / norm], axis=2).astype(np.float32))

    def lookup(self, pos: FloatArray) -> tuple[FloatArray, FloatArray]:
        """``(B,)`` distances and ``(B, 2)`` inward normals at pixel positions (clipped to the image)."""
        h, w = self.distance.shape
        x = np.clip(np.nan_to_num(pos[:, 0]).round().astype(np.int64), 0, w - 1)
        y = np.clip(np.nan_to_num(pos[:, 1]).round().astype(np.int64), 0, h - 1)
        return self.distance[y, x].astype(np.float64), self.grad[y, x].astype(np.float64)


def reflect(
    pos: FloatArray, vel: FloatArray, radius: FloatArray, cushions: Cushions | None
) -> tuple[FloatArray, FloatArray]:
    """Predicted ``(pos, vel)`` after one frame, bounced off the cushion where it is reached.

    ``pos`` is the straight-line prediction; a ball whose centre lands closer than its radius to
    the surface's edge while moving towards it has its velocity's normal component reversed and
    its position mirrored back inside. The normal is read at the point one radius back along the
    motion (inside the cloth, where the distance field is defined).
    """
    if cushions is None or not len(pos):
        return pos, vel
    speed = np.hypot(vel[:, 0], vel[:, 1])
    d, _ = cushions.lookup(pos)
    hit = np.isfinite(pos[:, 0]) & (speed > 0.5) & (d < radius)
    if not np.any(hit):
        return pos, vel
    back = pos - vel / np.maximum(speed, 1e-9)[:, None] * radius[:, None]
    _, n = cushions.lookup(back)
    vn = np.sum(vel * n, axis=1)
    hit &= vn < 0  # only a ball going into the cushion bounces
    depth = np.maximum(radius - d, 0.0)
    new_vel = np.where(hit[:, None], vel - 2 * vn[:, None] * n, vel)
    new_pos = np.where(hit[:, None], pos + 2 * depth[:, None] * n, pos)
    return new_pos, new_vel


def contacts(
    pos: FloatArray,
    vel: FloatArray,
    radius: FloatArray,
    active: npt.NDArray[np.bool_],
    rest_speed: float = 0.5,
) -> tuple[FloatArray, FloatArray, npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
    """One-frame predictions ``(pos, vel)`` with ball-to-resting-ball contacts resolved, and which
    balls' predictions a contact changed: ``(pos, vel, struck, striker)``.

    The contact is a hypothesis, not a certainty: the resting ball may be the first of a pack
    that passes the impulse on and barely moves, or the striker may have missed it by a hair.
    The caller keeps the straight-line prediction of the balls marked as the other hypothesis.

    For each moving ball, the first resting ball its centre's path passes within two radii of
    during the frame is struck: the struck ball takes the velocity component along the line of
    centres at contact and travels the rest of the frame with it; the striker keeps the
    perpendicular component. Balls with no contact move in a straight line.

    Args:
        pos: ``(B, 2)`` positions at the start of the frame.
        vel: ``(B, 2)`` velocities (pixels per frame).
        radius: ``(B,)`` apparent radii.
        active: ``(B,)`` balls on the table (others neither strike nor are struck).
        rest_speed: speed under which a ball counts as resting (pixels per frame).
    """
    new_pos, new_vel = pos + vel, vel.copy()
    speed = np.hypot(vel[:, 0], vel[:, 1])
    ok = active & np.all(np.isfinite(pos), axis=1)
    movers = np.flatnonzero(ok & (speed > 2 * rest_speed))
    resting = ok & (speed < rest_speed)
    struck = np.zeros(len(pos), bool)
    hit = np.zeros(len(pos), bool)
    for i in movers[np.argsort(-speed[movers])]:
        cand = np.flatnonzero(resting & ~struck)
        if not len(cand):
            break
        t, j = _first_contact(pos[i], vel[i], pos[cand], radius[i] + radius[cand])
        if j < 0:
            continue
        j = int(cand[j])
        at = pos[i] + t * vel[i]
        line = pos[j] - at
        n = line / max(float(np.hypot(*line)), 1e-9)
        along = float(vel[i] @ n) * n
        rest = 1.0 - t
        new_vel[i] = vel[i] - along
        new_pos[i] = at + rest * new_vel[i]
        new_vel[j] = along
        new_pos[j] = pos[j] + rest * along
        struck[j] = True
        hit[i] = True
    return new_pos, new_vel, struck, hit


def _first_contact(p: FloatArray, v: FloatArray, others: FloatArray, reach: FloatArray) -> tuple[float, int]:
    """Earliest fraction ``t`` in [0, 1] of the frame at which ``p + t v`` is ``reach`` from another.

    Returns ``(t, index)``, index -1 when no contact happens this frame. Balls already touching
    and moving apart are not contacts.
    """
    d = others - p
    a = float(v @ v)
    if a <= 0:
        return 1.0, -1
    b = -2.0 * (d @ v)
    c = np.sum(d * d, axis=1) - reach**2
    disc = b * b - 4 * a * c
    with np.errstate(invalid="ignore"):
        t = (-b - np.sqrt(disc)) / (2 * a)
    approaching = (d @ v) > 0
    valid = (disc >= 0) & (t <= 1.0) & (t >= -0.5) & approaching
    if not np.any(valid):
        return 1.0, -1
    k = int(np.argmin(np.where(valid, t, np.inf)))
    return float(max(t[k], 0.0)), k
