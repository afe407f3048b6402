"""Public calibration API: one picture in, the camera that took it (relative to the table) out.

:func:`calibrate_image` finds the cloth, its outline and the four orientations of the table
that outline allows (the camera is above the table and its picture is not mirrored, so the
handedness is fixed: once the baulk end is known, the yellow side follows). The baulk-line and
the D decide which orientation is right; the cushion noses, baulk-line and D then fix the camera
in a joint least-squares fit (:mod:`calibration.fit`), detected twice: first around the rough
outline, then around the first fit.

Every mapping goes through the camera, so a ball centre's height is handled by intersecting its
pixel's ray with the plane ``z = ball_radius``; the homographies in the JSON are the cloth
plane's (``z = 0``) and act on undistorted pixels, as the event-log contract expects.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, replace
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from calibration.errors import BaulklineError
from calibration.fit import (
    MIRROR,
    NOSE_HEIGHT,
    SIDES,
    CameraFit,
    Observations,
    fit_camera,
    initial_params,
    pose_from_homography,
)
from calibration.homography import FloatArray, Homography, as_points
from calibration.markings import (
    ToImage,
    UInt8Array,
    baulk_points,
    detail_copy,
    find_cloth,
    homography_projector,
    line_response,
    marking_score,
    nose_points,
    outer_quad,
)
from calibration.table import TABLE

#: The table must be at least this much in view (issue 4: "at least 60% visible").
MIN_VISIBLE = 0.6

#: Below this contrast the baulk-line/D search found nothing: orientation would be a guess.
MIN_MARKING_SCORE = 4.0


@dataclass(frozen=True)
class Calibration:
    """The camera relative to the table, fitted from one picture.

    Attributes:
        image_size: ``(width, height)`` of the picture (px).
        camera_matrix: 3x3 K (OpenCV convention).
        distortion: ``(5,)`` OpenCV (k1, k2, p1, p2, k3).
        rvec: Rodrigues world-to-camera rotation ``(3,)``.
        tvec: world-to-camera translation ``(3,)`` (mm).
        residual_mm: robust RMS distance of the detected markings to the table model.
        confidence: 0-1; low when the markings were faint, few, or disagreed.
    """

    image_size: tuple[int, int]
    camera_matrix: FloatArray
    distortion: FloatArray
    rvec: FloatArray
    tvec: FloatArray
    residual_mm: float
    confidence: float

    def __post_init__(self) -> None:
        for name, arr, shape in [
            ("camera_matrix", self.camera_matrix, (3, 3)),
            ("distortion", self.distortion, (5,)),
            ("rvec", self.rvec, (3,)),
            ("tvec", self.tvec, (3,)),
        ]:
            a = np.asarray(arr, dtype=np.float64)
            if a.shape != shape:
                raise ValueError(f"{name} must have shape {shape}, got {a.shape}")
            object.__setattr__(self, name, a)

    # ---- geometry -------------------------------------------------------------------------
    @property
    def rotation(self) -> FloatArray:
        """World-to-camera rotation matrix."""
        r, _ = cv2.Rodrigues(self.rvec)
        return np.asarray(r, dtype=np.float64)

    @property
    def camera_centre(self) -> FloatArray:
        """Camera position in table millimetres."""
        c: FloatArray = (-self.rotation.T @ self.tvec) * MIRROR
        return c

    def plane_to_image(self, z: float = 0.0) -> Homography:
        """Homography from the table plane at height ``z`` to undistorted pixels."""
        r = self.rotation
        m = self.camera_matrix @ np.column_stack([r[:, 0], -r[:, 1], r[:, 2] * z + self.tvec])
        return Homography(np.asarray(m, dtype=np.float64))

    @property
    def table_to_image(self) -> Homography:
        """Cloth plane (mm) to undistorted pixels."""
        return self.plane_to_image(0.0)

    @property
    def image_to_table(self) -> Homography:
        """Undistorted pixels to the cloth plane (mm)."""
        return self.table_to_image.inverse()

    def undistort(self, pixels: npt.ArrayLike) -> FloatArray:
        """Distorted image pixels to undistorted ones (same camera matrix)."""
        px = as_points(pixels, "pixels")
        if not np.any(self.distortion):
            return px.copy()
        und = cv2.undistortPoints(
            px.reshape(-1, 1, 2), self.camera_matrix, self.distortion, P=self.camera_matrix
        )
        out: FloatArray = np.asarray(und, dtype=np.float64).reshape(-1, 2)
        return out

    def pixels_to_table(self, pixels: npt.ArrayLike, z: float = 0.0) -> FloatArray:
        """Image pixels to table millimetres on the plane at height ``z`` (a ball centre:
        ``z = TABLE.ball_radius``): the pixel's ray meets that plane."""
        return self.plane_to_image(z).inverse().apply(self.undistort(pixels))

    def table_to_pixels(self, xy: npt.ArrayLike, z: float = 0.0) -> FloatArray:
        """Table millimetres at height ``z`` to (distorted) image pixels."""
        pts = as_points(xy)
        world = np.hstack([pts, np.full((len(pts), 1), z)]) * MIRROR
        px, _ = cv2.projectPoints(
            world.reshape(-1, 1, 3), self.rvec, self.tvec, self.camera_matrix, self.distortion
        )
        out: FloatArray = np.asarray(px, dtype=np.float64).reshape(-1, 2)
        return out

    def projector(self, scale: float = 1.0) -> ToImage:
        """:meth:`table_to_pixels` as a function, in pixels of a copy resized by ``scale``."""

        def project(pts: FloatArray, z: float) -> FloatArray:
            return self.table_to_pixels(pts, z) * scale

        return project

    def visible_fraction(self) -> float:
        """Share of the playing area whose image lies inside the frame."""
        gx, gy = np.meshgrid(np.linspace(0, TABLE.length, 24), np.linspace(0, TABLE.width, 12))
        px = self.table_to_pixels(np.stack([gx.ravel(), gy.ravel()], axis=1))
        w, h = self.image_size
        inside = (px[:, 0] >= 0) & (px[:, 0] < w) & (px[:, 1] >= 0) & (px[:, 1] < h)
        return float(inside.mean())

    # ---- serialisation --------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The JSON document of issue 4 (plus the pose, so the camera can be rebuilt)."""
        return {
            "image_size": list(self.image_size),
            "image_to_table": self.image_to_table.tolist(),
            "table_to_image": self.table_to_image.tolist(),
            "camera_matrix": self.camera_matrix.tolist(),
            "distortion": [float(v) for v in self.distortion],
            "rvec": [float(v) for v in self.rvec],
            "tvec": [float(v) for v in self.tvec],
            "residual_mm": float(self.residual_mm),
            "confidence": float(self.confidence),
        }

    def to_json(self) -> str:
        """Indented JSON text."""
        return json.dumps(self.to_dict(), indent=2)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Calibration:
        """Inverse of :meth:`to_dict`; a document without a pose (a bare homography) gets one
        decomposed from ``table_to_image`` with its camera matrix."""
        size = (int(data["image_size"][0]), int(data["image_size"][1]))
        k = np.asarray(data["camera_matrix"], dtype=np.float64)
        if "rvec" in data and "tvec" in data:
            rvec = np.asarray(data["rvec"], dtype=np.float64)
            tvec = np.asarray(data["tvec"], dtype=np.float64)
        else:
            rvec, tvec = pose_from_homography(np.asarray(data["table_to_image"], dtype=np.float64), k)
        return cls(
            image_size=size,
            camera_matrix=k,
            distortion=np.asarray(data.get("distortion") or [0.0] * 5, dtype=np.float64),
            rvec=rvec,
            tvec=tvec,
            residual_mm=float(data["residual_mm"]),
            confidence=float(data["confidence"]),
        )

    @classmethod
    def from_json(cls, text: str) -> Calibration:
        """Parse :meth:`to_json` output."""
        return cls.from_dict(json.loads(text))


def _from_fit(fit: CameraFit, size: tuple[int, int], confidence: float) -> Calibration:
    return Calibration(
        image_size=size,
        camera_matrix=fit.camera_matrix,
        distortion=fit.distortion,
        rvec=fit.rvec,
        tvec=fit.tvec,
        residual_mm=fit.residual_mm,
        confidence=confidence,
    )


def _expanded_corners(margin: float) -> FloatArray:
    c = TABLE.corners.copy()
    c[:, 0] += np.array([-1, -1, 1, 1]) * margin
    c[:, 1] += np.array([-1, 1, 1, -1]) * margin
    return c


def _signed_area(q: FloatArray) -> float:
    x, y = q[:, 0], q[:, 1]
    return float(0.5 * np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y))


def calibrate_from_corners(corners: npt.ArrayLike, size: tuple[int, int]) -> Calibration:
    """Manual fallback: the four corner-pocket points (baulk_left, baulk_right, top_right,
    top_left), in undistorted pixels. The focal length comes from the homography when the view
    has enough perspective, else from the prior field of view."""
    img = as_points(corners, "corners")
    if len(img) != 4:
        raise BaulklineError(f"--corners needs exactly four points, got {len(img)}")
    if _signed_area(img) >= 0:
        raise BaulklineError(
            "--corners must go baulk_left, baulk_right, top_right, top_left as seen from above "
            "(the given order is mirrored or crossed)"
        )
    h = Homography.from_points(TABLE.corners, img)
    p = initial_params(h.matrix, size)
    f = math.exp(p[0])
    k = np.array([[f, 0, size[0] / 2.0], [0, f, size[1] / 2.0], [0, 0, 1.0]])
    cal = Calibration(
        image_size=size,
        camera_matrix=k,
        distortion=np.zeros(5),
        rvec=p[1:4],
        tvec=p[4:7],
        residual_mm=0.0,
        confidence=0.5,
    )
    # The decomposed camera need not reproduce four arbitrary clicks exactly: say by how much.
    err = float(np.max(np.hypot(*(cal.pixels_to_table(img) - TABLE.corners).T)))
    return replace(cal, residual_mm=err)


def _observe(
    grey: FloatArray,
    cloth: FloatArray,
    response: FloatArray,
    to_image: ToImage,
    offsets: FloatArray,
    shift: float,
    window: float,
    dscale: float,
) -> Observations:
    cushion = {s: nose_points(grey, cloth, to_image, s, offsets, NOSE_HEIGHT) / dscale for s in SIDES}
    line, arc = baulk_points(response, to_image, shift, window)
    return Observations(cushion=cushion, baulk=line / dscale, d_arc=arc / dscale)


def calibrate_image(image: UInt8Array, frame: str = "image") -> Calibration:
    """The camera, from the table's markings in one BGR picture.

    Raises:
        BaulklineError: no table in view, too little of it, or markings too faint to tell
            which end is baulk; the message names ``frame``.
    """
    try:
        return _calibrate(image)
    except BaulklineError as exc:
        raise BaulklineError(f"{frame}: {exc}") from None


def _flip(fit: CameraFit) -> CameraFit:
    """The same camera with the table turned end for end (baulk <-> top, left <-> right)."""
    a = np.diag([-1.0, -1.0, 1.0])
    b = np.array([TABLE.length, TABLE.width, 0.0]) * MIRROR
    r = fit.rotation
    rvec, _ = cv2.Rodrigues(r @ a)
    return replace(fit, rvec=rvec.ravel(), tvec=r @ b + fit.tvec)


def _params(fit: CameraFit) -> FloatArray:
    return np.concatenate([[math.log(fit.camera_matrix[0, 0])], fit.rvec, fit.tvec, [fit.k1]])


def _calibrate(image: UInt8Array) -> Calibration:
    h_img, w_img = image.shape[:2]
    size = (w_img, h_img)
    cloth = find_cloth(image)
    _, corners = outer_quad(cloth)
    corners = corners / cloth.scale
    if _signed_area(corners) > 0:  # TABLE.corners' order, seen by an unmirrored camera
        corners = corners[::-1]
    grey, dscale = detail_copy(image)
    response = line_response(grey)
    cloth_d = cv2.resize(cloth.mask, (grey.shape[1], grey.shape[0]), interpolation=cv2.INTER_NEAREST)
    cloth_f = (cloth_d > 0).astype(np.float64)
    table_rect = _expanded_corners(TABLE.cushion_width)
    wide: FloatArray = np.arange(-100.0, 40.0, 2.0, dtype=np.float64)
    # 1. Which image axis is the table's length: the cushion noses fit a 2:1 table one way only.
    fits: list[CameraFit] = []
    for k in range(2):
        hom = Homography.from_points(table_rect, np.roll(corners, -k, axis=0) * dscale)
        cushion = {
            s: nose_points(grey, cloth_f, homography_projector(hom), s, wide, NOSE_HEIGHT) / dscale
            for s in SIDES
        }
        obs = Observations(cushion=cushion, baulk=np.zeros((0, 2)), d_arc=np.zeros((0, 2)))
        init = initial_params(hom.matrix * np.array([[1 / dscale], [1 / dscale], [1.0]]), size)
        try:
            fits.append(fit_camera(obs, size, init, distortion=False))
        except BaulklineError:
            continue
    if not fits:
        raise BaulklineError("the cloth outline found does not fit a table")
    fit = min(fits, key=lambda f: f.residual_mm / max(f.inlier_fraction, 1e-3))
    # 2. Which end is baulk: the end where the baulk-line and D show (never image position).
    scored = []
    for cand in (fit, _flip(fit)):
        cal = _from_fit(cand, size, 0.0)
        score, shift = marking_score(response, cal.projector(dscale))
        scored.append((score, shift, cand))
    scored.sort(key=lambda s: -s[0])
    score, shift, fit = scored[0]
    runner_up = scored[1][0]
    if score < MIN_MARKING_SCORE:
        raise BaulklineError("cannot tell which end is baulk: no baulk-line or D found on the cloth")
    # 3. Joint refinement on noses, baulk-line and D, then with lens distortion.
    offsets: FloatArray = np.arange(-24.0, 24.0, 1.0, dtype=np.float64)
    window = 30.0
    for refine_distortion in (False, True):
        cal = _from_fit(fit, size, 0.0)
        obs = _observe(grey, cloth_f, response, cal.projector(dscale), offsets, shift, window, dscale)
        fit = fit_camera(obs, size, _params(fit), distortion=refine_distortion)
        shift, window = 0.0, 14.0
    contrast = 1.0 - max(runner_up, 0.0) / max(score, 1e-9)
    sides_seen = sum(len(p) >= 6 for p in obs.cushion.values())
    confidence = float(
        np.clip(contrast, 0, 1)
        * fit.inlier_fraction
        * math.exp(-fit.residual_mm / 20.0)
        * min(1.0, (len(obs.baulk) + len(obs.d_arc)) / 20.0)
        * (sides_seen / 4.0)
    )
    cal = _from_fit(fit, size, confidence)
    if cal.camera_centre[2] <= 0:
        raise BaulklineError("the fitted camera is below the table: the outline found is not a table")
    visible = cal.visible_fraction()
    if visible < MIN_VISIBLE:
        raise BaulklineError(f"too little of the table in view ({visible:.0%} < {MIN_VISIBLE:.0%})")
    return cal
