"""The detector's fine mode (the spot a resting ball is reported at): caps placed to a fraction
of a pixel, and the cap offsets of the lone balls nearest a cap."""

from __future__ import annotations

import numpy as np
import pytest

from vision.detection.cluster import ClusterPrior, consistent_offsets, subpixel


def _peak(x0: float, y0: float, sigma: float = 1.2) -> np.ndarray:
    """A cap's top-hat response: a Gaussian bump centred at ``(x0, y0)`` on a 15 x 15 grid."""
    ys, xs = np.mgrid[0:15, 0:15].astype(np.float64)
    return np.exp(-((xs - x0) ** 2 + (ys - y0) ** 2) / (2 * sigma * sigma)).astype(np.float32)


@pytest.mark.parametrize(("x0", "y0"), [(7.0, 7.0), (7.3, 6.8), (6.6, 7.45), (7.49, 7.2)])
def test_a_caps_peak_is_placed_within_a_tenth_of_a_pixel(x0: float, y0: float) -> None:
    caps = _peak(x0, y0)
    iy, ix = np.unravel_index(int(np.argmax(caps)), caps.shape)
    x, y = subpixel(caps, int(ix), int(iy))
    assert abs(x - x0) < 0.1 and abs(y - y0) < 0.1
    # (The pixel peak alone is off by the fraction.)
    assert abs(ix - x0) == pytest.approx(abs(round(x0) - x0), abs=1e-9)


@pytest.mark.parametrize(("ix", "iy"), [(0, 7), (14, 7), (7, 0), (7, 14)])
def test_a_peak_on_the_border_moves_only_along_the_other_axis(ix: int, iy: int) -> None:
    caps = _peak(float(ix), float(iy))
    x, y = subpixel(caps, ix, iy)
    assert (x, y) == pytest.approx((float(ix), float(iy)), abs=1e-6)


SAMPLES = (
    (10.0, 10.0, 0.1, 0.5),  # a lone ball's cap at (10, 10), its centre 0.1 r right, 0.5 r below
    (100.0, 10.0, -0.1, 0.3),
)


@pytest.mark.parametrize(
    ("point", "expected"),
    [
        ((10.0, 10.0), (0.1, 0.5)),  # on a sample: nearly its own offset
        ((100.0, 10.0), (-0.1, 0.3)),
        ((55.0, 10.0), (0.0, 0.4)),  # half way: the mean
    ],
)
def test_offsets_follow_the_nearest_lone_balls(
    point: tuple[float, float], expected: tuple[float, float]
) -> None:
    rf = 2.0
    prior = ClusterPrior(offset=(0.0, 0.4), samples=SAMPLES)
    out = prior.offsets_at(np.array([point]), rf)[0] / rf
    assert out == pytest.approx(expected, abs=0.02)


def test_without_samples_the_median_offset_stands() -> None:
    out = ClusterPrior(offset=(0.05, 0.45)).offsets_at(np.array([[3.0, 4.0], [50.0, 9.0]]), 4.0)
    assert np.allclose(out, [[0.2, 1.8], [0.2, 1.8]])


def test_a_crops_prior_has_its_samples_in_the_crops_pixels() -> None:
    prior = ClusterPrior(samples=SAMPLES)
    moved = prior.moved(8.0, 5.0)
    assert moved.samples == ((2.0, 5.0, 0.1, 0.5), (92.0, 5.0, -0.1, 0.3))
    here = prior.offsets_at(np.array([[20.0, 12.0]]), 2.0)
    there = moved.offsets_at(np.array([[12.0, 7.0]]), 2.0)
    assert np.allclose(here, there)


def _lone_caps(offset_u: list[float]) -> tuple[np.ndarray, np.ndarray]:
    """Caps along a long line (the colours on their spots, a table's length) with offsets."""
    caps = np.column_stack([np.linspace(200.0, 900.0, len(offset_u)), np.full(len(offset_u), 300.0)])
    offsets = np.column_stack([offset_u, np.full(len(offset_u), -0.2)])
    return caps, offsets


@pytest.mark.parametrize(
    ("offset_u", "kept"),
    [
        # The offset drifts steadily along the table (a render's yellow -0.12 to black +0.16):
        # every lone ball is one, the far ones too.
        ([0.16, 0.10, 0.02, -0.07, -0.07, -0.12], [True] * 6),
        # One off the drift by 0.3 radii (two balls taken for one): dropped, the rest kept.
        ([0.16, 0.10, 0.32, -0.07, -0.07, -0.12], [True, True, False, True, True, True]),
        # All alike but one far from them all.
        ([0.0, 0.0, 0.0, 0.6, 0.0], [True, True, True, False, True]),
        # Three: nothing to fit a plane to, the median's reach decides.
        ([0.0, 0.2, -0.2], [True, True, True]),
    ],
)
def test_lone_balls_are_judged_against_the_drift_of_the_others(
    offset_u: list[float], kept: list[bool]
) -> None:
    caps, offsets = _lone_caps(offset_u)
    assert consistent_offsets(caps, offsets).tolist() == kept
