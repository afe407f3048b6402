"""The detectors benchmark's shared command line and writer, and its matching of detections."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from benchmarks.detectors_bench import Frame, match
from benchmarks.results import benchmark_parser, publish
from calibration.table import Colour
from vision.detection.detections import BallDetections


@pytest.mark.parametrize(("argv", "written"), [([], True), (["--no-write"], False)])
def test_a_benchmark_writes_its_own_section_unless_told_not_to(
    tmp_path: Path, argv: list[str], written: bool
) -> None:
    path = tmp_path / "RESULTS.md"
    path.write_text("# r\n\n<!-- other:start -->\nkept\n<!-- other:end -->\n")
    args = benchmark_parser("A benchmark.\n\nMore.").parse_args(argv)
    publish("mine", "## figures\n| a | 1 |", write=not args.no_write, path=path)
    text = path.read_text()
    assert "kept" in text
    assert ("<!-- mine:start -->\n## figures\n| a | 1 |\n<!-- mine:end -->" in text) == written


def _frame(moving: list[bool]) -> Frame:
    centres = np.array([[100.0, 100.0], [200.0, 100.0], [300.0, 100.0]])
    return Frame(
        "f",
        np.zeros((4, 4, 3), np.uint8),
        {Colour.RED: 3},
        centres,
        np.full(3, 8.0),
        np.array([1, 1, 1], np.int64),
        np.array(moving),
    )


@pytest.mark.parametrize(
    ("pixels", "colours", "expected"),
    [
        ([[101.0, 99.0], [203.0, 100.0], [300.0, 96.0]], [1, 1, 1], (3, 3, 1)),
        ([[101.0, 99.0], [212.0, 100.0]], [1, 1], (1, 1, 0)),  # the second is beyond a radius
        ([[101.0, 99.0], [104.0, 104.0]], [1, 2], (1, 1, 0)),  # the farther duplicate matches nothing
        ([[300.0, 100.0]], [3], (1, 0, 1)),  # the moving ball, wrong colour
    ],
)
def test_each_true_ball_is_matched_once_within_its_radius(
    pixels: list[list[float]], colours: list[int], expected: tuple[int, int, int]
) -> None:
    det = BallDetections.build(np.array(pixels), np.full(len(pixels), 8.0)).with_colour(
        np.array(colours, np.int64), np.ones(len(pixels))
    )
    assert match(det, _frame([False, False, True])) == expected
