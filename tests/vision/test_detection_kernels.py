"""The detector's compiled per-blob kernel against its NumPy specification, bit for bit."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.detection.cloth import ClothModel, not_cloth, not_cloth_reference
from vision.detection.kernels import (
    blob_border_median,
    blob_border_median_reference,
    clear_neighbours,
    clear_neighbours_reference,
)


@settings(max_examples=100, deadline=None)
@given(
    seed=st.integers(0, 2**31 - 1),
    h=st.integers(1, 30),
    w=st.integers(1, 30),
    step=st.sampled_from([1, 64]),
    sliced=st.booleans(),
)
def test_blob_border_median_matches_reference(seed: int, h: int, w: int, step: int, sliced: bool) -> None:
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, 3, (h + 4, w + 4)).astype(np.int32)
    inside = rng.uniform(0, 50, (h + 4, w + 4)).astype(np.float32)
    # Coarse steps give ties and even counts whose two middle values differ.
    value = (rng.integers(0, 256, (h + 4, w + 4)) // step * step).astype(np.uint8)
    if sliced:  # the detector's crops of a model are views, not copies
        labels, inside, value = labels[2:-2, 1:-3], inside[2:-2, 1:-3], value[2:-2, 1:-3]
    y0, x0 = int(rng.integers(0, h)), int(rng.integers(0, w))
    bh, bw = int(rng.integers(1, h - y0 + 1)), int(rng.integers(1, w - x0 + 1))
    labels[y0, x0] = 1  # the blob has a pixel in its box
    box = (x0, y0, bw, bh)
    assert blob_border_median(labels, inside, value, 1, box) == blob_border_median_reference(
        labels, inside, value, 1, box
    )


@settings(max_examples=100, deadline=None)
@given(
    seed=st.integers(0, 2**31 - 1),
    n=st.integers(2, 6),
    half=st.integers(1, 6),
    spread=st.sampled_from([1.0, 4.0, 12.0]),
)
def test_clear_neighbours_matches_reference(seed: int, n: int, half: int, spread: float) -> None:
    rng = np.random.default_rng(seed)
    pixel = rng.uniform(20.0, 20.0 + spread, (n, 2))
    radius = rng.uniform(0.5, 1.5 * half + 1.0, n)
    offs = np.arange(-half, half + 1)
    ys = np.round(pixel[:, 1]).astype(np.int64)[:, None] + offs[None, :]
    xs = np.round(pixel[:, 0]).astype(np.int64)[:, None] + offs[None, :]
    # Sparse discs too, so that some pairs leave fewer than three clear pixels.
    disc = rng.random((n, len(offs) ** 2)) < rng.choice([0.1, 0.9])
    cover2 = np.array([(0.65 * float(r)) ** 2 for r in radius])
    pairs = np.nonzero(~np.eye(n, dtype=bool) & (rng.random((n, n)) < 0.7))
    got, want = disc.copy(), disc.copy()
    clear_neighbours(got, ys, xs, pixel, cover2, pairs)
    clear_neighbours_reference(want, ys, xs, pixel, cover2, pairs)
    assert np.array_equal(got, want)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**31 - 1),
    h=st.integers(1, 40),
    w=st.integers(1, 40),
    per_pixel=st.booleans(),
    sliced=st.booleans(),
    numpy_scalars=st.booleans(),
)
def test_not_cloth_matches_reference(
    seed: int, h: int, w: int, per_pixel: bool, sliced: bool, numpy_scalars: bool
) -> None:
    """The working mask's test of every pixel, bit for bit: random pictures round a cloth colour
    (pixels near the threshold included), one reference or one per pixel, the model's bounds as
    Python floats or NumPy scalars (NumPy compares the two differently with a float32 image)."""
    rng = np.random.default_rng(seed)
    cloth = np.array([60.0, 140.0, 40.0])
    image = np.clip(cloth + rng.normal(0, rng.choice([3.0, 30.0, 90.0]), (h + 2, w + 2, 3)), 0, 255).astype(
        np.uint8
    )
    if sliced:  # the occlusion test's crops are views
        image = image[1:-1, 2:]
    chroma = (cloth + 1.0) / (cloth.sum() + 3.0)
    ref = chroma + rng.normal(0, 0.01, (*image.shape[:2], 3)) if per_pixel else chroma
    sigma = float(rng.uniform(0.001, 0.02))
    value = float(rng.uniform(50, 200))
    model = ClothModel(
        chroma=chroma,
        chroma_sigma=np.float64(sigma) if numpy_scalars else sigma,
        value=np.float64(value) if numpy_scalars else value,
        lab=np.zeros(3),
        region=np.ones(image.shape[:2], np.uint8),
        inside=np.ones(image.shape[:2], np.float32),
        row_radius=np.ones(image.shape[0]),
        scale=1.0,
    )
    r = np.asarray(ref, np.float32) if per_pixel else ref
    np.testing.assert_array_equal(not_cloth(image, r, model), not_cloth_reference(image, r, model))
