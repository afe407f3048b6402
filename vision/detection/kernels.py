"""Compiled per-blob kernels of the classical detector (:mod:`vision.detection.classical`).

Why: the detector judges every candidate blob by the least distance of its pixels to the bed's
border and by the median brightness of its pixels; in NumPy each takes a boolean mask of the
blob's box, two fancy-indexed copies and a sort (a dozen small calls per blob, several blobs a
frame). One compiled pass over the box does both with the same result (tests/vision/
test_detection_kernels.py checks it against :func:`blob_border_median_reference`).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit


@njit(cache=True)
def _blob_border_median(
    labels: npt.NDArray[np.int32],
    inside: npt.NDArray[np.float32],
    value: npt.NDArray[np.uint8],
    k: int,
    y0: int,
    x0: int,
    h: int,
    w: int,
) -> tuple[float, float]:  # pragma: no cover - compiled; its Python twin is blob_border_median_reference
    hist = np.zeros(256, np.int64)
    least = np.float32(np.inf)
    n = 0
    for i in range(y0, y0 + h):
        for j in range(x0, x0 + w):
            if labels[i, j] == k:
                n += 1
                hist[value[i, j]] += 1
                if inside[i, j] < least:
                    least = inside[i, j]
    lo, hi = (n - 1) // 2, n // 2  # the two middle ranks (equal when n is odd)
    seen, vlo, vhi = 0, -1, -1
    for v in range(256):
        seen += hist[v]
        if vlo < 0 and seen > lo:
            vlo = v
        if seen > hi:
            vhi = v
            break
    return float(least), (float(vlo) + float(vhi)) / 2.0


def blob_border_median(
    labels: npt.NDArray[np.int32],
    inside: npt.NDArray[np.float32],
    value: npt.NDArray[np.uint8],
    k: int,
    box: tuple[int, int, int, int],
) -> tuple[float, float]:
    """For blob ``k`` of ``labels`` within ``box`` = ``(x0, y0, w, h)``: the least ``inside`` and the
    median ``value`` of its pixels (the blob must have a pixel there).

    Equal to :func:`blob_border_median_reference`: a minimum is exact in any order, and the median
    of 8-bit values is a middle value or half the sum of two, exact in float64.
    """
    x0, y0, w, h = box
    return _blob_border_median(
        np.asarray(labels, np.int32),
        np.asarray(inside, np.float32),
        np.asarray(value, np.uint8),
        int(k),
        int(y0),
        int(x0),
        int(h),
        int(w),
    )


def blob_border_median_reference(
    labels: npt.NDArray[np.int32],
    inside: npt.NDArray[np.float32],
    value: npt.NDArray[np.uint8],
    k: int,
    box: tuple[int, int, int, int],
) -> tuple[float, float]:
    """The NumPy version of :func:`blob_border_median` (its test oracle; the former code of
    :func:`vision.detection.classical.find_balls`)."""
    x0, y0, w, h = box
    sub = labels[y0 : y0 + h, x0 : x0 + w] == k
    return float(inside[y0 : y0 + h, x0 : x0 + w][sub].min()), float(
        np.median(value[y0 : y0 + h, x0 : x0 + w][sub])
    )
