"""``baulkline detect IMAGE``: the balls of one frame, their colours and table positions.

Table positions need the camera: from ``--calibration FILE`` (a calibration JSON as written by
``baulkline calibrate``, or a synthetic camera JSON), or, without one, by calibrating the
image itself. When that is impossible the positions are ``null`` and one line on stderr says
why, so the pixel detections are still usable.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from calibration.errors import BaulklineError

FloatArray = npt.NDArray[np.float64]


class _ToTable(Protocol):
    def pixels_to_table(self, pixels: npt.ArrayLike, z: float = 0.0) -> FloatArray: ...


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``baulkline detect``."""
    parser.add_argument("image", type=Path, help="a still image (PNG, JPEG)")
    parser.add_argument("--calibration", type=Path, help="calibration or camera JSON")
    parser.add_argument("--json", action="store_true", help="print the balls as JSON")
    parser.add_argument("--overlay", type=Path, help="write the image with the balls drawn")


def load_camera(path: Path) -> _ToTable:
    """A calibration (``baulkline calibrate``) or camera (synthetic truth) JSON file."""
    try:
        data: dict[str, Any] = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise BaulklineError(f"{path}: cannot read the calibration ({exc})") from None
    errors = []
    try:
        from calibration.calibrate import Calibration

        return Calibration.from_dict(data)
    except (ImportError, KeyError, TypeError, ValueError) as exc:
        errors.append(str(exc))
    try:
        from calibration.camera import Camera

        return Camera.from_dict(data)
    except (KeyError, TypeError, ValueError) as exc:
        errors.append(str(exc))
    raise BaulklineError(f"{path}: neither a calibration nor a camera JSON ({'; '.join(errors)})")


def _self_calibrate(image: npt.NDArray[np.uint8], name: str) -> _ToTable | None:
    try:
        from calibration.calibrate import calibrate_image
    except ImportError:
        print(f"baulkline detect: {name}: no calibration available; positions are null", file=sys.stderr)
        return None
    try:
        return calibrate_image(image, name)
    except BaulklineError as exc:
        print(f"baulkline detect: {exc}; positions are null", file=sys.stderr)
        return None


def run(args: argparse.Namespace) -> int:
    """Detect, name and place the balls of one image."""
    import cv2

    from calibration.table import TABLE
    from vision.detection.classical import ClassicalDetector

    raw = cv2.imread(str(args.image))
    if raw is None:
        raise BaulklineError(f"{args.image}: cannot read the image (missing or not an image)")
    image = np.asarray(raw, np.uint8)
    det = ClassicalDetector()
    det.learn(image, str(args.image))
    balls = det.detect(image)
    balls = balls[balls.colour >= 0]
    camera = load_camera(args.calibration) if args.calibration else _self_calibrate(image, str(args.image))
    if camera is not None and len(balls):
        balls = balls.with_position(camera.pixels_to_table(balls.pixel, z=TABLE.ball_radius))
    rows: list[dict[str, Any]] = []
    for i, name in enumerate(balls.colour_names()):
        pos = None if balls.position is None else [round(float(c), 1) for c in balls.position[i]]
        rows.append(
            {
                "colour": name,
                "pixel": [round(float(c), 1) for c in balls.pixel[i]],
                "position": pos,
                "confidence": round(float(balls.confidence[i]), 3),
            }
        )
    if args.json:
        print(json.dumps({"balls": rows}))
    else:
        for r in rows:
            xy = r["position"]
            where = "-" if xy is None else f"({xy[0]:.0f}, {xy[1]:.0f}) mm"
            u, v = r["pixel"]
            print(f"{r['colour']:<7} pixel ({u:.1f}, {v:.1f})  {where}  {r['confidence']:.2f}")
    if args.overlay:
        _draw(image, balls.pixel, balls.radius, balls.colour_names(), args.overlay)
    return 0


def _draw(
    image: npt.NDArray[np.uint8], pixel: FloatArray, radius: FloatArray, names: list[str], out: Path
) -> None:
    import cv2

    vis = image.copy()
    for (u, v), r, name in zip(pixel, radius, names, strict=True):
        cv2.circle(vis, (round(u), round(v)), round(r) + 3, (255, 255, 0), 2)
        cv2.putText(
            vis, name, (round(u + r + 4), round(v)), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (255, 255, 255), 1
        )
    if not cv2.imwrite(str(out), vis):
        raise BaulklineError(f"{out}: cannot write the overlay image")
