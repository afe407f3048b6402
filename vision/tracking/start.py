"""Starting a full-table track: which balls are on the table, and their names.

The event log names every ball for the whole clip (``white``, the six colours, ``red1``...),
so the tracker needs its ball set before the first frame is tracked. It is read from the
first frame's detections (colours assigned under the ball-set prior by the colour model);
the white and the six colours are always present as columns, ``absent`` until seen, since a
colour can be re-spotted and the white can come back from in hand.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from calibration.table import Colour
from vision.detection.detections import COLOURS, BallDetections
from vision.tracking.appearance import disc_appearance
from vision.tracking.tracker import TrackerState, name_balls

Image = npt.NDArray[np.uint8]


def initial_state(image: Image, det: BallDetections, default_radius: float | None = None) -> TrackerState:
    """The tracker's first state from one frame's colour-classified detections."""
    names = name_balls(det.colour)
    keep = np.array([bool(n) for n in names], dtype=bool)
    kept = det[keep] if len(det) else det
    kept_names = [n for n in names if n]
    radius = float(np.median(kept.radius)) if len(kept) else (default_radius or 10.0)
    pixel = [p for p in kept.pixel]
    radii = list(kept.radius)
    colours = list(kept.colour)
    for c in COLOURS:
        if c is Colour.RED or c.value in kept_names:
            continue
        kept_names.append(c.value)
        pixel.append(np.array([np.nan, np.nan]))
        radii.append(radius)
        colours.append(COLOURS.index(c))
    px = np.array(pixel, dtype=np.float64).reshape(-1, 2)
    r = np.array(radii, dtype=np.float64)
    appearance = np.full((len(px), 3), np.nan)
    on = np.all(np.isfinite(px), axis=1)
    if np.any(on):
        appearance[on] = disc_appearance(image, px[on], r[on])
    order = _event_order(kept_names)
    return TrackerState.seed(
        [kept_names[i] for i in order],
        px[order],
        r[order],
        colour=np.array(colours, np.int64)[order],
        appearance=appearance[order],
    )


def _event_order(names: list[str]) -> list[int]:
    """White, reds by number, then the colours in ascending value (a stable, readable order)."""
    rank = {"white": 0, "yellow": 101, "green": 102, "brown": 103, "blue": 104, "pink": 105, "black": 106}

    def key(i: int) -> int:
        n = names[i]
        return rank.get(n, int(n[3:]) if n.startswith("red") and n[3:].isdigit() else 200)

    return sorted(range(len(names)), key=key)
