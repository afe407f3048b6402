"""The detector's compiled per-blob kernel against its NumPy specification, bit for bit."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

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
