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

from vision.detection.cloth import DARK_FRACTION, ClothModel, Mask, chroma_distance, chromaticity, not_cloth
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
#: ... and on the yellow side of the cloth's hue this many degrees: the green ball is bluer
#: than any cloth, while the cloth in a pocket's jaws or by a cushion takes in the leather's and
#: the rail's warmer colours (renders: 3 to 5 degrees yellower than the cloth round it; Task1
#: stills: cut pieces 2 to 3.5). The nearest ball on that side is the white, 8 degrees and more
#: yellower over the 50 Task1 stills (and the renders), the yellow 28 and more.
SHADE_YELLOWER = 6.0
#: The ring round a detection (radii from its centre) whose cloth pixels are its local cloth
#: (:func:`local_cloth`): beyond the ball's blurred rim and the shade at its foot.
LOCAL_RING = (1.6, 2.6)
#: Fewest cloth pixels in that ring for a local reference (inside a pack of reds there is none).
LOCAL_LEAST = 8
#: A piece of the cloth is at most this many times as light as the cloth round it (a chalk
#: line's stub, its brightest pixels left out, 1.06 at most over the renders); the white, as
#: green as the cloth's reflection makes it and blurred with the cloth at 960x540, is 1.4 and
#: more (its hue within the cloth's, its chroma 0.57 of the cloth's).
SHADE_LIGHTER = 1.2
#: A detection whose lightness and chroma each lie within this much (a log ratio: about 7%)
#: of the cloth round it, and its hue within OWN_HUE degrees either side, is a piece of that
#: cloth (:func:`cloth_shade`), whatever side of the cloth's hue it falls. Why: at 960x540 to
#: 1280x720 the piece of cloth and chalk left where a colour stood on the baulk line (the brown
#: gone from its spot, the line joining the yellow's blob at the D's corner) takes in the
#: blur of a ball rolling off or the line's own white: 3.7 degrees bluer and 6.1 yellower than
#: the cloth round it on two renders (seed 107), past SHADE_HUE and SHADE_YELLOWER, yet with
#: the cloth's lightness (0.96-1.01 of it) and chroma (0.95-0.97). It was named the green and
#: took that name for the clip. No ball is the cloth's colour in both: over the 50 Task1 stills
#: the greens are at most 0.93 of the cloth's lightness and 0.90 of its chroma round them, and
#: on the renders 1.3 times as light; the white is 0.43-0.76 of its chroma.
OWN_SPREAD = 0.07
OWN_HUE = 8.0
#: Only a detection within this many degrees of the cloth's overall hue is compared with its
#: local cloth (the others are no shade of it under any of the bed's light).
LOCAL_HUE_SPAN = 20.0
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


def cloth_hue(lab: FloatArray) -> tuple[float, float]:
    """The Lab hue (degrees) and chroma of an OpenCV 8-bit Lab colour."""
    a, b = float(lab[1]) - 128.0, float(lab[2]) - 128.0
    return math.degrees(math.atan2(b, a)) % 360.0, math.hypot(a, b)


def local_cloth(
    image: Image, model: ClothModel, pixel: FloatArray, radius: FloatArray, feats: FloatArray
) -> FloatArray:
    """``(N, 3)``: the Lab hue (degrees), chroma and lightness (over the whole cloth's, as
    :func:`~vision.detection.colour.colour_features` gives a ball's) of the cloth round each
    detection; NaN where too little cloth shows round it, or where the detection is far from
    the cloth's hue.

    The local cloth is the median Lab colour of the pixels of a ring :data:`LOCAL_RING` radii
    round the centre that the cloth model calls cloth (near its chromaticity there, not dark).
    Why local: the lamps, the cushions' shade and a render's coloured light tint the bed
    unevenly, so a piece of the cloth and the green ball are told apart by how far each lies
    from the cloth beside it, not from the cloth's median over the whole bed. Only detections
    within :data:`LOCAL_HUE_SPAN` of the cloth's overall hue are looked at (``feats``: their
    :func:`~vision.detection.colour.colour_features`); no other is a shade of the cloth.

    Args:
        image: the BGR frame (the detector's full resolution).
        model: the cloth model (at its working scale).
        pixel: ``(N, 2)`` the detections' centres in ``image``'s pixels.
        radius: ``(N,)`` their radii in ``image``'s pixels.
        feats: ``(N, 5)`` their colour features.
    """
    n = len(radius)
    out = np.full((n, 3), np.nan)
    hue, _ = cloth_hue(model.lab)
    near = np.abs((feats[:, 4] - hue + 180.0) % 360.0 - 180.0) < LOCAL_HUE_SPAN if n else np.zeros(0, bool)
    idx = np.flatnonzero(near)
    if not len(idx):
        return out
    h, w = image.shape[:2]
    pts = np.asarray(pixel, np.float64).reshape(-1, 2)[idx]
    rad = np.asarray(radius, np.float64).reshape(-1)[idx]
    m = len(idx)
    half = math.ceil(LOCAL_RING[1] * float(rad.max())) + 1
    offs = np.arange(-half, half + 1)
    size = len(offs)
    ys = np.round(pts[:, 1]).astype(np.int64)[:, None] + offs[None, :]
    xs = np.round(pts[:, 0]).astype(np.int64)[:, None] + offs[None, :]
    patches = image[np.clip(ys, 0, h - 1)[:, :, None], np.clip(xs, 0, w - 1)[:, None, :]]
    flat = np.ascontiguousarray(patches.reshape(m * size, size, 3))
    lab = np.asarray(cv2.cvtColor(flat, cv2.COLOR_BGR2Lab), np.float64).reshape(m, size * size, 3)
    chroma, value = chromaticity(flat)
    s = model.scale
    iy = np.clip(np.round((pts[:, 1] + 0.5) * s - 0.5).astype(np.int64), 0, model.region.shape[0] - 1)
    ix = np.clip(np.round((pts[:, 0] + 0.5) * s - 0.5).astype(np.int64), 0, model.region.shape[1] - 1)
    ref = np.broadcast_to(np.asarray(model.chroma, np.float32), (m, 3))
    if model.background is not None:
        ref = model.background[iy, ix]
    dist = chroma_distance(chroma, np.repeat(np.asarray(ref, np.float32), size, axis=0)[:, None, :])
    cloth = (dist <= model.threshold) & (value >= DARK_FRACTION * model.value)
    dy2 = (ys - pts[:, 1:2]) ** 2
    dx2 = (xs - pts[:, 0:1]) ** 2
    d2 = dy2[:, :, None] + dx2[:, None, :]
    r0, r1 = (LOCAL_RING[0] * rad) ** 2, (LOCAL_RING[1] * rad) ** 2
    frame = ((ys >= 0) & (ys < h))[:, :, None] & ((xs >= 0) & (xs < w))[:, None, :]
    ring = (d2 >= r0[:, None, None]) & (d2 <= r1[:, None, None]) & frame & cloth.reshape(m, size, size)
    ring = ring.reshape(m, -1)
    count = ring.sum(axis=1)
    ab = []
    for c in (0, 1, 2):
        srt = np.sort(np.where(ring, lab[:, :, c], np.inf), axis=1)
        lo, hi = np.maximum(count - 1, 0) // 2, np.maximum(count, 1) // 2
        rows = np.arange(m)
        ab.append((srt[rows, lo] + srt[rows, hi]) / 2.0 - (128.0 if c else 0.0))
    ok = count >= LOCAL_LEAST
    out[idx[ok], 0] = np.degrees(np.arctan2(ab[2][ok], ab[1][ok])) % 360.0
    out[idx[ok], 1] = np.hypot(ab[1][ok], ab[2][ok])
    out[idx[ok], 2] = ab[0][ok] / max(float(model.lab[0]), 1.0)
    return out


def cloth_shade(
    model: ClothModel,
    centres: FloatArray,
    radii: FloatArray,
    feats: FloatArray,
    cut: BoolArray,
    local: FloatArray | None = None,
) -> BoolArray:
    """Detections that are cloth: the colour of the cloth round them (``local``: its hue,
    chroma and lightness from :func:`local_cloth`, NaN where unknown) and no lighter than
    :data:`SHADE_LIGHTER` times it, anywhere on the bed; or, where the
    cloth round them is unknown, the cloth's overall colour near a pocket or cut from a
    cushion (``cut``: pieces cut from a blob, and anything by the bed's outline).

    Why: the cloth falling into a corner pocket is in the jaws' shade, a ball-sized dark patch
    the pocket's position (fitted to the bed's outline, off by a radius or two at the far end)
    does not always cover; a piece cut from a cushion's strip (``cut``: see
    :func:`~vision.detection.cluster.stand_out`) can be a ball-sized stretch of the cushion's
    lit nose; and where a ball stands on a chalk line (the colours' spots on the baulk line and
    the D) the line joins its blob, and the piece of cloth and line split off it is taken for a
    ball without a cap (renders at 960x540 to 1280x720: named the green, it took the green's
    name from the ball on the spot). Each is the cloth's own colour, lighter or darker: the
    same hue and a little less chroma, where even the green ball is bluer than the cloth. Over
    the 50 Task1 stills the green balls are 3 to 30 degrees off the cloth round them (and off
    the whole bed's: there one green in the cushion's shade was 2 off, which is why open cloth
    is judged only against the cloth round it); over the random renders (seeds 105-118, 960x540
    and up) the green is 6 to 12 degrees off its local cloth and the pieces of cloth within 2.
    """
    if not len(centres):
        return np.zeros(len(centres), bool)
    near = np.array(
        [near_pocket(model, c, r, SHADE_REACH) for c, r in zip(centres, radii, strict=True)], bool
    )
    hue, chroma = cloth_hue(model.lab)
    overall = _cloth_like(feats, np.full(len(centres), hue), np.full(len(centres), chroma)) & (near | cut)
    if local is None:
        return np.asarray(overall, bool)
    known = np.all(np.isfinite(local), axis=1)
    with np.errstate(invalid="ignore"):
        dim = feats[:, 0] < SHADE_LIGHTER * local[:, 2]
    shade = known & dim & _cloth_like(feats, local[:, 0], local[:, 1])
    return np.asarray(overall | shade | (known & _own_colour(feats, local)), bool)


def _own_colour(feats: FloatArray, local: FloatArray) -> BoolArray:
    """Detections (their colour features) of the colour of the cloth round them (``local``:
    its hue, chroma and lightness, all known): lightness and chroma within :data:`OWN_SPREAD`
    and hue within :data:`OWN_HUE` of it."""
    dh = (feats[:, 4] - local[:, 0] + 180.0) % 360.0 - 180.0
    with np.errstate(invalid="ignore", divide="ignore"):
        light = np.abs(np.log(feats[:, 0] / local[:, 2]))
        chroma = np.abs(np.log(feats[:, 3] / local[:, 1]))
        return np.asarray((np.abs(dh) < OWN_HUE) & (light < OWN_SPREAD) & (chroma < OWN_SPREAD), bool)


def _cloth_like(feats: FloatArray, hue: FloatArray, chroma: FloatArray) -> BoolArray:
    """Detections (their colour features) of a cloth's ``hue`` within :data:`SHADE_HUE` on the
    blue side and :data:`SHADE_YELLOWER` on the other, and at least :data:`SHADE_CHROMA` of
    its ``chroma``."""
    dh = (feats[:, 4] - hue + 180.0) % 360.0 - 180.0
    with np.errstate(invalid="ignore"):
        return np.asarray((dh < SHADE_HUE) & (dh > -SHADE_YELLOWER) & (feats[:, 3] > SHADE_CHROMA * chroma))


def near_pocket(model: ClothModel, centre: FloatArray, radius: float, reach: float) -> bool:
    """Whether a point lies within ``reach`` ball radii of a pocket's centre."""
    if model.pockets is None:
        return False
    d = np.hypot(*(model.pockets - np.asarray(centre, np.float64)).T)
    return bool(d.min() < reach * radius)
