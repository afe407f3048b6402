"""The robust quadratic curve of :func:`calibration.markings.robust_curve`, compiled.

Why compiled: it runs about sixteen times per calibration (every cushion side of three edge
searches, the baulk-line and the D twice) on a few dozen points each, where each numpy call
(the 2x2 eigenvectors, the random draws, the 3x3 least squares) cost more in overhead than its
arithmetic: 5 ms of a 1080p calibration. The same RANSAC hypotheses are drawn (the draws
depend only on the number of points, so they are drawn once per count and kept) and scored
the same way.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
import numpy.typing as npt
from numba import njit

from calibration.homography import FloatArray


@lru_cache(maxsize=512)
def draws(n: int, iterations: int, seed: int) -> npt.NDArray[np.int64]:
    """The RANSAC triples ``(iterations, 3)`` (sorted; repeats included, they are skipped as
    singular) for ``n`` points: what ``numpy.random.default_rng(seed)`` draws, kept read-only."""
    rng = np.random.default_rng(seed)
    out = np.sort(rng.integers(0, n, size=(iterations, 3)), axis=1).astype(np.int64)
    out.setflags(write=False)
    return out


@njit(cache=True, error_model="numpy")
def curve_inliers(  # pragma: no cover - compiled
    pts: FloatArray, tol: float, idx: npt.NDArray[np.int64]
) -> npt.NDArray[np.bool_]:
    """Inliers of the best quadratic ``d(t)`` through ``pts`` ``(N, 2)``, ``N >= 6``, in the
    frame of their principal axes (``t`` along, scaled to at most 1, ``d`` across), from the
    three-point hypotheses ``idx``; the winner refitted to its inliers by least squares."""
    n = pts.shape[0]
    cx, cy = 0.0, 0.0
    for i in range(n):
        cx += pts[i, 0]
        cy += pts[i, 1]
    cx /= n
    cy /= n
    sxx, sxy, syy = 0.0, 0.0, 0.0
    for i in range(n):
        x, y = pts[i, 0] - cx, pts[i, 1] - cy
        sxx += x * x
        sxy += x * y
        syy += y * y
    # The scatter matrix's larger eigenvector is the curve's direction.
    lam = 0.5 * (sxx + syy) + math.sqrt((0.5 * (sxx - syy)) ** 2 + sxy * sxy)
    if sxy != 0.0:
        ux, uy = lam - syy, sxy
    elif sxx >= syy:
        ux, uy = 1.0, 0.0
    else:
        ux, uy = 0.0, 1.0
    norm = math.hypot(ux, uy)
    ux, uy = ux / norm, uy / norm
    t = np.empty(n)
    d = np.empty(n)
    tmax = 0.0
    for i in range(n):
        x, y = pts[i, 0] - cx, pts[i, 1] - cy
        t[i] = x * ux + y * uy
        d[i] = -x * uy + y * ux
        tmax = max(tmax, abs(t[i]))
    tmax = max(tmax, 1e-9)
    for i in range(n):
        t[i] /= tmax
    best = np.zeros(n, dtype=np.bool_)
    best_count = -1
    inl = np.empty(n, dtype=np.bool_)
    for h in range(idx.shape[0]):
        t0, t1, t2 = t[idx[h, 0]], t[idx[h, 1]], t[idx[h, 2]]
        d0, d1, d2 = d[idx[h, 0]], d[idx[h, 1]], d[idx[h, 2]]
        if not abs((t1 - t0) * (t2 - t0) * (t2 - t1)) > 1e-9:  # the Vandermonde determinant
            continue
        f01 = (d1 - d0) / (t1 - t0)
        a = ((d2 - d1) / (t2 - t1) - f01) / (t2 - t0)
        b = f01 - a * (t0 + t1)
        c = d0 - (a * t0 + b) * t0
        count = 0
        for i in range(n):
            inl[i] = abs(a * t[i] * t[i] + b * t[i] + c - d[i]) < tol
            if inl[i]:
                count += 1
        if count > best_count:
            best_count = count
            best[:] = inl
    if best_count < 3:
        return best
    # Least squares on the inliers: the normal equations of (t^2, t, 1).
    m = np.zeros((3, 3))
    r = np.zeros(3)
    for i in range(n):
        if best[i]:
            row = (t[i] * t[i], t[i], 1.0)
            for u in range(3):
                r[u] += row[u] * d[i]
                for v in range(3):
                    m[u, v] += row[u] * row[v]
    det = (
        m[0, 0] * (m[1, 1] * m[2, 2] - m[1, 2] * m[2, 1])
        - m[0, 1] * (m[1, 0] * m[2, 2] - m[1, 2] * m[2, 0])
        + m[0, 2] * (m[1, 0] * m[2, 1] - m[1, 1] * m[2, 0])
    )
    if det == 0.0 or not math.isfinite(det):
        return best  # singular: the hypothesis' own inliers stand
    coef = np.empty(3)
    for k in range(3):  # Cramer's rule: column k replaced by the right-hand side
        mk = m.copy()
        for u in range(3):
            mk[u, k] = r[u]
        coef[k] = (
            mk[0, 0] * (mk[1, 1] * mk[2, 2] - mk[1, 2] * mk[2, 1])
            - mk[0, 1] * (mk[1, 0] * mk[2, 2] - mk[1, 2] * mk[2, 0])
            + mk[0, 2] * (mk[1, 0] * mk[2, 1] - mk[1, 1] * mk[2, 0])
        ) / det
    out = np.empty(n, dtype=np.bool_)
    for i in range(n):
        out[i] = abs(coef[0] * t[i] * t[i] + coef[1] * t[i] + coef[2] - d[i]) < tol
    return out
