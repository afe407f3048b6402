"""Shot simulation: the pooltool table and frame, and sequences whose outcomes come from physics.

The simulations share one module-scoped fixture: the first stroke of a process JIT-compiles
pooltool (about 40 s on a cold numba cache, about a second once ``.cache/numba`` is warm).
Every scenario's true event log is also refereed by :func:`adjudicator.engine.adjudicate`:
the calls it makes must be the ones the scenario is named for.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from adjudicator.engine import adjudicate
from adjudicator.eventlog import (
    Collision,
    Place,
    Pot,
    Rest,
    Strike,
    event_to_dict,
    validate_input,
    validate_output,
)
from adjudicator.judge import incoming_snookered
from adjudicator.state import RED, freeze
from calibration.table import BALL_VALUES, TABLE, Colour
from vision.synthetic import physics
from vision.synthetic.physics import (
    POCKET_NAMES,
    CueStroke,
    OverlapError,
    check_overlaps,
    from_phi,
    from_pooltool,
    to_phi,
    to_pooltool,
    touching_pairs,
)
from vision.synthetic.scenarios import SCENARIOS, clear_of, place_in_d
from vision.synthetic.timeline import Timeline

R = TABLE.ball_radius
D = TABLE.ball_diameter


# ---- frame mapping and table (no simulation) ------------------------------------------------


@given(st.floats(0, TABLE.length), st.floats(0, TABLE.width))
def test_position_mapping_round_trips(x: float, y: float) -> None:
    back = from_pooltool(to_pooltool((x, y)))
    assert back == pytest.approx((x, y), abs=1e-9)


@given(st.floats(-math.pi + 1e-6, math.pi))
def test_direction_mapping_round_trips(theta: float) -> None:
    assert 0.0 <= to_phi(theta) < 360.0
    back = from_phi(to_phi(theta))
    assert (math.cos(back), math.sin(back)) == pytest.approx((math.cos(theta), math.sin(theta)), abs=1e-9)


@pytest.mark.parametrize(
    ("theta", "phi"), [(0.0, 90.0), (math.pi / 2, 0.0), (math.pi, 270.0), (-math.pi / 2, 180.0)]
)
def test_direction_mapping_axes(theta: float, phi: float) -> None:
    # our +x (up the table) is pooltool's +y; our +y (towards yellow) is pooltool's +x
    assert to_phi(theta) == pytest.approx(phi)


@pytest.mark.parametrize("pt_id", sorted(POCKET_NAMES))
def test_pooltool_pockets_are_the_regulation_pockets(pt_id: str) -> None:
    table = physics.build_table()
    pocket = table.pockets[pt_id]
    ours = TABLE.pockets[POCKET_NAMES[pt_id]]
    assert from_pooltool(pocket.center) == pytest.approx(ours.centre, abs=1e-6)
    assert pocket.radius * 1000 == pytest.approx(ours.radius)


def test_pooltool_table_has_regulation_size_and_ball() -> None:
    table = physics.build_table()
    assert (table.l * 1000, table.w * 1000) == pytest.approx((TABLE.length, TABLE.width))
    assert pytest.approx(R) == 1000 * physics.ball_params().R
    # the straight cushion noses lie on the cushion faces of our frame
    faces = {from_pooltool(seg.p1)[1] for k, seg in table.cushion_segments.linear.items() if k in {"3", "6"}}
    assert faces == {0.0}
    baulk = table.cushion_segments.linear["18"]
    assert from_pooltool(baulk.p1)[0] == pytest.approx(0.0)


@pytest.mark.parametrize(
    ("jaws", "mouth"),
    [
        (("1t", "2t"), TABLE.corner_mouth),
        (("4t", "5t"), TABLE.middle_mouth),
        (("13t", "14t"), TABLE.middle_mouth),
    ],
)
def test_pocket_mouths_are_regulation(jaws: tuple[str, str], mouth: float) -> None:
    # the opening is the narrowest gap between the two rounded jaw noses of a pocket
    a, b = (physics.build_table().cushion_segments.circular[j] for j in jaws)
    gap = np.linalg.norm(a.center[:2] - b.center[:2]) - a.radius - b.radius
    assert gap * 1000 == pytest.approx(mouth, abs=0.01)


# ---- pure helpers ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("gap", "touching"),
    [(0.0, True), (0.5, True), (0.99, True), (1.01, False), (5.0, False)],
)
def test_touching_threshold(gap: float, touching: bool) -> None:
    pos = {"red1": (1000.0, 500.0), "white": (1000.0 + D + gap, 500.0)}
    assert bool(touching_pairs(pos)) is touching
    if touching:
        assert touching_pairs(pos) == (("white", "red1"),)


@pytest.mark.parametrize(
    ("gap", "bad"), [(-1.0, True), (-0.2, True), (-0.05, False), (0.0, False), (3.0, False)]
)
def test_overlap_check(gap: float, bad: bool) -> None:
    p = np.array([[[500.0, 500.0], [500.0 + D + gap, 500.0], [np.nan, np.nan]]])
    names = ("white", "red1", "red2")
    if bad:
        with pytest.raises(OverlapError, match="white and red1"):
            check_overlaps(names, p)
    else:
        check_overlaps(names, p)


def test_touching_pairs_are_the_whites_only() -> None:
    # two reds racked 0.2 mm apart touch each other, but only the white's pairs are reported
    pos = {"red1": (2000.0, 500.0), "red2": (2000.0 + D + 0.2, 500.0), "white": (1000.0, 500.0)}
    assert touching_pairs(pos) == ()
    pos["white"] = (2000.0 - D - 0.3, 500.0)
    assert touching_pairs(pos) == (("white", "red1"),)
    assert touching_pairs({"red1": (1.0, 1.0)}) == ()


@given(st.integers(0, 10_000))
def test_white_placed_in_the_d_clear_of_balls(seed: int) -> None:
    balls = {"brown": TABLE.spots[Colour.BROWN], "green": TABLE.spots[Colour.GREEN]}
    xy = place_in_d(balls, np.random.default_rng(seed))
    assert TABLE.in_d(*xy)
    assert clear_of(xy, balls, 5.0)


# ---- simulations (one JIT for the module) -----------------------------------------------------


@pytest.fixture(scope="module")
def timelines() -> dict[str, Timeline]:
    return {name: physics.simulate_sequence(name, seed=0) for name in SCENARIOS}


@pytest.mark.slow
def test_straight_stroke_moves_the_white_along_its_direction() -> None:
    white = (1000.0, 600.0)
    theta = math.radians(30.0)
    result = physics.simulate_shot({"white": white}, CueStroke(theta, 0.8))
    k = int(np.searchsorted(result.times, 0.3))  # well before any cushion
    x, y = result.positions[k, 0]
    assert math.atan2(y - white[1], x - white[0]) == pytest.approx(theta, abs=math.radians(0.5))
    assert result.positions.shape == (len(result.times), 1, 2)


@pytest.mark.slow
def test_break_off_moves_reds_by_physics(timelines: dict[str, Timeline]) -> None:
    tl = timelines["break_off"]
    first = next(e for e in tl.events if isinstance(e, Collision))
    assert first.balls[0] == "white" and first.balls[1].startswith("red")
    moved = [
        n
        for k, n in enumerate(tl.ball_names)
        if n.startswith("red")
        and np.nanmax(np.linalg.norm(tl.positions[:, k] - tl.positions[0, k], axis=1)) > 5.0
    ]
    assert len(moved) >= 3
    assert any(isinstance(e, Place) and e.ball == "white" and TABLE.in_d(*e.position) for e in tl.events)


@pytest.mark.slow
def test_pot_is_in_the_right_pocket_and_the_ball_leaves(timelines: dict[str, Timeline]) -> None:
    tl = timelines["red_then_colour"]
    pots = [e for e in tl.events if isinstance(e, Pot)]
    assert len(pots) == 2 and pots[0].ball.startswith("red") and not pots[1].ball.startswith("red")
    for pot in pots:
        k = tl.index(pot.ball)
        before = tl.positions[tl.times < pot.t - 0.02, k]
        last = before[~np.isnan(before[:, 0])][-1]
        nearest = min(TABLE.pockets.values(), key=lambda p: math.dist(p.corner, last))
        assert nearest.name == pot.pocket
        after = tl.positions[(tl.times >= pot.t) & (tl.times < pot.t + 0.5), k]
        assert np.isnan(after).all()
    colour = pots[1].ball
    place = next(e for e in tl.events if isinstance(e, Place) and e.ball == colour)
    assert place.t > pots[1].t
    assert tl.positions_at(place.t + 0.01)[tl.index(colour)] == pytest.approx(place.position)
    assert any(a.kind == "place" and a.ball == colour and a.t_start < place.t < a.t_end for a in tl.actions)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_timeline_is_consistent(timelines: dict[str, Timeline], name: str) -> None:
    tl = timelines[name]
    check_overlaps(tl.ball_names, tl.positions)
    for event in tl.events:
        assert validate_input(event_to_dict(event)) is None, event
    assert [e.t for e in tl.events] == sorted(e.t for e in tl.events)
    strikes = [e.t for e in tl.events if isinstance(e, Strike)]
    strokes = [a for a in tl.actions if a.kind == "stroke"]
    assert len(strokes) == len(strikes)
    assert all(a.t_start < t < a.t_end for a, t in zip(strokes, strikes, strict=True))
    # rest positions are what the samples show at the rest time
    for rest in (e for e in tl.events if isinstance(e, Rest)):
        p = tl.positions_at(rest.t)
        for ball, xy in rest.positions.items():
            assert p[tl.index(ball)] == pytest.approx(xy, abs=0.5)
    on = ~np.isnan(tl.positions[..., 0])
    xs, ys = tl.positions[..., 0][on], tl.positions[..., 1][on]
    assert xs.min() > -R and xs.max() < TABLE.length + R and ys.min() > -R and ys.max() < TABLE.width + R


def _first_white_contact(tl: Timeline, after: float = 0.0) -> str | None:
    hit = next(
        (e for e in tl.events if isinstance(e, Collision) and e.t > after and "white" in e.balls), None
    )
    return None if hit is None else hit.balls[1]


@pytest.mark.slow
def test_scenario_outcomes_come_true(timelines: dict[str, Timeline]) -> None:
    # in-off: the white is potted, then placed in the D by a hand before the next strike
    tl = timelines["in_off"]
    pot = next(e for e in tl.events if isinstance(e, Pot) and e.ball == "white")
    place = next(e for e in tl.events if isinstance(e, Place) and e.ball == "white" and e.t > pot.t)
    assert TABLE.in_d(*place.position)
    assert any(isinstance(e, Strike) and e.t > place.t for e in tl.events)
    # touching: a red hit first, then the white comes to rest within the touching gap of a red
    pairs = timelines["touching"].events[-1]
    assert str(_first_white_contact(timelines["touching"])).startswith("red")
    assert isinstance(pairs, Rest) and any(
        a == "white" and b.startswith("red") for a, b in pairs.touching or ()
    )
    # wrong first contact: the white's first ball is not a red while reds are on
    assert not str(_first_white_contact(timelines["wrong_first_contact"])).startswith("red")
    # free ball: a foul (a colour first) that leaves the white snookered on every red
    fb = timelines["free_ball"]
    assert not str(_first_white_contact(fb)).startswith("red")
    rest = [e for e in fb.events if isinstance(e, Rest)][-1]
    assert "white" in rest.positions and incoming_snookered(freeze(rest.positions), RED)
    # colours clearance: colours potted in ascending order, ending with the black, none re-spotted
    cc = timelines["colours_clearance"]
    potted = [e.ball for e in cc.events if isinstance(e, Pot)]
    assert potted[-1] == "black" and len(potted) >= 3
    order = [c.value for c in Colour if c.value in potted]
    assert potted == order
    assert not any(isinstance(e, Place) for e in cc.events)


# ---- the referee's calls on each scenario -----------------------------------------------------


def _calls(outs: list[dict[str, Any]]) -> list[tuple[str, str | None]]:
    return [(o["call"], o.get("reason")) for o in outs if o["type"] == "call"]


def _fouls(outs: list[dict[str, Any]]) -> list[tuple[str, str | None]]:
    return [c for c in _calls(outs) if c[0].startswith("FOUL")]


def _break_off(tl: Timeline, outs: list[dict[str, Any]]) -> None:
    assert _calls(outs) == []
    assert outs[-1]["type"] == "score" and outs[-1]["scores"] == [0, 0]


def _red_then_colour(tl: Timeline, outs: list[dict[str, Any]]) -> None:
    assert _fouls(outs) == []
    colour = [e.ball for e in tl.events if isinstance(e, Pot)][1]
    scores = [o for o in outs if o["type"] == "score"]
    assert scores[-1]["scores"] == [1 + BALL_VALUES[Colour(colour)], 0]
    (respot,) = [o for o in outs if o["type"] == "respot"]
    place = next(e for e in tl.events if isinstance(e, Place) and e.ball == colour)
    assert respot["ball"] == colour
    assert math.dist(respot["position"], place.position) < 1.0


def _colours_clearance(tl: Timeline, outs: list[dict[str, Any]]) -> None:
    assert _fouls(outs) == []
    potted = [e.ball for e in tl.events if isinstance(e, Pot)]
    end = outs[-1]
    assert end["type"] == "frame_end" and end["reason"] == "final_black"
    assert end["scores"] == [sum(BALL_VALUES[Colour(c)] for c in potted), 0]
    assert not any(o["type"] == "respot" for o in outs)


def _in_off(tl: Timeline, outs: list[dict[str, Any]]) -> None:
    assert _fouls(outs)[0] == ("FOUL", "cue_ball_pocketed")


def _touching(tl: Timeline, outs: list[dict[str, Any]]) -> None:
    assert _fouls(outs) == []
    (call,) = [o for o in outs if o["type"] == "call"]
    assert call["call"] == "TOUCHING BALL" and all(b.startswith("red") for b in call["balls"])


def _free_ball(tl: Timeline, outs: list[dict[str, Any]]) -> None:
    calls = _calls(outs)
    assert len(calls) == 2 and calls[0][0].startswith("FOUL") and calls[0][1] == "wrong_ball_first"
    assert calls[1] == ("FREE BALL", None)


def _wrong_first_contact(tl: Timeline, outs: list[dict[str, Any]]) -> None:
    # a FOUL AND A MISS when a red could have been hit (Section 3 Rule 14(c)) is still the foul
    (foul,) = _fouls(outs)
    assert foul[1] == "wrong_ball_first"


def _random(tl: Timeline, outs: list[dict[str, Any]]) -> None:
    assert sum(isinstance(e, Strike) for e in tl.events) == sum(o["type"] == "score" for o in outs)


PROMISES = {
    "break_off": _break_off,
    "red_then_colour": _red_then_colour,
    "colours_clearance": _colours_clearance,
    "in_off": _in_off,
    "touching": _touching,
    "free_ball": _free_ball,
    "wrong_first_contact": _wrong_first_contact,
    "random": _random,
}


def test_every_scenario_has_a_promise() -> None:
    assert set(PROMISES) == set(SCENARIOS)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(PROMISES))
def test_referee_makes_the_calls_the_scenario_promises(timelines: dict[str, Timeline], name: str) -> None:
    tl = timelines[name]
    outs = list(adjudicate(tl.events))
    assert all(validate_output(o) is None for o in outs)
    # the simulated log is consistent: the referee never has to assume anything
    assert [o for o in outs if o["type"] == "notice"] == []
    PROMISES[name](tl, outs)


@pytest.mark.slow
def test_sparse_simulation_ends_where_the_dense_one_does() -> None:
    start = {"white": (900.0, 700.0), "red1": (1500.0, 900.0), "pink": TABLE.spots[Colour.PINK]}
    stroke = CueStroke(math.atan2(200.0, 600.0), 1.8, height=0.2)
    dense = physics.simulate_shot(start, stroke)
    sparse = physics.simulate_shot(start, stroke, dense=False)
    assert sparse.events == dense.events and sparse.potted == dense.potted
    for ball, xy in dense.final.items():
        assert sparse.final[ball] == pytest.approx(xy, abs=1e-6)
    assert len(sparse.times) == 2 and sparse.duration == pytest.approx(dense.duration)
