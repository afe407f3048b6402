"""The centre of a resting ball from its limb (silhouette edge) against the cloth, radius known.

Why: the detector's centres are centroids of how unlike the cloth each pixel is
(:func:`vision.detection.classical.refine_centres`). A ball lit from above is not uniformly
unlike the cloth: its highlight is far from the cloth's colour and its shaded underside, for a
ball of the cloth's own hue (the green on a green cloth, and the black, the brown), is near it
and merges with its own shadow on the cloth. The centroid is pulled towards the lit top by
2-4 mm (the green on its spot measured 4.4 mm towards a white beside it on a 1080p60 render,
a 5.8 mm gap read as 3 mm: a false TOUCHING BALL). The limb does not depend on how the ball
is lit: where it faces bare cloth, the picture changes from ball to cloth across it, however
bright the ball is there. Its apparent radius is known from the camera (the sphere's silhouette
cone), so a fit of the centre alone stands even where part of the limb is lost (in the ball's
own shadow, behind a neighbour, under a line): the arcs that show place the centre.

Along rays from the guessed centre, each sample's colour distance (BGR, so the luma's
full-resolution edge counts, not only the half-resolution chroma's) from the cloth round the
ball; the rim is where that distance falls through the half-way level between the ball just
inside and the cloth just outside, within a band round the known radius; the centre is the
robust least-squares shift that puts every rim point at the known radius. Left out: the rays
towards the ball's foot (its contact shadow), those facing a neighbour ball, those whose
outside is not bare cloth (a shadow, a line) and those whose fall is weak.

Measured on resting balls of the sample clips against their truth (lone balls, the detector's
centre then this fit): the green 3.5 -> 0.7 mm, the black 2.1 -> 1.3, the yellow 1.4 -> 0.3;
a red, unlike the cloth all over, 0.6 -> 1.0 (the chroma's 2x2 blocks along its rim), hence
the tracker takes the fit only where it disagrees with the detector by more than its scatter.
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from calibration.camera import Camera

FloatArray = npt.NDArray[np.float64]
Image = npt.NDArray[np.uint8]

#: Rays cast from the guessed centre.
RAYS = 64
#: The band (radii either side of the known radius) the rim is looked for in: the guess is off
#: by a pixel or two, and farther in lie the highlight's and the shading's own edges.
BAND = 0.35
#: The inside and outside levels of a rim are the profile's means this far (pixels) either side.
EDGE_PX = (1.0, 2.0)
#: Samples along a ray (pixels apart).
STEP_PX = 0.25
#: The cloth round the ball: a ring this many radii out (its median colour per channel).
CLOTH_RING = (1.6, 2.2)
#: Smallest apparent radius (pixels) fitted: a smaller ball's rim band is its whole body.
MIN_RADIUS_PX = 5.0
#: Rays within this angle (degrees) of the ball's foot (its contact with the cloth, seen from
#: the camera) are left out, where the foot lies this many radii or more from the centre.
FOOT_DEG = 70.0
FOOT_RADII = 0.3
#: Rays within this angle (degrees) of the direction of a neighbour are left out: its own rim,
#: the contact's shade, or its body in front of this ball lie there.
BLIND_DEG = 55.0
#: Least fall (colour distance, as a share of the median ray's) a ray's rim must show to
#: count: the shaded underside against its own shadow shows less.
WEAK = 0.25
#: Largest outside level of a rim, as a share of the inside level: farther from the cloth, the
#: rim is against something else.
OUTSIDE = 0.25
#: Colour distance (BGR levels) added to a rim's outside level when rims on one ray are
#: compared: the fall over what lies outside, so the rim with bare cloth beyond it wins over
#: the highlight's edge inside the ball, whatever their falls.
FLOOR = 8.0
#: Least share of the rays that must find the rim.
LEAST_RAYS = 0.3
#: Least spread of the rims' directions (the smaller eigenvalue of their scatter; a whole
#: circle's is a half) for the fit to stand.
SPREAD = 0.15
#: Tukey's biweight cut (pixels) on a rim point's residual from the known radius.
TUKEY_PX = 1.5
#: Fitting passes (rays cast again from the fitted centre).
PASSES = 3
#: Largest shift (radii) of the fitted centre from the guess: farther, the fit found something else.
MAX_SHIFT = 0.35


def limb_centre(
    image: Image,
    guess: FloatArray,
    r: float,
    neighbours: FloatArray | None = None,
    foot: FloatArray | None = None,
) -> FloatArray | None:
    """The centre (image pixels) of the ball near ``guess`` fitted to its limb, radius ``r``.

    Args:
        image: the frame (BGR).
        guess: ``(2,)`` its centre to a pixel or two.
        r: its apparent radius (pixels), from the camera.
        neighbours: ``(K, 2)`` centres of balls beside it (their side of it is not used).
        foot: ``(2,)`` where the ball touches the cloth, in the image (from the camera): its
            contact shadow lies round there, and the arc on that side is not used.

    Returns:
        The centre, or None: too little limb found, the frame's edge in the way, or a fit
        farther than :data:`MAX_SHIFT` radii from the guess.
    """
    h, w = image.shape[:2]
    guess = np.asarray(guess, np.float64)
    if not (np.isfinite(r) and r >= MIN_RADIUS_PX and np.all(np.isfinite(guess))):
        return None
    if foot is not None and not np.all(np.isfinite(foot)):
        foot = None
    reach = CLOTH_RING[1] * r + 2.0
    x0, y0 = int(np.floor(guess[0] - reach)), int(np.floor(guess[1] - reach))
    x1, y1 = int(np.ceil(guess[0] + reach)) + 1, int(np.ceil(guess[1] + reach)) + 1
    if x0 < 0 or y0 < 0 or x1 > w or y1 > h:
        return None
    patch = image[y0:y1, x0:x1].astype(np.float32)
    origin = np.array([x0, y0], np.float64)
    angles = np.arange(RAYS) * (2.0 * np.pi / RAYS)
    dirs = np.stack([np.cos(angles), np.sin(angles)], axis=1)
    near = np.zeros((0, 2)) if neighbours is None else np.asarray(neighbours, np.float64).reshape(-1, 2)
    cloth = _cloth(patch, guess - origin, r, near - origin)
    if cloth is None:
        return None
    dist = np.sqrt(np.sum((patch - cloth) ** 2, axis=2)).astype(np.float32)
    centre = guess - origin
    for _ in range(PASSES):
        use = np.ones(RAYS, bool)
        if foot is not None:
            down = np.asarray(foot, np.float64) - origin - centre
            if np.hypot(*down) > FOOT_RADII * r:
                use &= dirs @ (down / np.hypot(*down)) < np.cos(np.radians(FOOT_DEG))
        if len(near):
            to = near - origin - centre
            to = to / np.maximum(np.linalg.norm(to, axis=1, keepdims=True), 1e-9)
            use &= ~np.any(dirs @ to.T > np.cos(np.radians(BLIND_DEG)), axis=1)
        rim, contrast, outside = _rims(dist, centre, r, dirs)
        # A rim whose outside is not bare cloth (the ball's own shadow, a line, a neighbour)
        # is not the limb against the cloth.
        ok = use & np.isfinite(rim) & (contrast > 0.0) & (outside <= OUTSIDE * (outside + contrast))
        if not np.any(ok):
            return None
        ok &= contrast >= WEAK * float(np.median(contrast[ok]))
        if np.count_nonzero(ok) < LEAST_RAYS * RAYS:
            return None
        # Rims on two opposite arcs only (a neighbour on one side, the foot on the other) leave
        # the centre free across them.
        spread = np.linalg.eigvalsh(dirs[ok].T @ dirs[ok] / np.count_nonzero(ok))[0]
        if spread < SPREAD:
            return None
        shift = _fit(rim[ok] - r, dirs[ok])
        if shift is None:
            return None
        centre = centre + shift
        if np.hypot(*(centre + origin - guess)) > MAX_SHIFT * r:
            return None
    return centre + origin


def _cloth(
    patch: npt.NDArray[np.float32], centre: FloatArray, r: float, near: FloatArray
) -> FloatArray | None:
    """The cloth's colour round the ball: the median of the ring :data:`CLOTH_RING` out, away
    from the neighbours' discs."""
    ys, xs = np.mgrid[0 : patch.shape[0], 0 : patch.shape[1]]
    d2 = (xs - centre[0]) ** 2 + (ys - centre[1]) ** 2
    ring = (d2 >= (CLOTH_RING[0] * r) ** 2) & (d2 <= (CLOTH_RING[1] * r) ** 2)
    for p in near:
        ring &= (xs - p[0]) ** 2 + (ys - p[1]) ** 2 > (1.3 * r) ** 2
    if np.count_nonzero(ring) < 20:
        return None
    return np.median(patch[ring].astype(np.float64), axis=0)


def _rims(
    dist: npt.NDArray[np.float32], centre: FloatArray, r: float, dirs: FloatArray
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Per ray from ``centre``: where its colour distance from the cloth falls through the
    half-way level between the ball's just inside the rim and the cloth's just outside it (NaN:
    it does not, within the band round the known radius), that fall (inside minus outside)
    and the outside level.

    Why the half-way level, not the steepest fall: the profile between pixel centres is
    linear (bilinear sampling), so the steepest fall is a whole pixel's segment and its
    argmax snaps to one end of it; the crossing of a level is placed to a fraction of a pixel.
    Of several crossings in the band, the one with the largest fall.
    """
    lag_lo, lag_hi = round(EDGE_PX[0] / STEP_PX), round(EDGE_PX[1] / STEP_PX)
    t = np.arange((1.0 - BAND) * r - EDGE_PX[1], (1.0 + BAND) * r + EDGE_PX[1] + STEP_PX + 1e-9, STEP_PX)
    pts = centre[None, None, :] + t[None, :, None] * dirs[:, None, :]
    prof = cv2.remap(dist, pts[..., 0].astype(np.float32), pts[..., 1].astype(np.float32), cv2.INTER_LINEAR)
    prof = prof.astype(np.float64)
    n = len(t)
    csum = np.concatenate([np.zeros((len(dirs), 1)), np.cumsum(prof, axis=1)], axis=1)
    j = np.flatnonzero((t >= (1.0 - BAND) * r) & (t <= (1.0 + BAND) * r))
    j = j[(j - lag_hi >= 0) & (j + 1 + lag_hi < n)]
    if not len(j):
        nan = np.full(len(dirs), np.nan)
        return nan, np.zeros(len(dirs)), nan
    # Mean of the profile over [j - lag_hi, j - lag_lo] (inside) and [j + 1 + lag_lo, j + 1 + lag_hi].
    inside = (csum[:, j - lag_lo + 1] - csum[:, j - lag_hi]) / (lag_hi - lag_lo + 1)
    outside = (csum[:, j + 2 + lag_hi] - csum[:, j + 1 + lag_lo]) / (lag_hi - lag_lo + 1)
    level = 0.5 * (inside + outside)
    a, b = prof[:, j], prof[:, j + 1]
    fall = inside - outside
    cross = (a >= level) & (level > b) & (fall > 0.0)
    score = np.where(cross, fall / (np.maximum(outside, 0.0) + FLOOR), -np.inf)
    k = np.argmax(score, axis=1)
    rows = np.arange(len(dirs))
    hit = np.isfinite(score[rows, k])
    ak, bk, lk = a[rows, k], b[rows, k], level[rows, k]
    rims = np.where(hit, t[j[k]] + (ak - lk) / np.maximum(ak - bk, 1e-9) * STEP_PX, np.nan)
    return rims, np.where(hit, fall[rows, k], 0.0), np.where(hit, outside[rows, k], np.nan)


def _fit(resid: FloatArray, dirs: FloatArray) -> FloatArray | None:
    """The shift ``s`` minimising the Tukey-weighed ``sum (resid - dirs @ s)^2``: a rim point
    ``resid`` pixels beyond the known radius along ``dirs`` says the centre lies that much
    along it.

    Why the radius is not fitted too: with the foot's arc left out, the arcs that show do not
    pin it (fitted, the centres on the sample clips at rest were 2.1 mm off, not 1.7), and the
    camera gives it. Why every rim alike, not by its fall: a lit arc's fall is the highlight's,
    not a better rim.
    """
    s = np.zeros(2)
    for _ in range(6):
        e = resid - dirs @ s
        wgt = np.clip(1.0 - (e / TUKEY_PX) ** 2, 0.0, None) ** 2
        a = (dirs * wgt[:, None]).T @ dirs
        if np.linalg.cond(a) > 1e6:
            return None
        s = np.asarray(np.linalg.solve(a, (dirs * wgt[:, None]).T @ resid), np.float64)
    return s


def apparent_radius(camera: Camera, xy: FloatArray, radius_mm: float, scale: float = 1.0) -> FloatArray:
    """Apparent radius (pixels, times ``scale``) of balls resting at table points ``xy`` ``(N, 2)``:
    the mean distance from the projected centre of the projected silhouette, the circle where
    the cone from the camera's centre touches the sphere.

    Why from the camera: the limb fit takes the radius as known (:func:`limb_centre`); a
    detector's radius runs large with the shade and the blur, and a radius off by a pixel puts
    a centre fitted to the arcs that show a pixel off too.
    """
    pts = np.asarray(xy, np.float64).reshape(-1, 2)
    c = np.column_stack([pts, np.full(len(pts), radius_mm)])
    o = np.asarray(camera.centre, np.float64)
    d = c - o
    dist = np.linalg.norm(d, axis=1, keepdims=True)
    dh = d / dist
    sin_a = radius_mm / dist
    cos_a = np.sqrt(np.clip(1.0 - sin_a**2, 0.0, 1.0))
    # Any axis across the line of sight (straight down, the table's x; else the vertical's).
    helper = np.where(np.abs(dh[:, 2:3]) > 0.9, np.array([[1.0, 0.0, 0.0]]), np.array([[0.0, 0.0, 1.0]]))
    u = np.cross(dh, helper)
    u /= np.maximum(np.linalg.norm(u, axis=1, keepdims=True), 1e-12)
    v = np.cross(dh, u)
    phi = np.arange(16) * (2.0 * np.pi / 16)
    ring = np.cos(phi)[None, :, None] * u[:, None, :] + np.sin(phi)[None, :, None] * v[:, None, :]
    tangent = c[:, None, :] + radius_mm * (-sin_a[:, :, None] * dh[:, None, :] + cos_a[:, :, None] * ring)
    proj = camera.project(tangent.reshape(-1, 3)).reshape(len(pts), len(phi), 2)
    centre = camera.project(c)
    out: FloatArray = np.linalg.norm(proj - centre[:, None, :], axis=2).mean(axis=1) * scale
    return out
