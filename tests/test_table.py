"""The table model against Section 1 of the rules and the event-log contract."""

from __future__ import annotations

import math

import pytest

from calibration.table import TABLE, Colour, ball_names, colour_of

SPEC_SPOTS = [
    (Colour.GREEN, (737.0, 597.0)),
    (Colour.BROWN, (737.0, 889.0)),
    (Colour.YELLOW, (737.0, 1181.0)),
    (Colour.BLUE, (1784.5, 889.0)),
    (Colour.PINK, (2676.75, 889.0)),
    (Colour.BLACK, (3245.0, 889.0)),
]

SPEC_POCKETS = [
    ("baulk_left", (0.0, 0.0)),
    ("baulk_right", (0.0, 1778.0)),
    ("middle_left", (1784.5, 0.0)),
    ("middle_right", (1784.5, 1778.0)),
    ("top_left", (3569.0, 0.0)),
    ("top_right", (3569.0, 1778.0)),
]


@pytest.mark.parametrize(("colour", "xy"), SPEC_SPOTS)
def test_spots_match_the_contract(colour: Colour, xy: tuple[float, float]) -> None:
    assert TABLE.spots[colour] == pytest.approx(xy)


@pytest.mark.parametrize(("name", "corner"), SPEC_POCKETS)
def test_pockets_match_the_contract(name: str, corner: tuple[float, float]) -> None:
    pocket = TABLE.pockets[name]
    assert pocket.corner == pytest.approx(corner)
    # the fall centre lies outside (or on the edge of) the playing area, behind the mouth
    cx, cy = pocket.centre
    assert not (0 < cx < TABLE.length and 0 < cy < TABLE.width) or cy in (0.0, TABLE.width)


def test_regulation_dimensions() -> None:
    assert (TABLE.length, TABLE.width) == (3569.0, 1778.0)
    assert TABLE.baulk_line == 737.0 and TABLE.d_radius == 292.0
    assert TABLE.ball_radius == 26.25


def test_pocket_mouths_are_realistic() -> None:
    for pocket in TABLE.pockets.values():
        # a ball (52.5 mm) fits, two do not
        assert TABLE.ball_diameter * 1.5 < pocket.mouth_width < TABLE.ball_diameter * 2.2


def test_cushions_connect_jaws_and_lie_on_faces() -> None:
    assert len(TABLE.cushions) == 6
    total = sum(math.dist(c.start, c.end) for c in TABLE.cushions)
    openings = sum(p.mouth_width for p in TABLE.pockets.values() if p.name.startswith("middle"))
    corner_runs = 8 * TABLE.corner_mouth / math.sqrt(2)
    assert total == pytest.approx(2 * (TABLE.length + TABLE.width) - openings - corner_runs)


@pytest.mark.parametrize(
    ("x", "y", "inside"),
    [
        (737.0, 889.0, True),
        (445.0, 889.0, True),
        (737.0, 1181.0, True),
        (738.0, 889.0, False),
        (500.0, 400.0, False),
        (440.0, 889.0, False),
    ],
)
def test_in_d(x: float, y: float, inside: bool) -> None:
    assert TABLE.in_d(x, y) is inside


def test_standard_setup_has_no_overlaps_and_apex_near_pink() -> None:
    for reds in (15, 6):
        pos = TABLE.standard_positions(reds)
        assert len(pos) == 6 + reds
        items = list(pos.values())
        for i, a in enumerate(items):
            for b in items[i + 1 :]:
                assert math.dist(a, b) >= TABLE.ball_diameter
        apex = min((p for k, p in pos.items() if k.startswith("red")), key=lambda p: p[0])
        assert apex[0] - TABLE.spots[Colour.PINK][0] == pytest.approx(TABLE.ball_diameter, abs=0.5)


@pytest.mark.parametrize(
    ("name", "colour"), [("white", Colour.WHITE), ("red12", Colour.RED), ("black", Colour.BLACK)]
)
def test_colour_of(name: str, colour: Colour) -> None:
    assert colour_of(name) is colour


@pytest.mark.parametrize("bad", ["red", "red0", "purple", "Red1", ""])
def test_colour_of_rejects(bad: str) -> None:
    with pytest.raises(ValueError):
        colour_of(bad)


def test_ball_names() -> None:
    assert len(ball_names()) == 22 and len(ball_names(6)) == 13
