"""The recorded scenarios: each input log must give exactly the calls written from the rules."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from adjudicator.engine import adjudicate
from adjudicator.eventlog import read_events, validate_output

SCENARIOS = Path(__file__).resolve().parent / "scenarios"
NAMES = sorted(p.name.removesuffix(".events.jsonl") for p in SCENARIOS.glob("*.events.jsonl"))
POSITION_TOL = 0.5  # mm


def _load(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def _same(expected: Any, actual: Any, key: str = "") -> bool:
    if key == "message" and expected == "*":
        return isinstance(actual, str) and bool(actual)
    if isinstance(expected, dict):
        return (
            isinstance(actual, dict)
            and expected.keys() == actual.keys()
            and all(_same(v, actual[k], k) for k, v in expected.items())
        )
    if isinstance(expected, list):
        return (
            isinstance(actual, list)
            and len(expected) == len(actual)
            and all(_same(e, a, key) for e, a in zip(expected, actual, strict=True))
        )
    if isinstance(expected, float) or isinstance(actual, float):
        if expected is None or actual is None:
            return expected is actual
        return math.isclose(
            float(expected), float(actual), abs_tol=POSITION_TOL if key == "position" else 1e-6
        )
    return bool(expected == actual)


def test_there_are_scenarios() -> None:
    assert len(NAMES) >= 40


@pytest.mark.parametrize("name", NAMES)
def test_scenario(name: str) -> None:
    events = (SCENARIOS / f"{name}.events.jsonl").read_text().splitlines()
    expected = _load(SCENARIOS / f"{name}.calls.jsonl")
    actual = list(adjudicate(read_events(events, source=name)))
    for out in actual:
        assert validate_output(out) is None, out
    assert len(actual) == len(expected), "\n".join(json.dumps(a) for a in actual)
    for i, (e, a) in enumerate(zip(expected, actual, strict=True)):
        assert _same(e, a), f"output {i}: expected {json.dumps(e)}\n got {json.dumps(a)}"
