"""Which brightness step along a cushion's search window is its nose (:mod:`calibration.markings`).

A window runs from outside the cushion inwards. Where the camera sees a cushion's face, it
crosses the lit cushion top, the face in shadow and then the bright bed: two steps, the rise out
of the shadow at the nose and the fall into it at the face's foot on the cloth. Only the first is
the edge the fitter models (:data:`calibration.fit.NOSE_HEIGHT`).
"""

from __future__ import annotations

import numpy as np
import pytest

from calibration.markings import _past_the_foot, _peak


def _window(top: float, face: float, bed: float, face_from: int = 10, bed_from: int = 15) -> np.ndarray:
    """One window of 30 samples: cushion top, shadowed face, bed (outside to inside)."""
    row = np.full(30, bed, dtype=np.float64)
    row[:face_from] = top
    row[face_from:bed_from] = face
    return row[None, :]


@pytest.mark.parametrize(
    ("row", "seen", "nose"),
    [
        # The foot (30 -> 110) is the stronger step: on a seen face the rise at the nose is taken.
        (_window(80.0, 30.0, 110.0), True, True),
        # The same window on a face the camera does not see: the strongest step stands.
        (_window(80.0, 30.0, 110.0), False, False),
        # The rise is already the strongest step: kept.
        (_window(120.0, 30.0, 60.0), True, True),
        # No rise outside the foot worth half of it (a dark top): the strongest step stands.
        (_window(40.0, 30.0, 110.0), True, False),
    ],
    ids=["foot-stronger", "hidden-face", "rise-stronger", "no-rise"],
)
def test_a_seen_faces_edge_is_the_rise_out_of_its_shadow(row: np.ndarray, seen: bool, nose: bool) -> None:
    slope = np.gradient(row, axis=1)
    grad = np.abs(slope)
    start = np.zeros(1, dtype=np.intp)
    idx, height = _peak(grad, start)
    idx, height = _past_the_foot(slope, grad, idx, height, start, np.array([seen]))
    # The nose lies between samples 9 and 10, the foot between 14 and 15.
    expected = 9.5 if nose else 14.5
    assert abs(float(idx[0]) - expected) <= 0.5
    assert float(height[0]) > 0.0
