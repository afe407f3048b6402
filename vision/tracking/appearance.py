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
