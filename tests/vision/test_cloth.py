"""The cloth model picks the lit bed, not whatever colour fills most of the frame."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.detection.cloth import learn_cloth


@pytest.mark.parametrize(
    ("floor", "table_width"),
    [
        ((70, 25, 55), 260),  # a dim purple room, the table a small part of the view
        ((75, 45, 20), 300),  # a dim blue carpet
        ((30, 40, 120), 420),  # a red carpet, a closer view
    ],
)
def test_the_cloth_is_the_lit_table_not_the_floor(floor: tuple[int, int, int], table_width: int) -> None:
    image = np.full((720, 1280, 3), floor, np.uint8)
    noise = np.random.default_rng(0).integers(-6, 7, image.shape)
    image = np.clip(image.astype(np.int32) + noise, 0, 255).astype(np.uint8)
    x0, y0 = 640 - table_width // 2, 360 - table_width
    cv2.rectangle(image, (x0, y0), (x0 + table_width, y0 + 2 * table_width), (30, 160, 20), -1)
    model = learn_cloth(image)
    b, g, r = model.chroma
    assert g > 0.6 and g > b and g > r
    # The bed region is the table's rectangle (at the working scale, half the frame's).
    area = float(model.region.sum()) / (0.25 * table_width * 2 * table_width)
    assert 0.8 < area < 1.2
