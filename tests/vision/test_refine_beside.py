"""A resting ball beside another is re-measured with its neighbour left out; a ball that rolled to
rest is followed while it creeps on, and only along its path."""

from __future__ import annotations

from functools import cache

import cv2
import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.detection.classical import BESIDE_MAX_MOVE, learn_model, refine_beside
from vision.detection.cloth import ClothModel
from vision.tracking.schedule import ScheduleConfig
from vision.tracking.video import _creeps, bounced

Image = npt.NDArray[np.uint8]
FloatArray = npt.NDArray[np.float64]

R = 11.0
SS = 8  # supersampling of the drawn discs: their rims are partial pixels, as a camera's are
CLOTH = (30, 150, 20)
RED = (25, 25, 175)
WHITE = (235, 240, 240)
YELLOW = (30, 220, 230)


def _scene(balls: list[tuple[float, float, tuple[int, int, int]]]) -> Image:
    """A 720p green bed with anti-aliased balls at sub-pixel centres (later ones in front)."""
    h, w = 720, 1280
    big = np.full((h * SS // 4, w * SS // 4, 3), CLOTH, np.uint8)
    # Drawn at 8x on the middle quarter of the frame (where the balls are), then shrunk by area.
    x0, y0 = 480, 270
    for u, v, colour in balls:
        c = (round((u - x0 + 0.5) * SS - 0.5), round((v - y0 + 0.5) * SS - 0.5))
        cv2.circle(big, c, round(R * SS), colour, -1, cv2.LINE_AA)
    patch = cv2.resize(big, (w // 4, h // 4), interpolation=cv2.INTER_AREA)
    image = np.full((h, w, 3), CLOTH, np.uint8)
    image[y0 : y0 + h // 4, x0 : x0 + w // 4] = patch
    noise = np.random.default_rng(3).integers(-3, 4, image.shape)
    return np.clip(image.astype(np.int32) + noise, 0, 255).astype(np.uint8)


@cache
def _model() -> ClothModel:
    return learn_model(_scene([(600.0, 330.0, RED), (700.0, 350.0, WHITE), (560.0, 400.0, YELLOW)]), 0.5)


def _work(px: FloatArray, s: float) -> FloatArray:
    return (px + 0.5) * s - 0.5


def _frame(px: FloatArray, s: float) -> FloatArray:
    return (px + 0.5) / s - 0.5


@settings(max_examples=12, deadline=None)
@given(
    angle=st.floats(0.0, 2.0 * np.pi),
    gap=st.floats(0.0, 1.5),
    off=st.tuples(st.floats(-1.5, 1.5), st.floats(-1.5, 1.5)),
)
def test_touching_pair_is_measured_without_its_neighbour(
    angle: float, gap: float, off: tuple[float, float]
) -> None:
    """A white touching a red, measured from a rough centre (a pair's blob is split to a working
    pixel or two), comes to within a fifth of a pixel of its true centre."""
    a = np.array([620.3, 352.6])
    b = a + (2.0 * R + gap) * np.array([np.cos(angle), np.sin(angle)])
    image = _scene([(*a, WHITE), (*b, RED)])
    model = _model()
    s = model.scale
    rough = a + np.array(off)
    got = refine_beside(
        image,
        model,
        _work(rough[None, :], s),
        np.array([R * s]),
        _work(np.array([a, b]), s),
        np.array([True, False]),
    )
    assert np.linalg.norm(_frame(got[0], s) - a) < 0.2


def test_a_ball_with_no_known_neighbour_keeps_its_centre() -> None:
    """Only balls the caller knows are neighbours: a blob beside a lone ball (a cue's tip) is not."""
    a = np.array([620.0, 352.0])
    image = _scene([(*a, WHITE), (a[0] + 2 * R, a[1], (200, 210, 215))])
    model = _model()
    s = model.scale
    rough = _work((a + 0.7)[None, :], s)
    got = refine_beside(image, model, rough, np.array([R * s]), rough, np.array([True]))
    assert np.array_equal(got, rough)


def test_a_ball_mostly_hidden_by_its_neighbour_keeps_its_centre() -> None:
    """Overlapping by most of a radius (a low camera), too little of its rim shows to fit."""
    a, b = np.array([620.0, 352.0]), np.array([620.0, 360.0])
    image = _scene([(*a, WHITE), (*b, RED)])
    model = _model()
    s = model.scale
    rough = _work((a + 0.6)[None, :], s)
    got = refine_beside(
        image, model, rough, np.array([R * s]), _work(np.array([a, b]), s), np.array([True, False])
    )
    assert np.array_equal(got, rough)


def test_a_refinement_is_bounded() -> None:
    """A rough centre over half a radius off is not pulled onto the ball (it is something else)."""
    a, b = np.array([620.0, 352.0]), np.array([620.0 + 2 * R, 352.0])
    image = _scene([(*a, WHITE), (*b, RED)])
    model = _model()
    s = model.scale
    rough = _work((a + np.array([0.0, (BESIDE_MAX_MOVE + 0.3) * R]))[None, :], s)
    known = _work(np.array([rough[0] / s, b]), 1.0)  # the tracker believes the rough centre
    got = refine_beside(image, model, rough, np.array([R * s]), known * s, np.array([True, False]))
    assert np.array_equal(got, rough)


@pytest.mark.parametrize(
    ("step", "heading", "creeps"),
    [
        ((0.6, 0.0), (1.0, 0.0), True),  # on along its path
        ((0.5, 0.3), (1.0, 0.0), True),  # along, a little across
        ((0.1, 0.0), (1.0, 0.0), False),  # under the least move: the detector's jitter
        ((-0.6, 0.0), (1.0, 0.0), False),  # back the way it came: a hand's or a cue's drag
        ((0.3, 1.6), (1.0, 0.0), False),  # mostly across its path, by more than the centre's pixel
        ((0.48, 0.72), (1.0, 0.0), True),  # a 3 px ball's centre put 0.7 px across as it creeps on
        ((0.0, -0.8), (0.0, -1.0), True),
    ],
)
def test_a_resting_ball_creeps_only_along_its_path(
    step: tuple[float, float], heading: tuple[float, float], creeps: bool
) -> None:
    assert _creeps(np.array(step), np.array(heading), 0.25) == creeps


@pytest.mark.parametrize(
    ("heading", "normal", "after"),
    [
        ((0.6, -0.8), (0.0, 1.0), (0.6, 0.8)),  # into the top cushion: back off it, along kept
        ((-1.0, 0.0), (1.0, 0.0), (1.0, 0.0)),  # square into a side cushion: straight back
        ((0.6, 0.8), (0.0, 1.0), (0.6, 0.8)),  # away from the cushion already: unchanged
        ((1.0, 0.0), (0.0, 1.0), (1.0, 0.0)),  # along the cushion: unchanged
    ],
)
def test_a_heading_bounces_off_a_cushion(
    heading: tuple[float, float], normal: tuple[float, float], after: tuple[float, float]
) -> None:
    assert np.allclose(bounced(np.array(heading), np.array(normal)), after)


@pytest.mark.parametrize(("fps", "every", "span"), [(30.0, 3, 30), (60.0, 6, 60), (25.0, 2, 25)])
def test_settling_keeps_its_time_at_any_frame_rate(fps: float, every: int, span: int) -> None:
    """A ball rolled to rest is re-measured every 0.1 s for a second at any frame rate."""
    sch = ScheduleConfig().at_fps(fps)
    assert (sch.settle_every, sch.settle_for) == (every, span)
