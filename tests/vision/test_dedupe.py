"""Merging one ball found by several searches, without merging two reds a slanted view overlaps."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.table import TABLE, Colour
from vision.detection.detections import UNKNOWN, BallDetections, colour_index
from vision.tracking.detection_sets import APART_MM, dedupe
from vision.tracking.tracker import TrackerConfig, _distinct

R = 10.0
RED = colour_index("red")
WHITE = colour_index("white")
BLACK = colour_index("black")
PINK = colour_index("pink")
D = 2.0 * TABLE.ball_radius  # two touching balls' centres, on the table


@pytest.mark.parametrize(
    ("colours", "table_gap_mm", "kept"),
    [
        # Two touching reds seen at a slant: 0.9 radii apart in the picture, a diameter on the table.
        ((RED, RED), D, [True, True]),
        # The same red found twice (carried and searched): a few millimetres apart on the table.
        ((RED, RED), 8.0, [True, False]),
        ((RED, RED), None, [True, False]),  # no camera: the picture decides
        # A white and what lies by it (a hand placing it, the cue's tip): the picture decides.
        ((WHITE, WHITE), D, [True, False]),
        ((RED, UNKNOWN), D, [True, False]),
        ((WHITE, RED), D, [True, False]),
    ],
)
def test_dedupe(colours: tuple[int, int], table_gap_mm: float | None, kept: list[bool]) -> None:
    det = BallDetections.build(np.array([[100.0, 50.0], [100.0, 59.0]]), np.full(2, R), colour=colours)
    table = None if table_gap_mm is None else np.array([[1000.0, 800.0], [1000.0 + table_gap_mm, 800.0]])
    assert dedupe(det, table).tolist() == kept


BLACK_SPOT = TABLE.spots[Colour.BLACK]
PINK_SPOT = TABLE.spots[Colour.PINK]


@pytest.mark.parametrize(
    ("colours", "first_at", "table_gap_mm", "kept"),
    [
        # A red half hidden behind the black on its spot (real Task2 clip 10): two balls.
        ((BLACK, RED), BLACK_SPOT, -D, [True, True]),
        ((PINK, RED), PINK_SPOT, D, [True, True]),  # the pack's apex red behind the pink
        ((BLACK, RED), BLACK_SPOT, -8.0, [True, False]),  # one ball, named twice
        # A colour off its spot beside a red: a pack red the colour model misnamed.
        ((BLACK, RED), (2900.0, 840.0), D, [True, False]),
        ((BLACK, PINK), BLACK_SPOT, -D, [True, False]),  # two colours: the picture decides
        ((BLACK, BLACK), BLACK_SPOT, -D, [True, False]),  # one colour is one ball
    ],
)
def test_a_red_beside_a_colour_on_its_spot(
    colours: tuple[int, int], first_at: tuple[float, float], table_gap_mm: float, kept: list[bool]
) -> None:
    det = BallDetections.build(np.array([[100.0, 50.0], [100.0, 59.0]]), np.full(2, R), colour=colours)
    table = np.array([first_at, (first_at[0] + table_gap_mm, first_at[1])])
    assert dedupe(det, table).tolist() == kept


def test_dedupe_keeps_balls_apart_in_the_picture() -> None:
    det = BallDetections.build(np.array([[100.0, 50.0], [130.0, 50.0]]), np.full(2, R), colour=(RED, RED))
    table = np.array([[1000.0, 800.0], [1000.0, 800.0]])  # whatever the table says
    assert dedupe(det, table).tolist() == [True, True]


def test_the_apart_threshold_lies_between_noise_and_a_diameter() -> None:
    assert TABLE.ball_radius < APART_MM < D - 3.0


@pytest.mark.parametrize(
    ("colours", "table_gap_mm", "distinct"),
    [
        ((RED, RED), D, True),
        ((RED, RED), 10.0, False),
        ((WHITE, RED), D, False),
    ],
)
def test_a_red_behind_a_matched_red_is_no_duplicate(
    colours: tuple[int, int], table_gap_mm: float, distinct: bool
) -> None:
    """The tracker's re-acquisition asks the same question of a free detection beside a matched one."""
    det = BallDetections.build(np.array([[100.0, 50.0], [100.0, 60.0]]), np.full(2, R), colour=colours)
    table = np.array([[1000.0, 800.0], [1000.0 + table_gap_mm, 800.0]])
    match = np.array([0, -1])  # ball 0 matched to detection 0
    out = _distinct(det, table, np.array([1]), match, TrackerConfig())
    assert out.tolist() == [distinct]
