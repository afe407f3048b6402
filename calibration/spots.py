"""Which end is baulk, from the colours sitting on their spots: the fallback when the
baulk-line and D are faint, worn or hidden, and the check when they barely stand out.

The colours are spotted at set places (Section 1 Rule 1(f); Section 3 Rule 3(a)): yellow at the
baulk end, pink and black towards the top cushion. Turning the table end for end moves each
spot to a place where no colour belongs, so a yellow ball on the yellow spot, or the black on
the black spot, votes for one end. Only colours that the cloth, the reds and the shadows cannot
imitate vote: yellow (bright, saturated), black (far darker than the cloth) and pink (light,
weakly saturated red). Green (close to the cloth's hue), brown (close to a red in shadow) and
blue (on the centre spot, the same place either way) do not.

A ball is looked for where its centre would be, :attr:`TABLE.ball_radius` above the cloth,
within :data:`SEARCH_MM` of its spot; it counts when enough of that disc reads as its colour to
make a good part of one ball. Only those pixels are converted to HSV.
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from calibration.homography import FloatArray
from calibration.markings import ToImage, UInt8Array
from calibration.table import TABLE, Colour

#: The colours that vote (see module docstring).
VOTERS = (Colour.YELLOW, Colour.PINK, Colour.BLACK)

#: How far from its spot a ball is looked for (mm): room for a first camera a few
#: centimetres out, and for a colour not quite on its spot.
SEARCH_MM = 100.0

#: Sample spacing inside the search disc (mm).
STEP_MM = 6.0

#: Share of one ball's area that must read as its colour for the ball to count as there.
MIN_AREA = 0.4


def _disc(centre: FloatArray) -> FloatArray:
    """Table points of the search disc around each ``(N, 2)`` centre: ``(N, K, 2)``."""
    g = np.arange(-SEARCH_MM, SEARCH_MM + 1e-9, STEP_MM)
    gx, gy = np.meshgrid(g, g)
    keep = gx * gx + gy * gy <= SEARCH_MM * SEARCH_MM
    ring = np.stack([gx[keep], gy[keep]], axis=1)
    out: FloatArray = centre[:, None, :] + ring[None, :, :]
    return out


def _hsv_at(image: UInt8Array, px: FloatArray) -> npt.NDArray[np.int16]:
    """HSV ``(..., 3)`` of the picture at pixels ``(..., 2)`` (nearest pixel, clipped)."""
    shape = px.shape[:-1]
    flat = px.reshape(-1, 2)
    h, w = image.shape[:2]
    x = np.clip(np.round(flat[:, 0]).astype(np.intp), 0, w - 1)
    y = np.clip(np.round(flat[:, 1]).astype(np.intp), 0, h - 1)
    bgr = np.ascontiguousarray(image[y, x].reshape(-1, 1, 3))
    hsv = cv2.cvtColor(bgr, cv2.COLOR_BGR2HSV).reshape(*shape, 3)
    out: npt.NDArray[np.int16] = hsv.astype(np.int16)
    return out


def _looks(colour: Colour, hsv: npt.NDArray[np.int16], cloth_value: float) -> npt.NDArray[np.bool_]:
    """Whether each HSV sample reads as ``colour`` (OpenCV ranges: hue 0-179)."""
    h, s, v = hsv[..., 0], hsv[..., 1], hsv[..., 2]
    if colour is Colour.YELLOW:
        out: npt.NDArray[np.bool_] = (h >= 15) & (h <= 38) & (s >= 100) & (v >= 110)
    elif colour is Colour.BLACK:
        out = v < 0.45 * cloth_value
    elif colour is Colour.PINK:
        out = ((h >= 155) | (h <= 12)) & (s >= 25) & (s <= 170) & (v >= max(140.0, 0.9 * cloth_value))
    else:
        raise ValueError(f"{colour} does not vote on orientation")
    return out


def spot_votes(image: UInt8Array, to_image: ToImage) -> int:
    """Colours on their spots with the baulk end where ``to_image`` puts it, minus colours on
    their spots with the table turned end for end: positive for the end as given, negative for
    the other, 0 when the colours say nothing (off their spots, hidden, or out of view)."""
    spots = np.array([TABLE.spots[c] for c in VOTERS])
    turned = np.array([TABLE.length, TABLE.width]) - spots
    discs = _disc(np.vstack([spots, turned]))
    px = to_image(discs.reshape(-1, 2), TABLE.ball_radius).reshape(discs.shape)
    h, w = image.shape[:2]
    inside = (px[..., 0] >= 0) & (px[..., 0] <= w - 1) & (px[..., 1] >= 0) & (px[..., 1] <= h - 1)
    hsv = _hsv_at(image, px)
    # The cloth's brightness, for the black: the value a little beside the blue spot, on cloth.
    probe = np.array([[TABLE.length / 2.0 + 150.0, TABLE.width / 2.0 + 150.0]])
    cloth_value = float(np.median(_hsv_at(image, to_image(_disc(probe).reshape(-1, 2), 0.0))[..., 2]))
    n = len(VOTERS)
    need = MIN_AREA * np.pi * TABLE.ball_radius**2 / STEP_MM**2  # samples on one ball
    votes = 0
    for i, colour in enumerate(VOTERS):
        for row, sign in ((i, 1), (i + n, -1)):
            hits = int(np.count_nonzero(_looks(colour, hsv[row], cloth_value) & inside[row]))
            votes += sign * int(hits >= need)
    return votes
