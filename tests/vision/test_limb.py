"""A resting ball's centre from its limb, radius known: unmoved by its lit top and shaded foot."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from calibration.camera import Camera, Intrinsics, Pose
from calibration.table import TABLE
from vision.detection.limb import apparent_radius, limb_centre
from vision.tracking.rest_report import SPOT_HELD_RADII, reported_spot

CLOTH = (20, 120, 10)  # BGR
SS = 8  # supersampling of the synthetic picture


def _ball(
    centre: tuple[float, float],
    r: float,
    lit: tuple[int, int, int],
    shade: tuple[int, int, int],
    foot: float = 0.8,
    size: int = 64,
) -> np.ndarray:
    """A ball lit from above on the cloth, as a camera looking down the table sees it: its top
    ``lit`` with a white highlight, its underside ``shade``, its contact shadow round the foot
    (``foot`` radii below the centre), antialiased by supersampling."""
    n = size * SS
    ys, xs = (np.mgrid[0:n, 0:n] + 0.5) / SS - 0.5
    img = np.empty((n, n, 3), np.float64)
    img[:] = CLOTH
    cx, cy = centre
    # The contact shadow: a darker ellipse of cloth round the foot.
    sh = ((xs - cx) / (1.1 * r)) ** 2 + ((ys - cy - foot * r) / (0.45 * r)) ** 2 <= 1.0
    img[sh] *= 0.45
    d2 = (xs - cx) ** 2 + (ys - cy) ** 2
    on = d2 <= r * r
    # Shading from the lit top (y = -r) to the shaded underside (y = +r).
    t = np.clip((ys - cy + r) / (2.0 * r), 0.0, 1.0)[..., None]
    body = (1.0 - t) * np.asarray(lit, np.float64) + t * np.asarray(shade, np.float64)
    img[on] = body[on]
    spec = (xs - cx) ** 2 + (ys - cy + 0.5 * r) ** 2 <= (0.25 * r) ** 2
    img[spec] = (245, 250, 250)
    small = cv2.resize(img, (size, size), interpolation=cv2.INTER_AREA)
    return np.asarray(np.clip(small + 0.5, 0, 255), np.uint8)


def _centroid(img: np.ndarray, centre: tuple[float, float], r: float) -> np.ndarray:
    """The centroid weighed by each pixel's colour distance from the cloth (the detector's way)."""
    d = np.sqrt(np.sum((img.astype(np.float64) - CLOTH) ** 2, axis=2))
    ys, xs = np.mgrid[0 : img.shape[0], 0 : img.shape[1]]
    w = d * ((xs - centre[0]) ** 2 + (ys - centre[1]) ** 2 <= (1.3 * r) ** 2)
    return np.array([(w * xs).sum() / w.sum(), (w * ys).sum() / w.sum()])


# (lit BGR, shaded BGR): the green on the green cloth, its underside near the cloth's colour;
# a black; a red unlike the cloth all over.
BALLS = [
    ((110, 150, 40), (25, 70, 15)),
    ((70, 70, 70), (12, 14, 12)),
    ((40, 40, 210), (15, 15, 90)),
]


@pytest.mark.parametrize(("lit", "shade"), BALLS)
@pytest.mark.parametrize(("cx", "cy", "r"), [(31.3, 32.6, 9.0), (32.8, 31.1, 7.0), (30.5, 30.5, 11.5)])
def test_limb_centre_is_the_ball_centre(
    lit: tuple[int, int, int], shade: tuple[int, int, int], cx: float, cy: float, r: float
) -> None:
    img = _ball((cx, cy), r, lit, shade)
    guess = np.array([cx + 0.8, cy - 1.0])  # (a detector's centre, towards the lit top)
    got = limb_centre(img, guess, r, foot=np.array([cx, cy + 0.8 * r]))
    assert got is not None
    assert np.hypot(*(got - (cx, cy))) < 0.15


def test_the_colour_centroid_it_replaces_is_pulled_to_the_lit_top() -> None:
    # The green's own case: what the weighed centroid makes of the same picture.
    cx, cy, r = 31.3, 32.6, 9.0
    img = _ball((cx, cy), r, *BALLS[0])
    off = _centroid(img, (cx, cy), r) - (cx, cy)
    got = limb_centre(img, np.array([cx, cy]) + off, r, foot=np.array([cx, cy + 0.8 * r]))
    assert got is not None
    assert off[1] < -0.2  # (towards the lit top)
    assert np.hypot(*(got - (cx, cy))) < np.hypot(*off) / 3.0


@pytest.mark.parametrize(
    ("why", "kwargs"),
    [
        ("radius under the smallest fitted", {"r": 3.0}),
        ("no radius known", {"r": float("nan")}),
        ("by the frame's edge", {"guess": np.array([3.0, 30.0])}),
    ],
)
def test_no_fit(why: str, kwargs: dict[str, object]) -> None:
    img = _ball((31.3, 32.6), 9.0, *BALLS[0])
    args: dict[str, object] = {"guess": np.array([31.3, 32.6]), "r": 9.0}
    args.update(kwargs)
    assert limb_centre(img, args["guess"], args["r"]) is None, why  # type: ignore[arg-type]


def test_a_neighbours_side_is_left_out() -> None:
    # A second ball of another colour touching it on the right: its rim is not this ball's.
    cx, cy, r = 24.3, 32.6, 8.0
    img = _ball((cx, cy), r, *BALLS[0])
    other = _ball((cx + 2 * r + 0.2, cy), r, *BALLS[2])
    right = np.zeros(img.shape[:2], bool)
    right[:, int(cx + r + 0.6) :] = True
    img[right] = other[right]
    got = limb_centre(img, np.array([cx + 0.7, cy]), r, np.array([[cx + 2 * r + 0.2, cy]]))
    assert got is not None
    assert np.hypot(*(got - (cx, cy))) < 0.2


@pytest.mark.parametrize("height", [3000.0, 4200.0])
def test_apparent_radius_straight_down(height: float) -> None:
    # Under a camera looking straight down, the silhouette of a ball below it is a circle of
    # radius f tan(asin(R / D)), D the distance to its centre.
    cam = Camera(Intrinsics.from_fov(1280, 720, 50.0), Pose(height=height))
    xy = np.array([[TABLE.length / 2.0, TABLE.width / 2.0]])
    d = height - TABLE.ball_radius
    f = cam.intrinsics.fx
    want = f * math.tan(math.asin(TABLE.ball_radius / d))
    assert apparent_radius(cam, xy, TABLE.ball_radius)[0] == pytest.approx(want, rel=1e-3)
    assert apparent_radius(cam, xy, TABLE.ball_radius, 0.5)[0] == pytest.approx(want / 2, rel=1e-3)


def test_a_limb_spot_is_reported_as_it_is() -> None:
    # Re-measured at rest a little off, the anchor does not carry the limb's correction along.
    r = 10.0
    at = np.array([[100.0, 50.0]])
    spot = np.array([[100.4, 50.5]])
    anchor = at + np.array([0.0, 0.5 * SPOT_HELD_RADII * r])
    out = reported_spot(anchor, spot, at, np.array([r]), np.array([True]))
    assert np.allclose(out, spot)
    out = reported_spot(anchor, spot, at, np.array([r]), np.array([False]))
    assert np.allclose(out, anchor + (spot - at))
