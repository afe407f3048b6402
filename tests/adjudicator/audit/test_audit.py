"""The audit suite: each scenario's log must give exactly the outputs reasoned from the rules."""

from __future__ import annotations

import json

import pytest

from adjudicator.engine import adjudicate
from adjudicator.eventlog import read_events, validate_output
from tests.adjudicator.audit.kit import matches
from tests.adjudicator.audit.scenarios import SCENARIOS


def test_enough_scenarios() -> None:
    assert len(SCENARIOS) >= 40


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_audit(name: str) -> None:
    s = SCENARIOS[name]()
    actual = list(adjudicate(read_events(s.lines(), source=name)))
    for out in actual:
        assert validate_output(out) is None, out
    shown = "\n".join(json.dumps(a) for a in actual)
    assert len(actual) == len(s.expected), f"expected {len(s.expected)} outputs, got:\n{shown}"
    for i, (e, a) in enumerate(zip(s.expected, actual, strict=True)):
        assert matches(e, a), f"output {i}: expected {json.dumps(e)}\ngot:\n{shown}"
