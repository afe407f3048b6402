"""The split's peak mask, dilated over the deep pixels' box only, equals the whole window's."""

from __future__ import annotations

import cv2
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.tracking import local


@settings(max_examples=100, deadline=None)
@given(
    seed=st.integers(0, 2**31 - 1),
    h=st.integers(8, 70),
    w=st.integers(8, 70),
    radius=st.floats(2.0, 12.0),
    balls=st.integers(0, 5),
)
def test_peaks_match_whole_window_dilation(seed: int, h: int, w: int, radius: float, balls: int) -> None:
    rng = np.random.default_rng(seed)
    mask = np.zeros((h, w), np.uint8)
    for _ in range(balls):  # discs, often touching or overlapping, some cut by the window's edge
        c = (int(rng.integers(-2, w + 2)), int(rng.integers(-2, h + 2)))
        cv2.circle(mask, c, max(1, int(radius * rng.uniform(0.6, 1.2))), 1, -1)
    dt = np.asarray(cv2.distanceTransform(mask, cv2.DIST_L2, 3), np.float32)
    core = (dt >= 0.4 * radius).astype(np.uint8)
    # The oracle: the former whole-window dilation.
    k = 2 * max(1, round(0.8 * radius)) + 1
    top = cv2.dilate(dt, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    want = (dt >= top - 1e-3) & (dt >= local._DEEP * radius) & (core > 0)
    got = local._peaks(core, dt, radius)
    if got is None:
        assert int(want.sum()) <= 1  # one peak pixel or none: no blob is split either way
    else:
        peaks, (y0, y1, x0, x1) = got
        assert np.array_equal(peaks, want)
        # The box holds every peak (the plateaus' sums are taken inside it).
        assert int(peaks[y0:y1, x0:x1].sum()) == int(peaks.sum())
