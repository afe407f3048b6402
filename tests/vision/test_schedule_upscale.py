"""The schedule's pixel constants are in the pixels the detector works in (small pictures only)."""

from __future__ import annotations

import pytest

from vision.tracking.schedule import ScheduleConfig


@pytest.mark.parametrize(
    ("upscale", "k"),
    [
        (1.0, 1.0),  # the detector works on the working copy: the constants as set
        (2.0, 0.5),  # a 640x360 view of the whole table, worked on at twice its size
        (3.0, 1.0 / 3.0),
        (float("nan"), 1.0),  # nothing learned: nothing to scale by
    ],
)
def test_pixel_speeds_and_thumbnail_follow_the_detectors_upscaling(upscale: float, k: float) -> None:
    base = ScheduleConfig().at_fps(60.0)
    got = base.at_upscale(upscale)
    assert got.rest_speed == pytest.approx(base.rest_speed * k)
    assert got.roll_speed == pytest.approx(base.roll_speed * k)
    # A thumbnail cell spans as many ball radii as at the sizes the constants were set at.
    assert got.thumb == pytest.approx(base.thumb / k)
    # Nothing measured in radii, frames or grey levels changes.
    assert got.hold_radii == base.hold_radii and got.settle_for == base.settle_for
    assert got.change == base.change
