"""The compiled kernels of the tracker's search against their NumPy specifications, bit for bit."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.tracking.kernels import (
    channel_medians,
    channel_medians_reference,
    colour_mask,
    colour_mask_reference,
    disc_mean,
    disc_mean_reference,
    grid_bilinear,
    grid_bilinear_reference,
    label_sums,
    label_sums_reference,
    local_peaks,
    local_peaks_reference,
    mask_box,
    mask_box_reference,
    plateau_sums,
    plateau_sums_reference,
    split_nearest,
    split_nearest_reference,
)

_W = np.array([0.5, 1.0, 1.0], np.float32)
_SHADE = np.array([0.3, 1.0, 1.0], np.float32)


def _args(seed: int, l_mode: int, h: int, w: int) -> tuple:
    rng = np.random.default_rng(seed)
    cloth = rng.uniform(40, 200, 3).astype(np.float32)
    ball = rng.uniform(0, 255, 3).astype(np.float32)
    if l_mode:  # the lightness test is applied to balls darker / lighter than the cloth
        ball[0] = np.float32(cloth[0] + l_mode * rng.uniform(25, 55))
    # Pixels scattered near the segment from cloth to ball, so every branch of the test is met.
    t = rng.uniform(-0.5, 3.5, (h, w, 1))
    lab = np.clip(cloth + t * (ball - cloth) + rng.normal(0, 12, (h, w, 3)), 0, 255).astype(np.uint8)
    u = (ball - cloth) * _W
    sep = float(np.linalg.norm(u))
    c_l = float(ball[0] - cloth[0])
    bound = 0.25 * -c_l if l_mode < 0 else -c_l if l_mode > 0 else 0.0
    mix = float(rng.uniform(0.2, 0.6))
    return (
        lab,
        cloth,
        u,
        _W,
        _SHADE,
        max(sep * sep, 1e-6),
        mix,
        float(rng.choice([1.8, 3.0])),
        0.3 * sep + 8.0,
        l_mode,
        bound,
    )


@pytest.mark.parametrize("l_mode", [-1, 0, 1])
@pytest.mark.parametrize("shape", [(6, 6), (31, 47), (90, 120)])
def test_kernel_matches_reference(l_mode: int, shape: tuple[int, int]) -> None:
    args = _args(hash(shape) % 1000 + l_mode, l_mode, *shape)
    got = colour_mask(*args)
    want = colour_mask_reference(*args)
    assert got.dtype == np.uint8 and got.shape == shape
    assert np.array_equal(got, want)
    assert 0 < int(want.sum()) < want.size  # the case exercises both outcomes


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**31 - 1),
    l_mode=st.sampled_from([-1, 0, 1]),
    h=st.integers(1, 40),
    w=st.integers(1, 40),
)
def test_kernel_matches_reference_random(seed: int, l_mode: int, h: int, w: int) -> None:
    args = _args(seed, l_mode, h, w)
    assert np.array_equal(colour_mask(*args), colour_mask_reference(*args))


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), h=st.integers(1, 40), w=st.integers(1, 40), n=st.integers(1, 6))
def test_label_sums_match_reference(seed: int, h: int, w: int, n: int) -> None:
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, n, (h, w)).astype(np.int32)
    dt = rng.uniform(0, 9, (h, w)).astype(np.float32)
    gots, wants = label_sums(labels, dt), label_sums_reference(labels, dt)
    for i in range(4):
        got, want = np.asarray(gots[i]), np.asarray(wants[i])
        assert got.dtype == want.dtype
        assert np.array_equal(got, want)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**31 - 1), h=st.integers(1, 40), w=st.integers(1, 40), step=st.sampled_from([1, 40])
)
def test_channel_medians_match_numpy(seed: int, h: int, w: int, step: int) -> None:
    # Coarse steps make ties and even counts whose two middle values differ.
    lab = (np.random.default_rng(seed).integers(0, 256, (h, w, 3)) // step * step).astype(np.uint8)
    assert np.array_equal(channel_medians(lab), channel_medians_reference(lab))
    assert np.array_equal(channel_medians(lab[::3, ::3]), channel_medians_reference(lab[::3, ::3]))


@settings(max_examples=80, deadline=None)
@given(
    seed=st.integers(0, 2**31 - 1),
    h=st.integers(1, 30),
    w=st.integers(1, 30),
    radius=st.floats(0.5, 16.0),
    step=st.sampled_from([1, 50]),
)
def test_disc_mean_matches_reference(seed: int, h: int, w: int, radius: float, step: int) -> None:
    rng = np.random.default_rng(seed)
    patch = (rng.integers(0, 256, (h, w, 3)) // step * step).astype(np.uint8)
    x0, y0 = (int(c) for c in rng.integers(0, 900, 2))
    u, v = x0 + rng.uniform(-3, w + 3), y0 + rng.uniform(-3, h + 3)
    got = disc_mean(patch, x0, y0, u, v, radius, 0.8)
    assert np.array_equal(got, disc_mean_reference(patch, x0, y0, u, v, radius, 0.8), equal_nan=True)


@pytest.mark.parametrize("q", [0.8, 1.0 - 0.2, 0.5, 0.0, 1.0])
def test_disc_mean_quantile_bound_every_count(q: float) -> None:
    # The quantile's virtual index (n - 1) * q lands near an integer for some counts n; the
    # kernel must round it as NumPy does for every count a disc can have.
    rng = np.random.default_rng(3)
    for n in range(1, 700):
        row = (rng.integers(0, 6, (1, n, 3)) * 40).astype(np.uint8)
        got = disc_mean(row, 0, 0, n / 2.0, 0.0, float(n), q)
        assert np.array_equal(got, disc_mean_reference(row, 0, 0, n / 2.0, 0.0, float(n), q)), n


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**31 - 1),
    h=st.integers(1, 40),
    w=st.integers(1, 40),
    p=st.sampled_from([0.0, 0.02, 0.5]),
)
def test_mask_box_matches_reference(seed: int, h: int, w: int, p: float) -> None:
    mask = np.random.default_rng(seed).random((h, w)) < p
    assert mask_box(mask) == mask_box_reference(mask)


def _blobs(seed: int, h: int, w: int) -> tuple[np.ndarray, np.ndarray, int]:
    """Random blob labels and plateaus inside them (each plateau within one blob)."""
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, 4, (h, w)).astype(np.int32)
    plab = np.where(labels > 0, rng.integers(0, 6, (h, w)), 0)
    # A plateau lies in one blob: its number is made unique per (blob, plateau) pair.
    pid = np.where(plab > 0, labels * 6 + plab, 0)
    _, plab = np.unique(pid, return_inverse=True)
    plab = plab.reshape(h, w).astype(np.int32)
    return labels, plab, int(plab.max()) + 1


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), h=st.integers(1, 30), w=st.integers(1, 30))
def test_plateau_sums_match_reference(seed: int, h: int, w: int) -> None:
    labels, plab, pn = _blobs(seed, h, w)
    for got, want in zip(
        plateau_sums(plab, labels, pn), plateau_sums_reference(plab, labels, pn), strict=True
    ):
        assert got.dtype == want.dtype
        assert np.array_equal(got, want)


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), h=st.integers(1, 30), w=st.integers(1, 30), k=st.integers(2, 4))
def test_split_nearest_matches_reference(seed: int, h: int, w: int, k: int) -> None:
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, 3, (h, w)).astype(np.int32)
    labels[0, 0] = 1  # the blob split has a pixel
    # Peaks on half-pixel steps: many pixels lie at equal distances from two (ties go to the first).
    keep = rng.integers(0, 2 * max(h, w), (k, 2)) / 2.0
    got, want = labels.copy(), labels.copy()
    split_nearest(labels, got, 1, keep, 7)
    split_nearest_reference(labels, want, 1, keep, 7)
    assert np.array_equal(got, want)
    # In place (the search's use): new labels above every blob's leave no pixel misread.
    split_nearest(labels, labels, 1, keep, 7)
    assert np.array_equal(labels, want)


@settings(max_examples=80, deadline=None)
@given(
    seed=st.integers(0, 2**31 - 1),
    nx=st.integers(2, 12),
    ny=st.integers(2, 12),
    n=st.integers(1, 30),
    step=st.sampled_from([1, 4, 7]),
)
def test_grid_bilinear_matches_reference(seed: int, nx: int, ny: int, n: int, step: int) -> None:
    rng = np.random.default_rng(seed)
    grid = rng.normal(0, 500, (ny, nx, 2))
    grid[rng.random((ny, nx)) < 0.1] = np.nan  # nodes where the lens model does not invert
    # Points inside, on and beyond the nodes' edges (and some exactly on nodes).
    px = rng.uniform(-2 * step, (max(nx, ny) + 1) * step, (n, 2))
    px[::3] = np.round(px[::3] / step) * step
    got, got_in = grid_bilinear(px, step, grid)
    want, want_in = grid_bilinear_reference(px, step, grid)
    assert np.array_equal(got_in, want_in)
    assert np.array_equal(got[got_in], want[want_in], equal_nan=True)


@settings(max_examples=80, deadline=None)
@given(
    seed=st.integers(0, 2**31 - 1),
    h=st.integers(1, 40),
    w=st.integers(1, 40),
    k=st.sampled_from([3, 5, 7, 9, 13, 21]),
    step=st.sampled_from([0.0, 0.5]),
)
def test_local_peaks_match_dilation(seed: int, h: int, w: int, k: int, step: float) -> None:
    rng = np.random.default_rng(seed)
    dt = rng.uniform(0, 9, (h, w)).astype(np.float32)
    if step:  # plateaus and near-ties within the tolerance
        dt = (np.round(dt / step) * step + rng.choice([0.0, 4e-4, 2e-3], (h, w))).astype(np.float32)
    deep = rng.random((h, w)) < 0.5
    element = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    got = local_peaks(dt, deep, element, 1e-3)
    assert got.dtype == np.bool_
    assert np.array_equal(got, local_peaks_reference(dt, deep, element, 1e-3))
