"""The rest-error breakdown's groups: gaps to the cushions and balls, the error along the
camera's line, and rests split where a ball's true place moves."""

from __future__ import annotations

import pytest

from benchmarks.rest_breakdown import cushion_gap, gap_bin, neighbour_gap, radial, rest_groups, shares
from benchmarks.tracking_synth import RestSample
from calibration.table import TABLE

R = TABLE.ball_radius


def _sample(
    frame: int = 1,
    ball: str = "red1",
    at: tuple[float, float] = (1000.0, 800.0),
    error: tuple[float, float] = (1.0, 0.0),
    others: tuple[float, ...] = (),
    camera: tuple[float, float] = (-1000.0, 800.0),
) -> RestSample:
    return RestSample("clip", frame, ball, at, error, others or at, camera)


@pytest.mark.parametrize(
    ("at", "gap"),
    [
        ((R, 800.0), 0.0),  # against the baulk cushion
        ((1000.0, TABLE.width - R - 10.0), 10.0),  # 10 mm off a side cushion
        ((TABLE.length / 2.0, TABLE.width / 2.0), TABLE.width / 2.0 - R),  # the middle
    ],
)
def test_cushion_gap(at: tuple[float, float], gap: float) -> None:
    assert cushion_gap(at) == pytest.approx(gap)


@pytest.mark.parametrize(
    ("gap_radii", "label"),
    [(0.2, "0-0.5 R"), (0.5, "0.5-2 R"), (3.0, "2-6 R"), (6.0, ">= 6 R"), (40.0, ">= 6 R")],
)
def test_gap_bin(gap_radii: float, label: str) -> None:
    assert gap_bin(gap_radii * R) == label


@pytest.mark.parametrize(
    ("others", "gap"),
    [
        ((1000.0, 800.0, 1000.0 + 2 * R, 800.0), 0.0),  # touching
        ((1000.0, 800.0, 1000.0, 900.0, 1200.0, 800.0), 100.0 - 2 * R),  # the nearer of two
        ((1000.0, 800.0), float("inf")),  # alone
    ],
)
def test_neighbour_gap(others: tuple[float, ...], gap: float) -> None:
    assert neighbour_gap(_sample(others=others)) == pytest.approx(gap)


@pytest.mark.parametrize(
    ("error", "camera", "parts"),
    [
        ((2.0, 0.0), (-1000.0, 800.0), (2.0, 0.0)),  # away from a camera behind baulk
        ((-2.0, 0.0), (-1000.0, 800.0), (-2.0, 0.0)),  # towards it
        ((0.0, 3.0), (-1000.0, 800.0), (0.0, 3.0)),  # across its line
        ((0.0, 3.0), (1000.0, -1000.0), (3.0, 0.0)),  # a camera off the side: y is along
    ],
)
def test_radial(error: tuple[float, float], camera: tuple[float, float], parts: tuple[float, float]) -> None:
    assert radial(_sample(error=error, camera=camera)) == pytest.approx(parts)


def test_rests_split_where_the_ball_moves_or_is_not_counted() -> None:
    samples = [
        _sample(1),
        _sample(2),
        _sample(3, at=(1000.0, 810.0)),  # moved 10 mm: a new rest
        _sample(4, at=(1000.0, 810.0)),
        _sample(6, at=(1000.0, 810.0)),  # a frame missed: a new rest
        _sample(2, ball="red2"),
    ]
    groups = rest_groups(samples)
    assert sorted((k[1], k[2], len(v)) for k, v in groups.items()) == [
        ("red1", 1, 2),
        ("red1", 3, 2),
        ("red1", 6, 1),
        ("red2", 2, 1),
    ]


def test_shares_are_of_the_squared_error() -> None:
    samples = [_sample(error=(3.0, 4.0)), _sample(ball="black", error=(0.0, 0.0)), _sample(error=(0.0, 5.0))]
    rows = shares(samples, lambda s: s.ball)
    assert rows[0] == ("red1", 2, pytest.approx(1.0), pytest.approx(5.0))
    assert rows[1] == ("black", 1, pytest.approx(0.0), pytest.approx(0.0))
