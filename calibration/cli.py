"""``baulkline calibrate SOURCE``: the table's camera from one frame of an image or video.

Writes the JSON document of issue 4 (``--out``) and, for a person to check, the frame with the
fitted markings drawn over it (``--overlay``). ``--corners`` is the manual fallback for worn
markings: the four corner-pocket points, baulk_left, baulk_right, top_right, top_left.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from calibration.errors import BaulklineError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The calibrate subcommand's options."""
    parser.add_argument("source", help="an image, a video file or a camera index")
    parser.add_argument("--frame", type=int, default=0, help="which frame of a video (default 0)")
    parser.add_argument("--out", type=Path, default=None, help="write the calibration JSON here")
    parser.add_argument("--overlay", type=Path, default=None, help="write the frame with the fit drawn")
    parser.add_argument(
        "--corners",
        default=None,
        help="manual fallback: x1,y1,...,x4,y4 of the corner pockets baulk_left, baulk_right, "
        "top_right, top_left (undistorted pixels)",
    )


def _read_frame(source: str, index: int) -> object:
    import cv2

    path = Path(source)
    if path.suffix.lower() in {".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff"}:
        image = cv2.imread(str(path))
        if image is None:
            raise BaulklineError(f"{source}: cannot read the image")
        return image
    cap = cv2.VideoCapture(int(source) if source.isdigit() else str(path))
    if not cap.isOpened():
        raise BaulklineError(f"{source}: cannot open the video or camera")
    try:
        frame = None
        for _ in range(index + 1):
            ok, frame = cap.read()
            if not ok:
                raise BaulklineError(f"{source}: frame {index} is past the end of the video")
        return frame
    finally:
        cap.release()


def _corners(text: str) -> list[tuple[float, float]]:
    try:
        values = [float(v) for v in text.split(",")]
    except ValueError:
        raise BaulklineError(f"--corners: not numbers: {text!r}") from None
    if len(values) != 8:
        raise BaulklineError(f"--corners needs 8 numbers (four x,y points), got {len(values)}")
    return [(values[i], values[i + 1]) for i in range(0, 8, 2)]


def run(args: argparse.Namespace) -> int:
    """Calibrate, write the JSON and the overlay; exit 0, or raise BaulklineError."""
    import cv2
    import numpy as np

    from calibration.calibrate import calibrate_from_corners, calibrate_image
    from calibration.overlay import draw_calibration

    image = np.asarray(_read_frame(args.source, args.frame), dtype=np.uint8)
    label = f"{args.source} frame {args.frame}"
    if args.corners:
        cal = calibrate_from_corners(_corners(args.corners), (image.shape[1], image.shape[0]))
    else:
        cal = calibrate_image(image, label)
    text = cal.to_json()
    if args.out is not None:
        args.out.write_text(text + "\n")
    else:
        sys.stdout.write(text + "\n")
    if args.overlay is not None and not cv2.imwrite(str(args.overlay), draw_calibration(image, cal)):
        raise BaulklineError(f"{args.overlay}: cannot write the overlay image")
    print(
        f"{label}: residual {cal.residual_mm:.1f} mm, confidence {cal.confidence:.2f}",
        file=sys.stderr,
    )
    return 0
