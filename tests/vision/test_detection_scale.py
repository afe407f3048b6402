"""The working scale follows the balls' size, lone balls are placed to a fraction of a pixel,
and rendered labels count only visible balls."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from calibration.table import TABLE
from vision.detection.classical import MIN_WORKING_RADIUS, ClassicalDetector, learn_model
from vision.detection.cloth import mask_kernel
from vision.detection.dataset import MIN_VISIBLE, _visible_fraction


def _table(width: int, ball_radius: float, balls: list[tuple[float, float]]) -> np.ndarray:
    """A green bed ``width`` pixels wide (half as tall) in a dark frame a little larger, with
    red balls (a wide view of the room, cropped: the cloth model wants the table to fill it)."""
    h = width // 2
    image = np.full((h + h // 2, width + width // 4, 3), (40, 30, 60), np.uint8)
    x0, y0 = width // 8, h // 4
    cv2.rectangle(image, (x0, y0), (x0 + width, y0 + h), (30, 160, 20), -1)
    for u, v in balls:
        centre = (round(x0 + u * width), round(y0 + v * h))
        cv2.circle(image, centre, round(ball_radius), (20, 20, 170), -1, cv2.LINE_AA)
    return np.asarray(cv2.GaussianBlur(image, (3, 3), 0.8), np.uint8)


def _exact_table(width: int, balls: list[tuple[float, float]]) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_table` with each ball drawn at its exact radius and a sub-pixel centre (a ball two
    pixels in radius drawn one pixel off in radius is half again as large), and the centres."""
    h = width // 2
    radius = width * TABLE.ball_radius / TABLE.length
    image = np.full((h + h // 2, width + width // 4, 3), (40, 30, 60), np.uint8)
    x0, y0 = width // 8, h // 4
    cv2.rectangle(image, (x0, y0), (x0 + width, y0 + h), (30, 160, 20), -1)
    centres = np.array([(x0 + u * width + 0.3, y0 + v * h + 0.6) for u, v in balls])
    for cu, cv in centres:
        pt = (round(cu * 16), round(cv * 16))
        cv2.circle(image, pt, round(radius * 16), (20, 20, 170), -1, cv2.LINE_AA, shift=4)
    return np.asarray(cv2.GaussianBlur(image, (3, 3), 0.6), np.uint8), centres


SPOTS = [(0.2, 0.3), (0.5, 0.5), (0.8, 0.7), (0.35, 0.75)]


@pytest.mark.parametrize(
    ("width", "expected_scale"),
    [
        (1000, 0.5),  # a close view: balls 7 working pixels in radius at half scale
        (300, 1.0),  # a wide view of the room: a ball would be 2 working pixels at half scale
    ],
)
def test_small_balls_are_worked_on_at_full_resolution(width: int, expected_scale: float) -> None:
    radius = width * TABLE.ball_radius / TABLE.length
    model = learn_model(_table(width, radius, SPOTS), 0.5)
    assert model.scale == expected_scale
    rows = model.region.any(axis=1)
    assert float(np.median(model.row_radius[rows])) >= MIN_WORKING_RADIUS


@pytest.mark.parametrize(
    ("width", "scale", "upscale"),
    [
        (1000, 0.5, 1.0),  # balls 7 pixels in radius: worked on at half scale
        (400, 1.0, 1.0),  # 2.9: at full resolution (the measured blobs say 3 or more)
        (350, 1.0, 2.0),  # 2.6: on a copy upscaled twice
    ],
)
def test_balls_too_small_at_full_resolution_are_found_on_an_upscaled_copy(
    width: int, scale: float, upscale: float
) -> None:
    image, centres = _exact_table(width, SPOTS)
    detector = ClassicalDetector(classifier=None)
    model = detector.learn(image)
    assert (model.scale, model.upscale) == (scale, upscale)
    found = detector.detect(image)
    assert len(found) == len(SPOTS)
    # Placed in the frame's own pixels, whatever copy they were found on.
    d = np.hypot(*(found.pixel[:, None, :] - centres[None, :, :]).transpose(2, 0, 1))
    assert float(d.min(axis=0).max()) < 0.2
    # An ROI (frame pixels) round each ball finds it where the whole frame did.
    for cu, cv in centres:
        roi = (int(cu) - 10, int(cv) - 10, int(cu) + 11, int(cv) + 11)
        one = detector.detect(image, roi=roi)
        assert len(one) == 1
        assert float(np.hypot(*(one.pixel[0] - (cu, cv)))) < 0.2


@pytest.mark.parametrize(
    ("scale", "upscale", "side"),
    [
        (0.5, 1.0, 3),  # a broadcast at half scale
        (1.0, 1.0, 3),  # a wide view at full resolution
        (1.0, 2.0, 5),  # upscaled twice: a chalk line is 3 or 4 pixels wide
        (1.0, 3.0, 7),
    ],
)
def test_the_candidate_mask_opening_spans_a_chalk_line_in_source_pixels(
    scale: float, upscale: float, side: int
) -> None:
    model = learn_model(_table(1000, 7.0, SPOTS), 0.5)
    assert mask_kernel(replace(model, scale=scale, upscale=upscale)) == side


def test_every_ball_of_a_wide_view_is_found() -> None:
    width = 300
    radius = width * TABLE.ball_radius / TABLE.length
    found = ClassicalDetector(classifier=None).detect(_table(width, radius, SPOTS))
    assert len(found) == len(SPOTS)


@pytest.mark.parametrize(
    ("box", "covered", "visible"),
    [
        ((100.0, 100.0, 120.0, 120.0), None, True),  # in the open
        ((100.0, 710.0, 120.0, 730.0), None, True),  # half off the bottom edge: centre on it
        ((100.0, 714.0, 120.0, 734.0), None, False),  # centre beyond the edge
        ((-14.0, 100.0, 6.0, 120.0), None, False),  # mostly off the left edge
        ((100.0, 100.0, 120.0, 120.0), (0, 0, 1280, 112), False),  # under a score bar
        ((100.0, 100.0, 120.0, 120.0), (0, 0, 1280, 105), True),  # a quarter under it
    ],
)
def test_a_ball_is_labelled_only_when_half_of_it_shows(
    box: tuple[float, float, float, float], covered: tuple[int, int, int, int] | None, visible: bool
) -> None:
    mask = np.zeros((720, 1280), np.uint8)
    if covered is not None:
        x0, y0, x1, y1 = covered
        mask[y0:y1, x0:x1] = 255
    fraction = _visible_fraction(mask, np.array([box]))
    assert (fraction[0] >= MIN_VISIBLE) == visible


def _subsampled_ball(centre: tuple[float, float]) -> np.ndarray:
    """A red ball (radius 10 px, anti-aliased at a sub-pixel centre) on green cloth, its colour
    stored at half resolution as video does (4:2:0)."""
    image = np.full((720, 1280, 3), (40, 30, 60), np.uint8)
    cv2.rectangle(image, (140, 60), (1140, 660), (30, 160, 20), -1)
    for u, v in [(300.0, 250.0), (900.0, 260.0), (420.0, 520.0), centre]:
        cv2.circle(image, (round(u * 16), round(v * 16)), 160, (20, 20, 170), -1, cv2.LINE_AA, shift=4)
    ycc = cv2.cvtColor(image, cv2.COLOR_BGR2YCrCb)
    half = cv2.resize(ycc[..., 1:], (640, 360), interpolation=cv2.INTER_AREA)
    ycc[..., 1:] = cv2.resize(half, (1280, 720), interpolation=cv2.INTER_NEAREST)
    return np.asarray(cv2.cvtColor(ycc, cv2.COLOR_YCrCb2BGR), np.uint8)


OFFSETS = [(0.0, 0.0), (0.1, 0.3), (0.25, 0.5), (0.5, 0.75), (0.75, 0.25), (0.9, 0.6)]


@pytest.mark.parametrize("offset", OFFSETS)
def test_a_lone_ball_is_placed_to_a_fraction_of_a_pixel_despite_half_resolution_colour(
    offset: tuple[float, float],
) -> None:
    centre = (640.0 + offset[0], 400.0 + offset[1])
    found = ClassicalDetector(classifier=None).detect(_subsampled_ball(centre))
    d = np.hypot(*(found.pixel - np.array(centre)).T)
    assert d.min() < 0.1  # thresholding the colour snapped it by up to 0.37 px
