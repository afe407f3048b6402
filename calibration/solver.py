"""The camera fit's Levenberg-Marquardt loop, compiled.

Why compiled: a calibration runs six fits of about ten iterations each, and every iteration
of :func:`calibration.fit._solve` is some forty small numpy calls (the priors' rows, the
Jacobian, the normal equations, a 13x13 solve, the cost), each costing more in call overhead
than in arithmetic on a few hundred points: the fits were a quarter of a 1080p calibration's
time, the residuals themselves (:func:`calibration.rays.marking_residuals`) a tenth of that.
Here the same loop, the same residuals, priors, steps, damping and stopping rule run in one
compiled call; :func:`calibration.fit._solve` stays as the reference it is tested against.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from calibration.homography import FloatArray
from calibration.rays import marking_residuals

#: Rows of priors after the marking residuals (as :data:`calibration.fit._N_PRIOR`).
N_PRIOR = 8

#: Index of the seen faces' shared offset in the parameter vector (as in :mod:`calibration.fit`).
_SHARED = 12


@njit(cache=True)
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
    log_f0, w_focal, w_k1, w_narrow, w_shared, margin, cos_near = (
        consts[0],
        consts[1],
        consts[2],
        consts[3],
        consts[4],
        consts[5],
        consts[6],
    )
    for m in range(m_count):
        out[m, :n] = res[m]
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


@njit(cache=True)
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


@njit(cache=True)
def bounded_step(
    a: FloatArray, g: FloatArray, x: FloatArray, lo: FloatArray, hi: FloatArray
) -> tuple[FloatArray, bool]:  # pragma: no cover - compiled
    """:func:`calibration.fit._bounded_step`, compiled; False where ``a`` (or the system of the
    parameters left free) is singular."""
    n = len(g)
    step, ok = _gauss_solve(a, -g)
    if not ok:
        return step, False
    held = np.zeros(n, dtype=np.bool_)
    for _ in range(n):
        out = np.zeros(n, dtype=np.bool_)
        for i in range(n):
            out[i] = (not held[i]) and (x[i] + step[i] < lo[i] or x[i] + step[i] > hi[i])
        if not out.any():
            break
        for i in range(n):
            if out[i]:
                held[i] = True
                step[i] = min(max(x[i] + step[i], lo[i]), hi[i]) - x[i]
        rest = np.flatnonzero(~held)
        if len(rest) == 0:
            break
        hidx = np.flatnonzero(held)
        sub = np.empty((len(rest), len(rest)))
        rhs = np.empty(len(rest))
        for i in range(len(rest)):
            s = g[rest[i]]
            for j in range(len(hidx)):
                s += a[rest[i], hidx[j]] * step[hidx[j]]
            rhs[i] = -s
            for j in range(len(rest)):
                sub[i, j] = a[rest[i], rest[j]]
        part, ok = _gauss_solve(sub, rhs)
        if not ok:
            return step, False
        for i in range(len(rest)):
            step[rest[i]] = part[i]
    return step, True


@njit(cache=True)
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


@njit(cache=True)
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
    hundredth of a percent, or no damping finds a lower one."""
    n_par = len(x0)
    cam = np.array([i for i in range(8) if mask[i]], dtype=np.int64)
    offs = np.array([i for i in range(8, n_par) if mask[i]], dtype=np.int64)
    n_cam, n_off = len(cam), len(offs)
    free = np.concatenate((cam, offs))
    n_free = n_cam + n_off
    x = np.minimum(np.maximum(x0, lo), hi)
    lam = 1e-3
    n_obs = len(sid)
    n_rows = n_obs + N_PRIOR
    lin = np.zeros((n_rows, n_off))
    for k in range(n_off):
        p = offs[k]
        if p == _SHARED:  # only in the priors: the seen faces' anchor
            for s in range(4):
                lin[n_obs + 2 + s, k] = -weights[s] if seen[s] != 0.0 else 0.0
            lin[n_obs + 6, k] = consts[4]
            continue
        side = p - 8
        for i in range(n_obs):
            lin[i, k] = -sign[side] if sid[i] == side else 0.0
        lin[n_obs + 2 + side, k] = weights[side]

    def evaluate(at: FloatArray, jacobian: bool) -> FloatArray:
        count = n_cam + 1 if jacobian else 1
        batch = np.empty((count, n_par))
        for m in range(count):
            batch[m] = at
        if jacobian:
            for i in range(n_cam):
                batch[i + 1, cam[i]] += steps[cam[i]]
        res = marking_residuals(batch, px, z, kind, value, sid, sign, cxy, table_centre, d_centre)
        return _with_priors(batch, res, consts, weights, seen)

    allr = evaluate(x, True)
    r = allr[0].copy()
    cost = _cost(r, robust)
    small = False
    jac = np.empty((n_rows, n_free))
    wr = np.empty(n_rows)
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
            wi = wr[i]
            for u in range(n_free):
                ju = jac[i, u] * wi
                g[u] += ju * r[i]
                for v in range(n_free):
                    a[v, u] += jac[i, v] * ju
        xf = x[free]
        lof = lo[free]
        hif = hi[free]
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
            trial_r = evaluate(trial, False)[0]
            trial_cost = _cost(trial_r, robust)
            if np.isfinite(trial_cost) and trial_cost < cost:
                small = cost - trial_cost < 1e-4 * cost  # a hundredth of a percent: done
                x, r, cost = trial, trial_r.copy(), trial_cost
                if not small and it + 1 < iterations:
                    allr = evaluate(x, True)
                lam = max(lam / 5, 1e-9)
                improved = True
                break
            lam *= 8
        if not improved or small:
            break
    return x
