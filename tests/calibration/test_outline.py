"""The cloth outline's four sides: the lines whose quadrilateral is the cloth, not simply the
four longest straight runs of its outline."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from calibration.markings import Cloth, outer_quad


def _bowed_cloth(bow: float, width: int = 480, height: int = 270) -> tuple[Cloth, np.ndarray]:
    """A cloth whose long top side bows up by ``bow`` pixels at its middle (a barrel lens), with
    short ends: each half of the bowed side is longer than an end. Returns it and its corners."""
    corners = np.array([[60.0, 80.0], [420.0, 80.0], [420.0, 190.0], [60.0, 190.0]])
    top = np.stack([np.linspace(60.0, 420.0, 41), 80.0 - bow * np.sin(np.linspace(0.0, np.pi, 41))], axis=1)
    poly = np.vstack([top, corners[2:]])
    mask = np.zeros((height, width), np.uint8)
    cv2.fillPoly(mask, [np.round(poly).astype(np.int32)], 255)
    return Cloth(mask=mask, hue=60, scale=1.0, solidity=1.0), corners


@pytest.mark.parametrize("bow", [0.0, 6.0, 12.0, 20.0])
def test_a_bowed_long_side_still_gives_the_tables_four_sides(bow: float) -> None:
    cloth, corners = _bowed_cloth(bow)
    _, found = outer_quad(cloth)
    # Every true corner has a found corner near it. Along the bowed side, one straight half of it
    # stands off the far end by about twice the bow; the four longest runs (both halves of the
    # bowed side and one end) put a corner far off the frame (at 12 and 20 px of bow).
    dist = np.hypot(*(found[:, None, :] - corners[None, :, :]).transpose(2, 0, 1))
    assert np.all(dist.min(axis=0) <= 2.0 * bow + 3.0), found
