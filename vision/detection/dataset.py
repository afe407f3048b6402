"""A YOLO training set rendered by the synthetic camera, labelled from its own truth.

Why it is built this way:

- The learned detector may only see synthetic frames (issue 5 item 3), so every label comes
  from the renderer's truth: each visible ball's box is its projected centre plus or minus
  its apparent radius (``fx * R / depth``), widened by its motion-blur streak. No label is
  drawn by hand, so none can be wrong by more than the projection.
- Half the frames are shot from poses jittered around the broadcast camera fitted to the real
  footage (the camera the real benchmark uses), half from :func:`random_conditions` (any
  rotation, tilt, lens), so the model learns balls rather than one viewpoint.
- Towards the real footage: people and cues across the table (:mod:`occluders`), a score
  bar with ball icons (real broadcasts draw them; they are not balls on the table and stay
  unlabelled), Gaussian blur, sensor noise and JPEG compression at random quality. Colour,
  brightness and scale jitter is left to the trainer's HSV and scale augmentation.
- A ball mostly hidden by a person, the score bar or the frame's edge is not labelled
  (:data:`MIN_VISIBLE`), so the model is not taught to hallucinate balls under sleeves, and a
  benchmark on these frames does not count balls no detector can place.
- Frames are scaled by ``scale`` (balls near the radius the model runs at) and cut into
  square tiles around the balls: training on small tiles is what makes training from scratch
  fit in an hour on two CPU cores.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from calibration.camera import Camera, Pose
from calibration.table import TABLE, colour_of
from vision.detection.detections import COLOURS
from vision.synthetic.conditions import Conditions, broadcast, random_conditions
from vision.synthetic.occluders import Capsule, draw_capsules, place_capsules, stroke_capsules
from vision.synthetic.render import Renderer
from vision.synthetic.timeline import Action

FloatArray = npt.NDArray[np.float64]
U8 = npt.NDArray[np.uint8]

#: Fraction of a ball's disc that must be unoccluded for it to be labelled.
MIN_VISIBLE = 0.5
#: Frame size every training frame is rendered at (the real footage's).
FRAME_SIZE = (1280, 720)


@dataclass(frozen=True)
class Labelled:
    """One rendered frame and its truth boxes.

    Attributes:
        image: BGR uint8 frame.
        boxes: ``(N, 4)`` pixel boxes ``x0, y0, x1, y1`` of the visible balls.
        classes: ``(N,)`` index into :data:`~vision.detection.detections.COLOURS`.
    """

    image: U8
    boxes: FloatArray
    classes: npt.NDArray[np.int64]

    def __post_init__(self) -> None:
        n = len(self.classes)
        if self.boxes.shape != (n, 4):
            raise ValueError(f"Labelled.boxes must have shape {(n, 4)}, got {self.boxes.shape}")


# ---- conditions and layouts ---------------------------------------------------------------


def jittered_broadcast(rng: np.random.Generator) -> Conditions:
    """The broadcast camera moved a little (height, tilt, yaw, zoom, offset), with a random
    look (cloth, light, noise, exposure) borrowed from :func:`random_conditions`."""
    base = broadcast(*FRAME_SIZE)
    look = random_conditions(int(rng.integers(1 << 30)), *FRAME_SIZE)
    pose = base.camera.pose
    flip = 180.0 if rng.random() < 0.25 else 0.0
    new_pose = Pose(
        height=pose.height * float(rng.uniform(0.85, 1.15)),
        tilt=float(np.clip(pose.tilt + rng.normal(0, 3.0), 45.0, 72.0)),
        yaw=pose.yaw + flip + float(rng.normal(0, 2.0)),
        roll=pose.roll + float(rng.normal(0, 1.5)),
        offset=(pose.offset[0] + float(rng.normal(0, 80)), pose.offset[1] + float(rng.normal(0, 40))),
    )
    k = base.camera.intrinsics
    zoom = float(rng.uniform(0.85, 1.15))
    intr = replace(k, fx=k.fx * zoom, fy=k.fy * zoom)
    return replace(look, name="broadcast-jitter", camera=Camera(intr, new_pose))


def draw_conditions(rng: np.random.Generator) -> Conditions:
    """Half broadcast-like, half anything the pipeline must cope with, always 1280x720."""
    if rng.random() < 0.6:
        return jittered_broadcast(rng)
    return random_conditions(int(rng.integers(1 << 30)), *FRAME_SIZE)


def random_layout(rng: np.random.Generator) -> dict[str, tuple[float, float]]:
    """A plausible table: some reds (packed, clustered or scattered), colours on or off
    their spots, the white somewhere; balls never overlap."""
    reds = int(rng.choice([0, 1, 2, 3, 5, 8, 11, 15], p=[0.1, 0.1, 0.1, 0.15, 0.15, 0.15, 0.1, 0.15]))
    start = TABLE.standard_positions(15, white=True)
    r = TABLE.ball_radius
    placed: dict[str, tuple[float, float]] = {}

    def free(p: tuple[float, float]) -> bool:
        inside = r <= p[0] <= TABLE.length - r and r <= p[1] <= TABLE.width - r
        return inside and all(math.hypot(p[0] - q[0], p[1] - q[1]) >= 2 * r + 0.3 for q in placed.values())

    def scatter(name: str, near: tuple[float, float] | None = None, spread: float = 0.0) -> None:
        for _ in range(60):
            if near is None:
                p = (float(rng.uniform(r, TABLE.length - r)), float(rng.uniform(r, TABLE.width - r)))
            else:
                p = (near[0] + float(rng.normal(0, spread)), near[1] + float(rng.normal(0, spread)))
            if free(p):
                placed[name] = p
                return

    on_spots = rng.random() < 0.6
    for c in COLOURS[2:]:
        if rng.random() < 0.85:
            spot = start[c.value]
            if on_spots and rng.random() < 0.8 and free(spot):
                placed[c.value] = spot
            else:
                scatter(c.value)
    mode = rng.choice(["pack", "clusters", "scatter"], p=[0.25, 0.35, 0.4])
    for i in range(1, reds + 1):
        name = f"red{i}"
        if mode == "pack" and free(start[name]):
            placed[name] = start[name]
        elif mode == "clusters" and placed and rng.random() < 0.7:
            anchor = list(placed.values())[int(rng.integers(len(placed)))]
            scatter(name, anchor, 2.5 * r)
        else:
            scatter(name)
    if rng.random() < 0.95:
        scatter("white")
    return placed


def random_people(rng: np.random.Generator, layout: dict[str, tuple[float, float]]) -> list[Capsule]:
    """A player down on a shot at some ball, or a hand placing one, or nobody."""
    u = rng.random()
    if u < 0.45 or not layout:
        return []
    names = list(layout)
    target = layout[names[int(rng.integers(len(names)))]]
    if u < 0.85:
        act = Action("stroke", 0.0, 4.0, "white", target, float(rng.uniform(0, 2 * math.pi)))
        return stroke_capsules(act, float(rng.uniform(0.7, 1.9)), 2.0)
    act = Action("place", 0.0, 2.0, "white", target)
    return place_capsules(act, float(rng.uniform(0.2, 1.8)))


# ---- rendering and labels -----------------------------------------------------------------


def _subframes(rng: np.random.Generator, pos: FloatArray) -> FloatArray:
    """Static balls, with now and then one or two moving ones smeared over the exposure."""
    if rng.random() > 0.3 or not len(pos):
        return pos[None]
    k = 12
    moving = rng.choice(len(pos), size=min(len(pos), int(rng.integers(1, 3))), replace=False)
    s = np.linspace(-0.5, 0.5, k)[:, None]
    sub = np.repeat(pos[None], k, axis=0)
    for j in moving:
        ang = float(rng.uniform(0, 2 * math.pi))
        length = float(rng.uniform(10.0, 160.0))  # mm travelled within the exposure
        sub[:, j] = pos[j] + s * length * np.array([math.cos(ang), math.sin(ang)])
    sub[..., 0] = np.clip(sub[..., 0], TABLE.ball_radius, TABLE.length - TABLE.ball_radius)
    sub[..., 1] = np.clip(sub[..., 1], TABLE.ball_radius, TABLE.width - TABLE.ball_radius)
    return sub


def ball_boxes(camera: Camera, subframes: FloatArray) -> FloatArray:
    """``(B, 4)`` pixel box of each ball over its sub-frame positions ``(K, B, 2)``."""
    k, b = subframes.shape[:2]
    flat = subframes.reshape(-1, 2)
    px = camera.project(flat, TABLE.ball_radius).reshape(k, b, 2)
    depth = camera.depth(flat, TABLE.ball_radius).reshape(k, b)
    rad = camera.intrinsics.fx * TABLE.ball_radius / np.maximum(depth, 1.0)
    lo = (px - rad[..., None]).min(axis=0)
    hi = (px + rad[..., None]).max(axis=0)
    out: FloatArray = np.concatenate([lo, hi], axis=1)
    return out


def _visible_fraction(mask: U8, boxes: FloatArray) -> FloatArray:
    """Share of each ball's box that is inside the frame and left uncovered by ``mask``.

    Why the frame counts as a cover: a ball cut by the frame's edge with its centre outside
    shows less than half of itself, as one half under a sleeve does; measured over the box
    clipped to the frame it counted as wholly visible (held-out frames had balls centred
    beyond the bottom edge as truth that no detector can place).
    """
    h, w = mask.shape
    out = np.zeros(len(boxes))
    for i, (x0, y0, x1, y1) in enumerate(boxes):
        a, b = max(int(x0), 0), max(int(y0), 0)
        c, d = min(math.ceil(x1), w), min(math.ceil(y1), h)
        if c <= a or d <= b:
            continue
        full = max(1.0, (math.ceil(x1) - int(x0)) * (math.ceil(y1) - int(y0)))
        uncovered = float(np.count_nonzero(mask[b:d, a:c] == 0))
        out[i] = uncovered / full
    return out


def score_bar(rng: np.random.Generator, image: U8) -> tuple[int, int, int, int]:
    """A broadcast caption strip along the bottom: names, scores and small ball icons.

    Returns its rectangle ``x0, y0, x1, y1``: balls under it are hidden."""
    h, w = image.shape[:2]
    y1 = int(h * rng.uniform(0.88, 0.97))
    y0 = y1 - int(h * rng.uniform(0.04, 0.07))
    x0 = int(w * rng.uniform(0.05, 0.3))
    x1 = int(w * rng.uniform(0.6, 0.9))
    x = x0
    while x < x1:
        seg = int(rng.integers(60, 220))
        col = tuple(int(v) for v in rng.integers(0, 256, 3))
        cv2.rectangle(image, (x, y0), (min(x + seg, x1), y1), col, -1)
        txt = str(int(rng.integers(0, 148)))
        ink = (0, 0, 0) if sum(col) > 380 else (255, 255, 255)
        cv2.putText(image, txt, (x + 8, y1 - 8), cv2.FONT_HERSHEY_SIMPLEX, 0.7, ink, 2, cv2.LINE_AA)
        x += seg
    for _ in range(int(rng.integers(0, 4))):
        c = (int(rng.integers(x0, x1)), int(rng.integers(y0, y1)))
        icon = [(30, 30, 200), (20, 20, 20), (200, 200, 200), (40, 200, 230)][int(rng.integers(4))]
        cv2.circle(image, c, int(rng.integers(7, 12)), icon, -1, cv2.LINE_AA)
    return x0, y0, x1, y1


def render_labelled(renderer: Renderer, rng: np.random.Generator) -> Labelled:
    """One frame of a random layout through ``renderer`` with its visible balls' boxes."""
    cond = renderer.conditions
    layout = random_layout(rng)
    names = tuple(layout)
    pos = np.array([layout[n] for n in names], np.float64).reshape(-1, 2)
    sub = _subframes(rng, pos)
    people = random_people(rng, layout)
    image = renderer.frame(names, sub, list(people))
    boxes = ball_boxes(cond.camera, sub) if names else np.zeros((0, 4))
    classes = np.array([COLOURS.index(colour_of(n)) for n in names], np.int64)
    # What hides a ball: the people, the score bar drawn over the frame, the frame's edges.
    hidden = np.zeros(image.shape[:2], np.uint8)
    if people and len(boxes):
        white = [replace(c, colour=(255.0, 255.0, 255.0)) for c in people]
        mask_bgr = np.zeros_like(image)
        draw_capsules(mask_bgr, cond.camera, white, 1.0)
        hidden[mask_bgr[..., 0] > 127] = 255
    if rng.random() < 0.4:
        bx0, by0, bx1, by1 = score_bar(rng, image)
        hidden[by0 : by1 + 1, bx0 : bx1 + 1] = 255
    keep = _visible_fraction(hidden, boxes) >= MIN_VISIBLE
    boxes, classes = boxes[keep], classes[keep]
    if rng.random() < 0.3:
        image = np.asarray(cv2.GaussianBlur(image, (0, 0), float(rng.uniform(0.5, 1.3))), np.uint8)
    return Labelled(image, boxes, classes)


# ---- tiles and files ----------------------------------------------------------------------


def tiles(
    sample: Labelled, rng: np.random.Generator, scale: float, size: int, count: int
) -> Iterator[Labelled]:
    """``count`` square tiles of ``size`` px of the frame scaled by ``scale``, each centred
    near a random ball (or anywhere when there are none); boxes clipped to the tile and kept
    when at least half of the ball is inside."""
    img = cv2.resize(sample.image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    h, w = img.shape[:2]
    boxes = sample.boxes * scale
    centres = (boxes[:, :2] + boxes[:, 2:]) / 2
    for _ in range(count):
        if len(centres) and rng.random() < 0.85:
            c = centres[int(rng.integers(len(centres)))] + rng.uniform(-size / 3, size / 3, 2)
        else:
            c = np.array([rng.uniform(0, w), rng.uniform(0, h)])
        x0 = int(np.clip(c[0] - size / 2, 0, max(w - size, 0)))
        y0 = int(np.clip(c[1] - size / 2, 0, max(h - size, 0)))
        tile = img[y0 : y0 + size, x0 : x0 + size]
        b = boxes - np.array([x0, y0, x0, y0], np.float64)
        clipped = np.clip(b, 0, [tile.shape[1], tile.shape[0], tile.shape[1], tile.shape[0]])
        area = np.prod(b[:, 2:] - b[:, :2], axis=1)
        kept = np.prod(np.maximum(clipped[:, 2:] - clipped[:, :2], 0), axis=1)
        keep = kept >= 0.5 * np.maximum(area, 1e-6)
        yield Labelled(np.ascontiguousarray(tile), clipped[keep], sample.classes[keep])


def yolo_lines(sample: Labelled) -> list[str]:
    """YOLO label lines ``class cx cy w h`` (normalised) of a sample."""
    h, w = sample.image.shape[:2]
    out = []
    for (x0, y0, x1, y1), c in zip(sample.boxes, sample.classes, strict=True):
        cx, cy, bw, bh = (x0 + x1) / 2 / w, (y0 + y1) / 2 / h, (x1 - x0) / w, (y1 - y0) / h
        out.append(f"{int(c)} {cx:.6f} {cy:.6f} {bw:.6f} {bh:.6f}")
    return out


@dataclass(frozen=True)
class DatasetSpec:
    """What :func:`write_dataset` renders.

    Attributes:
        images: number of training tiles (the validation split adds a tenth).
        tile: tile side (px) after scaling.
        scale: range of the frame scale factor (the model runs at about its middle).
        tiles_per_frame: tiles cut from each rendered frame.
        frames_per_camera: layouts rendered per camera (casting a camera's rays is the slow part).
        seed: fixes everything.
    """

    images: int = 1600
    tile: int = 160
    scale: tuple[float, float] = (0.5, 0.75)
    tiles_per_frame: int = 4
    frames_per_camera: int = 8
    seed: int = 0


def write_dataset(out: Path, spec: DatasetSpec, log: bool = True) -> Path:
    """Render the train and val splits into ``out`` in the YOLO layout; returns data.yaml."""
    rng = np.random.default_rng([spec.seed, 5])
    splits = {"train": spec.images, "val": max(spec.images // 10, 20)}
    for split, total in splits.items():
        (out / "images" / split).mkdir(parents=True, exist_ok=True)
        (out / "labels" / split).mkdir(parents=True, exist_ok=True)
        n = 0
        renderer: Renderer | None = None
        frame_no = 0
        while n < total:
            if renderer is None or frame_no % spec.frames_per_camera == 0:
                renderer = Renderer(draw_conditions(rng), int(rng.integers(1 << 30)))
            frame_no += 1
            sample = render_labelled(renderer, rng)
            scale = float(rng.uniform(*spec.scale))
            for tile in tiles(sample, rng, scale, spec.tile, spec.tiles_per_frame):
                if n >= total:
                    break
                stem = f"{split}_{n:05d}"
                quality = int(rng.integers(45, 96))
                cv2.imwrite(
                    str(out / "images" / split / f"{stem}.jpg"),
                    tile.image,
                    [cv2.IMWRITE_JPEG_QUALITY, quality],
                )
                (out / "labels" / split / f"{stem}.txt").write_text("\n".join(yolo_lines(tile)) + "\n")
                n += 1
            if log and frame_no % 20 == 0:
                print(f"{split}: {n}/{total} tiles", flush=True)
    names = "\n".join(f"  {i}: {c.value}" for i, c in enumerate(COLOURS))
    data = out / "data.yaml"
    data.write_text(f"path: {out.resolve()}\ntrain: images/train\nval: images/val\nnames:\n{names}\n")
    return data
