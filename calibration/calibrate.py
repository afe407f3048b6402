"""Public calibration API: one picture in, the camera that took it (relative to the table) out.

:func:`calibrate_image` finds the cloth, its outline and the four orientations of the table
that outline allows (the camera is above the table and its picture is not mirrored, so the
handedness is fixed: once the baulk end is known, the yellow side follows). The cushion noses
fix the camera up to turning the table end for end; the baulk-line and the D, searched at both
ends in rectified patches (:mod:`calibration.rectified`), decide which end is baulk (where they
do not show, the colours on their spots, :mod:`calibration.spots`, and failing those the bare
spot marks, :mod:`calibration.spotmarks`); then noses, baulk-line and D are fitted jointly
(:mod:`calibration.fit`), with lens distortion only where it explains the markings
significantly better (:mod:`calibration.lens`).

Confidence is the agreement of independent evidence, not the fitter's own residual alone: the
camera fitted to the cushions alone must put the baulk-line and D where they are seen, and the
baulk end must stand out clearly against the other end.

Every mapping goes through :class:`calibration.camera.Camera` (:meth:`Calibration.camera`), so
there is one projection model in the project; a ball centre's height is handled by intersecting
its pixel's ray with the plane ``z = ball_radius``. The homographies in the JSON are the cloth
plane's (``z = 0``) and act on undistorted pixels, as the event-log contract expects.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from calibration.camera import Camera, Intrinsics, Pose
from calibration.errors import BaulklineError
from calibration.fit import (
    CAMERA_TO_FIT,
    MIRROR,
    SIDE_ORDER,
    CameraFit,
    Observations,
    edge_height,
    fit_camera,
    focal_from_homography,
    initial_params,
    pose_from_homography,
    prior_focal,
    project_fit,
    residuals_mm,
    rotation_vector,
    seen_faces,
)
from calibration.homography import FloatArray, Homography, as_points
from calibration.lens import BEND_SEARCH_MM, BENT_SEARCH_GAIN, bend_shift_mm, per_point_cost, with_lens
from calibration.markings import (
    Cloth,
    ToImage,
    UInt8Array,
    find_cloth,
    homography_projector,
    nose_points,
    nose_points_sides,
    outer_quad,
)
from calibration.pockets import middle_points
from calibration.rectified import Patch, baulk_points, end_patch, marking_score
from calibration.spotmarks import mark_votes
from calibration.spots import spot_votes
from calibration.table import TABLE

#: The table must be at least this much in view (issue 4: "at least 60% visible").
MIN_VISIBLE = 0.6

#: Below this contrast the baulk-line/D search found nothing: orientation would be a guess.
MIN_MARKING_SCORE = 4.0

#: Colours on their spots (net, :func:`calibration.spots.spot_votes`) that can tell the ends
#: apart without the markings, or overrule markings that barely do.
MIN_VOTES = 2

#: How much a bare spot mark (:func:`calibration.spotmarks.mark_votes`) weighs against a colour
#: on its spot in the end's certainty: a mark is a few grey levels where a ball is a ball, and a
#: stray mark on the cloth can imitate one. Marks decide only where the markings and colours
#: said nothing, and never reach the certainty of faint markings (0.47 was the least seen to
#: tell a table's ends), so a table axis whose ends only marks told never beats one whose
#: ends the markings told.
MARK_WEIGHT = 0.5

#: Edge searches either side of the predicted cushion edge (mm): once the first camera is
#: known, then around the joint camera.
NARROW: FloatArray = np.arange(-24.0, 24.0, 1.0, dtype=np.float64)
TIGHT: FloatArray = np.arange(-12.0, 12.0, 0.5, dtype=np.float64)

#: Reach of the last baulk-line/D search (mm), around a camera that has already seen them.
FINAL_REACH = 120.0

#: ... and the contrast it needs there. Lower than :data:`MIN_MARKING_SCORE`, which must tell
#: the ends apart: once the end is known, the search only has to find the markings again close
#: to where the joint camera puts them, in a patch a third as long, where the same markings
#: stand out against fewer shifts (a far, small baulk end half under a player's arm scored 3.9
#: there after 8.0 in the first search; refused, the fit lost the baulk-line and D and with them
#: the cushions' edge offsets: held-out synthetic seed 2141, 11 mm). The points themselves still
#: pass the ridge test and the curve fit of :func:`calibration.rectified.baulk_points`.
FINAL_MIN_SCORE = 2.0


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
        edge_offset_mm: how far inside its face line (at the nose's height) the visible edge of
            a cushion whose face the camera sees was fitted (mm; negative: outside), the offset
            those faces share (:data:`calibration.fit.SHARED_OFFSET`); 0 for a camera that
            was not fitted to edges.
    """

    image_size: tuple[int, int]
    camera_matrix: FloatArray
    distortion: FloatArray
    rvec: FloatArray
    tvec: FloatArray
    residual_mm: float
    confidence: float
    edge_offset_mm: float = 0.0

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
        """World-to-camera rotation matrix (on the frame ``(x, -y, z)``, see :data:`MIRROR`)."""
        r, _ = cv2.Rodrigues(self.rvec)
        return np.asarray(r, dtype=np.float64)

    @property
    def camera_centre(self) -> FloatArray:
        """Camera position in table millimetres."""
        c: FloatArray = (-self.rotation.T @ self.tvec) * MIRROR
        return c

    @cached_property
    def camera(self) -> Camera:
        """The same camera as :class:`calibration.camera.Camera`, the project's one projection
        model: every mapping below goes through it.

        Raises:
            BaulklineError: the camera is not above the table looking down at it.
        """
        k = self.camera_matrix
        w, h = self.image_size
        dist = tuple(float(v) for v in self.distortion)
        intr = Intrinsics(w, h, float(k[0, 0]), float(k[1, 1]), float(k[0, 2]), float(k[1, 2]), dist)  # type: ignore[arg-type]
        r = self.rotation @ CAMERA_TO_FIT  # the Camera's rotation: Rz(roll) Rx(tilt) Rz(yaw)
        sin_tilt = math.hypot(r[0, 2], r[1, 2])
        tilt = math.degrees(math.atan2(sin_tilt, r[2, 2]))
        # Near straight down yaw and roll turn about nearly one axis: each alone is as uncertain
        # as the rotation's digits over sin(tilt), but their sum, the table's turn in the
        # picture, is well-conditioned at any tilt: (r10 - r01, r00 + r11) is (sin, cos) of it
        # times 1 + cos(tilt). Taking yaw as the turn less the roll keeps every digit of the
        # rotation however small the tilt (with a cut-off, tilts under 1e-9 lost their
        # direction, and the yaw from (r20, r21) alone was 1e-7 rad off at 1e-6 rad of tilt).
        turn = math.degrees(math.atan2(r[1, 0] - r[0, 1], r[0, 0] + r[1, 1]))
        # Exactly straight down the turn is all roll.
        roll = math.degrees(math.atan2(r[0, 2], -r[1, 2])) if sin_tilt > 0.0 else turn
        yaw = math.remainder(turn - roll, 360.0)
        centre = self.camera_centre
        if centre[2] <= 0 or tilt >= 80.0:
            raise BaulklineError("the fitted camera is not above the table looking down at it")
        forward = r.T @ np.array([0.0, 0.0, 1.0])  # Camera's internal frame (x, y, -z)
        s = centre[2] / forward[2]
        target = np.array([centre[0], centre[1]]) + s * forward[:2]
        offset = (float(target[0] - TABLE.length / 2.0), float(target[1] - TABLE.width / 2.0))
        return Camera(intr, Pose(height=float(centre[2]), tilt=tilt, yaw=yaw, roll=roll, offset=offset))

    @classmethod
    def from_camera(cls, camera: Camera, residual_mm: float = 0.0, confidence: float = 1.0) -> Calibration:
        """A calibration holding exactly ``camera`` (a synthetic clip's truth, a test's camera)."""
        rvec = rotation_vector(camera.rotation @ CAMERA_TO_FIT)
        i = camera.intrinsics
        return cls(
            image_size=(i.width, i.height),
            camera_matrix=i.matrix,
            distortion=i.dist_array,
            rvec=rvec,
            tvec=camera.translation,
            residual_mm=residual_mm,
            confidence=confidence,
        )

    def plane_to_image(self, z: float = 0.0) -> Homography:
        """Homography from the table plane at height ``z`` to undistorted pixels."""
        return self.camera.table_to_image(z)

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
        return self.camera.undistort(pixels)

    def pixels_to_table(self, pixels: npt.ArrayLike, z: float = 0.0) -> FloatArray:
        """Image pixels to table millimetres on the plane at height ``z`` (a ball centre:
        ``z = TABLE.ball_radius``): the pixel's ray meets that plane."""
        return self.camera.pixels_to_table(pixels, z)

    def table_to_pixels(self, xy: npt.ArrayLike, z: float = 0.0) -> FloatArray:
        """Table millimetres at height ``z`` to (distorted) image pixels."""
        # The Camera's plane homography and its lens model (both numpy): the same numbers as
        # Camera.project, without cv2.projectPoints' Jacobian, which costs 10x the projection.
        cam = self.camera
        m = cam.table_to_image(z).matrix
        pts = as_points(xy)
        x, y = pts[:, 0], pts[:, 1]
        w = m[2, 0] * x + m[2, 1] * y + m[2, 2]
        if np.any(w <= 1e-12):
            raise BaulklineError("a table point lies behind the camera")
        und = np.stack(
            [(m[0, 0] * x + m[0, 1] * y + m[0, 2]) / w, (m[1, 0] * x + m[1, 1] * y + m[1, 2]) / w], 1
        )
        return cam.distort(und)

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
            "edge_offset_mm": float(self.edge_offset_mm),
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
            edge_offset_mm=float(data.get("edge_offset_mm", 0.0)),
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
        edge_offset_mm=fit.shared_offset,
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


def _noses(
    image: UInt8Array,
    cloth: Cloth,
    to_image: ToImage,
    offsets: FloatArray,
    step: float,
    centre: FloatArray | None,
    edge_offsets: FloatArray | None = None,
    past_the_foot: bool = False,
) -> dict[str, FloatArray]:
    """Cushion-edge points of every side; ``centre`` (the camera, when known) sets the height
    each edge is seen at, :func:`calibration.fit.edge_height`, and ``edge_offsets`` (a fitted
    camera's, :data:`calibration.fit.SIDE_ORDER`) where across the cushion it was found.
    ``past_the_foot``: on the faces that camera sees, the rise out of the face's shadow is the
    edge, not the fall into it (:func:`calibration.markings.nose_points_sides`). Only the final
    search asks for it: the earlier ones serve to tell the table's axis and ends, and the
    foot's points, a few millimetres inside, did that well; a camera moved onto the noses of a
    wrong axis found the baulk-line through it (seed 3153, a strong lens: a frame turned)."""
    heights = {0.0 if centre is None else edge_height(side, centre) for side in SIDE_ORDER}
    seen: list[str] = []
    if centre is not None and past_the_foot:
        seen = [s for s, v in zip(SIDE_ORDER, seen_faces(centre), strict=True) if v]
    if len(heights) > 1:  # each side at its own height: one search each
        out = {}
        for i, side in enumerate(SIDE_ORDER):
            z = 0.0 if centre is None else edge_height(side, centre)
            around = offsets if edge_offsets is None else offsets + float(edge_offsets[i])
            out[side] = nose_points(image, cloth, to_image, side, around, z, step, seen)
        return out
    windows = {
        side: offsets if edge_offsets is None else offsets + float(edge_offsets[i])
        for i, side in enumerate(SIDE_ORDER)
    }
    return nose_points_sides(image, cloth, to_image, windows, heights.pop(), step, seen)


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
    except (ValueError, np.linalg.LinAlgError) as exc:
        # A degenerate outline (collinear corners, a singular homography) is a picture without a
        # usable table, not a programming error: the user gets the one-line reason.
        raise BaulklineError(f"{frame}: the table outline found is degenerate ({exc})") from None


def _flip(fit: CameraFit) -> CameraFit:
    """The same camera with the table turned end for end (baulk <-> top, left <-> right)."""
    a = np.diag([-1.0, -1.0, 1.0])
    b = np.array([TABLE.length, TABLE.width, 0.0]) * MIRROR
    r = fit.rotation
    offsets = fit.edge_offsets[[1, 0, 3, 2]]  # baulk <-> top, left <-> right
    return replace(fit, rvec=rotation_vector(r @ a), tvec=r @ b + fit.tvec, edge_offsets=offsets)


#: Each cushion's name once the table is turned end for end.
_OPPOSITE = {"baulk": "top", "top": "baulk", "left": "right", "right": "left"}


def _inconsistency(h: FloatArray, size: tuple[int, int]) -> float:
    """How far a cloth homography is from any camera's: its first two columns, through the
    camera matrix, must be orthogonal and of equal length (0 for a perfect camera)."""
    w, hh = size
    f = focal_from_homography(h, w / 2.0, hh / 2.0) or prior_focal(size)
    m = np.linalg.inv(np.array([[f, 0, w / 2.0], [0, f, hh / 2.0], [0, 0, 1.0]])) @ h
    a, b = m[:, 0], m[:, 1]
    na, nb = float(np.linalg.norm(a)), float(np.linalg.norm(b))
    return abs(math.log(na / nb)) + abs(float(a @ b)) / (na * nb)


#: The straight-lens camera fitted to the cushions alone misplaces the baulk-line and D by up to
#: this much (mm) on a correct calibration through a strongly bent lens (held-out synthetic
#: seeds 2000-2199: median 4.5, 99th percentile 45, most 73 at k1 = -0.2); the cue that the
#: joint fit once took for the baulk-line lay 94 mm from it (seed 2122, before the line-and-arc
#: score). Beyond it, disagreement costs confidence.
DISAGREE_FREE_MM = 75.0
DISAGREE_SCALE_MM = 25.0

#: A camera whose fitted lens is wider than this (horizontal field of view, degrees) is not a
#: lens anyone mounts over a table: the markings found can only all be fitted by bending the
#: camera (a near-vertical view trades the focal length for the nose's height; held-out seed
#: 2122 fitted 166 degrees, the camera 25 cm above the cloth, 196 mm off at the baulk end).
#: Refused, never returned (issue 4: failure is explicit).
MAX_HFOV_DEG = 130.0


def check_lens(focal: float, width: int) -> None:
    """Refuses a fitted focal length (px) no mounted lens has, :data:`MAX_HFOV_DEG`.

    Raises:
        BaulklineError: the lens is wider than that.
    """
    hfov = math.degrees(2.0 * math.atan(width / 2.0 / max(focal, 1e-9)))
    if hfov > MAX_HFOV_DEG:
        raise BaulklineError(
            f"the markings found disagree: only a {hfov:.0f}-degree lens fits them all "
            "(a baulk-line or D found on something else?)"
        )


def disagreement_mm(cushion_fit: CameraFit, obs: Observations) -> float:
    """How far (mm, median) the baulk-line and D points found lie from where the camera fitted
    to the cushions alone (before it saw them) puts those markings: independent evidence of the
    same table. The joint fit can always be bent to agree with its markings (a near-vertical
    view leaves it the focal length to trade for the nose's height), so agreement under the
    joint camera proves nothing; agreement with a camera that never saw them does. 0 when too
    few were found to say."""
    marks = Observations(cushion={}, baulk=obs.baulk, d_arc=obs.d_arc)
    if marks.count < 6:
        return 0.0
    return float(np.median(np.abs(residuals_mm(cushion_fit, marks))))


def _confidence(fit: CameraFit, obs: Observations, contrast: float, disagreement: float = 0.0) -> float:
    """0-1 from the agreement of independent evidence, each factor 1 when it is beyond doubt:

    - which end is baulk (``contrast``, :func:`choose_end`);
    - the markings against each other: the worst median distance (mm) of any one group (each
      cushion, the baulk-line, the D) to the joint camera; one marking found in the wrong place
      cannot hide in an average;
    - how much was seen: cushions with enough points (of four) and baulk-line/D points;
    - the baulk-line and D against the camera fitted to the cushions alone,
      :func:`disagreement_mm`: beyond :data:`DISAGREE_FREE_MM` every
      :data:`DISAGREE_SCALE_MM` more divides the confidence by e.
    """
    groups = [*obs.cushion.values(), obs.baulk, obs.d_arc, obs.middle]
    res = np.abs(residuals_mm(fit, obs))
    worst, start = 0.0, 0
    for g in groups:
        if len(g) >= 6:
            worst = max(worst, float(np.median(res[start : start + len(g)])))
        start += len(g)
    sides_seen = sum(len(p) >= 6 for p in obs.cushion.values())
    # Without the baulk-line and D the camera rests on the cushions alone: half the certainty.
    seen = (sides_seen / 4.0) * max(0.5, min(1.0, (len(obs.baulk) + len(obs.d_arc)) / 20.0))
    agree = math.exp(-max(0.0, disagreement - DISAGREE_FREE_MM) / DISAGREE_SCALE_MM)
    return float(contrast * math.exp(-worst / 10.0) * seen * agree)


def needs_marks(keep: float, turned: float, votes: int) -> bool:
    """Whether :func:`choose_end` would ask the spot marks: no baulk-line or D stood out at
    either end (scores ``keep``, ``turned``) and too few colours sat on their spots (``votes``).
    Only then are the marks looked for."""
    return max(keep, turned) < MIN_MARKING_SCORE and abs(votes) < MIN_VOTES


def choose_end(
    keep: float, turned: float, votes: int, marks: int = 0, one_end: bool = True
) -> tuple[bool, float] | None:
    """Which end is baulk, and how sure (0-1): from the baulk-line-and-D scores of the end as
    given (``keep``) and of the other end (``turned``), :func:`calibration.rectified.marking_score`,
    the colours on their spots, :func:`calibration.spots.spot_votes`, and the bare spot marks,
    :func:`calibration.spotmarks.mark_votes` (``marks``; ``one_end``: every mark found lay at one
    end); votes are positive for the end as given. None when none of them says.

    The markings decide when they stand out; at least two colours agreeing overrule them when
    the markings are faint or barely tell the ends apart, and decide alone when no baulk-line
    or D was found. The marks decide only where neither did (:func:`needs_marks`), never against
    a colour, and never when marks were found at both ends.
    """
    flip = turned > keep
    best, other = max(keep, turned), min(keep, turned)
    by_colour = votes < 0
    colour_sure = min(1.0, abs(votes) / 3.0)
    if best < MIN_MARKING_SCORE:
        if abs(votes) >= MIN_VOTES:
            return by_colour, 0.5 * colour_sure
        if marks == 0 or not one_end or votes * marks < 0:
            return None
        return marks < 0, 0.5 * min(1.0, (abs(votes) + MARK_WEIGHT * abs(marks)) / 3.0)
    contrast = float(np.clip(1.0 - max(other, 0.0) / max(best, 1e-9), 0.0, 1.0))
    if votes == 0 or by_colour == flip:
        return flip, max(contrast, colour_sure) if votes else contrast
    if abs(votes) >= MIN_VOTES and (contrast < 0.5 or best < 2.0 * MIN_MARKING_SCORE):
        return by_colour, 0.5 * colour_sure
    return flip, 0.5 * contrast


def _marks(
    patch: Patch, project: ToImage, score: float, shift: float, least: float = MIN_MARKING_SCORE
) -> tuple[FloatArray, FloatArray]:
    """Baulk-line and D points of an end patch; none where they did not show (score below
    ``least``: the end was chosen by the colours on their spots or the spot marks)."""
    if score < least:
        return np.zeros((0, 2)), np.zeros((0, 2))
    # Wide enough that, where a millimetre is a fraction of a pixel, the window holds cloth
    # either side of the blurred line to measure the line against.
    return baulk_points(patch, project, shift, max(30.0, 5.0 * max(patch.dx, patch.dy)))


def _cushion_only(cushion: dict[str, FloatArray]) -> Observations:
    return Observations(cushion=cushion, baulk=np.zeros((0, 2)), d_arc=np.zeros((0, 2)))


def _projector(fit: CameraFit) -> ToImage:
    def project(pts: FloatArray, z: float) -> FloatArray:
        return project_fit(fit, pts, z)

    return project


def _snapped(offsets: FloatArray) -> FloatArray:
    """Edge offsets with any cushion whose edge was found out at the rail (the cushion top's
    outer edge, a cushion width out: the strong wood/cloth step) brought back to the others' nose
    offset, so that the tight search looks at the nose on every side."""
    at_rail = offsets < -0.5 * TABLE.cushion_width
    if not at_rail.any():
        return offsets
    nose = float(np.median(offsets[~at_rail])) if (~at_rail).any() else 0.0
    out: FloatArray = np.where(at_rail, nose, offsets)
    return out


#: A side with fewer edge points than this in a closer search keeps the earlier search's.
MIN_SIDE_POINTS = 6


def _kept(new: dict[str, FloatArray], old: dict[str, FloatArray]) -> dict[str, FloatArray]:
    """The closer search's edge points, except on a side where it found (almost) none and the
    earlier search found more: a side lost to a player or a cue would otherwise leave the
    camera free to stretch along it."""
    out = dict(new)
    for side, pts in new.items():
        before = old.get(side, np.zeros((0, 2)))
        if len(pts) < MIN_SIDE_POINTS and len(before) > len(pts):
            out[side] = before
    return out


_NO_FIT = "the cloth outline found does not fit a table"
_NO_END = (
    "cannot tell which end is baulk: no baulk-line or D found on the cloth, no colours on their spots "
    "and no bare spot marks"
)
_Settled = tuple[CameraFit, dict[str, FloatArray], list[Patch], list[tuple[float, float]], tuple[bool, float]]


def _axis_fit(
    image: UInt8Array, cloth: Cloth, size: tuple[int, int], hom: Homography, wide: FloatArray
) -> tuple[CameraFit, dict[str, FloatArray]] | None:
    """Step 1 for one table-axis hypothesis: a straight-lens camera from the cushion edges
    found around the outline's homography, with those edge points; None when it does not fit."""
    obs = _cushion_only(_noses(image, cloth, homography_projector(hom), wide, 80.0, None))
    try:
        fit = fit_camera(obs, size, initial_params(hom.matrix, size), distortion=False, iterations=8)
    except BaulklineError:
        return None
    return fit, obs.cushion


def _axis_cost(fit: CameraFit) -> float:
    return fit.residual_mm / max(fit.inlier_fraction, 1e-3)


def _axes(
    image: UInt8Array,
    cloth: Cloth,
    size: tuple[int, int],
    homs: list[Homography],
    clear: bool,
    wide: FloatArray,
) -> Iterator[tuple[CameraFit, dict[str, FloatArray]]]:
    """The table-axis hypotheses in order of belief, fitted only when asked for: with a ``clear``
    consistency winner (first of ``homs``) the other axis is fitted only if the winner's ends
    cannot be told; otherwise both are fitted and the better cushion fit comes first."""
    if clear:
        for hom in homs:
            if (ax := _axis_fit(image, cloth, size, hom, wide)) is not None:
                yield ax
        return
    both = [ax for hom in homs if (ax := _axis_fit(image, cloth, size, hom, wide)) is not None]
    yield from sorted(both, key=lambda ax: _axis_cost(ax[0]))


def _settle_end(
    image: UInt8Array, cloth: Cloth, size: tuple[int, int], fit: CameraFit, first: dict[str, FloatArray]
) -> _Settled | None:
    """Steps 2-3 for one table-axis hypothesis: the cushion-only camera closer in, and which end
    is baulk; None when the end cannot be told on it."""
    # 2. The cushions alone, closer in: a camera that never saw the baulk-line or D.
    cushion = _kept(_noses(image, cloth, _projector(fit), NARROW, 60.0, fit.centre), first)
    fit = fit_camera(_cushion_only(cushion), size, fit.params, distortion=False, iterations=12)
    # 3. Which end is baulk: the end where the baulk-line and D show, checked against the colours
    # on their spots; where neither says, the bare spot marks (never image position).
    project = _projector(fit)
    ends = [end_patch(image, project, flip, coarse=True) for flip in (False, True)]
    scores = [marking_score(p) for p in ends]
    votes = spot_votes(image, project)
    marks = mark_votes(image, project) if needs_marks(scores[0][0], scores[1][0], votes) else (0, True)
    choice = choose_end(scores[0][0], scores[1][0], votes, *marks)
    if choice is None:
        return None
    return fit, cushion, ends, scores, choice


def _final_search(
    image: UInt8Array, cloth: Cloth, size: tuple[int, int], fit: CameraFit, cushion: dict[str, FloatArray]
) -> tuple[CameraFit, Observations]:
    """Step 5: the cushion edges, baulk-line, D and middle pockets searched once more around
    ``fit``, and the camera fitted to them (bent where the bend earns it,
    :func:`calibration.lens.with_lens`), with the observations it was fitted to. ``cushion``:
    the earlier search's edges, kept on a side this one (almost) lost (:func:`_kept`)."""
    project = _projector(fit)
    # The final search is centred on each cushion's own nose: a side whose edge was found at the
    # rail is searched again, around the other sides' nose offset, in the wider window.
    cushion = _kept(
        _noses(image, cloth, project, NARROW, 40.0, fit.centre, _snapped(fit.edge_offsets), True), cushion
    )
    final = end_patch(image, project, False, FINAL_REACH)
    line, arc = _marks(final, project, *marking_score(final), FINAL_MIN_SCORE)
    obs = Observations(cushion=cushion, baulk=line, d_arc=arc, middle=middle_points(image, project))
    return with_lens(obs, size, fit_camera(obs, size, fit.params, distortion=False)), obs


def _calibrate(image: UInt8Array) -> Calibration:
    if image.ndim != 3 or image.shape[2] != 3:
        raise BaulklineError(f"expected a colour (H, W, 3) image, got shape {image.shape}")
    h_img, w_img = image.shape[:2]
    size = (w_img, h_img)
    cloth = find_cloth(image)
    _, corners = outer_quad(cloth)
    corners = corners / cloth.scale
    if _signed_area(corners) > 0:  # TABLE.corners' order, seen by an unmirrored camera
        corners = corners[::-1]
    table_rect = _expanded_corners(TABLE.cushion_width)
    wide: FloatArray = np.arange(-100.0, 40.0, 2.0, dtype=np.float64)
    # 1. Which image axis is the table's length: a 2:1 table fits the outline one way only. The
    # homography's own consistency (a rotation's first two columns are orthonormal) usually
    # tells at once; when it does not, the cushion edges are fitted both ways.
    homs = [Homography.from_points(table_rect, np.roll(corners, -k, axis=0)) for k in range(2)]
    incons = [_inconsistency(h.matrix, size) for h in homs]
    order = np.argsort(incons)
    clear = incons[order[1]] > 3.0 * max(incons[order[0]], 1e-3)
    # A wrong axis still fits four cushion lines, so the consistency test can pick it where a bent
    # lens and a steep tilt blur the difference; then the baulk-line, D and spots are looked for
    # in the wrong places and the end cannot be told. The other axis is then fitted and asked the
    # same question: the ends must still be told by markings or colours, never guessed.
    # Where the outline cannot tell the axis, the end can: the right axis finds its baulk-line,
    # D or spotted colours at one end and not at the other, the wrong one only weaker evidence
    # (seed 1106: a 33-degree view whose wrong axis fitted the cushions a little better and
    # told its ends at a contrast of 0.47, the right one at 1.0). Every axis is then settled and
    # the one whose ends are told more clearly wins.
    axes = _axes(image, cloth, size, [homs[int(k)] for k in order], clear, wide)
    settled, fitted = None, False
    for axis_fit, first in axes:
        fitted = True
        found = _settle_end(image, cloth, size, axis_fit, first)
        if found is not None and (settled is None or found[4][1] > settled[4][1]):
            settled = found
        if settled is not None and clear:
            break
    if settled is None:
        raise BaulklineError(_NO_END if fitted else _NO_FIT)
    fit, cushion, ends, scores, choice = settled
    flip, contrast = choice
    patch = ends[int(flip)]
    score, shift = scores[int(flip)]
    line, arc = _marks(patch, _projector(fit), score, shift)
    if patch.flip:
        fit = _flip(fit)
        cushion = {_OPPOSITE[side]: pts for side, pts in cushion.items()}
    cushion_fit = fit
    # 4. Joint fit (the middle pockets halve the table's length: see calibration.pockets).
    joint_obs = Observations(
        cushion=cushion, baulk=line, d_arc=arc, middle=middle_points(image, _projector(fit))
    )
    joint = fit_camera(joint_obs, size, fit.params, distortion=False, iterations=12)  # refitted in step 5
    # 5. Once more, around the joint camera, with the tight windows. Where the camera fitted
    # there is so bent that it moves the cushion lines beyond the windows' reach from where the
    # straight joint camera put them, once more around the joint camera refitted with a bent
    # lens, and that search is kept only where its points fit far better (calibration.lens).
    fit, obs = _final_search(image, cloth, size, joint, cushion)
    if fit.k1 != 0.0 and bend_shift_mm(joint, fit, size) > BEND_SEARCH_MM:
        bent, bent_obs = _final_search(image, cloth, size, with_lens(joint_obs, size, joint), cushion)
        if per_point_cost(bent, bent_obs) < BENT_SEARCH_GAIN * per_point_cost(fit, obs):
            fit, obs = bent, bent_obs
    check_lens(float(fit.camera_matrix[0, 0]), size[0])
    confidence = _confidence(fit, obs, contrast, disagreement_mm(cushion_fit, obs))
    cal = _from_fit(fit, size, confidence)
    if cal.camera_centre[2] <= 0:
        raise BaulklineError("the fitted camera is below the table: the outline found is not a table")
    visible = cal.visible_fraction()
    if visible < MIN_VISIBLE:
        raise BaulklineError(f"too little of the table in view ({visible:.0%} < {MIN_VISIBLE:.0%})")
    return cal
