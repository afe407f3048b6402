"""The calibration's fast paths (the compiled kernels of :mod:`calibration.rays` and
:mod:`calibration.curvefit`, the edge search's own gradient) against the numpy code they
replace: the same answers, so that the speed they buy costs no accuracy."""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from calibration.camera import Camera, Intrinsics, Pose
from calibration.fit import (
    _bounded_step,
    _solve,
    _solve_compiled,
    _solver_params,
    initial_params,
    offset_bounds,
    offset_weights,
    prior_focal,
    seen_faces,
    shared_offset_weight,
)
from calibration.markings import _gradient, robust_curve
from calibration.rays import bounded_step, marking_residuals
from calibration.undistort import undistort_points
from tests.calibration.test_properties import _exact_observations, cameras


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cameras(), st.integers(0, 2**31 - 1), st.booleans())
def test_the_compiled_solver_is_the_numpy_one(cam: Camera, seed: int, lens: bool) -> None:
    """Noisy markings with outliers (a cue over a cushion), from the outline's start: both
    solvers arrive at the same camera, edge offsets and bounds included."""
    rng = np.random.default_rng(seed)
    obs = _exact_observations(cam)
    for pts in [*obs.cushion.values(), obs.baulk, obs.d_arc]:
        pts += rng.normal(0.0, 0.5, pts.shape)
        pts[rng.random(len(pts)) < 0.1] += rng.uniform(-30.0, 30.0, 2)
    size = (cam.intrinsics.width, cam.intrinsics.height)
    p0 = initial_params(cam.table_to_image().matrix, size)
    centre = cam.centre
    focal = math.exp(p0[0])
    mask = np.ones(len(p0), dtype=bool)
    mask[7] = lens
    seen = seen_faces(centre)
    lower, upper = offset_bounds(focal, centre)
    args = (
        _solver_params(p0[None])[0],
        mask,
        obs.flat(centre),
        np.array([size[0] / 2.0, size[1] / 2.0]),
        prior_focal(size),
        30,
        offset_weights(centre, focal),
        seen,
        shared_offset_weight(focal, centre),
        lower,
        upper,
    )
    ref, got = _solve(*args), _solve_compiled(*args)
    np.testing.assert_allclose(got, ref, rtol=1e-6, atol=1e-5)


@pytest.mark.parametrize(
    ("a", "g", "lo", "hi"),
    [
        # free: the Newton step
        ([[2.0, 0.4], [0.4, 1.0]], [0.3, -0.2], [-np.inf, -10.0], [np.inf, 10.0]),
        # one held on its bound, the other solved again
        ([[2.0, 0.5], [0.5, 1.0]], [-1.0, -10.0], [-np.inf, -1.0], [np.inf, 1.0]),
        # both held
        ([[2.0, 0.0], [0.0, 1.0]], [-10.0, 10.0], [-1.0, -1.0], [1.0, 1.0]),
        # three, the coupling pushes a second one out once the first is held
        (
            [[3.0, 0.7, -0.7], [0.7, 3.0, 0.6], [-0.7, 0.6, 3.0]],
            [20.0, -15.0, 9.0],
            [-np.inf, -0.5, -0.5],
            [np.inf, 0.5, 0.5],
        ),
    ],
)
def test_the_compiled_bounded_step_is_the_numpy_one(
    a: list[list[float]], g: list[float], lo: list[float], hi: list[float]
) -> None:
    am, gv, lov, hiv = (np.array(v, dtype=np.float64) for v in (a, g, lo, hi))
    x = np.zeros(len(gv))
    got, ok = bounded_step(am, gv, x, lov, hiv)
    assert ok
    np.testing.assert_allclose(got, _bounded_step(am, gv, x, lov, hiv), atol=1e-12)


def test_a_singular_system_is_reported_not_raised() -> None:
    _, ok = bounded_step(np.zeros((2, 2)), np.ones(2), np.zeros(2), np.full(2, -np.inf), np.full(2, np.inf))
    assert not ok
    with pytest.raises(np.linalg.LinAlgError):
        _bounded_step(np.zeros((2, 2)), np.ones(2), np.zeros(2), np.full(2, -np.inf), np.full(2, np.inf))


def _numpy_curve(
    pts: npt.NDArray[np.float64], tol: float, iterations: int = 40, seed: int = 0
) -> npt.NDArray[np.bool_]:
    """The numpy robust curve :func:`calibration.markings.robust_curve` compiled (the reference)."""
    n = len(pts)
    if n < 6:
        return np.zeros(n, dtype=bool)
    rel = pts - pts.mean(axis=0)
    _, vecs = np.linalg.eigh(rel.T @ rel)
    t, d = rel @ vecs[:, 1], rel @ vecs[:, 0]
    t = t / max(float(np.abs(t).max()), 1e-9)
    idx = np.sort(np.random.default_rng(seed).integers(0, n, size=(iterations, 3)), axis=1)
    t0, t1, t2 = t[idx[:, 0]], t[idx[:, 1]], t[idx[:, 2]]
    d0, d1, d2 = d[idx[:, 0]], d[idx[:, 1]], d[idx[:, 2]]
    ok = np.abs((t1 - t0) * (t2 - t0) * (t2 - t1)) > 1e-9
    if not ok.any():
        return np.zeros(n, dtype=bool)
    t0, t1, t2, d0, d1, d2 = t0[ok], t1[ok], t2[ok], d0[ok], d1[ok], d2[ok]
    f01 = (d1 - d0) / (t1 - t0)
    a = ((d2 - d1) / (t2 - t1) - f01) / (t2 - t0)
    b = f01 - a * (t0 + t1)
    c = d0 - (a * t0 + b) * t0
    inl = np.abs(a[:, None] * (t * t)[None] + b[:, None] * t[None] + c[:, None] - d[None]) < tol
    best: npt.NDArray[np.bool_] = inl[int(np.argmax(inl.sum(axis=1)))]
    if best.sum() >= 3:
        design = np.stack([t * t, t, np.ones(n)], axis=1)
        sub = design[best]
        coef = np.linalg.solve(sub.T @ sub, sub.T @ d[best])
        best = np.abs(design @ coef - d) < tol
    return best


@pytest.mark.parametrize(
    ("n", "bow", "noise", "outliers", "angle"),
    [
        (40, 0.0, 0.3, 0.0, 0.0),  # a straight, clean horizontal edge
        (40, 2e-4, 0.5, 0.2, 1.2),  # a bowed edge with a cue across it
        (80, -1e-4, 1.0, 0.35, 2.9),  # noisy, a third occluded
        (12, 0.0, 0.2, 0.1, math.pi / 2),  # few points, vertical
        (5, 0.0, 0.2, 0.0, 0.3),  # too few: none
    ],
)
def test_the_compiled_curve_keeps_the_numpy_inliers(
    n: int, bow: float, noise: float, outliers: float, angle: float
) -> None:
    rng = np.random.default_rng(n)
    t = np.sort(rng.uniform(-600.0, 600.0, n))
    d = bow * t * t + rng.normal(0.0, noise, n)
    bad = rng.random(n) < outliers
    d[bad] += rng.choice([-1.0, 1.0], int(bad.sum())) * rng.uniform(5.0, 40.0, int(bad.sum()))
    pts = np.stack([t * math.cos(angle) - d * math.sin(angle), t * math.sin(angle) + d * math.cos(angle)], 1)
    pts += np.array([900.0, 500.0])
    got = robust_curve(pts, tol=1.5)
    np.testing.assert_array_equal(got, _numpy_curve(pts, 1.5))
    if n >= 6:
        assert not np.any(got & bad), "an occluded sample kept"
        assert got.sum() >= 0.8 * (~bad).sum()


@pytest.mark.parametrize(
    ("rows", "cols", "nan_share"), [(1, 2, 0.0), (3, 3, 0.0), (235, 48, 0.0), (60, 70, 0.05)]
)
def test_the_edge_search_gradient_is_numpys(rows: int, cols: int, nan_share: float) -> None:
    rng = np.random.default_rng(rows * cols)
    values = rng.normal(100.0, 40.0, (rows, cols))
    values[rng.random(values.shape) < nan_share] = np.nan
    np.testing.assert_array_equal(_gradient(values), np.gradient(values, axis=1))


def test_a_degenerate_camera_gives_non_finite_residuals_not_an_exception() -> None:
    """A trial camera the step sent to a scale of zero (``log s = -inf``) must cost infinity
    and be refused by the solver, as under numpy; numba's default error model would raise
    ZeroDivisionError there, which no caller catches."""
    q = np.zeros((1, 13))
    q[0, 0], q[0, 6] = 7.0, -np.inf
    px = np.array([[10.0, 20.0], [30.0, 40.0]])
    res = marking_residuals(
        q,
        px,
        np.zeros(2),
        np.zeros(2, np.intp),
        np.zeros(2),
        np.full(2, 4, np.intp),
        np.ones(5),
        np.array([50.0, 30.0]),
        np.zeros(3),
        np.zeros(2),
    )
    assert not np.all(np.isfinite(res))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from([(640, 360), (1280, 720), (1920, 1080)]),
    st.floats(40.0, 75.0),
    st.tuples(
        st.floats(-0.3, 0.1),
        st.floats(-0.1, 0.1),
        st.floats(-0.01, 0.01),
        st.floats(-0.01, 0.01),
        st.floats(-0.05, 0.05),
    ),
    st.integers(0, 2**31 - 1),
)
def test_the_compiled_undistortion_is_the_numpy_one(
    size: tuple[int, int], hfov: float, dist: tuple[float, float, float, float, float], seed: int
) -> None:
    """Bit for bit, over the frame and well beyond it (where a strong lens folds and the steps
    diverge: the same NaNs and infinities), so the ball stage's tabulated lens is unchanged."""
    cam = Camera(Intrinsics.from_fov(size[0], size[1], hfov, dist), Pose(4000.0, 10.0, 0.0, 0.0))
    rng = np.random.default_rng(seed)
    w, h = size
    px = np.column_stack([rng.uniform(-w, 2 * w, 400), rng.uniform(-h, 2 * h, 400)])
    with np.errstate(all="ignore"):
        want = cam._undistort_reference(px)
    got = undistort_points(px, cam.intrinsics.matrix, cam.intrinsics.dist)
    np.testing.assert_array_equal(got, want)
