"""Drawing a calibration over its frame, so a person can judge it at a glance.

Cushion noses are drawn at :data:`calibration.fit.NOSE_HEIGHT` (where they are seen), the
markings on the cloth, pockets as their mouths; every curve is sampled densely and projected
through the lens model, so lens distortion shows as the curves it really is.
"""

from __future__ import annotations

import cv2
import numpy as np

from calibration.calibrate import Calibration
from calibration.fit import NOSE_HEIGHT
from calibration.homography import FloatArray
from calibration.markings import UInt8Array
from calibration.table import TABLE


def _polyline(
    img: UInt8Array, cal: Calibration, pts: FloatArray, z: float, colour: tuple[int, int, int]
) -> None:
    px = cal.table_to_pixels(pts, z)
    cv2.polylines(img, [np.round(px * 16).astype(np.int32)], False, colour, 1, cv2.LINE_AA, shift=4)


def _segment(a: tuple[float, float], b: tuple[float, float], n: int = 60) -> FloatArray:
    t = np.linspace(0.0, 1.0, n)[:, None]
    out: FloatArray = np.asarray(a) * (1 - t) + np.asarray(b) * t
    return out


def draw_calibration(image: UInt8Array, cal: Calibration) -> UInt8Array:
    """A copy of ``image`` with the fitted cushion noses (cyan), baulk-line and D (magenta),
    spots (yellow) and pocket mouths (red) drawn over it, plus the baulk end labelled."""
    out = image.copy()
    for seg in TABLE.cushions:
        _polyline(out, cal, _segment(seg.start, seg.end), NOSE_HEIGHT, (255, 255, 0))
    _polyline(
        out, cal, _segment((TABLE.baulk_line, 0.0), (TABLE.baulk_line, TABLE.width)), 0.0, (255, 0, 255)
    )
    _polyline(out, cal, TABLE.d_arc(64), 0.0, (255, 0, 255))
    for pocket in TABLE.pockets.values():
        _polyline(out, cal, _segment(*pocket.jaws, n=8), NOSE_HEIGHT, (0, 0, 255))
        c = cal.table_to_pixels(pocket.centre)[0]
        cv2.circle(out, (round(c[0]), round(c[1])), 3, (0, 0, 255), -1, cv2.LINE_AA)
    for colour, xy in TABLE.spots.items():
        c = cal.table_to_pixels(xy)[0]
        cv2.drawMarker(out, (round(c[0]), round(c[1])), (0, 255, 255), cv2.MARKER_CROSS, 9, 1)
        if colour.value == "yellow":
            cv2.putText(
                out,
                "yellow",
                (int(c[0]) + 6, int(c[1]) - 6),
                cv2.FONT_HERSHEY_SIMPLEX,
                0.45,
                (0, 255, 255),
                1,
            )
    b = cal.table_to_pixels((TABLE.baulk_line / 2.0, TABLE.centre_line_y))[0]
    cv2.putText(out, "BAULK", (int(b[0]) - 24, int(b[1])), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (255, 0, 255), 2)
    text = f"residual {cal.residual_mm:.1f} mm  confidence {cal.confidence:.2f}"
    cv2.putText(out, text, (10, 24), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (255, 255, 255), 2)
    return out
