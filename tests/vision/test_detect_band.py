"""A straight-edged band (a caption strip over the cloth) is not a row of balls."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.detection.classical import _band

R = 8


def rectangle(length: int, width: int, angle: float = 0.0, holes: int = 0) -> np.ndarray:
    """A filled rotated rectangle with ``holes`` small gaps (a caption's digits)."""
    img = np.zeros((200, 200), np.uint8)
    box = cv2.boxPoints(((100.0, 100.0), (float(length), float(width)), angle)).astype(np.int32)
    cv2.fillPoly(img, [box], 1)
    for k in range(holes):
        cv2.circle(img, (70 + 20 * k, 100), 2, 0, -1)
    return img.astype(bool)


def row(n: int) -> np.ndarray:
    """``n`` touching discs in a row."""
    img = np.zeros((200, 200), np.uint8)
    for k in range(n):
        cv2.circle(img, (20 + 2 * R * k, 100), R, 1, -1)
    return img.astype(bool)


@pytest.mark.parametrize(
    ("blob", "expected"),
    [
        (rectangle(150, 2 * R), True),
        (rectangle(150, 2 * R, angle=30.0, holes=4), True),
        (rectangle(2 * R, 2 * R), False),  # square: as long as wide
        (row(3), False),
        (row(6), False),
        (np.zeros((20, 20), bool), False),
    ],
)
def test_band(blob: np.ndarray, expected: bool) -> None:
    assert _band(blob) == expected
