"""Compiled per-pixel kernels of the tracker's local colour search (:mod:`vision.tracking.local`).

Why a kernel: the search asks every pixel of a window where it lies on the cloth-to-ball colour
segment and how far off it; in NumPy that is a chain of float32 temporaries (a difference, two
einsums, a residual, a square root, five comparisons), each a pass over the window and most of the
search's own cost. One compiled pass per pixel does the same float32 arithmetic in the same order,
so the mask is bit-for-bit the NumPy chain's (tests/test_tracking_kernels.py checks it against
:func:`colour_mask_reference` on random windows).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

Mask = npt.NDArray[np.uint8]


@njit(cache=True)
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
        ref.astype(np.float32),
        u.astype(np.float32),
        w.astype(np.float32),
        shade.astype(np.float32),
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
