"""The camera fit's inner loops, compiled: every marking point's residual for a batch of cameras,
and the Levenberg-Marquardt loop around them (:func:`solve`).

Why compiled: the solver (:mod:`calibration.fit`) evaluates nine cameras (one and its eight
forward steps) on a few hundred points a dozen times per fit and six fits per calibration. In
numpy each evaluation is some fifty small array operations whose call overhead, not their
arithmetic, was most of a calibration's time (0.5 ms for one camera, 0.7 ms for nine); one
compiled loop does the same arithmetic, in the same order, in a few microseconds.

The maths is :func:`calibration.fit.rays_to_planes` and :func:`calibration.fit._marking_residuals`
on the solver's coordinates (:func:`calibration.fit._solver_params`); the numpy versions stay
as the reference the tests compare against.

The loop around them was compiled too: every iteration of :func:`calibration.fit._solve` is
some forty small numpy calls (the priors' rows, the Jacobian, the normal equations, a 13x13
solve, the cost), each costing more in call overhead than in arithmetic on a few hundred
points; the fits were a quarter of a 1080p calibration's time. :func:`solve` runs the same
loop, residuals, priors, steps, damping and stopping rule in one call, and
:func:`calibration.fit._solve` stays as its reference. Both live in this one file because
numba's cache follows each function's own source file: a compiled caller in another file
would keep a stale copy of an edited residual.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt
from numba import njit

from calibration.homography import FloatArray

#: Kinds of marking a point lies on (as in :mod:`calibration.fit`).
KIND_LINE_X, KIND_LINE_Y, KIND_CIRCLE = 0, 1, 2


@njit(cache=True, error_model="numpy")
def _rotation(rx: float, ry: float, rz: float) -> FloatArray:  # pragma: no cover - compiled
    """Rodrigues, the same formula as :func:`calibration.fit._rodrigues` for one vector."""
    theta = math.sqrt(rx * rx + ry * ry + rz * rz)
    d = theta if theta >= 1e-12 else 1.0
    kx, ky, kz = rx / d, ry / d, rz / d
    k = np.array([[0.0, -kz, ky], [kz, 0.0, -kx], [-ky, kx, 0.0]])
    return np.eye(3) + math.sin(theta) * k + (1.0 - math.cos(theta)) * (k @ k)


@njit(cache=True, error_model="numpy")
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
    # The undistorted directions depend on k1 alone: the cameras of a Jacobian's batch share
    # it but for one, so they are computed once per k1 met in turn, not once per camera.
    und_x = np.empty(n_count)
    und_y = np.empty(n_count)
    und_k1 = 0.0
    for n in range(n_count):
        und_x[n] = (px[n, 0] - centre[0]) / half
        und_y[n] = (px[n, 1] - centre[1]) / half
    for m in range(m_count):
        f = math.exp(q[m, 0])
        r = _rotation(q[m, 1], q[m, 2], q[m, 3])
        depth = f / math.exp(q[m, 6])
        p0 = (q[m, 4] * depth / f, q[m, 5] * depth / f, depth)
        c0 = table_centre[0] - (r[0, 0] * p0[0] + r[1, 0] * p0[1] + r[2, 0] * p0[2])
        c1 = table_centre[1] - (r[0, 1] * p0[0] + r[1, 1] * p0[1] + r[2, 1] * p0[2])
        c2 = table_centre[2] - (r[0, 2] * p0[0] + r[1, 2] * p0[1] + r[2, 2] * p0[2])
        k1 = q[m, 7]
        if k1 != und_k1:
            for n in range(n_count):
                ux = (px[n, 0] - centre[0]) / half
                uy = (px[n, 1] - centre[1]) / half
                if k1 != 0.0:
                    nx, ny = ux, uy
                    for _ in range(5):  # the fixed point of calibration.fit.rays_to_planes
                        g = 1.0 / (1.0 + k1 * (ux * ux + uy * uy))
                        ux, uy = nx * g, ny * g
                und_x[n], und_y[n] = ux, uy
            und_k1 = k1
        for n in range(n_count):
            ux, uy = und_x[n] * (half / f), und_y[n] * (half / f)
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


# ---- the Levenberg-Marquardt loop ------------------------------------------------------
#: Rows of priors after the marking residuals (as :data:`calibration.fit._N_PRIOR`).
N_PRIOR = 8

#: Index of the seen faces' shared offset in the parameter vector (as in :mod:`calibration.fit`).
_SHARED = 12


@njit(cache=True, error_model="numpy")
def _with_priors(
    q: FloatArray,
    res: FloatArray,
    consts: FloatArray,
    weights: FloatArray,
    seen: FloatArray,
) -> FloatArray:  # pragma: no cover - compiled
    """Marking residuals ``res`` ``(M, N)`` with the priors' rows appended, ``(M, N + 8)``: the
    rows of :func:`calibration.fit._all_residuals`. ``consts``: log f0, the focal length's,
    ``k1``'s, the narrow lens's and the shared offset's weights, the narrow lens's margin and
    the cosine of :data:`calibration.fit.NEAR_VERTICAL_DEG`."""
    m_count, n = res.shape
    out = np.empty((m_count, n + N_PRIOR))
    log_f0, w_focal, w_k1, w_narrow = consts[0], consts[1], consts[2], consts[3]
    w_shared, margin, cos_near = consts[4], consts[5], consts[6]
    for m in range(m_count):
        for i in range(n):
            out[m, i] = res[m, i]
        shared = q[m, _SHARED]
        out[m, n] = w_focal * (q[m, 0] - log_f0)
        out[m, n + 1] = w_k1 * q[m, 7]
        for s in range(4):
            out[m, n + 2 + s] = weights[s] * (q[m, 8 + s] - seen[s] * shared)
        out[m, n + 6] = w_shared * shared
        # r[2, 2] of the Rodrigues rotation: 1 - (1 - cos theta) (kx^2 + ky^2).
        rx, ry, rz = q[m, 1], q[m, 2], q[m, 3]
        theta = math.sqrt(rx * rx + ry * ry + rz * rz)
        drop = (1.0 - math.cos(theta)) * (rx * rx + ry * ry) / (theta * theta) if theta >= 1e-12 else 0.0
        r22 = 1.0 - drop
        vertical = min(max((abs(r22) - cos_near) / (1.0 - cos_near), 0.0), 1.0)
        past = max(q[m, 0] - log_f0 - margin, 0.0)
        out[m, n + 7] = w_narrow * vertical * past
    return out


@njit(cache=True, error_model="numpy")
def _gauss_solve(a: FloatArray, b: FloatArray) -> tuple[FloatArray, bool]:  # pragma: no cover - compiled
    """``a x = b`` by Gaussian elimination with partial pivoting (LAPACK's ``gesv`` scheme);
    False where a pivot is exactly 0 (where ``numpy.linalg.solve`` raises)."""
    n = len(b)
    m = a.copy()
    x = b.copy()
    for k in range(n):
        p = k
        best = abs(m[k, k])
        for i in range(k + 1, n):
            if abs(m[i, k]) > best:
                best, p = abs(m[i, k]), i
        if m[p, k] == 0.0:
            return x, False
        if p != k:
            for j in range(n):
                m[k, j], m[p, j] = m[p, j], m[k, j]
            x[k], x[p] = x[p], x[k]
        for i in range(k + 1, n):
            f = m[i, k] / m[k, k]
            if f != 0.0:
                for j in range(k, n):
                    m[i, j] -= f * m[k, j]
                x[i] -= f * x[k]
    for k in range(n - 1, -1, -1):
        s = x[k]
        for j in range(k + 1, n):
            s -= m[k, j] * x[j]
        x[k] = s / m[k, k]
    return x, True


@njit(cache=True, error_model="numpy")
def bounded_step(
    a: FloatArray, g: FloatArray, x: FloatArray, lo: FloatArray, hi: FloatArray
) -> tuple[FloatArray, bool]:  # pragma: no cover - compiled
    """:func:`calibration.fit._bounded_step`, compiled; False where ``a`` (or the system of the
    parameters left free) is singular. Plain loops: numpy's array functions cost seconds of
    compilation on a cold cache, and these systems are 13 wide."""
    n = len(g)
    neg = np.empty(n)
    for i in range(n):
        neg[i] = -g[i]
    step, ok = _gauss_solve(a, neg)
    if not ok:
        return step, False
    held = np.zeros(n, dtype=np.bool_)
    rest = np.empty(n, dtype=np.int64)
    for _ in range(n):
        moved = False
        for i in range(n):
            if not held[i] and (x[i] + step[i] < lo[i] or x[i] + step[i] > hi[i]):
                held[i] = True
                step[i] = min(max(x[i] + step[i], lo[i]), hi[i]) - x[i]
                moved = True
        if not moved:
            break
        k = 0
        for i in range(n):
            if not held[i]:
                rest[k] = i
                k += 1
        if k == 0:
            break
        sub = np.empty((k, k))
        rhs = np.empty(k)
        for i in range(k):
            s = g[rest[i]]
            for j in range(n):
                if held[j]:
                    s += a[rest[i], j] * step[j]
            rhs[i] = -s
            for j in range(k):
                sub[i, j] = a[rest[i], rest[j]]
        part, ok = _gauss_solve(sub, rhs)
        if not ok:
            return step, False
        for i in range(k):
            step[rest[i]] = part[i]
    return step, True


@njit(cache=True, error_model="numpy")
def _cost(r: FloatArray, robust: float) -> float:  # pragma: no cover - compiled
    """Soft-L1 cost of the marking rows plus the priors' squares (``_solve``'s ``cost_of``)."""
    n = len(r) - N_PRIOR
    s = 0.0
    for i in range(n):
        t = r[i] / robust
        s += math.sqrt(1.0 + t * t) - 1.0
    c = 2.0 * robust * robust * s
    p = 0.0
    for i in range(n, len(r)):
        p += r[i] * r[i]
    return c + p


@njit(cache=True, error_model="numpy")
def _evaluate(
    at: FloatArray,
    cam: npt.NDArray[np.int64],
    jacobian: bool,
    px: FloatArray,
    z: FloatArray,
    kind: np.ndarray,
    value: FloatArray,
    sid: np.ndarray,
    sign: FloatArray,
    cxy: FloatArray,
    table_centre: FloatArray,
    d_centre: FloatArray,
    consts: FloatArray,
    weights: FloatArray,
    seen: FloatArray,
    steps: FloatArray,
) -> FloatArray:  # pragma: no cover - compiled
    """Residuals with the priors' rows at ``at`` (row 0) and, with ``jacobian``, at its forward
    steps in the parameters ``cam`` (rows 1 on)."""
    count = len(cam) + 1 if jacobian else 1
    batch = np.empty((count, len(at)))
    for m in range(count):
        for i in range(len(at)):
            batch[m, i] = at[i]
        if m > 0:
            batch[m, cam[m - 1]] += steps[cam[m - 1]]
    res = marking_residuals(batch, px, z, kind, value, sid, sign, cxy, table_centre, d_centre)
    return _with_priors(batch, res, consts, weights, seen)


@njit(cache=True, error_model="numpy")
def solve(
    x0: FloatArray,
    mask: np.ndarray,
    px: FloatArray,
    z: FloatArray,
    kind: np.ndarray,
    value: FloatArray,
    sid: np.ndarray,
    sign: FloatArray,
    cxy: FloatArray,
    table_centre: FloatArray,
    d_centre: FloatArray,
    consts: FloatArray,
    weights: FloatArray,
    seen: FloatArray,
    steps: FloatArray,
    robust: float,
    iterations: int,
    lo: FloatArray,
    hi: FloatArray,
) -> FloatArray:  # pragma: no cover - compiled
    """:func:`calibration.fit._solve` in one compiled call: Levenberg-Marquardt on soft-L1
    reweighted residuals over the ``mask``ed parameters of ``x0`` (solver coordinates), the
    camera's columns by forward differences of ``steps``, the edge offsets' exactly, each step
    kept within ``lo``-``hi``; stops when an accepted step lowers the cost by under a
    hundredth of a percent, or no damping finds a lower one. Plain loops, as in
    :func:`bounded_step`."""
    n_par = len(x0)
    n_cam = 0
    n_free = 0
    for i in range(n_par):
        if mask[i]:
            n_free += 1
            if i < 8:
                n_cam += 1
    n_off = n_free - n_cam
    free = np.empty(n_free, dtype=np.int64)  # camera parameters first, then the edge offsets
    k = 0
    for i in range(n_par):
        if mask[i]:
            free[k] = i
            k += 1
    cam = free[:n_cam].copy()
    x = np.empty(n_par)
    for i in range(n_par):
        x[i] = min(max(x0[i], lo[i]), hi[i])
    lam = 1e-3
    n_obs = len(sid)
    n_rows = n_obs + N_PRIOR
    lin = np.zeros((n_rows, n_off))
    for k in range(n_off):
        p = free[n_cam + k]
        if p == _SHARED:  # only in the priors: the seen faces' anchor
            for s in range(4):
                lin[n_obs + 2 + s, k] = -weights[s] if seen[s] != 0.0 else 0.0
            lin[n_obs + 6, k] = consts[4]
            continue
        side = p - 8
        for i in range(n_obs):
            lin[i, k] = -sign[side] if sid[i] == side else 0.0
        lin[n_obs + 2 + side, k] = weights[side]
    args = (px, z, kind, value, sid, sign, cxy, table_centre, d_centre, consts, weights, seen, steps)
    allr = _evaluate(x, cam, True, *args)
    r = allr[0].copy()
    cost = _cost(r, robust)
    small = False
    jac = np.empty((n_rows, n_free))
    wr = np.empty(n_rows)
    xf = np.empty(n_free)
    lof = np.empty(n_free)
    hif = np.empty(n_free)
    for it in range(iterations):
        for i in range(n_rows):
            for j in range(n_cam):
                jac[i, j] = (allr[j + 1, i] - r[i]) / steps[cam[j]]
            for j in range(n_off):
                jac[i, n_cam + j] = lin[i, j]
            if i < n_obs:
                t = r[i] / robust
                wr[i] = 1.0 / math.sqrt(1.0 + t * t)
            else:
                wr[i] = 1.0
        a = np.zeros((n_free, n_free))
        g = np.zeros(n_free)
        for i in range(n_rows):
            for u in range(n_free):
                ju = jac[i, u] * wr[i]
                g[u] += ju * r[i]
                for v in range(n_free):
                    a[v, u] += jac[i, v] * ju
        for u in range(n_free):
            xf[u], lof[u], hif[u] = x[free[u]], lo[free[u]], hi[free[u]]
        improved = False
        for _ in range(6):
            damped = a.copy()
            for u in range(n_free):
                damped[u, u] += lam * (a[u, u] + 1e-9)
            step, ok = bounded_step(damped, g, xf, lof, hif)
            if not ok:
                lam *= 10
                continue
            trial = x.copy()
            for u in range(n_free):
                trial[free[u]] += step[u]
            trial_r = _evaluate(trial, cam, False, *args)[0].copy()
            trial_cost = _cost(trial_r, robust)
            if math.isfinite(trial_cost) and trial_cost < cost:
                small = cost - trial_cost < 1e-4 * cost  # a hundredth of a percent: done
                x, r, cost = trial, trial_r, trial_cost
                if not small and it + 1 < iterations:
                    allr = _evaluate(x, cam, True, *args)
                lam = max(lam / 5, 1e-9)
                improved = True
                break
            lam *= 8
        if not improved or small:
            break
    return x
