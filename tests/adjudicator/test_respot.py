"""Section 3 Rule 7: re-spotting, table-driven and as a property (never touching a ball)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.respot import respot
from calibration.table import TABLE, Colour

SPOTS = {c.value: xy for c, xy in TABLE.spots.items()}
D = TABLE.ball_diameter


@pytest.mark.parametrize(
    ("colours", "balls", "expected"),
    [
        (["black"], {}, [("black", "black", SPOTS["black"])]),
        # 7(e): own spot covered -> highest free spot
        (["green"], {"red1": SPOTS["green"]}, [("green", "black", SPOTS["black"])]),
        # 7(f): both own spots covered -> black first takes the highest free spot
        (
            ["pink", "black"],
            {"red1": SPOTS["pink"], "red2": SPOTS["black"]},
            [("black", "blue", SPOTS["blue"]), ("pink", "brown", SPOTS["brown"])],
        ),
        # a red 52.7 mm from the spot does not occupy it
        (["pink"], {"red1": (SPOTS["pink"][0] + 52.7, 889.0)}, [("pink", "pink", SPOTS["pink"])]),
        # exactly touching does occupy it (Section 2 Rule 18)
        (["pink"], {"red1": (SPOTS["pink"][0] + D, 889.0)}, [("pink", "black", SPOTS["black"])]),
    ],
)
def test_respot_cases(colours, balls, expected) -> None:
    got = [(r.ball, r.spot, r.position) for r in respot(colours, balls)]
    assert got == expected


def test_reds_and_white_are_never_spotted() -> None:
    assert respot(["red3", "white"], {}) == ()


_xy = st.tuples(st.floats(30.0, 3540.0), st.floats(30.0, 1748.0))


@settings(max_examples=60, deadline=None)
@given(
    balls=st.lists(_xy, max_size=22),
    colours=st.lists(
        st.sampled_from([c.value for c in Colour if c not in (Colour.WHITE, Colour.RED)]), min_size=1
    ),
)
def test_spotted_colours_never_touch_and_stay_on_the_bed(balls, colours) -> None:
    """Rule 7(i): whatever the position, a spotted colour touches no ball and lies on the bed."""
    present = {f"red{i + 1}": xy for i, xy in enumerate(balls)}
    spots = respot(colours, present)
    placed = list(present.values())
    assert sorted(r.ball for r in spots) == sorted(set(colours))
    for r in spots:
        assert all(math.dist(r.position, p) > D for p in placed)
        assert TABLE.on_playing_area(*r.position)
        placed.append(r.position)
