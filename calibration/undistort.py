"""The lens model's inversion (distorted to undistorted pixels), compiled.

Why compiled: :meth:`calibration.camera.Camera.undistort` inverts the OpenCV lens model by ten
fixed-point steps and four Newton steps, each some twenty whole-array NumPy operations. On the
grid the ball stage tabulates the lens on (:class:`vision.balls_stage.PixelMap`: 58,000 nodes for
a 1280x720 frame) that was 90 ms of every video's first tracked frame, all of it holding the
GIL the seeding frame's other work (the cloth learned on a worker thread) waits for. One
compiled pass per point does the same float64 arithmetic in the same order, so the answer is
bit for bit the NumPy one (tests/calibration/test_fast_paths.py compares them), and it releases
the GIL.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

FloatArray = npt.NDArray[np.float64]

#: Fixed-point steps, then Newton steps, of the inversion (see ``Camera.undistort``).
FIXED_STEPS = 10
NEWTON_STEPS = 4


@njit(cache=True, nogil=True)
def _undistort(
    px: FloatArray, k: FloatArray, dist: FloatArray, fixed: int, newton: int
) -> FloatArray:  # pragma: no cover - compiled; its NumPy twin is Camera._undistort_reference
    k1, k2, p1, p2, k3 = dist[0], dist[1], dist[2], dist[3], dist[4]
    fx, fy, cx, cy = k[0, 0], k[1, 1], k[0, 2], k[1, 2]
    out = np.empty_like(px)
    for i in range(px.shape[0]):
        tx = (px[i, 0] - cx) / fx
        ty = (px[i, 1] - cy) / fy
        x, y = tx, ty
        for _ in range(fixed):
            r2 = x * x + y * y
            radial = 1 + k1 * r2 + k2 * r2 * r2 + k3 * r2 * r2 * r2
            xd = x * radial + 2 * p1 * x * y + p2 * (r2 + 2 * x * x)
            yd = y * radial + p1 * (r2 + 2 * y * y) + 2 * p2 * x * y
            x, y = x + (tx - xd), y + (ty - yd)
        for _ in range(newton):
            r2 = x * x + y * y
            radial = 1 + k1 * r2 + k2 * r2 * r2 + k3 * r2 * r2 * r2
            slope = k1 + 2 * k2 * r2 + 3 * k3 * r2 * r2
            a = radial + 2 * x * x * slope + 2 * p1 * y + 6 * p2 * x
            b = 2 * x * y * slope + 2 * p1 * x + 2 * p2 * y
            d = radial + 2 * y * y * slope + 6 * p1 * y + 2 * p2 * x
            det = a * d - b * b
            xd = x * radial + 2 * p1 * x * y + p2 * (r2 + 2 * x * x)
            yd = y * radial + p1 * (r2 + 2 * y * y) + 2 * p2 * x * y
            rx, ry = xd - tx, yd - ty
            if np.abs(det) > 1e-12:
                x, y = x - (d * rx - b * ry) / det, y - (a * ry - b * rx) / det
            else:
                x, y = x - 0.0, y - 0.0
        out[i, 0] = x * fx + cx
        out[i, 1] = y * fy + cy
    return out


def undistort_points(pixels: FloatArray, matrix: FloatArray, dist: tuple[float, ...]) -> FloatArray:
    """``(N, 2)`` distorted pixels to undistorted ones (same camera matrix ``matrix``) under the
    OpenCV lens ``dist`` = ``(k1, k2, p1, p2, k3)``: :meth:`Camera.undistort`'s steps, compiled."""
    return _undistort(
        np.ascontiguousarray(pixels, np.float64),
        np.ascontiguousarray(matrix, np.float64),
        np.asarray(dist, np.float64),
        FIXED_STEPS,
        NEWTON_STEPS,
    )
