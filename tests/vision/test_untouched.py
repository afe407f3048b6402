"""A resting ball lost where no ball touched it stays on its spot (vision.tracking.untouched)."""

from __future__ import annotations

import numpy as np
import pytest

from vision.tracking.untouched import untouched

R_MM = 26.25


@pytest.mark.parametrize(
    ("table", "active", "candidate", "expect"),
    [
        # A red passing 84 mm behind a resting brown: no contact; the brown keeps no velocity.
        ([(0, 0), (84, 0)], [True, True], [True, False], [True, False]),
        # Within contact reach (2 + 2 * 0.5 radii = 78.75 mm): it may have been struck.
        ([(0, 0), (70, 0)], [True, True], [True, False], [False, False]),
        ([(0, 0), (53, 0)], [True, True], [True, False], [False, False]),
        # A ball off the table touches nothing.
        ([(0, 0), (53, 0)], [True, False], [True, False], [True, False]),
        # A ball on the table of unknown place may be anywhere.
        ([(0, 0), (np.nan, np.nan)], [True, True], [True, False], [False, False]),
        # Only candidates; a candidate of unknown place is not one.
        ([(0, 0), (500, 0)], [True, True], [False, False], [False, False]),
        ([(np.nan, np.nan), (500, 0)], [True, True], [True, False], [False, False]),
        # Each by its own nearest ball.
        ([(0, 0), (500, 0), (560, 0)], [True, True, True], [True, True, False], [True, False, False]),
    ],
)
def test_untouched(
    table: list[tuple[float, float]], active: list[bool], candidate: list[bool], expect: list[bool]
) -> None:
    """Which resting balls no other ball can have touched, on the table."""
    got = untouched(np.array(table, np.float64), np.array(active), np.array(candidate), R_MM, 0.5)
    assert got.tolist() == expect
