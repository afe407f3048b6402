"""How a synthetic clip is shot: camera, lens, light, cloth, noise, frame rate and size.

Two sources: :func:`broadcast`, the default, fitted to the real overhead TV footage
(``shared/footage/broadcast-overhead/Task1``: 1280x720, a telephoto camera on a gantry beyond
the black end looking back at the baulk end, so the baulk cushion is at the top of the image,
strongly foreshortened), and :func:`random_conditions`, seeded draws over the range the
pipeline must cope with (issue 2 item 5: tilt up to 35 degrees off vertical, any rotation of
the table in the image, lens distortion, light, cloth shade, noise, 25-60 fps, 640x360 to
1920x1080). Everything the renderer needs to know about "the look" lives here, so a clip is
reproducible from (timeline, conditions).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from calibration.camera import Camera, Intrinsics, Pose
from calibration.table import TABLE

BGR = tuple[float, float, float]

#: Height of the cushion and rail tops above the cloth (mm): about 0.7 ball diameters.
RAIL_HEIGHT = 38.0
#: Depth of the table body below the cloth that a tilted camera sees (mm).
APRON_DEPTH = 650.0

#: Broadcast pose fitted by least squares to the six pockets and five spotted balls of
#: Task1/1.jpg (7.3 px RMS; a fit to the cloth corners of 1.jpg and 32.jpg agrees within 5%):
#: 3.6 m above the cloth, 63 degrees off vertical, a 23.6 degree telephoto lens.
_BROADCAST_POSE = Pose(height=3579.6, tilt=63.37, yaw=-89.97, roll=179.82, offset=(482.5, -5.8))
_BROADCAST_FX_AT_1280 = 3059.4


@dataclass(frozen=True)
class Conditions:
    """Everything about how a clip looks, apart from what happens on the table.

    Attributes:
        name: ``"broadcast"`` or ``"random:<seed>"``, recorded for the reader of a clip.
        camera: the true camera (intrinsics, pose, distortion).
        fps: frame rate (frames per second).
        exposure: shutter open time as a fraction of the frame interval (motion blur).
        cloth: cloth colour under full light, BGR 0-255.
        rail: wood colour of the rails, BGR 0-255.
        floor: colour of the arena floor around the table, BGR 0-255.
        light: overall gain on everything lit by the lamps (1 = nominal).
        falloff: how much darker the cloth is at the cushions than under the lamps (0-1).
        nap: brightness change of the cloth with viewing direction along the nap (0-1).
        sheen: how much brighter the cloth looks where it is seen more steeply (exponent of
            the cosine of the viewing angle; Task1's cloth is ~35% brighter near the camera).
        noise: sensor noise standard deviation (grey levels).
        crf: x264 constant rate factor (higher = smaller files, more artefacts).
        chalk: how much of the baulk-line and D's chalk is left (1: fresh; 0: worn away, the
            spots' marks alone left on the cloth, which calibration must then go by).
    """

    name: str
    camera: Camera
    fps: float
    exposure: float = 0.5
    cloth: BGR = (8.0, 160.0, 6.0)
    rail: BGR = (14.0, 11.0, 76.0)
    floor: BGR = (30.0, 36.0, 125.0)
    light: float = 1.0
    falloff: float = 0.15
    nap: float = 0.05
    sheen: float = 1.2
    noise: float = 2.0
    crf: int = 23
    chalk: float = 1.0

    def __post_init__(self) -> None:
        if not 1.0 <= self.fps <= 240.0:
            raise ValueError(f"fps must be within [1, 240], got {self.fps}")
        if not 0.0 <= self.exposure <= 1.0:
            raise ValueError(f"exposure must be a fraction of the frame interval, got {self.exposure}")
        if not 0.0 <= self.chalk <= 1.0:
            raise ValueError(f"chalk must be within [0, 1], got {self.chalk}")

    @property
    def width(self) -> int:
        """Image width (px)."""
        return self.camera.intrinsics.width

    @property
    def height(self) -> int:
        """Image height (px)."""
        return self.camera.intrinsics.height


def check_size(width: int, height: int) -> None:
    """Reject sizes the encoder cannot take (yuv420p needs even sides) or absurd ones."""
    if width <= 0 or height <= 0:
        raise ValueError(f"resolution must be positive, got {width}x{height}")
    if width % 2 or height % 2:
        raise ValueError(f"resolution must have even sides for H.264 (yuv420p), got {width}x{height}")
    if width > 4096 or height > 4096:
        raise ValueError(f"resolution too large: {width}x{height} (at most 4096 a side)")


def broadcast(width: int = 1280, height: int = 720, fps: float = 30.0) -> Conditions:
    """The default look: the Task1 broadcast camera, scaled to ``width``; cloth, rail and floor
    colours measured on Task1 frames (see ``sample_videos/README.md``)."""
    check_size(width, height)
    f = _BROADCAST_FX_AT_1280 * width / 1280.0
    intr = Intrinsics(width, height, f, f, width / 2.0, height / 2.0)
    return Conditions("broadcast", Camera(intr, _BROADCAST_POSE), fps)


def _table_fits(camera: Camera, margin: float) -> bool:
    out = TABLE.cushion_width + TABLE.rail_width
    corners = np.array(
        [
            [-out, -out],
            [-out, TABLE.width + out],
            [TABLE.length + out, TABLE.width + out],
            [TABLE.length + out, -out],
        ]
    )
    if np.any(camera.depth(corners, RAIL_HEIGHT) <= 0):
        return False
    px = camera.project(corners, RAIL_HEIGHT)
    w, h = camera.intrinsics.width, camera.intrinsics.height
    return bool(
        np.all(px[:, 0] >= margin * w)
        and np.all(px[:, 0] <= (1 - margin) * w)
        and np.all(px[:, 1] >= margin * h)
        and np.all(px[:, 1] <= (1 - margin) * h)
    )


def frame_table(intrinsics: Intrinsics, pose: Pose, margin: float = 0.03) -> Camera:
    """Raise or lower the camera (keeping tilt, yaw, roll, look-at point) until the whole
    table, rails included, just fits the image: how a person mounts a fixed camera."""
    lo, hi = 500.0, 60000.0
    if not _table_fits(Camera(intrinsics, replace(pose, height=hi)), margin):
        return Camera(intrinsics, replace(pose, height=hi))
    for _ in range(40):
        mid = math.sqrt(lo * hi)
        if _table_fits(Camera(intrinsics, replace(pose, height=mid)), margin):
            hi = mid
        else:
            lo = mid
    return Camera(intrinsics, replace(pose, height=hi))


SIZES = ((640, 360), (960, 540), (1280, 720), (1920, 1080))


def random_conditions(
    seed: int,
    width: int | None = None,
    height: int | None = None,
    fps: float | None = None,
    tilt: float | None = None,
    distortion: float | None = None,
) -> Conditions:
    """Seeded conditions over the whole range the pipeline must handle.

    Args:
        seed: fixes every draw.
        width, height: image size; drawn from :data:`SIZES` when not given.
        fps: frame rate; drawn from 25-60 when not given.
        tilt: camera tilt off vertical (degrees); drawn from 0-35 when not given.
        distortion: radial k1; drawn from -0.25..0.08 when not given.
    """
    rng = np.random.default_rng([seed, 20240])
    if width is None or height is None:
        width, height = SIZES[int(rng.integers(len(SIZES)))]
    check_size(width, height)
    fps = float(rng.choice([25.0, 29.97, 30.0, 50.0, 59.94, 60.0])) if fps is None else fps
    tilt = float(rng.uniform(0.0, 35.0)) if tilt is None else tilt
    k1 = float(rng.uniform(-0.25, 0.08)) if distortion is None else distortion
    dist = (
        k1,
        float(-0.3 * k1 * rng.uniform(0, 1)),
        float(rng.normal(0, 0.001)),
        float(rng.normal(0, 0.001)),
        0.0,
    )
    hfov = float(rng.uniform(50.0, 80.0))
    intr = Intrinsics.from_fov(width, height, hfov, dist)
    pose = Pose(
        height=4000.0,
        tilt=tilt,
        yaw=float(rng.uniform(0.0, 360.0)),
        roll=float(rng.normal(0.0, 3.0)),
        offset=(float(rng.normal(0, 60)), float(rng.normal(0, 40))),
    )
    camera = frame_table(intr, pose, margin=float(rng.uniform(0.02, 0.08)))
    g = rng.uniform(0.85, 1.1)
    cloth = (
        float(rng.uniform(5, 45)),
        float(rng.uniform(120, 175)),
        float(rng.uniform(5, 45)),
    )
    floor = (float(rng.uniform(20, 130)), float(rng.uniform(20, 60)), float(rng.uniform(20, 120)))
    return Conditions(
        name=f"random:{seed}",
        camera=camera,
        fps=fps,
        exposure=float(rng.uniform(0.2, 1.0)),
        cloth=cloth,
        rail=(float(rng.uniform(15, 40)), float(rng.uniform(25, 55)), float(rng.uniform(60, 110))),
        floor=floor,
        light=float(g),
        falloff=float(rng.uniform(0.1, 0.35)),
        nap=float(rng.uniform(0.02, 0.08)),
        sheen=float(rng.uniform(0.3, 1.0)),
        noise=float(rng.uniform(1.0, 5.0)),
    )


def conditions_for(
    kind: str, seed: int, width: int | None, height: int | None, fps: float | None
) -> Conditions:
    """The CLI's ``--conditions`` choice: ``broadcast`` (sizes default to 1280x720 at 30 fps)
    or ``random`` (drawn from the seed unless given)."""
    if kind == "broadcast":
        return broadcast(width or 1280, height or 720, fps or 30.0)
    if kind == "random":
        return random_conditions(seed, width, height, fps)
    raise ValueError(f"unknown conditions {kind!r}; known: broadcast, random")
