"""The camera fit's inner loop, compiled: every marking point's residual for a batch of cameras.

Why compiled: the solver (:mod:`calibration.fit`) evaluates nine cameras (one and its eight
forward steps) on a few hundred points a dozen times per fit and six fits per calibration. In
numpy each evaluation is some fifty small array operations whose call overhead, not their
arithmetic, was most of a calibration's time (0.5 ms for one camera, 0.7 ms for nine); one
compiled loop does the same arithmetic, in the same order, in a few microseconds.

The maths is :func:`calibration.fit.rays_to_planes` and :func:`calibration.fit._marking_residuals`
on the solver's coordinates (:func:`calibration.fit._solver_params`); the numpy versions stay
as the reference the tests compare against.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from calibration.homography import FloatArray

#: Kinds of marking a point lies on (as in :mod:`calibration.fit`).
KIND_LINE_X, KIND_LINE_Y, KIND_CIRCLE = 0, 1, 2


@njit(cache=True)
def _rotation(rx: float, ry: float, rz: float) -> FloatArray:  # pragma: no cover - compiled
    """Rodrigues, the same formula as :func:`calibration.fit._rodrigues` for one vector."""
    theta = math.sqrt(rx * rx + ry * ry + rz * rz)
    d = theta if theta >= 1e-12 else 1.0
    kx, ky, kz = rx / d, ry / d, rz / d
    k = np.array([[0.0, -kz, ky], [kz, 0.0, -kx], [-ky, kx, 0.0]])
    return np.eye(3) + math.sin(theta) * k + (1.0 - math.cos(theta)) * (k @ k)


@njit(cache=True)
def marking_residuals(
    q: FloatArray,
    px: FloatArray,
    z: FloatArray,
    kind: np.ndarray,
    value: FloatArray,
    sid: np.ndarray,
    sign: FloatArray,
    centre: FloatArray,
    table_centre: FloatArray,
    d_centre: FloatArray,
) -> FloatArray:  # pragma: no cover - compiled
    """Residuals ``(M, N)`` (mm) of ``N`` marking points for ``M`` cameras in the solver's
    coordinates ``q`` ``(M, >= 13)``: log f, rvec, (U0, V0) px, log s, k1 (half-width scale),
    four edge offsets.

    Args:
        px: ``(N, 2)`` distorted pixels; z: ``(N,)`` plane height of each point's marking.
        kind, value, sid: each point's marking (line x = v, line y = v, the D's circle of
            radius v) and side index (4: not a cushion).
        sign: ``(5,)`` inward sign per side index (0 for markings).
        centre: principal point; table_centre: the point (U0, V0, s) are measured at;
        d_centre: the D's centre (table mm).
    """
    m_count, n_count = q.shape[0], px.shape[0]
    out = np.empty((m_count, n_count))
    half = centre[0]
    for m in range(m_count):
        f = math.exp(q[m, 0])
        r = _rotation(q[m, 1], q[m, 2], q[m, 3])
        depth = f / math.exp(q[m, 6])
        p0 = (q[m, 4] * depth / f, q[m, 5] * depth / f, depth)
        c0 = table_centre[0] - (r[0, 0] * p0[0] + r[1, 0] * p0[1] + r[2, 0] * p0[2])
        c1 = table_centre[1] - (r[0, 1] * p0[0] + r[1, 1] * p0[1] + r[2, 1] * p0[2])
        c2 = table_centre[2] - (r[0, 2] * p0[0] + r[1, 2] * p0[1] + r[2, 2] * p0[2])
        k1 = q[m, 7]
        for n in range(n_count):
            ux = (px[n, 0] - centre[0]) / half
            uy = (px[n, 1] - centre[1]) / half
            if k1 != 0.0:
                nx, ny = ux, uy
                for _ in range(5):  # the fixed point of calibration.fit.rays_to_planes
                    g = 1.0 / (1.0 + k1 * (ux * ux + uy * uy))
                    ux, uy = nx * g, ny * g
            ux, uy = ux * (half / f), uy * (half / f)
            wx = ux * r[0, 0] + uy * r[1, 0] + r[2, 0]
            wy = ux * r[0, 1] + uy * r[1, 1] + r[2, 1]
            wz = ux * r[0, 2] + uy * r[1, 2] + r[2, 2]
            if abs(wz) < 1e-12:
                wz = 1e-12
            lam = (z[n] - c2) / wz
            x = c0 + lam * wx
            y = -(c1 + lam * wy)
            s = sid[n]
            off = q[m, 8 + s] if s < 4 else 0.0
            if kind[n] == KIND_CIRCLE:
                seen = math.hypot(x - d_centre[0], y - d_centre[1])
            elif kind[n] == KIND_LINE_Y:
                seen = y
            else:
                seen = x
            out[m, n] = seen - (value[n] + sign[s] * off)
    return out
