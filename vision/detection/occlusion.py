"""Balls against what is not a ball: cushions, pockets, cues, hands and heads.

Why a module of its own: the classical detector (:mod:`vision.detection.classical`) judges a
blob of not-cloth pixels by its size and shape, and the commonest failures on broadcast
footage are balls joined to something that is no ball (a cue's tip, a bridge hand, a player's
head, the cushion's shade strip) and things that look like a ball where there is none (the
cloth in a pocket's jaws, a lit stretch of cushion cut from its strip). This module cuts balls
out of such blobs by shape and brightness, and rejects detections that are the cloth's own
colour where the cloth is in shade.
"""

from __future__ import annotations

import math

import cv2
import numpy as np
import numpy.typing as npt

from vision.detection.cloth import ClothModel, Mask, not_cloth
from vision.detection.cluster import ClusterPrior
from vision.detection.detections import Image

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]

#: A blob whose centre is this many ball radii from a pocket's centre is the pocket (its fall,
#: leather or shade: the corner plates are as bright as the white), POCKET_REACH_BORDER for
#: one touching the bed's outline. Over the 50 Task1 stills such blobs lie within 3.3 radii
#: of a pocket in either half (odd, even) and the nearest real balls at 4.6 and beyond.
POCKET_REACH = 3.5
POCKET_REACH_BORDER = 4.0
#: Confidence of a ball found on a blob from the border (a cushion's strip, a hand) and of one
#: cut from an occluder: the least certain kinds, which :func:`cloth_shade` judges by colour.
BORDER_SCORE = 0.6
CUT_SCORE = 0.55
#: A detection within SHADE_REACH radii of a pocket, within SHADE_HUE degrees of the cloth's hue
#: and at least SHADE_CHROMA of its chroma is the pocket's shaded cloth (:func:`cloth_shade`).
SHADE_REACH = 6.0
SHADE_HUE = 2.5
SHADE_CHROMA = 0.5
#: Below this ball radius (working pixels) a rejected blob is cut again at the frame's own
#: resolution (:func:`stand_out_fine`): the candidate mask's 3x3 opening and closing widen a
#: cue's tip to about as wide as such a ball, and the opening no longer parts them.
FINE_RADIUS = 4.0
#: Opening diameter, in radii, that cuts a ball from a cue, a finger or a strip of shade it
#: touches: each is thinner than this, a ball is wider.
CUT_DIAMETER = 1.0
#: The openings tried in turn: a cue's butt end is as thick as a ball's radius (29 mm against
#: 26), and the mask's closing widens it, so the narrow opening leaves it joined to the ball it
#: lies against; the wider one cuts it off and still keeps the ball's whole disc.
CUT_DIAMETERS = (CUT_DIAMETER, 1.5)
#: A cut-out piece is one ball when its area is within these multiples of a lone ball's...
PIECE_AREA = (0.6, 1.6)
#: ... or from BRIGHT_PIECE_AREA when cut by brightness (its shaded side goes with the shadow).
BRIGHT_PIECE_AREA = 0.4
#: ... and it fills this much of its bounding box (a disc fills pi/4).
PIECE_FILL = 0.6


def stand_out(
    blob: BoolArray,
    origin: tuple[int, int],
    r: float,
    prior: ClusterPrior,
    bright: BoolArray | None = None,
    dark: BoolArray | None = None,
) -> FloatArray:
    """Balls that stand out of a blob which is not balls as a whole (working-scale centres).

    Why: a ball touched by a cue's tip, a hand resting beside it or a player's head over the
    table joins their blob, which is then rejected whole (it is thicker than any cluster, or
    not round). Morphological opening with a disc somewhat wider than a cue or a finger and
    narrower than a ball cuts the ball from them; a cut piece of one ball's area that is
    round is the ball. Pieces of the occluder itself (a knuckle, a fist) are bigger or not
    round. Where a ball touches the occluder along a wide edge (the white against a dark
    head) the opening cannot cut them, but their brightness can: with ``bright`` (pixels
    brighter than the cloth) the bright part of the blob is cut on its own too. (The dark
    part is not: a skin-coloured fist at a sleeve's end would be cut from it as a ball.)
    """
    parts = [(blob, PIECE_AREA[0])]
    if bright is not None:
        # A bright ball's shaded side and its shadow go with the dark part: what is left of
        # it is smaller than a whole ball's blob.
        parts += [(blob & bright, BRIGHT_PIECE_AREA)]
    if dark is not None:
        parts += [(blob & dark, BRIGHT_PIECE_AREA)]
    found: list[tuple[float, float]] = []
    for part, least in parts:
        for u, v in _pieces(part, r, prior, least):
            if all((u - a) ** 2 + (v - b) ** 2 > r * r for a, b in found):
                found.append((u, v))
    return np.asarray(found, np.float64).reshape(-1, 2) + np.asarray(origin, np.float64)


def _pieces(blob: BoolArray, r: float, prior: ClusterPrior, least: float) -> list[tuple[float, float]]:
    """Centres of the ball-like pieces the opening cuts from ``blob`` (its own pixels)."""
    a1 = prior.single * math.pi * r * r
    out: list[tuple[float, float]] = []
    for diameter in CUT_DIAMETERS:
        d = max(3, round(diameter * r) | 1)
        se = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (d, d))
        opened = cv2.morphologyEx(blob.astype(np.uint8), cv2.MORPH_OPEN, se)
        n, _, stats, cents = cv2.connectedComponentsWithStats(opened, connectivity=8)
        for k in range(1, n):
            _, _, w, h, area = (int(v) for v in stats[k])
            if not least * a1 <= area <= PIECE_AREA[1] * a1:
                continue
            if max(w, h) > 1.5 * min(w, h) or area < PIECE_FILL * w * h:
                continue
            u, v = float(cents[k][0]), float(cents[k][1])
            if all((u - a) ** 2 + (v - b) ** 2 > r * r for a, b in out):
                out.append((u, v))
    return out


def cut_out(
    model: ClothModel,
    sub: npt.NDArray[np.bool_],
    origin: tuple[int, int],
    r: float,
    bright: Mask | None,
    prior: ClusterPrior,
    dark: Mask | None = None,
) -> tuple[FloatArray, FloatArray]:
    """Balls standing out of a rejected blob from the border, with their own radii; none
    within the border's pocket reach (a pocket's jaw cut from its shade is as round)."""
    x0, y0 = origin
    h, w = sub.shape
    window = (slice(y0, y0 + h), slice(x0, x0 + w))
    found = stand_out(
        sub,
        origin,
        r,
        prior,
        None if bright is None else bright[window] > 0,
        None if dark is None else dark[window] > 0,
    )
    rad = model.radius_at(found)
    keep = np.array(
        [not near_pocket(model, c, ri, POCKET_REACH_BORDER) for c, ri in zip(found, rad, strict=True)], bool
    ).reshape(-1)
    return found[keep], rad[keep]


def stand_out_fine(
    image: Image,
    model: ClothModel,
    blob: BoolArray,
    origin: tuple[int, int],
    r: float,
    prior: ClusterPrior,
) -> FloatArray:
    """Balls standing out of a rejected blob, cut on ``image`` itself (working-scale centres).

    Why: a 1080p frame is worked on at a third of its width, where a ball is 3 to 4 pixels in
    radius; a cue's tip addressing the white (10 mm against the ball's 52) is widened by the
    candidate mask's own opening and closing to nearly a ball's width there, and the white,
    the cue and the hand holding it are one blob from which no opening cuts the ball (a
    render's white put down in hand and addressed for two seconds was never found). At the
    frame's resolution the ball is twice as many pixels across and the tip stays thin. Only
    the blob's own pixels (and a working pixel round them) are looked at, so the cost is that
    of the occluder's box.

    Args:
        image: the BGR picture the working scale was taken from (a frame or an ROI's crop).
        model: the cloth model at the working scale (of the same crop).
        blob: the rejected blob's pixels within its box (working scale).
        origin: the box's top-left corner (working pixels).
        r: a ball's radius there (working pixels).
        prior: the lone-ball prior used to size the pieces.
    """
    s = model.scale
    x0, y0 = origin
    h, w = blob.shape
    fx0, fy0 = int(x0 / s), int(y0 / s)
    fx1, fy1 = min(image.shape[1], math.ceil((x0 + w) / s)), min(image.shape[0], math.ceil((y0 + h) / s))
    if fx1 - fx0 < 3 or fy1 - fy0 < 3:
        return np.zeros((0, 2))
    size = (fx1 - fx0, fy1 - fy0)
    ref: FloatArray | npt.NDArray[np.float32] = model.chroma
    if model.background is not None:
        grid = model.background[y0 : y0 + h, x0 : x0 + w]
        ref = np.asarray(cv2.resize(grid, size, interpolation=cv2.INTER_LINEAR), np.float32)
    grown = cv2.dilate(blob.astype(np.uint8), np.ones((3, 3), np.uint8))
    within = cv2.resize(grown, size, interpolation=cv2.INTER_NEAREST) > 0
    fine = not_cloth(image[fy0:fy1, fx0:fx1], ref, model) & within
    # Closing fills a ball's highlight, as the working mask's does; no opening (it is what
    # joined the tip to the ball).
    closed = cv2.morphologyEx(fine.astype(np.uint8), cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    found = stand_out(closed > 0, (fx0, fy0), r / s, prior)
    return (found + 0.5) * s - 0.5


def cloth_shade(
    model: ClothModel, centres: FloatArray, radii: FloatArray, feats: FloatArray, cut: BoolArray
) -> BoolArray:
    """Detections that are cloth: the cloth's colour, near a pocket or cut from a cushion
    (``cut``: pieces cut from a blob, and anything by the bed's outline).

    Why: the cloth falling into a corner pocket is in the jaws' shade, a ball-sized dark patch
    the pocket's position (fitted to the bed's outline, off by a radius or two at the far end)
    does not always cover; and a piece cut from a cushion's strip (``cut``: see
    :func:`~vision.detection.cluster.stand_out`) can be a ball-sized stretch of the cushion's
    lit nose. Either is the cloth's own colour, lighter or darker: the same hue and a little
    less chroma, where even the green ball is bluer than the cloth (over the 50 Task1 stills,
    green balls 3 to 32 degrees off the cloth's hue, pocket shade and cushion 0 to 1; one
    green in the cushion's shade 2, which is why open cloth is never judged this way).
    """
    if not len(centres):
        return np.zeros(len(centres), bool)
    a, b = float(model.lab[1]) - 128.0, float(model.lab[2]) - 128.0
    hue = math.degrees(math.atan2(b, a)) % 360.0
    chroma = math.hypot(a, b)
    dh = np.abs((feats[:, 4] - hue + 180.0) % 360.0 - 180.0)
    cloth_like = (dh < SHADE_HUE) & (feats[:, 3] > SHADE_CHROMA * chroma)
    near = np.array(
        [near_pocket(model, c, r, SHADE_REACH) for c, r in zip(centres, radii, strict=True)], bool
    )
    return np.asarray(cloth_like & (near | cut), bool)


def near_pocket(model: ClothModel, centre: FloatArray, radius: float, reach: float) -> bool:
    """Whether a point lies within ``reach`` ball radii of a pocket's centre."""
    if model.pockets is None:
        return False
    d = np.hypot(*(model.pockets - np.asarray(centre, np.float64)).T)
    return bool(d.min() < reach * radius)
