"""The baulk-line and the D, searched in a top-down rectified patch of one end of the table.

Why rectified: through the current camera estimate, the end of the table is resampled onto a
grid in table millimetres, where the baulk-line is a row and the D a circle of known radius
whatever the camera's pose, so one search works for an overhead club camera and a tilted
broadcast one alike. The grid's spacing follows the image's own resolution at the D (one
sample per image pixel along each table axis), so the filter that makes a chalk line stand out
(a difference of Gaussians, positive part) has the same meaning in every picture, and only the
few hundred thousand pixels of the patch are ever filtered.

The same patch decides orientation: :func:`marking_score` compares how strongly a baulk-line
and D show at each end of the table (:func:`end_patch` with ``flip``), never image position.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import cv2
import numpy as np
import numpy.typing as npt

from calibration.homography import FloatArray
from calibration.markings import ToImage, UInt8Array, _peak, robust_curve
from calibration.table import TABLE

#: How far either side of the nominal baulk-line the patch reaches (mm): room for the shift
#: search of a rough first camera.
REACH = 280.0

#: Finest patch spacing across (x) and along (y) the baulk-line (mm): a chalk line is 3 mm wide.
MIN_DX = 1.5
MIN_DY = 3.0

#: The two end patches that only decide which end is baulk (and give the joint fit its first
#: baulk-line and D points, measured again finely around the joint camera) are sampled no finer
#: than this many times the finest spacing: a fraction of the samples, where a 1080p picture
#: would otherwise be resampled at a millimetre and a half.
COARSE = 2.0


@dataclass(frozen=True)
class Patch:
    """Chalk-line response of one table end on a grid in table millimetres.

    Attributes:
        response: ``(NX, NY)`` positive difference of Gaussians; row ``i`` is ``x = x0 + i*dx``.
        x0: ``x`` of row 0 (mm, in the end's own frame: baulk-line at ``TABLE.baulk_line``).
        y0: ``y`` of column 0 (mm).
        dx: row spacing (mm).
        dy: column spacing (mm).
        flip: whether the end's frame is the table turned end for end (the top end).
    """

    response: FloatArray
    x0: float
    y0: float
    dx: float
    dy: float
    flip: bool

    def __post_init__(self) -> None:
        if self.response.ndim != 2:
            raise ValueError(f"patch response must be 2-D, got shape {self.response.shape}")

    @cached_property
    def _response32(self) -> npt.NDArray[np.float32]:
        """The response as remap reads it, converted once: a patch is read three times."""
        return np.asarray(self.response, dtype=np.float32)

    def to_table(self, pts: FloatArray) -> FloatArray:
        """End-frame millimetres to table millimetres."""
        if not self.flip:
            return pts
        out: FloatArray = np.array([TABLE.length, TABLE.width]) - pts
        return out

    def at(self, pts: FloatArray) -> FloatArray:
        """Bilinear response at end-frame points ``(..., 2)``; NaN off the patch."""
        shape = pts.shape[:-1]
        flat = pts.reshape(-1, 2)
        col = ((flat[:, 1] - self.y0) / self.dy).astype(np.float32)
        row = ((flat[:, 0] - self.x0) / self.dx).astype(np.float32)
        vals = cv2.remap(
            self._response32,
            col.reshape(-1, 1),
            row.reshape(-1, 1),
            cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_CONSTANT,
            borderValue=np.nan,
        )
        out: FloatArray = np.asarray(vals, dtype=np.float64).reshape(shape)
        return out


#: The patch's pixel map is projected on a grid this many samples apart and interpolated
#: between: the projection is smooth (a homography and a lens), so bilinear interpolation over
#: a few millimetres is exact to far below a pixel, at a sixty-fourth of the projections.
MAP_STEP = 8


def _pixel_map(to_image: ToImage, xs: FloatArray, ys: FloatArray, flip: bool) -> npt.NDArray[np.float32]:
    """Image pixels ``(len(xs), len(ys), 2)`` of the end-frame grid ``xs`` x ``ys``."""
    n, m = len(xs), len(ys)
    ic = np.arange(0, n - 1 + MAP_STEP, MAP_STEP)
    jc = np.arange(0, m - 1 + MAP_STEP, MAP_STEP)
    cx = xs[0] + ic * (xs[1] - xs[0]) if n > 1 else xs[:1]
    cy = ys[0] + jc * (ys[1] - ys[0]) if m > 1 else ys[:1]
    grid = np.stack(np.meshgrid(cx, cy, indexing="ij"), axis=-1)
    table = np.array([TABLE.length, TABLE.width]) - grid if flip else grid
    coarse = to_image(table.reshape(-1, 2), 0.0).reshape(grid.shape).astype(np.float32)
    rows = np.broadcast_to((np.arange(n, dtype=np.float32) / MAP_STEP)[:, None], (n, m))
    cols = np.broadcast_to((np.arange(m, dtype=np.float32) / MAP_STEP)[None, :], (n, m))
    fine = cv2.remap(coarse, np.ascontiguousarray(cols), np.ascontiguousarray(rows), cv2.INTER_LINEAR)
    out: npt.NDArray[np.float32] = np.asarray(fine, dtype=np.float32)
    return out


def end_patch(
    image: UInt8Array, to_image: ToImage, flip: bool, reach: float = REACH, coarse: bool = False
) -> Patch:
    """The baulk end (``flip=False``) or the top end (``flip=True``) of the table, rectified,
    ``reach`` mm either side of the nominal markings (less once the camera is close); with
    ``coarse``, no finer than :data:`COARSE` times the finest spacing."""
    bx, cy = TABLE.baulk_line, TABLE.centre_line_y
    probe = np.array([[bx, cy], [bx + 10.0, cy], [bx, cy + 10.0]])
    if flip:
        probe = np.array([TABLE.length, TABLE.width]) - probe
    p = to_image(probe, 0.0)
    # Millimetres per image pixel along each axis at the D: one sample per pixel.
    # Across the baulk-line (x) as fine as the image, but no finer than MIN_DX; along it (y)
    # the line is straight, so coarser samples lose nothing and keep the patch small.
    least = COARSE if coarse else 1.0
    dx = float(np.clip(10.0 / max(np.hypot(*(p[1] - p[0])), 1e-6), least * MIN_DX, 12.0))
    dy = float(np.clip(10.0 / max(np.hypot(*(p[2] - p[0])), 1e-6), least * MIN_DY, 12.0))
    xs = np.arange(bx - TABLE.d_radius - reach, bx + reach, dx, dtype=np.float64)
    # Across the table only as far as the searches look (the baulk-line from 120 mm in).
    ys = np.arange(100.0, TABLE.width - 100.0, dy, dtype=np.float64)
    px = _pixel_map(to_image, xs, ys, flip)
    h, w = image.shape[:2]
    inside = cv2.inRange(px, (0.0, 0.0), (float(w - 1), float(h - 1))) > 0  # on the picture, edges included
    bgr = cv2.remap(image, px[..., 0], px[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    value = np.asarray(cv2.max(cv2.max(bgr[..., 0], bgr[..., 1]), bgr[..., 2]), dtype=np.float32)
    fine = cv2.GaussianBlur(value, (0, 0), 1.5)
    background = cv2.GaussianBlur(value, (0, 0), 6.0)
    resp = np.maximum(fine - background, 0.0)
    resp[~inside] = np.nan
    return Patch(np.asarray(resp, dtype=np.float64), float(xs[0]), float(ys[0]), dx, dy, flip)


def _contrast(prof: FloatArray) -> FloatArray:
    """How far each shift's response stands above the typical shift's, in units of the profile's
    own spread (median absolute deviation, plus a floor for a flat, noiseless profile)."""
    med = float(np.median(prof))
    out: FloatArray = (prof - med) / (float(np.median(np.abs(prof - med))) + 0.05)
    return out


def marking_score(patch: Patch) -> tuple[float, float]:
    """How strongly the baulk-line and D show in an end patch, and at which shift (mm along the
    table) they show best; the contrast against other shifts is the score.

    Why a shift: the first camera comes from the cloth outline, whose distance behind the
    cushion nose is only roughly known, so the markings are searched for, not assumed.

    Why the line and the arc are weighed apart, and multiplied: a cue laid across the table near
    the baulk-line is a long bright straight line too, and over most of the line's samples it
    outshone a baulk-line half hidden by the player's arm (held-out synthetic seed 2122: the cue
    135 mm from the line, the joint fit bent to it, 196 mm off at the baulk end). Nothing but the
    D has the D's curve, so the shift is where line AND arc show, each factor its own contrast
    (at least 1: an arc hidden by a player leaves the line to decide alone, as before).
    """
    reach = TABLE.baulk_line - TABLE.d_radius - patch.x0
    shifts = np.arange(-reach + 30.0, reach - 29.0, max(patch.dx / 2.0, 2.0))
    along = np.linspace(150.0, TABLE.width - 150.0, 40)
    arc = TABLE.d_arc(40)[3:-3]
    base = np.vstack([np.stack([np.full_like(along, TABLE.baulk_line), along], axis=1), arc])
    table = base[None, :, :] + np.stack([shifts, np.zeros_like(shifts)], axis=1)[:, None, :]
    vals = np.nan_to_num(patch.at(table), nan=0.0)
    # A trimmed mean along the marking: a ball on it is a few samples, a chalk line is all.
    parts = [np.sort(v, axis=1) for v in (vals, vals[:, : len(along)], vals[:, len(along) :])]
    whole, line, curve = (v[:, v.shape[1] // 5 : (4 * v.shape[1]) // 5].mean(axis=1) for v in parts)
    both = (1.0 + np.maximum(_contrast(line), 0.0)) * (1.0 + np.maximum(_contrast(curve), 0.0))
    best = int(np.argmax(both))
    spread = float(np.median(np.abs(whole - np.median(whole)))) + 0.05
    return float((whole[best] - np.median(whole)) / spread), float(shifts[best])


def baulk_points(
    patch: Patch, to_image: ToImage, shift: float, half_window: float = 24.0
) -> tuple[FloatArray, FloatArray]:
    """Image points of the baulk-line and of the D's arc, each the brightest thin-line response
    across the expected marking, ``shift`` mm from where it is expected."""
    step = min(patch.dx, patch.dy) / 2.0
    offsets: FloatArray = np.arange(-half_window, half_window + 1e-9, max(step, 0.5), dtype=np.float64)
    along = np.arange(120.0, TABLE.width - 120.0, 30.0)
    x = TABLE.baulk_line + shift
    grid = np.empty((len(along), len(offsets), 2))
    grid[..., 0] = x + offsets[None, :]
    grid[..., 1] = along[:, None]
    line = _ridge(patch, to_image, grid, offsets)
    dc = np.array([x, TABLE.centre_line_y])
    angles = np.linspace(-np.pi / 2 + 0.15, np.pi / 2 - 0.15, 40)
    radial = np.stack([-np.cos(angles), np.sin(angles)], axis=1)
    radii = TABLE.d_radius + offsets
    grid = dc + radii[None, :, None] * radial[:, None, :]
    arc = _ridge(patch, to_image, grid, offsets)
    return line, arc


def _ridge(patch: Patch, to_image: ToImage, grid: FloatArray, offsets: FloatArray) -> FloatArray:
    prof = patch.at(grid)
    idx, height = _peak(prof, np.zeros(len(prof), dtype=np.intp))
    noise = np.median(np.nan_to_num(prof, nan=0.0), axis=1)
    ok = np.isfinite(height) & (height > 0.8) & (height > 2.5 * noise)
    i0 = np.clip(np.floor(idx).astype(int), 0, len(offsets) - 2)
    frac = idx - i0
    rows = np.arange(len(prof))
    pts = grid[rows, i0] * (1 - frac[:, None]) + grid[rows, i0 + 1] * frac[:, None]
    pts = pts[ok]
    if len(pts) < 6:
        return np.zeros((0, 2))
    img = to_image(patch.to_table(pts), 0.0)
    keep: npt.NDArray[np.bool_] = robust_curve(img, tol=1.5)
    out: FloatArray = img[keep]
    return out
