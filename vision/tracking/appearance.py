"""What a ball looks like: the robust mean colour of its inner disc, for telling balls apart.

The tracker needs a cue that survives when colours are not classified (a detector that only
finds balls, the Task3-style "follow this ball" start) and that separates balls the gate
alone cannot: the white next to a red, a pink beside a red. The mean Lab colour of the inner
disc does, once the specular highlight (the brightest pixels, the same on every ball) and the
rim (shadow, cloth bleeding in) are left out.
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from vision.tracking.kernels import disc_mean

FloatArray = npt.NDArray[np.float64]

#: Fraction of the radius sampled (the rim is shadow and cloth).
_INNER = 0.6
#: Brightest fraction of the disc dropped as specular highlight.
_HIGHLIGHT = 0.2
#: Weights of Lab's lightness and chroma in colour distances: lightness counts half, since
#: shade, the light's fall-off and motion blur change it more than the chroma that tells balls
#: apart.
LAB_W = np.array([0.5, 1.0, 1.0])


def lab_distance(a: npt.ArrayLike, b: npt.ArrayLike) -> FloatArray:
    """Weighted (:data:`LAB_W`) Lab distances between ``a`` and ``b`` (broadcast over their
    leading axes; the last is Lab); NaN where either is unknown."""
    d = (np.asarray(a, np.float64) - np.asarray(b, np.float64)) * LAB_W
    out: FloatArray = np.linalg.norm(d, axis=-1)
    return out


def disc_appearance(image: npt.NDArray[np.uint8], pixel: FloatArray, radius: FloatArray) -> FloatArray:
    """``(N, 3)`` mean Lab (OpenCV 8-bit scale) of each ball's inner disc, highlight removed."""
    n = len(pixel)
    out = np.full((n, 3), np.nan)
    h, w = image.shape[:2]
    for i in range(n):
        u, v = pixel[i]
        r = max(2.0, _INNER * float(radius[i]))
        x0, x1 = int(max(0, np.floor(u - r))), int(min(w, np.ceil(u + r) + 1))
        y0, y1 = int(max(0, np.floor(v - r))), int(min(h, np.ceil(v + r) + 1))
        if x1 <= x0 or y1 <= y0:
            continue
        patch = np.asarray(cv2.cvtColor(image[y0:y1, x0:x1], cv2.COLOR_BGR2LAB), np.uint8)
        out[i] = disc_mean(patch, x0, y0, float(u), float(v), r, 1.0 - _HIGHLIGHT)
    return out


def thumbnail_contrast(look: FloatArray, cloth: FloatArray, radius: float, scale: float) -> float:
    """The least grey-level change a ball of Lab ``look`` on Lab ``cloth`` (OpenCV 8-bit scale)
    makes in a thumbnail at ``scale`` when it leaves its spot (NaN: a colour unknown).

    Why: a ball is carried at rest while the thumbnail round it stays unchanged, which is a test
    of whether it left only if its leaving shows there. A thumbnail pixel is an average: a ball
    under a pixel across (``radius * scale``) covers at worst a quarter of its area in each of the
    four pixels it straddles, and a red and the green cloth differ by a few tens of grey levels.
    At the far end of a 1080p view a red's leaving changed the thumbnail by 9 levels, under the
    change test's 12, and its track was carried on the bare spot (a rendered break-off).
    """
    if not (np.all(np.isfinite(look)) and np.all(np.isfinite(cloth))):
        return float("nan")
    pair = np.clip(np.round(np.array([[look, cloth]])), 0, 255).astype(np.uint8)
    grey = cv2.cvtColor(cv2.cvtColor(pair, cv2.COLOR_LAB2BGR), cv2.COLOR_BGR2GRAY)[0].astype(np.float64)
    rt = radius * scale
    share = min(1.0, np.pi * rt * rt / 4.0)
    return float(abs(grey[0] - grey[1]) * share)
