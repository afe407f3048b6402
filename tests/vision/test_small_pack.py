"""Every ball of a rack whose balls are a few pixels across, where a cap is mixed with its body.

At 1280x720 working size a 1080p render's far-end reds are 4.5 px in radius: the lamps' cap is
narrower than a pixel, so the pixels it touches are pink, not white, and the pixel whiteness
test refused the far corner red's cap (a rack seeded with 14 reds). The light a cap adds is
white all the same; a stripe of the body's own hue, brighter, is not.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calibration.table import TABLE
from vision.detection.classical import ClassicalDetector
from vision.detection.cloth import channel_max, channel_min
from vision.detection.cluster import GREY_ADDED, WHITENESS, added_white, cap_map
from vision.detection.detections import colour_index
from vision.synthetic.conditions import Conditions, broadcast, random_conditions
from vision.synthetic.render import Renderer

RF = 4.5


def _bump(body: tuple[int, int, int], top: tuple[float, float, float]) -> np.ndarray:
    """A 21x21 patch of ``body`` (BGR) with ``top`` at its centre pixel (a sub-pixel cap)."""
    crop = np.full((21, 21, 3), body, np.float64)
    crop[10, 10] = top
    return np.asarray(np.clip(np.round(crop), 0, 255), np.uint8)


def _mix(body: tuple[int, int, int], light: tuple[int, int, int], share: float) -> tuple[float, float, float]:
    """``body`` with ``share`` of its pixel covered by ``light`` (saturating like a sensor)."""
    b, lt = np.array(body, np.float64), np.array(light, np.float64)
    return tuple(np.minimum(255.0, b + share * lt).tolist())  # type: ignore[return-value]


@pytest.mark.parametrize(
    ("name", "body", "top", "expected"),
    [
        ("white lamp on a red", (30, 34, 216), _mix((30, 34, 216), (255, 255, 255), 0.25), True),
        ("white lamp on a blue", (200, 70, 20), _mix((200, 70, 20), (255, 255, 255), 0.2), True),
        ("white lamp on the green cloth", (40, 140, 30), _mix((40, 140, 30), (255, 255, 255), 0.15), True),
        ("the cloth's own hue, brighter (a nose)", (40, 140, 30), (70, 245, 52), False),
        ("a red's own hue, brighter", (20, 30, 150), (30, 45, 230), False),
        ("the cloth at a dark red's rim", (10, 5, 60), (49, 136, 44), False),
    ],
)
def test_the_light_a_cap_adds_is_white(
    name: str, body: tuple[int, int, int], top: tuple[float, float, float], expected: bool
) -> None:
    crop = _bump(body, top)
    low = channel_min(crop)
    caps = cap_map(crop, RF, low)
    assert caps[10, 10] > 0.0, name
    # The pixel itself is not white enough: only what it adds can tell.
    assert float(low[10, 10]) < WHITENESS * float(channel_max(crop)[10, 10]), name
    assert bool(added_white(crop, RF)[10, 10]) is expected, name


def _added_white_by_sorting(crop: np.ndarray, rf: float) -> np.ndarray:
    """The definition of :func:`added_white`: each pixel's top-hats in the order of its own
    channels, smallest first (a stable sort: of equal channels the last is the largest)."""
    tops = np.stack([cap_map(crop, rf, np.ascontiguousarray(crop[:, :, c])) for c in range(3)], axis=-1)
    rises = np.take_along_axis(tops, np.argsort(crop, axis=2, kind="stable"), axis=2)
    lo = np.minimum(rises[..., 0], rises[..., 1])
    hi = np.maximum(rises[..., 0], rises[..., 1])
    return np.asarray((lo > 0.0) & (lo >= GREY_ADDED * hi) & (lo >= WHITENESS * rises[..., 2]))


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    levels=st.sampled_from([2, 3, 8, 256]),  # few levels: many pixels with equal channels
    rf=st.floats(2.0, 12.0),
)
def test_added_white_picks_the_channels_a_sort_would(seed: int, levels: int, rf: float) -> None:
    rng = np.random.default_rng(seed)
    crop = (rng.integers(0, levels, (24, 31, 3)) * (255 // (levels - 1))).astype(np.uint8)
    assert np.array_equal(added_white(crop, rf), _added_white_by_sorting(crop, rf))


@pytest.mark.parametrize(
    "conditions",
    [
        random_conditions(2, 960, 540),  # radius 3.0 px: one red lost before
        random_conditions(3, 960, 540),  # radius 3.8 px: one red lost before
        random_conditions(5, 960, 540),  # radius 3.5 px
        broadcast(960, 540),  # radius 9 px: caps many pixels across
    ],
    ids=["random2", "random3", "random5", "broadcast"],
)
def test_every_ball_of_a_small_rack(conditions: Conditions) -> None:
    pos = TABLE.standard_positions(15, white=True)
    names = tuple(pos)
    xy = np.array([pos[n] for n in names])
    image = Renderer(conditions, 0).frame(names, xy[None])
    truth = conditions.camera.project(xy, TABLE.ball_radius)
    found = ClassicalDetector().detect(image)
    assert int(np.count_nonzero(found.colour == colour_index("red"))) == 15
    # Every true ball has its own detection within half a radius.
    d = np.linalg.norm(found.pixel[:, None, :] - truth[None, :, :], axis=2)
    near = d.min(axis=0) < 0.5 * np.median(found.radius)
    assert near.all(), [n for n, ok in zip(names, near, strict=True) if not ok]
    assert len(set(np.argmin(d, axis=0).tolist())) == len(names)
