"""Pinhole camera with lens distortion, posed over the table.

The pose is parameterised the way a person mounts a camera over a table, not as a raw
rotation: it looks at a point on the cloth (``target``, the table centre plus ``offset``),
from ``height`` above the cloth, tilted ``tilt`` degrees off vertical towards azimuth
``yaw`` (which also turns the table in the image), and rolled ``roll`` degrees about its
optical axis. Distortion follows OpenCV's (k1, k2, p1, p2, k3) so calibration output plugs
straight into ``cv2``.

World frame: table millimetres of the event-log contract, ``z`` up from the cloth. A ball
centre sits ``TABLE.ball_radius`` above the cloth, which is why every mapping takes ``z``.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from calibration.homography import FloatArray, Homography, as_points
from calibration.table import TABLE
from calibration.undistort import undistort_points


@dataclass(frozen=True)
class Intrinsics:
    """Pinhole intrinsics and OpenCV distortion.

    Attributes:
        width: image width (px).
        height: image height (px).
        fx: focal length in x (px).
        fy: focal length in y (px).
        cx: principal point x (px).
        cy: principal point y (px).
        dist: (k1, k2, p1, p2, k3).
    """

    width: int
    height: int
    fx: float
    fy: float
    cx: float
    cy: float
    dist: tuple[float, float, float, float, float] = (0.0, 0.0, 0.0, 0.0, 0.0)

    def __post_init__(self) -> None:
        if self.width <= 0 or self.height <= 0:
            raise ValueError(f"image size must be positive, got {self.width}x{self.height}")
        if self.fx <= 0 or self.fy <= 0:
            raise ValueError(f"focal lengths must be positive, got {self.fx}, {self.fy}")
        if len(self.dist) != 5:
            raise ValueError(f"dist must have 5 coefficients, got {len(self.dist)}")

    @classmethod
    def from_fov(
        cls, width: int, height: int, hfov_deg: float, dist: tuple[float, ...] = (0.0,) * 5
    ) -> Intrinsics:
        """Square pixels, centred principal point, horizontal field of view in degrees."""
        f = (width / 2.0) / math.tan(math.radians(hfov_deg) / 2.0)
        d = tuple(float(v) for v in dist)
        return cls(width, height, f, f, width / 2.0, height / 2.0, d)  # type: ignore[arg-type]

    @property
    def matrix(self) -> FloatArray:
        """The 3x3 camera matrix K."""
        return np.array([[self.fx, 0.0, self.cx], [0.0, self.fy, self.cy], [0.0, 0.0, 1.0]])

    @property
    def dist_array(self) -> FloatArray:
        """Distortion coefficients as OpenCV wants them."""
        return np.asarray(self.dist, dtype=np.float64)

    @property
    def has_distortion(self) -> bool:
        """Whether any distortion coefficient is non-zero."""
        return any(abs(v) > 0 for v in self.dist)


@dataclass(frozen=True)
class Pose:
    """Where the camera is and where it looks.

    Attributes:
        height: camera centre above the cloth (mm).
        tilt: angle of the optical axis off vertical (degrees, 0 = straight down).
        yaw: azimuth of the tilt and rotation of the table in the image (degrees).
        roll: rotation about the optical axis (degrees).
        offset: the look-at point relative to the table centre (mm on the cloth).
    """

    height: float = 4200.0
    tilt: float = 0.0
    yaw: float = 0.0
    roll: float = 0.0
    offset: tuple[float, float] = (0.0, 0.0)

    def __post_init__(self) -> None:
        if self.height <= 0:
            raise ValueError(f"camera height must be positive, got {self.height}")
        if not 0.0 <= self.tilt < 80.0:
            raise ValueError(f"tilt must be within [0, 80) degrees, got {self.tilt}")


def _rot_x(a: float) -> FloatArray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[1.0, 0, 0], [0, c, -s], [0, s, c]])


def _rot_z(a: float) -> FloatArray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1.0]])


@dataclass(frozen=True)
class Camera:
    """A posed camera: projects table points to pixels and back."""

    intrinsics: Intrinsics
    pose: Pose = field(default_factory=Pose)

    # ---- extrinsics -----------------------------------------------------------------------
    # The event-log frame (x along the table, y towards the yellow side, z up) is
    # left-handed: seen from the baulk end looking up the table, yellow is on the right. A
    # real camera is a proper rotation of a right-handed frame, so internally the world is
    # (x, y, -z): right-handed, z pointing down into the cloth. Without this every image
    # would be the mirror of a real table (yellow on the wrong side of the D).
    @staticmethod
    def _internal(points: FloatArray) -> FloatArray:
        out: FloatArray = points * np.array([1.0, 1.0, -1.0])
        return out

    @property
    def rotation(self) -> FloatArray:
        """Rotation R from the internal right-handed world ``(x, y, -z)`` to the camera
        (x right, y down, z forward)."""
        p = self.pose
        # Looking straight down (+z internal) with the table's x to the image's right and
        # therefore (right-handed) its y to the image's bottom.
        r: FloatArray = (
            _rot_z(math.radians(p.roll)) @ _rot_x(math.radians(p.tilt)) @ _rot_z(math.radians(p.yaw))
        )
        return r

    @property
    def target(self) -> FloatArray:
        """The point on the cloth the optical axis passes through."""
        return np.array(
            [TABLE.length / 2.0 + self.pose.offset[0], TABLE.width / 2.0 + self.pose.offset[1], 0.0]
        )

    @property
    def _centre_internal(self) -> FloatArray:
        forward = self.rotation.T @ np.array([0.0, 0.0, 1.0])
        distance = self.pose.height / max(forward[2], 1e-9)
        c: FloatArray = self.target - distance * forward
        return c

    @property
    def centre(self) -> FloatArray:
        """Camera centre in table millimetres, ``z`` up (its height above the cloth)."""
        return self._internal(self._centre_internal)

    @property
    def translation(self) -> FloatArray:
        """t in x_cam = R x_internal + t."""
        t: FloatArray = -self.rotation @ self._centre_internal
        return t

    # ---- projections ----------------------------------------------------------------------
    def project(self, points: npt.ArrayLike, z: float = 0.0) -> FloatArray:
        """Table points ``(N, 2)`` at height ``z`` (or ``(N, 3)`` with z up) to distorted pixels."""
        arr = np.asarray(points, dtype=np.float64)
        if arr.ndim == 1:
            arr = arr[None, :]
        if arr.shape[1] == 2:
            arr = np.hstack([arr, np.full((len(arr), 1), z)])
        if arr.ndim != 2 or arr.shape[1] != 3:
            raise ValueError(f"points must have shape (N, 2) or (N, 3), got {arr.shape}")
        # The rotation matrix itself, not cv2.projectPoints: that wants a Rodrigues vector, and
        # cv2.Rodrigues returns the zero vector for any rotation under 1e-5 rad (its small-angle
        # cut-off), so a camera straight down with yaw + roll within 6e-4 degrees of zero lost
        # its turn, up to 0.02 mm at the table's corners (hypothesis: yaw = roll = 1e-4 degrees).
        cam = self._internal(arr) @ self.rotation.T + self.translation
        norm = cam[:, :2] / cam[:, 2:3]
        if self.intrinsics.has_distortion:
            norm = self._distort_normalised(norm)
        i = self.intrinsics
        out: FloatArray = norm * [i.fx, i.fy] + [i.cx, i.cy]
        return out

    def depth(self, points: npt.ArrayLike, z: float = 0.0) -> FloatArray:
        """Distance along the optical axis of table points (mm); positive in front."""
        pts = as_points(points)
        world = self._internal(np.hstack([pts, np.full((len(pts), 1), z)]))
        cam = world @ self.rotation.T + self.translation
        d: FloatArray = cam[:, 2]
        return d

    def undistort(self, pixels: npt.ArrayLike) -> FloatArray:
        """Distorted pixels to undistorted pixels (same K)."""
        px = as_points(pixels, "pixels")
        if not self.intrinsics.has_distortion:
            return px.copy()
        # Compiled (see calibration.undistort): the same steps as _undistort_reference.
        return undistort_points(px, self.intrinsics.matrix, self.intrinsics.dist)

    def _undistort_reference(self, px: FloatArray) -> FloatArray:
        """:meth:`undistort` in NumPy (the compiled version's test oracle), for a lens with
        distortion."""
        k = self.intrinsics.matrix
        target = (px - [k[0, 2], k[1, 2]]) / [k[0, 0], k[1, 1]]
        guess = target.copy()
        # Fixed-point iteration on the OpenCV model, then Newton's: the fixed point alone
        # contracts by 1 - d(distortion)/dr, which near the image's corners under a strong
        # barrel lens (k1 -0.2, a wide view) is 0.9 a step, and left a table corner beyond the
        # frame 0.02 mm off after 30 steps; Newton's steps finish it to machine precision.
        for _ in range(10):
            guess = guess + (target - self._distort_normalised(guess))
        for _ in range(4):
            guess = self._newton_step(guess, target)
        res: FloatArray = guess * [k[0, 0], k[1, 1]] + [k[0, 2], k[1, 2]]
        return res

    def _newton_step(self, xy: FloatArray, target: FloatArray) -> FloatArray:
        """One Newton step of ``distort(xy) = target`` (normalised coordinates); a point whose
        Jacobian is singular (past the lens model's fold) stays where it is."""
        k1, k2, p1, p2, k3 = self.intrinsics.dist
        x, y = xy[:, 0], xy[:, 1]
        r2 = x * x + y * y
        radial = 1 + k1 * r2 + k2 * r2 * r2 + k3 * r2 * r2 * r2
        slope = k1 + 2 * k2 * r2 + 3 * k3 * r2 * r2  # d radial / d r2
        a = radial + 2 * x * x * slope + 2 * p1 * y + 6 * p2 * x
        b = 2 * x * y * slope + 2 * p1 * x + 2 * p2 * y
        d = radial + 2 * y * y * slope + 6 * p1 * y + 2 * p2 * x
        det = a * d - b * b
        res = self._distort_normalised(xy) - target
        ok = np.abs(det) > 1e-12
        safe = np.where(ok, det, 1.0)
        dx = (d * res[:, 0] - b * res[:, 1]) / safe
        dy = (a * res[:, 1] - b * res[:, 0]) / safe
        out: FloatArray = xy - np.where(ok[:, None], np.stack([dx, dy], axis=1), 0.0)
        return out

    def _distort_normalised(self, xy: FloatArray) -> FloatArray:
        k1, k2, p1, p2, k3 = self.intrinsics.dist
        x, y = xy[:, 0], xy[:, 1]
        r2 = x * x + y * y
        radial = 1 + k1 * r2 + k2 * r2 * r2 + k3 * r2 * r2 * r2
        xd = x * radial + 2 * p1 * x * y + p2 * (r2 + 2 * x * x)
        yd = y * radial + p1 * (r2 + 2 * y * y) + 2 * p2 * x * y
        out: FloatArray = np.stack([xd, yd], axis=1)
        return out

    def distort(self, undistorted: npt.ArrayLike) -> FloatArray:
        """Undistorted pixels to distorted pixels (same K)."""
        px = as_points(undistorted, "pixels")
        if not self.intrinsics.has_distortion:
            return px.copy()
        k = self.intrinsics.matrix
        norm = (px - [k[0, 2], k[1, 2]]) / [k[0, 0], k[1, 1]]
        res: FloatArray = self._distort_normalised(norm) * [k[0, 0], k[1, 1]] + [k[0, 2], k[1, 2]]
        return res

    def table_to_image(self, z: float = 0.0) -> Homography:
        """Homography from table millimetres at height ``z`` to undistorted pixels."""
        r, t = self.rotation, self.translation
        m = self.intrinsics.matrix @ np.column_stack([r[:, 0], r[:, 1], r[:, 2] * (-z) + t])
        return Homography(np.asarray(m, dtype=np.float64))

    def image_to_table(self, z: float = 0.0) -> Homography:
        """Homography from undistorted pixels to table millimetres at height ``z``."""
        return self.table_to_image(z).inverse()

    def pixels_to_table(self, pixels: npt.ArrayLike, z: float = 0.0) -> FloatArray:
        """Distorted pixels to table millimetres on the plane at height ``z``."""
        return self.image_to_table(z).apply(self.undistort(pixels))

    # ---- serialisation --------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """JSON-ready description: intrinsics, pose, distortion and both homographies
        (cloth plane, acting on undistorted pixels), plus the ball-centre plane's."""
        h = TABLE.ball_radius
        return {
            "image_size": [self.intrinsics.width, self.intrinsics.height],
            "intrinsics": asdict(self.intrinsics),
            "pose": asdict(self.pose),
            "camera_matrix": self.intrinsics.matrix.tolist(),
            "distortion": list(self.intrinsics.dist),
            "rotation": self.rotation.tolist(),
            "translation": self.translation.tolist(),
            "table_to_image": self.table_to_image().tolist(),
            "image_to_table": self.image_to_table().tolist(),
            "ball_plane_z": h,
            "ball_table_to_image": self.table_to_image(h).tolist(),
            "ball_image_to_table": self.image_to_table(h).tolist(),
        }

    def to_json(self) -> str:
        """The description as indented JSON text."""
        return json.dumps(self.to_dict(), indent=2)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Camera:
        """Inverse of :meth:`to_dict` (only ``intrinsics`` and ``pose`` are read)."""
        i = dict(data["intrinsics"])
        i["dist"] = tuple(i["dist"])
        p = dict(data["pose"])
        p["offset"] = tuple(p["offset"])
        return cls(Intrinsics(**i), Pose(**p))
