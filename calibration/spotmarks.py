"""Which end is baulk, from the bare spot marks on the cloth: the last evidence when the
baulk-line and D do not show and no colour sits on its spot.

Each colour's spot is marked on the cloth (Section 1 Rule 1(f)), a small chalked or painted dot
that shows wherever its ball is away. Turning the table end for end moves the yellow, green and
brown spots (on the baulk-line) and the pink and black spots (towards the top cushion) onto
cloth where no spot is marked, so a mark at one of those places with bare cloth at its mirror
image votes for one end, as a colour on its spot does (:mod:`calibration.spots`). The blue spot
is the centre of the table either way and says nothing.

Why a mark is told from everything else by its surroundings, not its brightness: a broadcast
picture's cloth carries JPEG blocks, nap and a light gradient of a few grey levels, and a
spot mark is often only a few grey levels lighter (or darker) than the cloth. What no block,
line, edge, ball or highlight has is a small blob, its size set by the camera, standing out on
every side from cloth of one level and of the cloth's own colour:

- the picture is smoothed to the mark's own size (its footprint through the camera, at least
  the picture's blur) and the strongest difference from the cloth around it
  (a difference of Gaussians) is found in a small search window around where the camera
  puts the spot;
- around that peak a ring of samples, a few of the mark's sizes out, must lie on one plane
  (the cloth's level, tilted by the light or the nap: a line through the peak, a block's edge
  or a ball's rim leave it) and be of the cloth's colour (a ball's body under its highlight is
  not), and the peak must stand out from that plane by a few grey levels and by several times
  the picture's own noise there, lighter or a shade darker (a black ball is far darker);
- the blob reaches half its height within a mark's width, not a ball's, along both image axes
  (a ball is round in the picture, a mark on the cloth is foreshortened with it); where the
  view is too coarse for a ball to look clearly wider than a mark, nothing is read;
- bare cloth is where nothing in the search window stands out at all.

A place with a ball on it, a player over it, or anything else neither a mark nor bare cloth
says nothing, and neither does its pair; the colour vote covers a ball on its spot. Only small
windows are read (a few thousand pixels for all ten places together), and only when the
markings and the colours did not tell the ends (:func:`calibration.calibrate.needs_marks`).
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from calibration.homography import FloatArray
from calibration.markings import ToImage, UInt8Array
from calibration.table import TABLE, Colour

#: The spots whose mirror image, the table turned end for end, is bare cloth (not the blue).
MARKED = (Colour.YELLOW, Colour.GREEN, Colour.BROWN, Colour.PINK, Colour.BLACK)

#: How far from where the camera fitted to the cushions alone puts a spot its mark is looked for
#: (mm), along the table and across it: that camera is least sure of the table's length (a
#: straight lens through a bent one misplaces the baulk-line by up to 75 mm,
#: :data:`calibration.calibrate.DISAGREE_FREE_MM`). Less than half the 155 mm between the pink
#: spot and the brown spot's mirror image, the closest pair of places that vote differently.
SEARCH_ALONG_MM = 70.0
SEARCH_ACROSS_MM = 35.0

#: The smallest and largest search windows (px either side): a spot at most a few pixels off,
#: and a cost bounded in a picture of any size (four times a 1080p broadcast view's reach).
MIN_SEARCH_PX = 2.0
MAX_SEARCH_PX = 48.0

#: The picture's own blur (px, one standard deviation): a mark a few millimetres across is
#: never sharper than this in broadcast video (Task1/3: 7 by 5 pixels at the far end).
BLUR_PX = 1.5

#: Radius of the ring that must be cloth all round, in the mark's smoothing widths.
RING = 3.5

#: A mark stands out from the ring's level by at least this many grey levels ...
MIN_CONTRAST = 3.0

#: ... and by this many times the picture's noise at the mark's scale (robust spread of the
#: difference of Gaussians over the window).
MIN_SNR = 5.0

#: The ring around a mark is cloth of one level, perhaps tilted by the light: no ring sample
#: differs from the plane through the ring by more than this share of the mark's contrast.
MAX_RING_SPREAD = 0.35

#: ... and the plane through the ring rises across it by no more than this many times the mark's
#: contrast (a step edge's is several times the contrast found beside it).
MAX_RING_TILT = 1.5

#: The ring is cloth-coloured: no ring sample differs from the window's median colour (BGR
#: distance) by more than this (a green ball's body under its highlight differs by more).
MAX_RING_COLOUR = 25.0

#: A darker mark is a shade darker than the cloth, never this far below it (a black, blue or
#: brown ball is).
MIN_DARK = 0.6

#: A ball must look at least this much wider than a mark (half-height widths after the
#: smoothing) for the two to be told apart by size; in a coarser view nothing is read.
MIN_BALL_TO_MARK = 1.6

#: Bare cloth: nothing in the search window stands out by more than this share of
#: :data:`MIN_CONTRAST` (nor of :data:`MIN_SNR` times the noise).
BARE = 0.5

#: Noise floor (grey levels at the mark's scale): JPEG flattens blocks of cloth to one value.
NOISE_FLOOR = 0.3

MARK, BARE_CLOTH, UNKNOWN = 1, 0, -1

#: Ring sample directions (8, evenly spaced): their cosines and sines.
_ANGLES = np.linspace(0.0, 2.0 * np.pi, 8, endpoint=False)
_COS, _SIN = np.cos(_ANGLES), np.sin(_ANGLES)

Floats = npt.NDArray[np.floating[Any]]


def _mad(values: Floats) -> float:
    """Median absolute deviation from the median (two partial sorts)."""
    k = values.size // 2
    mid = np.partition(values, k)[k]
    return float(np.partition(np.abs(values - mid), k)[k])


def _windows(to_image: ToImage, places: FloatArray) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """For table points ``(N, 2)``: their pixels ``(N, 2)``; the mark's smoothing width along
    each image axis ``(N, 2)`` (its footprint through the local affine map, at least the
    picture's blur); the search reach along each image axis ``(N, 2)``; and the radius a ball
    lying there would have in the picture ``(N,)`` (a sphere is not foreshortened: the table's
    least foreshortened direction sets it). All in pixels, from one projection call."""
    d = 10.0
    n = len(places)
    px = to_image(np.vstack([places, places + np.array([d, 0.0]), places + np.array([0.0, d])]), 0.0)
    centre, along, across = px[:n], (px[n : 2 * n] - px[:n]) / d, (px[2 * n :] - px[:n]) / d
    reach = np.hypot(along, across)  # px per mm along each image axis, whichever table axis
    sigma = np.hypot(reach * TABLE.spot_radius / 2.0, BLUR_PX)
    search = np.clip(
        np.abs(along) * SEARCH_ALONG_MM + np.abs(across) * SEARCH_ACROSS_MM, MIN_SEARCH_PX, MAX_SEARCH_PX
    )
    # The local map's larger singular value (closed form for 2x2): px per mm, unforeshortened.
    frob = np.sum(along**2 + across**2, axis=1)
    det = along[:, 0] * across[:, 1] - along[:, 1] * across[:, 0]
    stretch = np.sqrt(0.5 * (frob + np.sqrt(np.maximum(frob**2 - 4.0 * det**2, 0.0))))
    return centre, sigma, search, TABLE.ball_radius * stretch


def _extent(above: npt.NDArray[np.bool_], at: int) -> float:
    """Half the length (px) of the run of True in ``above`` through index ``at``."""
    right, left = above[at:], above[at::-1]
    r = len(right) if right.all() else int(np.argmin(right))
    lft = len(left) if left.all() else int(np.argmin(left))
    return 0.5 * (r + lft - 1)


def _mark_at(
    bgr: UInt8Array,
    fine: Floats,
    peak_at: tuple[int, int],
    sigma: tuple[float, float],
    least: float,
    ball: float,
) -> bool:
    """Whether the blob whose peak is at ``peak_at`` (row, column) of the smoothed crop ``fine``
    is a mark: the ring, contrast and size tests of the module docstring."""
    py, px = peak_at
    sx, sy = sigma
    rx = np.rint(px + RING * sx * _COS).astype(np.intp)
    ry = np.rint(py + RING * sy * _SIN).astype(np.intp)
    around = fine[ry, rx].astype(np.float64)
    level = float(np.mean(around))
    gx, gy = 0.25 * float(around @ _COS), 0.25 * float(around @ _SIN)
    peak = float(fine[py, px])
    contrast = abs(peak - level)
    if contrast < least or peak < MIN_DARK * level:
        return False
    if float(np.max(np.abs(around - level - gx * _COS - gy * _SIN))) > MAX_RING_SPREAD * contrast:
        return False
    if 2.0 * float(np.hypot(gx, gy)) > MAX_RING_TILT * contrast:
        return False
    # Its size: half its height reached within the geometric mean of a mark's width and a ball's.
    sign, halfway = (1.0 if peak > level else -1.0), 0.5 * (peak + level)
    for line, at, s in ((fine[py], px, sx), (fine[:, px], py, sy)):
        if _extent(sign * (line - halfway) > 0, at) > np.sqrt(_MARK_HM * s * float(np.hypot(ball, 1.18 * s))):
            return False
    cloth = np.array(cv2.mean(bgr)[:3])  # the window is cloth, but for a mark or a ball at most
    off = np.linalg.norm(bgr[ry, rx].astype(np.float64) - cloth, axis=1)
    return float(np.max(off)) <= MAX_RING_COLOUR


#: A mark's half-height half-width after the smoothing, in smoothing widths: its own blurred
#: width and the smoothing's together (sqrt(2 ln 2) * sqrt(2)).
_MARK_HM = 1.67


def classify(
    image: UInt8Array,
    centre: tuple[int, int],
    sigma: tuple[float, float],
    search: tuple[int, int],
    ball: float,
) -> int:
    """What lies on the cloth around pixel ``centre`` (a spot's place, :func:`_windows`), with
    the mark's smoothing widths ``sigma``, the search reach ``search`` (px along x and y) and a
    ball's radius there ``ball`` (px): :data:`MARK`, :data:`BARE_CLOTH` or :data:`UNKNOWN` (a
    ball, a player, a line, a block of the picture's compression, too coarse a view, or out of
    view)."""
    sx, sy = sigma
    if min(np.hypot(ball, 1.18 * sx) / sx, np.hypot(ball, 1.18 * sy) / sy) < MIN_BALL_TO_MARK * _MARK_HM:
        return UNKNOWN  # too coarse a view to tell a ball from a mark by its size
    s = search
    half = (s[0] + int(RING * sx) + 2, s[1] + int(RING * sy) + 2)  # room for the ring
    h, w = image.shape[:2]
    x0, y0 = centre
    if x0 - half[0] < 0 or y0 - half[1] < 0 or x0 + half[0] >= w or y0 + half[1] >= h:
        return UNKNOWN
    bgr = image[y0 - half[1] : y0 + half[1] + 1, x0 - half[0] : x0 + half[0] + 1]
    crop = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY).astype(np.float32)
    kernel = (2 * int(3.0 * sx) + 1, 2 * int(3.0 * sy) + 1)
    fine: Floats = np.asarray(cv2.GaussianBlur(crop, kernel, sigmaX=sx, sigmaY=sy), dtype=np.float32)
    # The cloth around, at three times the mark's width: a box of that spread (cheap at any size;
    # beyond the window's edge it reflects the window, which is cloth too).
    box = (2 * int(5.2 * sx + 0.5) + 1, 2 * int(5.2 * sy + 0.5) + 1)
    dog = fine - cv2.blur(fine, box)
    win = np.abs(dog[half[1] - s[1] : half[1] + s[1] + 1, half[0] - s[0] : half[0] + s[0] + 1])
    at = int(np.argmax(win))
    strongest = float(win.flat[at])
    if strongest < BARE * MIN_CONTRAST:
        return BARE_CLOTH
    least = max(MIN_CONTRAST, MIN_SNR * max(1.4826 * _mad(dog[::2, ::2].ravel()), NOISE_FLOOR))
    if strongest < BARE * least:
        return BARE_CLOTH
    iy, ix = divmod(at, win.shape[1])
    peak_at = (iy + half[1] - s[1], ix + half[0] - s[0])
    return MARK if _mark_at(bgr, fine, peak_at, sigma, least, ball) else UNKNOWN


def mark_codes(image: UInt8Array, to_image: ToImage) -> tuple[list[int], list[int]]:
    """What lies at each of :data:`MARKED`'s spots with the baulk end where ``to_image`` puts
    it, and at each one's mirror image (the table turned end for end): :func:`classify`'s codes."""
    spots = np.array([TABLE.spots[c] for c in MARKED], dtype=np.float64)
    places = np.vstack([spots, np.array([TABLE.length, TABLE.width]) - spots])
    centre, sigma, search, ball = _windows(to_image, places)
    pixel = np.rint(np.nan_to_num(centre, nan=-1e6).clip(-1e6, 1e6)).astype(int).tolist()
    reach = np.ceil(search).astype(int).tolist()
    codes = [
        classify(image, (c[0], c[1]), (g[0], g[1]), (r[0], r[1]), b)
        for c, g, r, b in zip(pixel, sigma.tolist(), reach, ball.tolist(), strict=True)
    ]
    return codes[: len(spots)], codes[len(spots) :]


def mark_votes(image: UInt8Array, to_image: ToImage) -> tuple[int, bool]:
    """Spot marks with bare cloth at their mirror image with the baulk end where ``to_image``
    puts it, minus the same with the table turned end for end (positive for the end as given,
    negative for the other, 0 when the marks say nothing); and whether every mark found lies at
    one end (a stray mark on the cloth at the other end, and the marks' word is not taken)."""
    here, there = mark_codes(image, to_image)
    votes = sum(
        int(a == MARK and b == BARE_CLOTH) - int(a == BARE_CLOTH and b == MARK)
        for a, b in zip(here, there, strict=True)
    )
    return votes, not (MARK in here and MARK in there)
