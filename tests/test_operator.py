"""Operator inputs: keys and files become contract events merged by time."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from adjudicator.eventlog import Choice, Concede, Nominate
from calibration.errors import BaulklineError
from vision.operator import KEYS, OperatorQueue, event_for_key, read_operator_inputs


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        ("7", Nominate(t=1.0, ball="black")),
        ("r", Choice(t=1.0, option="replace")),
        ("q", Concede(t=1.0, player=1)),
    ],
)
def test_keys(key: str, expected: object) -> None:
    assert event_for_key(key, 1.0, striker=1) == expected


def test_every_documented_key_does_something() -> None:
    assert all(event_for_key(k, 0.0, 0) is not None for k in KEYS)
    assert event_for_key("z", 0.0, 0) is None


def test_queue_releases_in_time_order() -> None:
    q = OperatorQueue.of([Nominate(t=5.0, ball="pink"), Choice(t=2.0, option="play")])
    assert list(q.due(1.0)) == []
    assert [e.t for e in q.due(10.0)] == [2.0, 5.0]


def test_file_with_camera_events_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "inputs.jsonl"
    path.write_text(json.dumps({"type": "strike", "t": 1.0}) + "\n")
    with pytest.raises(BaulklineError, match="operator inputs may only be"):
        read_operator_inputs(path)


def test_missing_file_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(BaulklineError, match="cannot read"):
        read_operator_inputs(tmp_path / "nope.jsonl")
