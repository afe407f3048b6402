"""A plane-to-plane homography that validates its input and fails loudly.

Used for table millimetres <-> undistorted image pixels. Points are ``(N, 2)`` float arrays;
a single point may be given as ``(2,)``. A point mapped to infinity (behind the camera's
horizon) is an error, never a silent NaN.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from calibration.errors import BaulklineError

FloatArray = npt.NDArray[np.float64]


def as_points(points: npt.ArrayLike, name: str = "points") -> FloatArray:
    """``points`` as a float ``(N, 2)`` array; ``(2,)`` becomes ``(1, 2)``.

    Raises:
        ValueError: the array is not ``(N, 2)`` or holds non-finite values.
    """
    arr = np.asarray(points, dtype=np.float64)
    if arr.ndim == 1 and arr.shape == (2,):
        arr = arr[None, :]
    if arr.ndim != 2 or arr.shape[1] != 2:
        raise ValueError(f"{name} must have shape (N, 2), got {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} holds non-finite values")
    return arr


@dataclass(frozen=True)
class Homography:
    """A 3x3 projective map, normalised so ``matrix[2, 2] == 1`` where possible."""

    matrix: FloatArray

    def __post_init__(self) -> None:
        m = np.asarray(self.matrix, dtype=np.float64)
        if m.shape != (3, 3):
            raise ValueError(f"a homography must be 3x3, got {m.shape}")
        if not np.all(np.isfinite(m)):
            raise ValueError("a homography must be finite")
        det = float(np.linalg.det(m))
        scale = float(np.abs(m).max())
        if scale == 0.0 or abs(det) < 1e-12 * scale**3:
            raise ValueError("a homography must be invertible (its determinant is ~0)")
        if abs(m[2, 2]) > 1e-12:
            m = m / m[2, 2]
        object.__setattr__(self, "matrix", m)

    def apply(self, points: npt.ArrayLike) -> FloatArray:
        """Map ``(N, 2)`` points.

        Raises:
            BaulklineError: a point maps to infinity (it lies on the vanishing line).
        """
        pts = as_points(points)
        homog = np.hstack([pts, np.ones((len(pts), 1))]) @ self.matrix.T
        w = homog[:, 2:3]
        if np.any(np.abs(w) < 1e-12):
            raise BaulklineError("a point maps to infinity under the homography")
        out: FloatArray = homog[:, :2] / w
        return out

    def inverse(self) -> Homography:
        """The inverse map."""
        return Homography(np.asarray(np.linalg.inv(self.matrix), dtype=np.float64))

    def then(self, other: Homography) -> Homography:
        """``other`` applied after this map."""
        return Homography(other.matrix @ self.matrix)

    def tolist(self) -> list[list[float]]:
        """The matrix as nested lists for JSON."""
        return [[float(v) for v in row] for row in self.matrix]

    @classmethod
    def from_points(cls, src: npt.ArrayLike, dst: npt.ArrayLike) -> Homography:
        """Least-squares homography from four or more point pairs (DLT via OpenCV).

        Raises:
            BaulklineError: fewer than four pairs, or a degenerate configuration.
        """
        import cv2

        s, d = as_points(src, "src"), as_points(dst, "dst")
        if len(s) != len(d) or len(s) < 4:
            raise BaulklineError(f"a homography needs >= 4 point pairs, got {len(s)} and {len(d)}")
        m, _ = cv2.findHomography(s, d, 0)
        if m is None:
            raise BaulklineError("the points are degenerate (collinear); no homography fits")
        return cls(np.asarray(m, dtype=np.float64))
