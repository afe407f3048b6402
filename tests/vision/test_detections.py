"""The per-frame detection container: shapes are checked on construction, rows stay aligned."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest

from calibration.table import Colour
from vision.detection.detections import COLOURS, BallDetections, colour_index


@pytest.mark.parametrize(
    ("field", "bad", "shape_text"),
    [
        ("pixel", np.zeros((3, 3)), "(2, 2)"),
        ("radius", np.zeros(3), "(2,)"),
        ("colour", np.zeros(1, np.int64), "(2,)"),
        ("confidence", np.zeros((2, 1)), "(2,)"),
        ("position", np.zeros((2,)), "(2, 2)"),
    ],
)
def test_bad_shapes_are_named(field: str, bad: np.ndarray, shape_text: str) -> None:
    good: dict[str, Any] = {
        "pixel": np.zeros((2, 2)),
        "radius": np.ones(2),
        "colour": np.zeros(2, np.int64),
        "confidence": np.ones(2),
        "position": np.zeros((2, 2)),
    }
    if field == "radius":
        good["radius"] = np.ones(2)
        good["pixel"] = np.zeros((3, 2))
        bad_field, text = "pixel", "(2, 2)"
    else:
        good[field] = bad
        bad_field, text = field, shape_text
    with pytest.raises(ValueError, match=re.escape(f"BallDetections.{bad_field} must have shape {text}")):
        BallDetections(**good)


def test_colour_out_of_range_rejected() -> None:
    with pytest.raises(ValueError, match="colour"):
        BallDetections.build([[0, 0]], [5.0], colour=[len(COLOURS)])


def test_selection_keeps_rows_aligned() -> None:
    det = BallDetections.build(
        [[1, 2], [3, 4], [5, 6]], [5, 6, 7], colour=[0, 1, 1], confidence=[0.9, 0.8, 0.7]
    ).with_position(np.array([[10.0, 20.0], [30.0, 40.0], [50.0, 60.0]]))
    sub = det[det.colour == colour_index(Colour.RED)]
    assert len(sub) == 2
    np.testing.assert_array_equal(sub.pixel, [[3, 4], [5, 6]])
    assert sub.position is not None
    np.testing.assert_array_equal(sub.position[:, 0], [30, 50])
    assert sub.colour_names() == ["red", "red"]
    assert det.counts()[Colour.RED] == 2
    assert det.counts()[Colour.WHITE] == 1


def test_empty() -> None:
    det = BallDetections.empty()
    assert len(det) == 0
    assert det.counts()[Colour.BLACK] == 0
