"""Thumbnail change tests: whether the picture round a point changed since a reference frame.

The tracker carries a resting ball, re-measures a settling one and watches the spots of the
colours off the table only where the picture changed; these are the boxes and the test all of
them make, on the grey thumbnails :func:`vision.source.thumbnail` gives.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt


def thumb_box(
    shape: tuple[int, ...], u: float, v: float, reach: float, scale: float
) -> tuple[int, int, int, int]:
    """``(x0, y0, x1, y1)`` of the thumbnail (of ``shape``, at ``scale``) within ``reach``
    full-frame pixels of ``(u, v)``."""
    th, tw = shape[:2]
    x0, y0 = int(max(0, (u - reach) * scale)), int(max(0, (v - reach) * scale))
    return x0, y0, int(min(tw, (u + reach) * scale + 1)), int(min(th, (v + reach) * scale + 1))


def changed(
    thumb: npt.NDArray[np.int16], ref: npt.NDArray[np.int16], box: tuple[int, int, int, int], level: float
) -> bool:
    """Whether any grey level of ``thumb`` inside ``box`` differs from ``ref`` by more than
    ``level`` (the change test the carry, the re-settle and the rest reuse all make)."""
    x0, y0, x1, y1 = box
    return bool((np.abs(thumb[y0:y1, x0:x1] - ref[y0:y1, x0:x1]) > level).any())
