"""The tracker's systematic error widens the touching threshold, and only it."""

from __future__ import annotations

import dataclasses

import pytest

from calibration.table import TABLE
from vision.events.config import EventConfig


@pytest.mark.parametrize(("fps", "noise"), [(30.0, 1.5), (60.0, 1.0), (50.0, 2.0)])
@pytest.mark.parametrize("bias", [0.5, 1.6])
def test_bias_widens_touching_only(fps: float, noise: float, bias: float) -> None:
    plain = EventConfig.derive(TABLE, fps, noise)
    biased = EventConfig.derive(TABLE, fps, noise, bias)
    assert biased.touching_mm == pytest.approx(plain.touching_mm + bias)
    assert dataclasses.replace(biased, touching_mm=plain.touching_mm) == plain


def test_negative_bias_is_refused() -> None:
    with pytest.raises(ValueError, match="bias_mm"):
        EventConfig.derive(TABLE, 30.0, 1.0, -0.1)
