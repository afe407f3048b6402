"""Fitting a camera to the table's markings.

The model is a pinhole camera with square pixels, the principal point at the image centre and
one radial distortion coefficient ``k1``: eight numbers (focal length, rotation, translation,
``k1``). It is fitted, not just a homography, for two reasons: the visible cushion edge is the
cushion *nose*, which stands above the cloth, so it projects through the camera and not through
the cloth-plane homography; and a ball centre sits :attr:`TABLE.ball_radius` above the cloth, so
turning a ball's pixel into table millimetres needs the ray, which needs the camera.

Assumption (stated because the rules do not fix it): the cushion nose, the edge where cushion
meets bed as seen from above, is modelled as the cushion face line (``x = 0``, ``x = length``,
``y = 0``, ``y = width``) lifted to :data:`NOSE_HEIGHT` = the ball radius. The rules put the
face at the playing-area boundary; a snooker cushion nose contacts a ball at about its centre.

Every residual is a distance *on the table* in millimetres: a detected image point is cast as
a ray onto the plane of the marking it belongs to, and its distance to that marking in the
:data:`TABLE` model is the residual. ``residual_mm`` is their robust RMS.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
from scipy.optimize import least_squares

from calibration.errors import BaulklineError
from calibration.homography import FloatArray, Homography
from calibration.table import TABLE

#: Height of the cushion nose above the cloth (mm): about a ball centre (see module docstring).
NOSE_HEIGHT = TABLE.ball_radius

#: The event-log frame (x up the table, y towards the yellow spot, which is on the right seen
#: from baulk, Section 1 Rule 1(f); z up) is left-handed. A real camera above the table does not
#: mirror, so the camera maths runs in the right-handed frame (x, -y, z): multiply by this.
MIRROR = np.array([1.0, -1.0, 1.0])

#: Side names of the cushion-face lines, with the table axis they fix and its value.
SIDES: dict[str, tuple[int, float]] = {
    "baulk": (0, 0.0),
    "top": (0, TABLE.length),
    "left": (1, 0.0),
    "right": (1, TABLE.width),
}

#: A weak prior on the field of view keeps the focal length defined for a camera looking
#: straight down, where perspective alone cannot separate focal length from distance.
PRIOR_HFOV_DEG = 50.0
PRIOR_WEIGHT_MM = 5.0

#: A prior on ``k1``: distortion must earn its place by straightening the lines, not absorb
#: the foreshortening of a far cushion (k1 = 0.1 costs as much as a 5 mm residual).
K1_PRIOR_MM = 50.0


@dataclass(frozen=True)
class Observations:
    """Detected marking points in (distorted) image pixels, grouped by what they lie on.

    Attributes:
        cushion: ``side -> (N, 2)`` points on that cushion nose line.
        baulk: ``(N, 2)`` points on the baulk-line.
        d_arc: ``(N, 2)`` points on the D's semicircle.
    """

    cushion: dict[str, FloatArray]
    baulk: FloatArray
    d_arc: FloatArray

    def __post_init__(self) -> None:
        for name, pts in [*self.cushion.items(), ("baulk", self.baulk), ("d_arc", self.d_arc)]:
            if pts.ndim != 2 or pts.shape[1] != 2:
                raise ValueError(f"observations {name!r} must have shape (N, 2), got {pts.shape}")

    @property
    def count(self) -> int:
        """Number of points in all."""
        return sum(len(p) for p in self.cushion.values()) + len(self.baulk) + len(self.d_arc)


@dataclass(frozen=True)
class CameraFit:
    """A fitted camera and how well it fits.

    Attributes:
        camera_matrix: 3x3 K.
        k1: radial distortion coefficient (OpenCV convention, others zero).
        rvec: Rodrigues world-to-camera rotation, ``(3,)``.
        tvec: translation, ``(3,)``.
        residual_mm: robust RMS distance of the markings to the table model.
        inlier_fraction: share of observations within :data:`INLIER_MM` after the fit.
    """

    camera_matrix: FloatArray
    k1: float
    rvec: FloatArray
    tvec: FloatArray
    residual_mm: float
    inlier_fraction: float

    @property
    def rotation(self) -> FloatArray:
        """World-to-camera rotation matrix."""
        r, _ = cv2.Rodrigues(self.rvec)
        return np.asarray(r, dtype=np.float64)

    @property
    def distortion(self) -> FloatArray:
        """OpenCV (k1, k2, p1, p2, k3)."""
        return np.array([self.k1, 0.0, 0.0, 0.0, 0.0])

    def table_to_image(self, z: float = 0.0) -> Homography:
        """Homography from the table plane at height ``z`` to undistorted pixels."""
        r = self.rotation
        m = self.camera_matrix @ np.column_stack([r[:, 0], -r[:, 1], r[:, 2] * z + self.tvec])
        return Homography(np.asarray(m, dtype=np.float64))

    @property
    def centre(self) -> FloatArray:
        """Camera centre in table millimetres."""
        c: FloatArray = (-self.rotation.T @ self.tvec) * MIRROR
        return c


INLIER_MM = 15.0


def _undistort_norm(xy: FloatArray, k1: float) -> FloatArray:
    """Normalised distorted coordinates to undistorted (fixed point on the one-term model)."""
    if k1 == 0.0:
        return xy
    und = xy.copy()
    for _ in range(8):
        r2 = np.sum(und * und, axis=1, keepdims=True)
        und = xy / (1.0 + k1 * r2)
    return und


def _rays_to_plane(params: FloatArray, px: FloatArray, z: float, cx: float, cy: float) -> FloatArray:
    """Table points ``(N, 2)`` where the rays of pixels ``px`` meet the plane at height ``z``."""
    f = math.exp(params[0])
    r, _ = cv2.Rodrigues(params[1:4])
    t = params[4:7]
    norm = _undistort_norm((px - [cx, cy]) / f, float(params[7]))
    d_cam = np.hstack([norm, np.ones((len(px), 1))])
    d_world = d_cam @ r  # R^T d for each row
    c = -r.T @ t
    lam = (z - c[2]) / np.where(np.abs(d_world[:, 2]) < 1e-12, 1e-12, d_world[:, 2])
    out: FloatArray = (c[:2] + lam[:, None] * d_world[:, :2]) * MIRROR[:2]
    return out


def _residuals(params: FloatArray, obs: Observations, cx: float, cy: float, f0: float) -> FloatArray:
    parts: list[FloatArray] = []
    for side, pts in obs.cushion.items():
        if len(pts) == 0:
            continue
        axis, value = SIDES[side]
        xy = _rays_to_plane(params, pts, NOSE_HEIGHT, cx, cy)
        parts.append(xy[:, axis] - value)
    if len(obs.baulk):
        xy = _rays_to_plane(params, obs.baulk, 0.0, cx, cy)
        parts.append(xy[:, 0] - TABLE.baulk_line)
    if len(obs.d_arc):
        xy = _rays_to_plane(params, obs.d_arc, 0.0, cx, cy)
        dc = np.asarray(TABLE.d_centre)
        parts.append(np.hypot(xy[:, 0] - dc[0], xy[:, 1] - dc[1]) - TABLE.d_radius)
    parts.append(np.array([PRIOR_WEIGHT_MM * (params[0] - math.log(f0)), K1_PRIOR_MM * params[7]]))
    return np.concatenate(parts)


def focal_from_homography(h: FloatArray, cx: float, cy: float) -> float | None:
    """Focal length from a plane homography with square pixels and known principal point
    (Zhang's two constraints, least squares); None when the view is too frontal to tell."""
    t = np.array([[1.0, 0.0, -cx], [0.0, 1.0, -cy], [0.0, 0.0, 1.0]])
    m = t @ h
    h1, h2 = m[:, 0], m[:, 1]
    # Orthogonality: (h1x h2x + h1y h2y)/f^2 + h1z h2z = 0; equal norms likewise.
    a = np.array([h1[0] * h2[0] + h1[1] * h2[1], h1[0] ** 2 + h1[1] ** 2 - h2[0] ** 2 - h2[1] ** 2])
    b = -np.array([h1[2] * h2[2], h1[2] ** 2 - h2[2] ** 2])
    denom = float(a @ a)
    if denom < 1e-18:
        return None
    inv_f2 = float(a @ b) / denom  # least squares for a / f^2 = b
    if inv_f2 <= 0:
        return None
    f = 1.0 / math.sqrt(inv_f2)
    return f if 0.2 < f / max(cx, cy) < 50 else None


def pose_from_homography(h: FloatArray, k: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Rotation (Rodrigues) and translation of the camera whose cloth homography is ``h``
    (table millimetres to pixels; the rotation acts on the right-handed frame, see MIRROR)."""
    m = np.linalg.inv(k) @ h @ np.diag(MIRROR)
    lam = 2.0 / (np.linalg.norm(m[:, 0]) + np.linalg.norm(m[:, 1]))
    m = m * lam
    if m[2, 2] < 0:  # the table must be in front of the camera
        m = -m
    r = np.column_stack([m[:, 0], m[:, 1], np.cross(m[:, 0], m[:, 1])])
    u, _, vt = np.linalg.svd(r)
    r = u @ vt
    if np.linalg.det(r) < 0:
        u[:, 2] *= -1
        r = u @ vt
    rvec, _ = cv2.Rodrigues(r)
    return rvec.ravel(), m[:, 2].copy()


def initial_params(h_table_to_image: FloatArray, size: tuple[int, int]) -> FloatArray:
    """Starting camera for the fit from a rough cloth homography."""
    w, hh = size
    cx, cy = w / 2.0, hh / 2.0
    f0 = (w / 2.0) / math.tan(math.radians(PRIOR_HFOV_DEG) / 2.0)
    f = focal_from_homography(h_table_to_image, cx, cy) or f0
    k = np.array([[f, 0, cx], [0, f, cy], [0, 0, 1.0]])
    rvec, tvec = pose_from_homography(h_table_to_image, k)
    return np.concatenate([[math.log(f)], rvec, tvec, [0.0]])


def fit_camera(
    obs: Observations,
    size: tuple[int, int],
    init: FloatArray,
    distortion: bool = True,
) -> CameraFit:
    """Least-squares camera from marking points (robust loss: occluders leave outliers).

    Raises:
        BaulklineError: too few points to fix eight parameters, or the fit failed.
    """
    if obs.count < 12:
        raise BaulklineError(f"too few table markings found to calibrate ({obs.count} points)")
    w, h = size
    cx, cy = w / 2.0, h / 2.0
    f0 = (w / 2.0) / math.tan(math.radians(PRIOR_HFOV_DEG) / 2.0)
    x0 = np.asarray(init, dtype=np.float64).copy()
    mask = np.ones(8, dtype=bool)
    if not distortion:
        mask[7] = False
        x0[7] = 0.0

    def fun(p: FloatArray) -> FloatArray:
        full = x0.copy()
        full[mask] = p
        return _residuals(full, obs, cx, cy, f0)

    sol = least_squares(fun, x0[mask], loss="soft_l1", f_scale=5.0, method="trf", max_nfev=200, x_scale="jac")
    params = x0.copy()
    params[mask] = sol.x
    res = _residuals(params, obs, cx, cy, f0)[:-2]
    if not np.all(np.isfinite(res)):
        raise BaulklineError("the camera fit diverged: the markings found are inconsistent")
    inl = np.abs(res) < INLIER_MM
    rms = float(np.sqrt(np.mean(res[inl] ** 2))) if inl.any() else float("inf")
    f = math.exp(params[0])
    k = np.array([[f, 0, cx], [0, f, cy], [0, 0, 1.0]])
    return CameraFit(
        camera_matrix=k,
        k1=float(params[7]),
        rvec=params[1:4].copy(),
        tvec=params[4:7].copy(),
        residual_mm=rms,
        inlier_fraction=float(inl.mean()),
    )
