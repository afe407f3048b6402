"""Section 2 Rule 17 geometry: table-driven cases and properties against brute force."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator import snookered as geo
from adjudicator.snookered import _first_hits, clear_path
from calibration.table import TABLE

D = TABLE.ball_diameter


@pytest.mark.parametrize(
    ("cue", "on", "others", "snookered", "clear"),
    [
        ((1000.0, 889.0), [(1300.0, 889.0)], [], False, True),  # nothing in the way
        ((1000.0, 889.0), [(1300.0, 889.0)], [(1150.0, 889.0)], True, False),  # full ball in the way
        # one edge obstructed, the other side of the ball visible: snookered (both edges needed)
        # but a clear path to part of it remains (Rule 14(c))
        ((1000.0, 889.0), [(1300.0, 889.0)], [(1150.0, 889.0 + 60.0)], True, True),
        # an obstruction that only grazes the edge path (exactly 2R from it) does not obstruct
        ((1000.0, 889.0), [(1300.0, 889.0)], [(1150.0, 889.0 + 2 * D)], False, True),
        # the ball behind the ball on does not obstruct
        ((1000.0, 889.0), [(1300.0, 889.0)], [(1400.0, 889.0)], False, True),
        # a ball behind the cue-ball does not obstruct
        ((1000.0, 889.0), [(1300.0, 889.0)], [(900.0, 889.0)], False, True),
        # touching the ball on: never snookered on it
        ((1000.0, 889.0), [(1000.0 + D, 889.0)], [(1000.0 - D, 889.0)], False, True),
        # two balls on, one free: not snookered
        ((1000.0, 889.0), [(1300.0, 889.0), (1000.0, 1300.0)], [(1150.0, 889.0)], False, True),
    ],
)
def test_snookered_cases(cue, on, others, snookered: bool, clear: bool) -> None:
    assert geo.snookered(cue, on, others) is snookered
    assert geo.clear_path(cue, on, others) is clear


def test_no_ball_on_is_not_snookered() -> None:
    assert not geo.snookered((1000.0, 889.0), [], [(1100.0, 889.0)])
    assert not geo.snookered_in_hand([], [(1100.0, 889.0)])


def test_effective_snookering_ball_is_the_nearest() -> None:
    on = {"red1": (1600.0, 889.0)}
    others = {"black": (1200.0, 889.0), "pink": (1400.0, 889.0)}
    assert geo.effective_snookerers((1000.0, 889.0), on, others) == {"red1": frozenset({"black"})}
    assert geo.snookered_by((1000.0, 889.0), on, others, "black")
    assert not geo.snookered_by((1000.0, 889.0), on, others, "pink")


def test_reds_hidden_by_different_balls_have_no_single_snookerer() -> None:
    """Rule 17(c)."""
    on = {"red1": (1400.0, 889.0), "red2": (1000.0, 1300.0)}
    others = {"black": (1200.0, 889.0), "pink": (1000.0, 1100.0)}
    cue = (1000.0, 889.0)
    assert geo.snookered(cue, list(on.values()), list(others.values()))
    assert not geo.snookered_by(cue, on, others, "black")


def _grid_free(on: list[tuple[float, float]], others: list[tuple[float, float]], step: float) -> bool:
    cx, cy = TABLE.d_centre
    r = TABLE.d_radius
    gx, gy = np.meshgrid(np.arange(cx - r, cx + 1e-9, step), np.arange(cy - r, cy + r + 1e-9, step))
    pts = np.stack([gx.ravel(), gy.ravel()], axis=1)
    pts = pts[np.hypot(pts[:, 0] - cx, pts[:, 1] - cy) <= r]
    balls = np.asarray([*on, *others])
    gap = np.hypot(pts[:, None, 0] - balls[None, :, 0], pts[:, None, 1] - balls[None, :, 1])
    pts = pts[np.all(gap >= D, axis=1)]
    blocked = geo._edge_blocked(pts, np.asarray(on), np.asarray(others).reshape(-1, 2))
    return bool(np.any(~np.any(blocked, axis=2)))


_xy = st.tuples(st.floats(900.0, 3400.0), st.floats(100.0, 1678.0))


@settings(max_examples=30, deadline=None)
@given(on=st.lists(_xy, min_size=1, max_size=2), others=st.lists(_xy, min_size=1, max_size=8))
def test_in_hand_sampling_never_misses_a_free_position(on, others) -> None:
    """Rule 17(a): whenever a dense 4 mm grid over the D finds a position from which a ball on is
    free, the referee's sampling of the D does too (so "snookered from every position" is never
    claimed wrongly)."""
    balls = [*on, *others]
    for i, a in enumerate(balls):  # balls may not overlap
        for b in balls[i + 1 :]:
            if math.dist(a, b) < D:
                return
    if _grid_free(on, others, 4.0):
        assert not geo.snookered_in_hand(on, others)


def test_snookered_in_a_corner_from_the_whole_d() -> None:
    on = [(3500.0, 60.0)]
    others = [(3447.5, 60.0), (3500.0, 112.5)]
    assert geo.snookered_in_hand(on, others)
    assert not _grid_free(on, others, 3.0)


# ---- exact clear path (Rule 14(c)) against dense sampling -------------------------------------


def _dense_clear(
    cue: tuple[float, float], targets: list[tuple[float, float]], others: list[tuple[float, float]]
) -> bool:
    c = np.asarray(cue)
    balls = np.asarray(targets + others)
    for t in targets:
        d = np.subtract(t, cue)
        dist = float(np.hypot(*d))
        if dist <= 52.5:
            return True
        a = np.arcsin(min(1.0, 52.5 / dist))
        ang = np.arctan2(d[1], d[0]) + np.linspace(-a, a, 4001)[1:-1]
        first = _first_hits(c, np.stack([np.cos(ang), np.sin(ang)], axis=1), balls)
        if np.any((first >= 0) & (first < len(targets))):
            return True
    return False


_XY = st.tuples(st.floats(200.0, 800.0), st.floats(200.0, 800.0))


@settings(max_examples=150, deadline=None)
@given(cue=_XY, targets=st.lists(_XY, min_size=1, max_size=2), others=st.lists(_XY, min_size=1, max_size=6))
def test_exact_clear_path_agrees_with_dense_rays(
    cue: tuple[float, float], targets: list[tuple[float, float]], others: list[tuple[float, float]]
) -> None:
    """Balls are kept 52.5 mm apart (they cannot overlap); the exact interval answer must match
    4,000 rays per target except where only a sliver thinner than the ray spacing is open."""
    placed: list[tuple[float, float]] = []
    for p in [cue, *targets, *others]:
        if all(np.hypot(p[0] - q[0], p[1] - q[1]) >= 52.5 for q in placed):
            placed.append(p)
    if len(placed) < 2:
        return
    c, rest = placed[0], placed[1:]
    tg, ob = rest[: max(1, min(len(targets), len(rest)))], rest[max(1, min(len(targets), len(rest))) :]
    exact = clear_path(c, tg, ob)
    dense = _dense_clear(c, tg, ob)
    assert exact or not dense  # dense finds only true openings
