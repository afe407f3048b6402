"""A resting ball's picture registered against itself: its shift to a fraction of a pixel.

Why: a gentle stroke at the far end of a steep view moves the white a fifth of a pixel a frame,
under the cue's tip that followed through over it; the detector's centre (to a pixel) found
its departure 13 frames late or never (a rendered 1080p60 free ball, broadcast camera). The
shift of the ball's own picture tells it from the first frames, and what covers part of the
ball is weighed out.
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.tracking.shift import (
    OTHERS_RADII,
    RestPatch,
    _without_others,
    departing,
    leave_out,
    patch_shift,
    rest_patch,
)

Image = npt.NDArray[np.uint8]
R = 9.0
CLOTH = (40, 150, 30)
WHITE = (225, 230, 230)
GREEN = (60, 110, 20)
CUE = (150, 200, 225)
CENTRE = (60.0, 50.0)
NONE = np.zeros((0, 2))


def _frame(
    at: tuple[float, float],
    tip: tuple[float, float] | None = None,
    other: tuple[float, float] | None = None,
    cover: float = 0.0,
) -> Image:
    """Cloth with the white at ``at`` (sub-pixel, anti-aliased), a cue whose tip lies at ``tip``
    drawn over it from the top, another ball (the green, in front) at ``other``, and a hand
    covering the top ``cover`` of the white's height."""
    img = np.zeros((110, 130, 3), np.uint8)
    img[:] = CLOTH
    s = 16
    cv2.circle(img, (round(at[0] * s), round(at[1] * s)), round(R * s), WHITE, -1, cv2.LINE_AA, 4)
    if other is not None:
        cv2.circle(img, (round(other[0] * s), round(other[1] * s)), round(R * s), GREEN, -1, cv2.LINE_AA, 4)
    if tip is not None:
        cv2.line(
            img,
            (round(tip[0] * s), round(tip[1] * s)),
            (round(tip[0] * s) + 8 * s, 0),
            CUE,
            3,
            cv2.LINE_AA,
            4,
        )
    if cover > 0:
        top = at[1] - R
        cv2.rectangle(img, (0, 0), (129, round(top + cover * 2 * R)), (90, 120, 200), -1)
    return img


def _patch(frame: Image, others: npt.NDArray[np.float64] = NONE) -> RestPatch:
    patch = rest_patch(frame, np.array(CENTRE), R, others, np.full(len(others), R))
    assert patch is not None
    return patch


SHIFTS = [
    # name, shift (pixels), cue's tip over the ball in the later frame
    ("still", (0.0, 0.0), False),
    ("an eighth of a pixel", (0.125, 0.0), False),
    ("a fifth of a pixel down", (0.0, 0.1875), False),
    ("diagonal", (-0.3125, 0.4375), False),
    ("two pixels", (1.5, -1.3), False),
    ("under the cue's tip", (0.0, 0.6), True),
    ("still, the cue's tip over it", (0.0, 0.0), True),
]


@pytest.mark.parametrize(("name", "shift", "tip"), SHIFTS, ids=[c[0] for c in SHIFTS])
def test_the_shift_is_measured_to_a_twentieth_of_a_pixel(
    name: str, shift: tuple[float, float], tip: bool
) -> None:
    patch = _patch(_frame(CENTRE))
    at = (CENTRE[0] + shift[0], CENTRE[1] + shift[1])
    found = patch_shift(_frame(at, (at[0] + 2.0, at[1] - 0.3 * R) if tip else None), patch)
    assert found is not None, name
    assert np.hypot(*(found.d - np.array(shift))) < 0.05, (name, found.d)


def test_a_ball_beside_it_that_stays_does_not_hold_it() -> None:
    # The white rests half behind the green in a steep view; it creeps on towards the green.
    green = (CENTRE[0], CENTRE[1] + 1.2 * R)
    patch = _patch(_frame(CENTRE, other=green), np.array([green]))
    for step in (0.25, 0.5, 1.0):
        found = patch_shift(_frame((CENTRE[0], CENTRE[1] + step), other=green), patch)
        assert found is not None
        assert np.hypot(*(found.d - np.array([0.0, step]))) < 0.05, (step, found.d)


@pytest.mark.parametrize("push", [0.0, 0.25, 0.5, 1.0])
def test_a_ball_come_to_rest_against_it_is_left_out(push: float) -> None:
    # Its picture taken alone; the green then comes to rest against it from the right and
    # pushes it left: the green's disc, left out, does not hold it back.
    patch = _patch(_frame(CENTRE))
    at = (CENTRE[0] - push, CENTRE[1])
    green = np.array([[at[0] + 2.0 * R + 0.2, at[1]]])
    found = patch_shift(_frame(at, other=(green[0, 0], green[0, 1])), leave_out(patch, green, np.array([R])))
    assert found is not None
    assert np.hypot(*(found.d - np.array([-push, 0.0]))) < 0.05, (push, found.d)


def test_a_hand_over_the_ball_moves_it_not() -> None:
    found = patch_shift(_frame(CENTRE, cover=0.8), _patch(_frame(CENTRE)))
    assert found is None or np.hypot(*found.d) < 0.1


def test_no_shift_where_the_ball_has_gone() -> None:
    assert patch_shift(_frame((CENTRE[0] + 3 * R, CENTRE[1])), _patch(_frame(CENTRE))) is None


AWAY = np.array([0.0, 1.0])  # the cue above the ball: it leaves downwards
DEPARTING = [
    # name, shifts (oldest first, pixels), least, departing
    ("growing away from the cue", [(0.0, 0.0), (0.0, 0.3), (0.0, 0.6)], 0.5, True),
    ("growing, at an angle", [(0.0, 0.1), (-0.2, 0.35), (-0.4, 0.6)], 0.5, True),
    ("too little yet", [(0.0, 0.0), (0.0, 0.2), (0.0, 0.4)], 0.5, False),
    ("back and forth (a drag)", [(0.0, 0.6), (0.0, 0.2), (0.0, 0.7)], 0.5, False),
    ("stopped", [(0.0, 0.6), (0.0, 0.6), (0.0, 0.6)], 0.5, False),
    ("towards the cue", [(0.0, 0.0), (0.0, -0.3), (0.0, -0.6)], 0.5, False),
    ("sideways to the cue", [(0.0, 0.0), (0.3, 0.0), (0.6, 0.0)], 0.5, False),
    ("one measurement", [(0.0, 0.9)], 0.5, False),
]


@pytest.mark.parametrize(("name", "shifts", "least", "expected"), DEPARTING, ids=[c[0] for c in DEPARTING])
def test_a_departure_grows_away_from_the_cue(
    name: str, shifts: list[tuple[float, float]], least: float, expected: bool
) -> None:
    got = departing([np.array(s) for s in shifts], least, AWAY, 0.7)
    assert got is expected, name


def test_with_the_cue_side_unknown_any_way_out_is_a_departure() -> None:
    shifts = [np.array(s) for s in [(0.0, 0.0), (0.3, 0.0), (0.6, 0.0)]]
    assert departing(shifts, 0.5, np.zeros(2), 0.7)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.floats(-40.0, 140.0), st.floats(-40.0, 140.0), st.floats(2.0, 15.0), st.booleans()),
        max_size=8,
    ),
    st.integers(0, 60),
    st.integers(0, 60),
    st.integers(1, 40),
    st.integers(1, 40),
)
def test_clearing_the_other_balls_equals_drawing_every_disc(
    others: list[tuple[float, float, float, bool]], x0: int, y0: int, w: int, h: int
) -> None:
    """Only balls whose cleared disc reaches the picture are drawn; the result is the one of
    drawing every ball's disc (a NaN row, a ball off the table, clears nothing)."""
    yy, xx = np.mgrid[y0 : y0 + h, x0 : x0 + w]
    pts = np.array([(u, v) if on else (np.nan, np.nan) for u, v, _, on in others]).reshape(-1, 2)
    radii = np.array([r for _, _, r, _ in others], np.float64)
    got = _without_others(np.ones((h, w), bool), xx, yy, pts, radii)
    want = np.ones((h, w), bool)
    for (u, v), r in zip(pts, radii, strict=True):
        if np.isfinite(u):
            want &= np.hypot(xx - u, yy - v) > OTHERS_RADII * r
    assert np.array_equal(got, want)
