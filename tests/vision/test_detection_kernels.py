"""The detector's compiled per-blob kernel against its NumPy specification, bit for bit."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.detection.kernels import blob_border_median, blob_border_median_reference


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
