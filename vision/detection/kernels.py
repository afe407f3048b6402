"""Compiled per-blob kernels of the classical detector (:mod:`vision.detection.classical`).

Why: the detector judges every candidate blob by the least distance of its pixels to the bed's
border and by the median brightness of its pixels; in NumPy each takes a boolean mask of the
blob's box, two fancy-indexed copies and a sort (a dozen small calls per blob, several blobs a
frame). One compiled pass over the box does both with the same result (tests/vision/
test_detection_kernels.py checks it against :func:`blob_border_median_reference`).

The cloth test of every pixel (:func:`not_cloth_mask`) is compiled too: in NumPy and OpenCV it
was ten passes over the bed's box (a float copy, the channel sum, the reciprocal, the
chromaticity, the difference, its square, their sum, the square root, two comparisons), about
1.6 ms of every 720p whole-table detection; one pass does the same float32 steps.

The kernels release the GIL (``nogil``): they touch no Python object, and while one runs the
video tracker's other thread (the whole-table detection run beside the balls' own searches,
:meth:`vision.tracking.video.VideoTracker._whole_table_ahead`) goes on with its Python.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit


@njit(cache=True, nogil=True)
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


@njit(cache=True, nogil=True)
def _clear_neighbours(
    disc: npt.NDArray[np.bool_],
    ys: npt.NDArray[np.int64],
    xs: npt.NDArray[np.int64],
    pixel: npt.NDArray[np.float64],
    cover2: npt.NDArray[np.float64],
    first: npt.NDArray[np.int64],
    second: npt.NDArray[np.int64],
) -> None:  # pragma: no cover - compiled; its Python twin is clear_neighbours_reference
    size = ys.shape[1]
    clear = np.empty(size * size, np.bool_)
    near = np.empty(size * size, np.bool_)
    for p in range(len(first)):
        i, j = first[p], second[p]
        count = 0
        for a in range(size):
            oy = (ys[i, a] - pixel[j, 1]) * (ys[i, a] - pixel[j, 1])
            dy = (ys[i, a] - pixel[i, 1]) * (ys[i, a] - pixel[i, 1])
            for b in range(size):
                other = oy + (xs[i, b] - pixel[j, 0]) * (xs[i, b] - pixel[j, 0])
                own = dy + (xs[i, b] - pixel[i, 0]) * (xs[i, b] - pixel[i, 0])
                k = a * size + b
                clear[k] = disc[i, k] and other > cover2[j]
                near[k] = disc[i, k] and own <= other
                count += clear[k]
        for k in range(size * size):
            disc[i, k] = clear[k] if count >= 3 else near[k]


def clear_neighbours(
    disc: npt.NDArray[np.bool_],
    ys: npt.NDArray[np.int64],
    xs: npt.NDArray[np.int64],
    pixel: npt.NDArray[np.float64],
    cover2: npt.NDArray[np.float64],
    pairs: tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]],
) -> None:
    """Take each ball's overlapping neighbours' pixels out of its sampling disc, in place.

    ``disc``: ``(N, S * S)`` each ball's disc over its patch, whose rows are ``ys`` ``(N, S)``
    and columns ``xs`` ``(N, S)``; ``pixel``: ``(N, 2)`` the balls' centres; ``cover2``: ``(N,)``
    the squared radius of each ball's core; ``pairs``: ``(i, j)`` rows, ball ``i`` overlapped
    by ball ``j``, in ``np.nonzero``'s order. For each pair in turn, ball ``i`` keeps its disc's
    pixels outside ``j``'s core where at least 3 are, else those nearer its own centre than
    ``j``'s (see :func:`vision.detection.colour.colour_features`).

    Why compiled: a pack's reds overlap about twenty such pairs a detection, and a dozen
    small array operations each cost half the colour features' time. Equal to
    :func:`clear_neighbours_reference`: the squares are products (as NumPy's ``** 2`` of an
    array is) and each sum adds the same two numbers.
    """
    _clear_neighbours(
        disc,
        np.ascontiguousarray(ys, np.int64),
        np.ascontiguousarray(xs, np.int64),
        np.ascontiguousarray(pixel, np.float64),
        np.ascontiguousarray(cover2, np.float64),
        np.ascontiguousarray(pairs[0], np.int64),
        np.ascontiguousarray(pairs[1], np.int64),
    )


def clear_neighbours_reference(
    disc: npt.NDArray[np.bool_],
    ys: npt.NDArray[np.int64],
    xs: npt.NDArray[np.int64],
    pixel: npt.NDArray[np.float64],
    cover2: npt.NDArray[np.float64],
    pairs: tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]],
) -> None:
    """The NumPy version of :func:`clear_neighbours` (its test oracle; the former loop of
    :func:`vision.detection.colour.colour_features`)."""
    dy = ys - pixel[:, 1:2]
    dx = xs - pixel[:, 0:1]
    for i, j in zip(*pairs, strict=True):
        own = (dy[i][:, None] ** 2 + dx[i][None, :] ** 2).reshape(-1)
        other = ((ys[i] - pixel[j, 1])[:, None] ** 2 + (xs[i] - pixel[j, 0])[None, :] ** 2).reshape(-1)
        clear = disc[i] & (other > cover2[j])
        disc[i] = clear if np.count_nonzero(clear) >= 3 else disc[i] & (own <= other)


@njit(cache=True, nogil=True)
def _not_cloth(
    image: npt.NDArray[np.uint8],
    ref: npt.NDArray[np.float32],
    per_pixel: bool,
    far: float,
    dark: float,
) -> npt.NDArray[np.bool_]:  # pragma: no cover - compiled; its Python twin is cloth.not_cloth_reference
    h, w = image.shape[0], image.shape[1]
    out = np.empty((h, w), np.bool_)
    three, one = np.float32(3.0), np.float32(1.0)
    r0, r1, r2 = ref[0, 0, 0], ref[0, 0, 1], ref[0, 0, 2]
    for i in range(h):
        for j in range(w):
            b, g, r = np.float32(image[i, j, 0]), np.float32(image[i, j, 1]), np.float32(image[i, j, 2])
            inv = one / ((b + g) + r + three)
            if per_pixel:
                r0, r1, r2 = ref[i, j, 0], ref[i, j, 1], ref[i, j, 2]
            d0 = b * inv - r0
            d1 = g * inv - r1
            d2 = r * inv - r2
            dist = np.sqrt((d0 * d0 + d1 * d1) + d2 * d2)
            out[i, j] = (np.float64(dist) > far) | (np.float64(max(b, g, r)) < dark)
    return out


def not_cloth_mask(
    image: npt.NDArray[np.uint8], ref: npt.ArrayLike, far: float, dark: float
) -> npt.NDArray[np.bool_]:
    """Pixels of BGR ``image`` whose normalised chromaticity lies more than ``far`` from ``ref`` (one
    ``(3,)`` colour, or ``(H, W, 3)`` per pixel) or whose brightest channel is under ``dark``.

    One compiled pass in the float32 steps of :func:`vision.detection.cloth.not_cloth_reference`
    (channel sums in OpenCV's order, the reciprocal, the squared differences summed left to
    right, the square root); the two bounds are compared as NumPy compares a float32 image
    with them (a Python float in float32, a NumPy scalar in its own precision).
    """
    r = np.asarray(ref, np.float32)
    per_pixel = r.ndim == 3
    if not per_pixel:
        r = r.reshape(1, 1, 3)
    return _not_cloth(image, r, per_pixel, _as_compared(far), _as_compared(dark))


def _as_compared(bound: float) -> float:
    """``bound`` as NumPy compares a float32 array with it: a Python float is cast to float32
    first (a "weak" scalar), a NumPy scalar keeps its own precision."""
    return float(bound) if isinstance(bound, np.generic) else float(np.float32(bound))
