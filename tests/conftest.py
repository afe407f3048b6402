"""Shared test fixtures: where the real footage is, and skipping when it is absent."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import settings

# No per-example deadline: speed is the benchmarks' to measure, and on a loaded two-core runner
# an example that takes 0.3 ms alone took 320 ms once (tests/vision/test_reentry.py), which
# Hypothesis reports as a flaky failure. Tests that set their own deadline keep it.
settings.register_profile("baulkline", deadline=None)
settings.load_profile("baulkline")

ROOT = Path(__file__).resolve().parents[1]
FOOTAGE = ROOT.parent / "shared" / "footage" / "broadcast-overhead"


@pytest.fixture(scope="session")
def footage() -> Path:
    """The real broadcast-overhead footage; skips the test when it is not beside the repo."""
    if not FOOTAGE.is_dir():
        pytest.skip(f"real footage not found at {FOOTAGE} (it is kept outside the repository)")
    return FOOTAGE
