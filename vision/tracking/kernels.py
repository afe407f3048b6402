"""Compiled per-pixel kernels of the tracker's local colour search (:mod:`vision.tracking.local`).

Why a kernel: the search asks every pixel of a window where it lies on the cloth-to-ball colour
segment and how far off it; in NumPy that is a chain of float32 temporaries (a difference, two
einsums, a residual, a square root, five comparisons), each a pass over the window and most of the
search's own cost. One compiled pass per pixel does the same float32 arithmetic in the same order,
so the mask is bit-for-bit the NumPy chain's (tests/test_tracking_kernels.py checks it against
:func:`colour_mask_reference` on random windows).

The kernels release the GIL (``nogil``): they touch no Python object, and while one runs the
video tracker's other thread (the whole-table detection run beside the balls' own searches,
:meth:`vision.tracking.video.VideoTracker._whole_table_ahead`) goes on with its Python.
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt
from numba import njit

Mask = npt.NDArray[np.uint8]


@njit(cache=True, nogil=True)
def _colour_mask(
    lab: npt.NDArray[np.uint8],
    ref: npt.NDArray[np.float32],
    u: npt.NDArray[np.float32],
    w: npt.NDArray[np.float32],
    shade: npt.NDArray[np.float32],
    denom: np.float32,
    mix: np.float32,
    t_max: np.float32,
    perp_max: np.float32,
    l_mode: int,
    l_bound: np.float32,
) -> Mask:  # pragma: no cover - compiled; its Python twin is colour_mask_reference
    h, wd = lab.shape[0], lab.shape[1]
    out = np.zeros((h, wd), np.uint8)
    for i in range(h):
        for j in range(wd):
            l0 = np.float32(lab[i, j, 0])
            d0 = (l0 - ref[0]) * w[0]
            d1 = (np.float32(lab[i, j, 1]) - ref[1]) * w[1]
            d2 = (np.float32(lab[i, j, 2]) - ref[2]) * w[2]
            t = (d0 * u[0] + d1 * u[1] + d2 * u[2]) / denom
            if not (t > mix and t < t_max):
                continue
            o0 = (d0 - t * u[0]) * shade[0]
            o1 = (d1 - t * u[1]) * shade[1]
            o2 = (d2 - t * u[2]) * shade[2]
            if not np.sqrt(o0 * o0 + o1 * o1 + o2 * o2) < perp_max:
                continue
            if l_mode < 0 and not (ref[0] - l0 > l_bound):
                continue
            if l_mode > 0 and not (l0 - ref[0] > l_bound):
                continue
            out[i, j] = 1
    return out


def colour_mask(
    lab: npt.NDArray[np.uint8],
    ref: npt.NDArray[np.float32],
    u: npt.NDArray[np.float32],
    w: npt.NDArray[np.float32],
    shade: npt.NDArray[np.float32],
    denom: float,
    mix: float,
    t_max: float,
    perp_max: float,
    l_mode: int,
    l_bound: float,
) -> Mask:
    """Pixels of ``lab`` (8-bit Lab) on the cloth-to-ball segment: see :func:`colour_mask_reference`.

    Scalars are rounded to float32 here, as NumPy rounds a Python float met by a float32 array.
    """
    f = np.float32
    return _colour_mask(
        np.ascontiguousarray(lab),
        np.asarray(ref, np.float32),
        np.asarray(u, np.float32),
        np.asarray(w, np.float32),
        np.asarray(shade, np.float32),
        f(denom),
        f(mix),
        f(t_max),
        f(perp_max),
        int(l_mode),
        f(l_bound),
    )


def colour_mask_reference(
    lab: npt.NDArray[np.uint8],
    ref: npt.NDArray[np.float32],
    u: npt.NDArray[np.float32],
    w: npt.NDArray[np.float32],
    shade: npt.NDArray[np.float32],
    denom: float,
    mix: float,
    t_max: float,
    perp_max: float,
    l_mode: int,
    l_bound: float,
) -> Mask:
    """The NumPy chain the kernel replaces (kept as its specification and test oracle).

    ``t`` is a pixel's position on the segment from the cloth ``ref`` to the ball (``u`` is the
    weighted ball-minus-cloth vector, ``denom`` its squared length), the residual its distance off
    it; ``l_mode`` -1 / +1 asks the pixel to be darker / lighter than the cloth by ``l_bound``.
    """
    labf = lab.astype(np.float32)
    d = (labf - ref) * w
    t = np.einsum("ijk,k->ij", d, u) / denom
    off = (d - t[..., None] * u) * shade
    perp = np.sqrt(np.einsum("ijk,ijk->ij", off, off))
    inside = (t > mix) & (t < t_max) & (perp < perp_max)
    if l_mode < 0:
        inside &= ref[0] - labf[..., 0] > l_bound
    elif l_mode > 0:
        inside &= labf[..., 0] - ref[0] > l_bound
    return inside.astype(np.uint8)


@njit(cache=True, nogil=True)
def _label_sums(
    labels: npt.NDArray[np.int32], dt: npt.NDArray[np.float32], n: int
) -> tuple[
    npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float32]
]:
    # pragma: no cover - compiled; its Python twin is label_sums_reference
    area = np.zeros(n, np.float64)
    sx = np.zeros(n, np.float64)
    sy = np.zeros(n, np.float64)
    peak = np.zeros(n, np.float32)
    h, w = labels.shape
    for i in range(h):
        for j in range(w):
            k = labels[i, j]
            area[k] += 1.0
            sx[k] += j
            sy[k] += i
            if k > 0 and dt[i, j] > peak[k]:
                peak[k] = dt[i, j]
    return area, sx, sy, peak


def label_sums(
    labels: npt.NDArray[np.int32], dt: npt.NDArray[np.float32]
) -> tuple[
    npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float32]
]:
    """Per label (index 0: background): pixel count, sum of columns, sum of rows, largest ``dt``.

    Sums of integer coordinates are exact in float64 in any order, so they equal the NumPy
    ``bincount`` sums of :func:`label_sums_reference`; a maximum is exact in any order as well.
    """
    n = int(labels.max()) + 1 if labels.size else 1
    return _label_sums(np.ascontiguousarray(labels, np.int32), np.ascontiguousarray(dt, np.float32), n)


def label_sums_reference(
    labels: npt.NDArray[np.int32], dt: npt.NDArray[np.float32]
) -> tuple[
    npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float32]
]:
    """The NumPy version of :func:`label_sums` (its test oracle)."""
    n = int(labels.max()) + 1 if labels.size else 1
    flat = labels.ravel()
    h, w = labels.shape
    area = np.bincount(flat, minlength=n).astype(np.float64)
    cols = np.tile(np.arange(w, dtype=np.float64), h)
    rows = np.repeat(np.arange(h, dtype=np.float64), w)
    sx = np.asarray(np.bincount(flat, weights=cols, minlength=n), np.float64)
    sy = np.asarray(np.bincount(flat, weights=rows, minlength=n), np.float64)
    peak = np.zeros(n, np.float32)
    fg = flat > 0
    np.maximum.at(peak, flat[fg], dt.ravel()[fg])
    return area, sx, sy, peak


@njit(cache=True, nogil=True)
def _channel_medians(lab: npt.NDArray[np.uint8]) -> npt.NDArray[np.float32]:
    # pragma: no cover - compiled; its Python twin is channel_medians_reference
    h, w, c = lab.shape
    hist = np.zeros((c, 256), np.int64)
    for i in range(h):
        for j in range(w):
            for k in range(c):
                hist[k, lab[i, j, k]] += 1
    n = h * w
    out = np.zeros(c, np.float32)
    for k in range(c):
        lo = (n - 1) // 2  # the two middle ranks (equal when n is odd)
        hi = n // 2
        seen = 0
        vlo = -1
        vhi = -1
        for v in range(256):
            seen += hist[k, v]
            if vlo < 0 and seen > lo:
                vlo = v
            if seen > hi:
                vhi = v
                break
        out[k] = (np.float32(vlo) + np.float32(vhi)) / np.float32(2.0)
    return out


def channel_medians(lab: npt.NDArray[np.uint8]) -> npt.NDArray[np.float32]:
    """Per-channel median of an 8-bit image as float32, by a histogram instead of a sort.

    Equal to ``np.median`` of the float32 values: the median is a middle value or the mean of
    two, and half the sum of two integers under 256 is exact in float32.
    """
    return _channel_medians(np.ascontiguousarray(lab))


def channel_medians_reference(lab: npt.NDArray[np.uint8]) -> npt.NDArray[np.float32]:
    """The NumPy version of :func:`channel_medians` (its test oracle)."""
    return np.asarray(np.median(lab.reshape(-1, lab.shape[-1]).astype(np.float32), axis=0), np.float32)


@njit(cache=True, nogil=True)
def _disc_mean(
    patch: npt.NDArray[np.uint8], x0: int, y0: int, u: float, v: float, r: float, q: float
) -> npt.NDArray[np.float64]:  # pragma: no cover - compiled; its Python twin is disc_mean_reference
    hh, ww = patch.shape[0], patch.shape[1]
    out = np.full(3, np.nan)
    inside = np.zeros((hh, ww), np.bool_)
    m = 0
    for i in range(hh):
        dy = float(y0 + i) - v
        for j in range(ww):
            dx = float(x0 + j) - u
            if dx * dx + dy * dy <= r * r:
                inside[i, j] = True
                m += 1
    if m == 0:
        return out
    light = np.empty(m, np.float64)
    k = 0
    for i in range(hh):
        for j in range(ww):
            if inside[i, j]:
                light[k] = float(patch[i, j, 0])
                k += 1
    light.sort()
    # np.quantile's 'linear' method, step for step (the same float64 operations, so the same bound).
    virtual = (m - 1) * q
    if virtual >= m - 1:
        bound = light[m - 1]
    else:
        prev = int(np.floor(virtual))
        a = light[prev]
        b = light[prev + 1]
        gamma = virtual - prev
        diff = b - a
        bound = b - diff * (1 - gamma) if gamma >= 0.5 else a + diff * gamma
    s = np.zeros(3, np.float64)
    c = 0
    for i in range(hh):
        for j in range(ww):
            if inside[i, j] and float(patch[i, j, 0]) <= bound:
                for ch in range(3):
                    s[ch] += float(patch[i, j, ch])
                c += 1
    for ch in range(3):
        out[ch] = s[ch] / c
    return out


def disc_mean(
    patch: npt.NDArray[np.uint8], x0: int, y0: int, u: float, v: float, r: float, q: float
) -> npt.NDArray[np.float64]:
    """Mean of the pixels of ``patch`` (8-bit Lab, top-left pixel ``(x0, y0)``) within ``r`` of
    ``(u, v)`` whose lightness is at most its ``q`` quantile (NaN where none is within ``r``).

    Equal to :func:`disc_mean_reference`: the quantile is NumPy's linear one computed by the same
    float64 steps, and sums of integers under 256 are exact in any order.
    """
    return _disc_mean(np.ascontiguousarray(patch), int(x0), int(y0), float(u), float(v), float(r), float(q))


def disc_mean_reference(
    patch: npt.NDArray[np.uint8], x0: int, y0: int, u: float, v: float, r: float, q: float
) -> npt.NDArray[np.float64]:
    """The NumPy version of :func:`disc_mean` (its test oracle; the former body of
    :func:`vision.tracking.appearance.disc_appearance`)."""
    hh, ww = patch.shape[:2]
    px_all = patch.reshape(-1, 3).astype(np.float64)
    yy, xx = np.mgrid[y0 : y0 + hh, x0 : x0 + ww]
    inside = ((xx - u) ** 2 + (yy - v) ** 2 <= r * r).reshape(-1)
    px = px_all[inside]
    if len(px) == 0:
        return np.full(3, np.nan)
    keep = px[:, 0] <= np.quantile(px[:, 0], q)
    return np.asarray(px[keep].mean(axis=0) if np.any(keep) else px.mean(axis=0), np.float64)


@njit(cache=True, nogil=True)
def _mask_box(mask: npt.NDArray[np.bool_]) -> tuple[int, int, int, int, int]:
    # pragma: no cover - compiled; its Python twin is mask_box_reference
    h, w = mask.shape
    n, y0, y1, x0, x1 = 0, h, -1, w, -1
    for i in range(h):
        for j in range(w):
            if mask[i, j]:
                n += 1
                y0 = min(y0, i)
                y1 = max(y1, i)
                x0 = min(x0, j)
                x1 = max(x1, j)
    return n, y0, y1, x0, x1


def mask_box(mask: npt.NDArray[np.bool_]) -> tuple[int, int, int, int, int]:
    """Count of set pixels and their bounding box ``(n, y_min, y_max, x_min, x_max)`` (inclusive).

    One pass instead of ``np.nonzero`` (two index arrays as long as the count) and four
    reductions; with no pixel set the box is ``(h, -1, w, -1)``.
    """
    return _mask_box(np.ascontiguousarray(mask, np.bool_))


def mask_box_reference(mask: npt.NDArray[np.bool_]) -> tuple[int, int, int, int, int]:
    """The NumPy version of :func:`mask_box` (its test oracle)."""
    ys, xs = np.nonzero(mask)
    if not len(ys):
        return 0, mask.shape[0], -1, mask.shape[1], -1
    return len(ys), int(ys.min()), int(ys.max()), int(xs.min()), int(xs.max())


@njit(cache=True, nogil=True)
def _plateau_sums(
    plab: npt.NDArray[np.int32], labels: npt.NDArray[np.int32], pn: int
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    # pragma: no cover - compiled; its Python twin is plateau_sums_reference
    owner = np.zeros(pn, np.int64)
    area = np.zeros(pn, np.int64)
    srow = np.zeros(pn, np.float64)
    scol = np.zeros(pn, np.float64)
    h, w = plab.shape
    for i in range(h):
        for j in range(w):
            p = plab[i, j]
            if p > 0:
                owner[p] = labels[i, j]
                area[p] += 1
                srow[p] += i
                scol[p] += j
    return owner, area, srow, scol


def plateau_sums(
    plab: npt.NDArray[np.int32], labels: npt.NDArray[np.int32], pn: int
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Per plateau of ``plab`` (``pn`` labels, 0: none): the ``labels`` value at its pixels (its
    blob: a plateau lies inside one blob), pixel count, sum of rows, sum of columns.

    Equal to :func:`plateau_sums_reference`: sums of integer coordinates are exact in float64 in
    any order, and every pixel of a plateau names the same blob.
    """
    return _plateau_sums(np.ascontiguousarray(plab, np.int32), np.ascontiguousarray(labels, np.int32), pn)


def plateau_sums_reference(
    plab: npt.NDArray[np.int32], labels: npt.NDArray[np.int32], pn: int
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """The NumPy version of :func:`plateau_sums` (its test oracle)."""
    ys, xs = np.nonzero(plab)
    pid = plab[ys, xs]
    owner = np.zeros(pn, np.int64)
    owner[pid] = labels[ys, xs]
    area = np.bincount(pid, minlength=pn).astype(np.int64)
    area[0] = 0
    srow = np.bincount(pid, weights=ys.astype(np.float64), minlength=pn).astype(np.float64)
    scol = np.bincount(pid, weights=xs.astype(np.float64), minlength=pn).astype(np.float64)
    srow[0] = scol[0] = 0.0
    return owner, area, srow, scol


@njit(cache=True, nogil=True)
def _split_nearest(
    labels: npt.NDArray[np.int32],
    out: npt.NDArray[np.int32],
    blob: int,
    keep: npt.NDArray[np.float64],
    first: int,
) -> None:  # pragma: no cover - compiled; its Python twin is split_nearest_reference
    h, w = labels.shape
    k = keep.shape[0]
    for i in range(h):
        for j in range(w):
            if labels[i, j] != blob:
                continue
            best = 0
            best_d = np.inf
            for q in range(k):
                dy = float(i) - keep[q, 0]
                dx = float(j) - keep[q, 1]
                d = np.sqrt(dy * dy + dx * dx)
                if d < best_d:
                    best_d = d
                    best = q
            if best > 0:
                out[i, j] = first + best - 1


def split_nearest(
    labels: npt.NDArray[np.int32],
    out: npt.NDArray[np.int32],
    blob: int,
    keep: npt.NDArray[np.float64],
    first: int,
) -> None:
    """Give each pixel of blob ``blob`` (in ``labels``) to its nearest peak of ``keep`` (``(k, 2)``
    rows and columns): in ``out``, pixels of peak ``j >= 1`` become label ``first + j - 1`` and those
    of peak 0 keep theirs. Ties go to the lower peak, distances are ``sqrt(dy*dy + dx*dx)`` in
    float64, as in :func:`split_nearest_reference` (``np.argmin`` of ``np.linalg.norm``)."""
    assert out.flags.c_contiguous and out.dtype == np.int32 and out.shape == labels.shape
    _split_nearest(
        np.ascontiguousarray(labels, np.int32),
        out,
        int(blob),
        np.ascontiguousarray(keep, np.float64),
        int(first),
    )


def split_nearest_reference(
    labels: npt.NDArray[np.int32],
    out: npt.NDArray[np.int32],
    blob: int,
    keep: npt.NDArray[np.float64],
    first: int,
) -> None:
    """The NumPy version of :func:`split_nearest` (its test oracle; the former loop body of
    :func:`vision.tracking.local._ball_labels`)."""
    pts = np.argwhere(labels == blob)
    near = np.argmin(np.linalg.norm(pts[:, None, :] - np.asarray(keep)[None, :, :], axis=2), axis=1)
    for j in range(1, len(keep)):
        part = pts[near == j]
        out[part[:, 0], part[:, 1]] = first + j - 1


@njit(cache=True, nogil=True)
def _grid_bilinear(
    px: npt.NDArray[np.float64], step: int, grid: npt.NDArray[np.float64]
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_]]:
    # pragma: no cover - compiled; its Python twin is grid_bilinear_reference
    ny, nx = grid.shape[0], grid.shape[1]
    n = px.shape[0]
    out = np.empty((n, 2), np.float64)
    inside = np.zeros(n, np.bool_)
    for k in range(n):
        gx = px[k, 0] / step
        gy = px[k, 1] / step
        fx0 = np.floor(gx)
        fy0 = np.floor(gy)
        if not (fx0 >= 0 and fx0 < nx - 1 and fy0 >= 0 and fy0 < ny - 1):
            continue
        inside[k] = True
        ix, iy = int(fx0), int(fy0)
        fx, fy = gx - fx0, gy - fy0
        for c in range(2):
            top = grid[iy, ix, c] * (1 - fx) + grid[iy, ix + 1, c] * fx
            bottom = grid[iy + 1, ix, c] * (1 - fx) + grid[iy + 1, ix + 1, c] * fx
            out[k, c] = top * (1 - fy) + bottom * fy
    return out, inside


def grid_bilinear(
    px: npt.NDArray[np.float64], step: int, grid: npt.NDArray[np.float64]
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_]]:
    """``grid`` (``(ny, nx, 2)``, a node every ``step`` pixels) interpolated bilinearly at ``(N, 2)``
    pixels, and which pixels lie inside its nodes (rows outside are left undefined).

    The same float64 operations in the same order as :func:`grid_bilinear_reference` (the NumPy
    code of :class:`vision.balls_stage.PixelMap`), so the same values.
    """
    return _grid_bilinear(
        np.ascontiguousarray(px, np.float64), int(step), np.ascontiguousarray(grid, np.float64)
    )


def grid_bilinear_reference(
    px: npt.NDArray[np.float64], step: int, grid: npt.NDArray[np.float64]
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_]]:
    """The NumPy version of :func:`grid_bilinear` (its test oracle)."""
    n_nodes = np.array([grid.shape[1], grid.shape[0]])
    g = px / step
    i0 = np.floor(g).astype(np.intp)
    inside = np.all((i0 >= 0) & (i0 < n_nodes - 1), axis=1)
    out = np.empty_like(px)
    ix, iy = i0[inside, 0], i0[inside, 1]
    f = g[inside] - i0[inside]
    fx, fy = f[:, :1], f[:, 1:]
    top = grid[iy, ix] * (1 - fx) + grid[iy, ix + 1] * fx
    bottom = grid[iy + 1, ix] * (1 - fx) + grid[iy + 1, ix + 1] * fx
    out[inside] = top * (1 - fy) + bottom * fy
    return out, inside


@njit(cache=True, nogil=True)
def _local_peaks(
    dt: npt.NDArray[np.float32], deep: npt.NDArray[np.bool_], element: npt.NDArray[np.uint8], tol: np.float32
) -> npt.NDArray[np.bool_]:  # pragma: no cover - compiled; its Python twin is local_peaks_reference
    h, w = dt.shape
    kh, kw = element.shape
    ay, ax = kh // 2, kw // 2
    out = np.zeros((h, w), np.bool_)
    for i in range(h):
        for j in range(w):
            if not deep[i, j]:
                continue
            # The maximum only grows, and so does ``top - tol`` (rounding is monotone): once a
            # neighbour outbids this pixel it is no peak, whatever the rest of the element holds.
            at = dt[i, j]
            peak = True
            for p in range(kh):
                y = i + p - ay
                if y < 0 or y >= h:
                    continue
                for q in range(kw):
                    x = j + q - ax
                    if element[p, q] and 0 <= x < w and at < dt[y, x] - tol:
                        peak = False
                        break
                if not peak:
                    break
            out[i, j] = peak
    return out


def local_peaks(
    dt: npt.NDArray[np.float32], deep: npt.NDArray[np.bool_], element: npt.ArrayLike, tol: float
) -> npt.NDArray[np.bool_]:
    """Pixels of ``deep`` whose ``dt`` is at least the maximum of ``dt`` over ``element`` (centred,
    clipped to the image) less ``tol``, i.e. ``deep & (dt >= cv2.dilate(dt, element) - tol)``.

    The maximum is taken only at the deep pixels, not over the whole window; a maximum is exact
    and ``tol`` is subtracted in float32 as NumPy does, so the mask is
    :func:`local_peaks_reference`'s.
    """
    return _local_peaks(
        np.ascontiguousarray(dt, np.float32),
        np.ascontiguousarray(deep, np.bool_),
        np.ascontiguousarray(element, np.uint8),
        np.float32(tol),
    )


def local_peaks_reference(
    dt: npt.NDArray[np.float32], deep: npt.NDArray[np.bool_], element: npt.ArrayLike, tol: float
) -> npt.NDArray[np.bool_]:
    """The OpenCV and NumPy version of :func:`local_peaks` (its test oracle)."""
    top = cv2.dilate(dt, np.asarray(element, np.uint8))
    return np.asarray((dt >= top - tol) & deep, np.bool_)
