"""The synthetic camera's renderer: table, balls and people through :class:`calibration.camera.Camera`.

Why it is built this way:

- Everything is ray-cast from the true camera (distortion included), so a pixel of the video
  and a pixel of the truth files (``NAME.tracks.csv``, ``NAME.camera.json``) are the same
  pixel: no second projection model can drift from the one calibration is scored against.
- The static scene (floor, table body, rails, cushions, pockets, cloth and markings) is ray
  cast once per clip into a background layer; per frame only the balls are cast, each in a
  small region of interest, which keeps 720p well above real time on two CPU cores.
- Balls are true spheres with their centre ``TABLE.ball_radius`` above the cloth: each ROI
  pixel's ray is intersected with the sphere, giving the exact silhouette (an ellipse-like
  outline under perspective and distortion), an anti-aliased edge from the ray's miss
  distance, and a normal for diffuse, specular (the overhead lamps' highlight) and the
  darker rim. A soft contact shadow darkens the cloth under each ball first.
- Motion blur averages the ball layer over sub-frame positions within the exposure time,
  so a fast ball is a streak exactly as long as the shutter makes it.

The cushions: a face in shadow from the bed up to the nose at the rules' height
(:data:`calibration.fit.NOSE_HEIGHT`, 63.5% of a ball's diameter), a cushion top level with the
nose out to the rail, which stands a few millimetres higher (:data:`RAIL_HEIGHT`), and a lit
line where the cloth folds over the nose. Measured on the real broadcast frames (every Task1
frame and Task2 first frame, brightness profiles across the seen side cushions through the
fitted camera): the step from the shadowed face up to the cushion top lies on the nose line
(the detected edge points cluster there, median -0.8 to +0.1 mm), with no brighter line behind
it (brightest within 15 mm behind the nose 0.99 of the bed, the cushion top 0.96). This
renderer used to put the nose at the rail's height (38 mm, 4.7 mm too high) and its lit line
6 mm behind it (brightest 1.08 of the bed there, the top 0.85): through the TRUE camera the
seen cushion edges of synthetic frames lay 3.6 mm outside the nose line (seeds 1000-1039),
a bias the real frames do not have and that the calibration could only half absorb.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from calibration.fit import NOSE_HEIGHT
from calibration.table import TABLE, colour_of
from vision.synthetic.conditions import APRON_DEPTH, RAIL_HEIGHT, Conditions

F32 = npt.NDArray[np.float32]
U8 = npt.NDArray[np.uint8]
FloatArray = npt.NDArray[np.float64]

#: Ball albedo by colour (BGR, 0-1): chosen so the rendered balls' mean colours fall near the
#: Task1 balls' (cream white, deep red, saturated yellow, dark green...).
BALL_ALBEDO: dict[str, tuple[float, float, float]] = {
    "white": (0.82, 0.90, 0.92),
    "red": (0.10, 0.12, 0.86),
    "yellow": (0.10, 0.88, 1.00),
    "green": (0.30, 0.55, 0.08),
    "brown": (0.08, 0.25, 0.50),
    "blue": (0.90, 0.55, 0.08),
    "pink": (0.62, 0.58, 1.00),
    "black": (0.06, 0.06, 0.06),
}

#: Directions towards the lamps above the table (world, normalised below): a canopy of
#: lights spread along the table, so each ball shows one main highlight and soft shading.
_LAMPS = np.array([[0.0, 0.0, 1.0], [0.35, 0.0, 1.0], [-0.35, 0.0, 1.0]])
_LAMPS = _LAMPS / np.linalg.norm(_LAMPS, axis=1, keepdims=True)
_LAMP_WEIGHTS = np.array([0.6, 0.2, 0.2])


@dataclass(frozen=True)
class Rays:
    """Per-pixel viewing rays of a camera: the static geometry every frame reuses.

    Attributes:
        origin: camera centre (world mm), ``(3,)``.
        direction: ``(H, W, 3)`` unit ray directions (world), distortion undone.
        cloth_xy: ``(H, W, 2)`` where each ray meets the cloth plane (table mm); NaN if never.
        pixel_mm: ``(H, W)`` footprint of one pixel on the cloth (mm), for anti-aliasing.
        focal: focal length (px), to turn a ray's miss distance into pixels.
    """

    origin: FloatArray
    direction: F32
    cloth_xy: F32
    pixel_mm: F32
    focal: float


def cast_rays(conditions: Conditions) -> Rays:
    """Every pixel's ray, through the inverse of the camera's distortion."""
    cam = conditions.camera
    w, h = conditions.width, conditions.height
    u, v = np.meshgrid(np.arange(w, dtype=np.float64), np.arange(h, dtype=np.float64))
    px = np.stack([u.ravel(), v.ravel()], axis=1)
    und = cam.undistort(px)
    k = cam.intrinsics
    xn = (und[:, 0] - k.cx) / k.fx
    yn = (und[:, 1] - k.cy) / k.fy
    dirs_cam = np.stack([xn, yn, np.ones_like(xn)], axis=1)
    dirs = dirs_cam @ cam.rotation  # R^T applied to row vectors: the camera's internal frame
    dirs[:, 2] *= -1.0  # internal (x, y, -z) back to table millimetres with z up
    dirs /= np.linalg.norm(dirs, axis=1, keepdims=True)
    origin = cam.centre
    cloth = _hit_plane(origin, dirs, 0.0)
    cloth_xy = cloth.reshape(h, w, 2).astype(np.float32)
    gx = np.gradient(cloth_xy, axis=1)
    gy = np.gradient(cloth_xy, axis=0)
    area = np.abs(gx[..., 0] * gy[..., 1] - gx[..., 1] * gy[..., 0])
    pixel_mm = np.sqrt(np.nan_to_num(area, nan=1e6)).astype(np.float32)
    return Rays(origin, dirs.reshape(h, w, 3).astype(np.float32), cloth_xy, pixel_mm, float(k.fx))


def _outside(xy: F32) -> F32:
    """How far (mm) points on a plane lie outside the bed's outline; 1e9 where a ray missed it."""
    ox = np.maximum(-xy[..., 0], xy[..., 0] - TABLE.length)
    oy = np.maximum(-xy[..., 1], xy[..., 1] - TABLE.width)
    out: F32 = np.nan_to_num(np.maximum(ox, oy), nan=1e9)
    return out


def _hit_plane(origin: FloatArray, dirs: FloatArray, z: float) -> FloatArray:
    """Where rays meet the horizontal plane at height ``z``; NaN where they never do."""
    dz = dirs[:, 2]
    with np.errstate(divide="ignore", invalid="ignore"):
        s = (z - origin[2]) / dz
    s = np.where(s > 0, s, np.nan)
    out: FloatArray = origin[:2] + dirs[:, :2] * s[:, None]
    return out


# ---- the static background ---------------------------------------------------------------


def _smooth_noise(shape: tuple[int, int], scale: float, rng: np.random.Generator) -> F32:
    """Zero-mean, unit-ish low-frequency noise: cloth mottling and wood grain."""
    h, w = shape
    sh, sw = max(2, int(h / scale)), max(2, int(w / scale))
    small = rng.standard_normal((sh, sw)).astype(np.float32)
    big = cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)
    out: F32 = (big / max(float(big.std()), 1e-6)).astype(np.float32)
    return out


def _band(distance: F32, half_width: float, pixel_mm: F32) -> F32:
    """Anti-aliased coverage of a line of ``half_width`` mm given distances to its centre."""
    cov: F32 = np.clip(0.5 + (half_width - np.abs(distance)) / np.maximum(pixel_mm, 1e-3), 0.0, 1.0)
    return cov


def render_background(conditions: Conditions, rays: Rays, seed: int = 0) -> U8:
    """The table and its surroundings, once per clip (BGR uint8).

    Layers from the floor up: arena floor, the table body's sides, the rail tops (wood,
    at :data:`RAIL_HEIGHT`), the cushions (cloth-covered rubber, darker, with the lit nose),
    the pocket openings and leathers, then the bed of cloth (lamp fall-off, nap shading,
    mottling) and its white markings.
    """
    rng = np.random.default_rng([seed, 7])
    h, w = conditions.height, conditions.width
    dirs = rays.direction.reshape(-1, 3).astype(np.float64)
    length, width = TABLE.length, TABLE.width
    cw, rw = TABLE.cushion_width, TABLE.rail_width
    outer = cw + rw

    # Floor: a flat plane below the table, darker away from the lamps.
    floor_xy = _hit_plane(rays.origin, dirs, -APRON_DEPTH - 150.0).reshape(h, w, 2)
    fx = (floor_xy[..., 0] - length / 2) / (length * 0.9)
    fy = (floor_xy[..., 1] - width / 2) / (width * 1.6)
    fdist = np.nan_to_num(np.sqrt(fx * fx + fy * fy), nan=3.0)
    floor_gain = (1.0 / (1.0 + 0.8 * fdist * fdist)).astype(np.float32)
    img = np.empty((h, w, 3), np.float32)
    img[:] = np.array(conditions.floor, np.float32)
    img *= (floor_gain * (1.0 + 0.05 * _smooth_noise((h, w), 6, rng)))[..., None]

    # Table body: the vertical sides below the rail, drawn as polygons (only faces turned to
    # the camera are visible; painting far faces first is enough for a convex box).
    _draw_apron(img, conditions, outer)

    # Rail-top plane (wood), and the cushion tops a little lower, level with the nose.
    rail_xy = _hit_plane(rays.origin, dirs, RAIL_HEIGHT).reshape(h, w, 2).astype(np.float32)
    top_xy = _hit_plane(rays.origin, dirs, NOSE_HEIGHT).reshape(h, w, 2).astype(np.float32)
    out_rail = _outside(rail_xy)
    out_top = _outside(top_xy)
    # A ray meets the rail top first where that lies over the rail; otherwise the cushion top,
    # or the rail's inner edge (the few millimetres the rail stands above the cushion).
    on_rail = (out_rail > cw) & (out_rail <= outer)
    rail_edge = ~on_rail & (out_rail <= cw) & (out_top > cw) & (out_top <= outer)
    in_rail = on_rail | rail_edge
    in_cushion = ~in_rail & (out_top > 0) & (out_top <= cw)
    rx = np.where(in_rail, rail_xy[..., 0], top_xy[..., 0])
    ry = np.where(in_rail, rail_xy[..., 1], top_xy[..., 1])
    out_x = np.maximum(-rx, rx - length)
    out_y = np.maximum(-ry, ry - width)
    out = np.where(in_rail, out_rail, out_top)
    cloth_xy = rays.cloth_xy
    cx, cy = np.nan_to_num(cloth_xy[..., 0], nan=-1e9), np.nan_to_num(cloth_xy[..., 1], nan=-1e9)
    on_bed = (cx >= 0) & (cx <= length) & (cy >= 0) & (cy <= width) & (out_top <= 0)
    # Rays between the nose and the bed, inside the cushions' outline, see a cushion's face.
    cushion_face = (out_top <= 0) & ~on_bed

    light = conditions.light
    # Wood: grain along the rail, darker outer edge, lamp fall-off.
    along = np.where(out_x > out_y, ry, rx)
    grain = np.sin(along * 0.05 + 3.0 * _smooth_noise((h, w), 20, rng)) * 0.06
    edge = np.clip((outer - out) / 30.0, 0.4, 1.0)
    wood = np.array(conditions.rail, np.float32) * (light * (1.0 + grain) * edge)[..., None]
    img[in_rail] = wood[in_rail]
    # Cushion tops: the same cloth, less lit; the cloth folding over the nose catches the
    # light, brightest at the nose itself (not behind it: module docstring, "The cushions").
    cloth_rgb = np.array(conditions.cloth, np.float32)
    nose = np.exp(-(out**2) / 60.0)
    cush_gain = light * (0.72 + 0.25 * nose)
    img[in_cushion] = (cloth_rgb * cush_gain[..., None])[in_cushion]
    img[cushion_face] = cloth_rgb * (0.5 * light)

    # Bed of cloth.
    bx = (cx - length / 2) / (length / 2)
    by = (cy - width / 2) / (width / 2)
    fall = 1.0 - conditions.falloff * (0.55 * bx * bx + 0.45 * by * by)
    view_along = rays.direction[..., 0] / np.maximum(
        np.hypot(rays.direction[..., 0], rays.direction[..., 1]), 1e-6
    )
    nap = 1.0 + conditions.nap * view_along
    # Sheen: baize looks brighter seen steeply than at a grazing angle (Task1: V rises from
    # ~130 at the far cushion to ~190 near the camera); normalised so the mean is unchanged.
    steep = np.clip(-rays.direction[..., 2], 0.05, 1.0)
    mean_steep = float(np.mean(steep[on_bed])) if on_bed.any() else 1.0
    nap = nap * (steep / mean_steep) ** conditions.sheen
    mottle = (
        1.0 + 0.02 * _smooth_noise((h, w), 40, rng) + 0.012 * rng.standard_normal((h, w)).astype(np.float32)
    )
    bed = cloth_rgb * (light * fall * nap * mottle)[..., None]
    # Markings: the baulk-line, the D (as much chalk as is left) and the six spots (white, thin:
    # often sub-pixel).
    half = TABLE.marking_width / 2.0
    pm = rays.pixel_mm
    line = _band(cx - TABLE.baulk_line, half, pm) * ((cy >= 0) & (cy <= width))
    dcx, dcy = TABLE.d_centre
    rr = np.hypot(cx - dcx, cy - dcy)
    arc = _band(rr - TABLE.d_radius, half, pm) * (cx <= TABLE.baulk_line)
    marks = conditions.chalk * np.maximum(line, arc)
    for sx, sy in TABLE.spots.values():
        marks = np.maximum(marks, _band(np.hypot(cx - sx, cy - sy), TABLE.spot_radius, pm))
    chalk = np.array([205.0, 215.0, 210.0], np.float32) * light
    bed = bed * (1.0 - 0.7 * marks[..., None]) + chalk * (0.7 * marks[..., None])
    img[on_bed] = bed[on_bed]

    # Pockets: a dark opening cut through cushion and rail, ringed by a leather on the rail.
    for pocket in TABLE.pockets.values():
        px, py = pocket.centre
        r_hole = pocket.radius * 1.12
        for plane_x, plane_y, zone in ((rx, ry, (out > -5.0) & (out <= outer)), (cx, cy, on_bed)):
            d = np.hypot(plane_x - px, plane_y - py)
            if zone is not on_bed:
                leather = (d <= r_hole + 34.0) & (out > 0) & (out <= outer)
                shade = 0.8 + 0.2 * np.clip((d - r_hole) / 34.0, 0, 1)
                img[leather] = (np.array([150.0, 215.0, 235.0], np.float32) * light * shade[..., None])[
                    leather
                ]
            hole = (d <= r_hole) & zone
            depth = np.clip(d / r_hole, 0, 1)
            img[hole] = (np.array([8.0, 9.0, 10.0], np.float32) * (0.5 + 0.8 * depth[..., None]))[hole]
    out_img: U8 = np.clip(img, 0, 255).astype(np.uint8)
    return out_img


def _draw_apron(img: F32, conditions: Conditions, outer: float) -> None:
    cam = conditions.camera
    length, width = TABLE.length, TABLE.width
    c = [(-outer, -outer), (length + outer, -outer), (length + outer, width + outer), (-outer, width + outer)]
    faces = []
    outward = [(0.0, -1.0), (1.0, 0.0), (0.0, 1.0), (-1.0, 0.0)]
    for i in range(4):
        a, b = c[i], c[(i + 1) % 4]
        quad = np.array([[*a, RAIL_HEIGHT], [*b, RAIL_HEIGHT], [*b, -APRON_DEPTH], [*a, -APRON_DEPTH]])
        mid = quad.mean(axis=0)
        # Only the sides turned towards the camera are seen.
        if float(np.dot(cam.centre[:2] - mid[:2], outward[i])) <= 0:
            continue
        if np.any(cam.depth(quad[:, :2], 0.0) <= 0):
            continue
        dist = float(np.linalg.norm(mid - cam.centre))
        faces.append((dist, quad, i))
    for _, quad, i in sorted(faces, key=lambda f: -f[0]):
        px = cam.project(quad)
        shade = 0.55 if i % 2 == 0 else 0.45
        col = tuple(float(v) * shade * conditions.light for v in conditions.rail)
        cv2.fillConvexPoly(img, np.round(px * 16).astype(np.int32), col, cv2.LINE_AA, 4)


# ---- balls -------------------------------------------------------------------------------


@dataclass(frozen=True)
class BallStyle:
    """How one ball looks: albedo (BGR 0-1)."""

    albedo: tuple[float, float, float]


def ball_style(name: str) -> BallStyle:
    """Albedo of an event-log ball name."""
    return BallStyle(BALL_ALBEDO[colour_of(name).value])


#: World (z up) to the camera's internal frame (z down).
_FLIP = np.array([1.0, 1.0, -1.0])

#: A cached ball or shadow layer: ROI (x0, y0, x1, y1), alpha or gain ``(h, w, 1)``, colour.
_Layer = tuple[tuple[int, int, int, int], F32, F32 | None]


class BallPainter:
    """Casts balls and their contact shadows into a frame, one small ROI at a time."""

    def __init__(self, conditions: Conditions, rays: Rays) -> None:
        self.conditions = conditions
        self.rays = rays
        self.h, self.w = conditions.height, conditions.width
        self.cam = conditions.camera
        self.radius = TABLE.ball_radius
        self._cache: dict[tuple[str, str, bytes], _Layer | None] = {}
        # The camera's matrices once: Camera recomputes them on every call. They act on its
        # internal right-handed frame (x, y, -z), hence _FLIP on every world point.
        self._rot = self.cam.rotation
        self._rvec = cv2.Rodrigues(self._rot)[0]
        self._trans = self.cam.translation
        self._k = self.cam.intrinsics.matrix
        self._dist = self.cam.intrinsics.dist_array

    def depth(self, points: FloatArray) -> FloatArray:
        """Depth along the optical axis of 3-D points (mm)."""
        out: FloatArray = ((points * _FLIP) @ self._rot.T + self._trans)[:, 2]
        return out

    def _roi(self, centres_px: FloatArray, radius_px: float) -> tuple[int, int, int, int] | None:
        pad = radius_px + 2
        x0 = int(np.floor(np.min(centres_px[:, 0]) - pad))
        x1 = int(np.ceil(np.max(centres_px[:, 0]) + pad)) + 1
        y0 = int(np.floor(np.min(centres_px[:, 1]) - pad))
        y1 = int(np.ceil(np.max(centres_px[:, 1]) + pad)) + 1
        x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, self.w), min(y1, self.h)
        if x1 <= x0 or y1 <= y0:
            return None
        return x0, y0, x1, y1

    def _cast(self, track: FloatArray, reach: float) -> tuple[tuple[int, int, int, int], FloatArray] | None:
        r = self.radius
        centres = np.column_stack([track, np.full(len(track), r)])
        px = self._project(centres)
        radius_px = float(self.rays.focal * r / max(float(np.min(self.depth(centres))), 1.0))
        roi = self._roi(px, radius_px * reach)
        if roi is None:
            return None
        return roi, centres

    def _project(self, points: FloatArray) -> FloatArray:
        px, _ = cv2.projectPoints(
            (points * _FLIP).reshape(-1, 1, 3), self._rvec, self._trans, self._k, self._dist
        )
        out: FloatArray = np.asarray(px, np.float64).reshape(-1, 2)
        return out

    def _cached(self, key: tuple[str, str, bytes], make: Callable[[], _Layer | None]) -> _Layer | None:
        """Balls at rest look the same frame after frame: their layers are computed once."""
        if key in self._cache:
            return self._cache[key]
        layer = make()
        if len(self._cache) > 2048:
            self._cache.clear()
        self._cache[key] = layer
        return layer

    def _shadow_layer(self, track: FloatArray) -> _Layer | None:
        cast = self._cast(track, 1.8)
        if cast is None:
            return None
        (x0, y0, x1, y1), centres = cast
        cloth = self.rays.cloth_xy[y0:y1, x0:x1]
        r = self.radius
        acc = np.zeros(cloth.shape[:2], np.float32)
        for c in centres:
            d2 = ((cloth[..., 0] - c[0]) ** 2 + (cloth[..., 1] - c[1]) ** 2) / (1.3 * r) ** 2
            acc += 0.6 * np.clip(1.0 - d2, 0.0, 1.0) ** 1.5
        gain = (1.0 - np.nan_to_num(acc / len(centres)))[..., None].astype(np.float32)
        return (x0, y0, x1, y1), gain, None

    def ball_layer(self, ball: str, track: FloatArray) -> _Layer | None:
        """The ball's ROI, coverage ``(h, w, 1)`` and premultiplied colour over ``track``."""
        cast = self._cast(track, 1.05)
        if cast is None:
            return None
        (x0, y0, x1, y1), centres = cast
        r = self.radius
        k = len(centres)
        dirs = self.rays.direction[y0:y1, x0:x1]
        dx, dy, dz = dirs[..., 0], dirs[..., 1], dirs[..., 2]
        origin = self.rays.origin
        albedo = np.array(ball_style(ball).albedo, np.float32)
        alpha_sum = np.zeros(dirs.shape[:2], np.float32)
        colour_sum = np.zeros(dirs.shape, np.float32)
        pix_angle = 1.0 / self.rays.focal
        gain = 255.0 * self.conditions.light
        lamps = _LAMPS.T.astype(np.float32)
        weights = _LAMP_WEIGHTS.astype(np.float32)
        spec_w = np.array([1.0, 0.45, 0.45], np.float32)
        for c in centres:
            ox, oy, oz = (float(v) for v in origin - c)
            # Miss distance from a cross product: exact in float32, unlike |oc|^2 - b^2.
            miss2 = (dy * oz - dz * oy) ** 2 + (dz * ox - dx * oz) ** 2 + (dx * oy - dy * ox) ** 2
            along = -(dx * ox + dy * oy + dz * oz)
            alpha = np.clip((r - np.sqrt(miss2)) / np.maximum(along * pix_angle, 1e-6) + 0.5, 0.0, 1.0)
            t = along - np.sqrt(np.maximum(r * r - miss2, 0.0))
            n = dirs * t[..., None] + np.array([ox, oy, oz], np.float32)
            n *= 1.0 / r
            diffuse = np.clip(n @ lamps, 0.0, None) @ weights
            refl = dirs - 2.0 * (dirs * n).sum(-1, keepdims=True) * n
            spec = (np.clip(refl @ lamps, 0.0, None) ** 40) @ spec_w
            shade = 0.3 + 0.9 * diffuse
            col = (albedo * shade[..., None] + (0.92 * spec)[..., None]) * gain
            alpha_sum += alpha
            colour_sum += col * alpha[..., None]
        alpha = (alpha_sum / k)[..., None].astype(np.float32)
        return (x0, y0, x1, y1), alpha, (colour_sum / k).astype(np.float32)

    def shadow(self, frame: U8, track: FloatArray, weight: float = 1.0) -> None:
        """Darken the cloth under a ball (soft contact shadow of the overhead canopy),
        averaged over the sub-frame positions ``track`` ``(K, 2)`` (mm, no NaN)."""
        layer = self._cached(("shadow", "", track.tobytes()), lambda: self._shadow_layer(track))
        if layer is None:
            return
        (x0, y0, x1, y1), gain, _ = layer
        region = frame[y0:y1, x0:x1]
        if weight < 1.0:
            gain = 1.0 - (1.0 - gain) * weight
        region[:] = np.clip(region * gain, 0, 255).astype(np.uint8)

    def paint(self, frame: U8, ball: str, track: FloatArray, weight: float = 1.0) -> None:
        """Paint ``ball`` blurred over the sub-frame positions ``track`` ``(K, 2)`` (mm, no
        NaN) into ``frame`` (BGR uint8, modified in place)."""
        key = ("ball", colour_of(ball).value, track.tobytes())
        layer = self._cached(key, lambda: self.ball_layer(ball, track))
        if layer is None:
            return
        (x0, y0, x1, y1), a, colour = layer
        assert colour is not None
        region = frame[y0:y1, x0:x1]
        if weight < 1.0:  # on the cloth for only part of the exposure: partly transparent
            a, colour = a * weight, colour * weight
        region[:] = np.clip(region * (1.0 - a) + colour, 0, 255).astype(np.uint8)


# ---- whole frames ------------------------------------------------------------------------


class SensorNoise:
    """Per-frame sensor noise from a small bank of pre-drawn fields, added with saturating
    uint8 arithmetic: drawing 2.7 M normals per 720p frame would cost more than the rest of
    the frame, and a bank of eight shuffled fields is indistinguishable after H.264."""

    def __init__(self, shape: tuple[int, int, int], sigma: float, seed: int, bank: int = 8) -> None:
        rng = np.random.default_rng([seed, 11])
        self._rng = rng
        self._pos: list[U8] = []
        self._neg: list[U8] = []
        for _ in range(bank if sigma > 0 else 0):
            n = rng.normal(0.0, sigma, shape)
            self._pos.append(np.clip(n, 0, 255).astype(np.uint8))
            self._neg.append(np.clip(-n, 0, 255).astype(np.uint8))

    def apply(self, frame: U8) -> U8:
        """``frame`` plus noise (a new array)."""
        if not self._pos:
            return frame
        i, j = (int(v) for v in self._rng.integers(len(self._pos), size=2))
        out: U8 = np.asarray(cv2.subtract(cv2.add(frame, self._pos[i]), self._neg[j]), np.uint8)
        return out


class Renderer:
    """Renders frames of one clip: background once, then balls, people and noise per frame.

    Args:
        conditions: the look and the camera.
        seed: fixes the cloth mottling and the noise.
    """

    def __init__(self, conditions: Conditions, seed: int = 0) -> None:
        self.conditions = conditions
        self.rays = cast_rays(conditions)
        self.background = render_background(conditions, self.rays, seed)
        self.painter = BallPainter(conditions, self.rays)
        self.noise = SensorNoise((conditions.height, conditions.width, 3), conditions.noise, seed)
        cam = conditions.camera
        self.px_per_mm = cam.intrinsics.fx / float(np.linalg.norm(cam.centre - cam.target))

    def _thin(self, track: FloatArray) -> FloatArray:
        """Fewer sub-frame samples for a ball that moves little within the exposure: one
        per pixel of travel is enough for a smooth streak, one for a ball at rest."""
        travel = (
            float(np.sum(np.hypot(*np.diff(track, axis=0).T))) * self.px_per_mm if len(track) > 1 else 0.0
        )
        k = int(min(len(track), max(1, np.ceil(travel))))
        if k == len(track):
            return track
        idx = np.round(np.linspace(0, len(track) - 1, k)).astype(int) if k > 1 else [len(track) // 2]
        out: FloatArray = track[idx]
        return out

    def frame(
        self,
        ball_names: tuple[str, ...],
        subframes: FloatArray,
        capsules: list[object] | None = None,
    ) -> U8:
        """One frame: ``subframes`` is ``(K, B, 2)`` ball positions (mm) over the exposure,
        NaN where a ball is off the cloth; a ball absent at any sub-time is drawn only over
        the sub-times it is present, faded by the fraction of the exposure it is there (it
        drops into a pocket within the exposure).

        ``capsules`` are :class:`vision.synthetic.occluders.Capsule` of the people in view.
        """
        from vision.synthetic.occluders import Capsule, draw_capsules

        img = self.background.copy()
        present = ~np.isnan(subframes[..., 0])
        visible = [j for j in range(len(ball_names)) if present[:, j].any()]
        if visible:
            # Far balls first, so a near ball's edge covers a far one's.
            mid = np.array([subframes[present[:, j], j].mean(axis=0) for j in visible])
            depth = self.painter.depth(np.column_stack([mid, np.full(len(mid), TABLE.ball_radius)]))
            order = [visible[i] for i in np.argsort(-depth)]
            tracks = {j: self._thin(subframes[present[:, j], j]) for j in order}
            presence = {j: float(present[:, j].mean()) for j in order}
            for j in order:
                self.painter.shadow(img, tracks[j], presence[j])
            for j in order:
                self.painter.paint(img, ball_names[j], tracks[j], presence[j])
        if capsules:
            caps = [c for c in capsules if isinstance(c, Capsule)]
            draw_capsules(img, self.conditions.camera, caps, self.conditions.light)
        return self.noise.apply(img)
