"""The event-log reader: valid lines parse, invalid ones fail naming the line."""

from __future__ import annotations

import json

import pytest

from adjudicator.eventlog import FrameStart, Pot, Rest, event_to_dict, read_events, validate_output
from calibration.errors import BaulklineError

START = {"type": "frame_start", "t": 0.0, "players": ["A", "B"], "striker": 0}


def _lines(*objs: object) -> list[str]:
    return [o if isinstance(o, str) else json.dumps(o) for o in objs]


def test_reads_a_small_log() -> None:
    events = list(
        read_events(
            _lines(
                START,
                {"type": "place", "t": 1.0, "ball": "white", "position": [700, 900]},
                {"type": "strike", "t": 2.0},
                {"type": "collision", "t": 2.5, "balls": ["white", "red3"]},
                {"type": "pot", "t": 3.0, "ball": "red3", "pocket": "top_left", "extra": 1},
                {"type": "rest", "t": 4.0, "positions": {"white": [1, 2]}, "touching": [["white", "red1"]]},
            )
        )
    )
    assert isinstance(events[0], FrameStart) and events[0].reds == 15
    assert isinstance(events[4], Pot) and events[4].pocket == "top_left"
    assert isinstance(events[5], Rest) and events[5].touching == (("white", "red1"),)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{not json", "not valid JSON"),
        ({"type": "teleport", "t": 1.0}, "unknown event type"),
        ({"type": "pot", "t": 1.0, "ball": "red1"}, "pocket"),
        ({"type": "pot", "t": 1.0, "ball": "purple", "pocket": "top_left"}, "purple"),
        ({"type": "cushion", "t": -1.0, "ball": "white"}, "t"),
        ({"type": "strike", "t": 0.5}, "backwards"),
    ],
)
def test_bad_lines_name_the_line(line: object, message: str) -> None:
    lines = _lines({**START, "t": 0.8}, line)
    with pytest.raises(BaulklineError, match=rf"log:2: .*{message}"):
        list(read_events(lines, source="log"))


def test_red_beyond_the_frame_count_is_an_error() -> None:
    lines = _lines({**START, "reds": 6}, {"type": "cushion", "t": 1.0, "ball": "red7"})
    with pytest.raises(BaulklineError, match="red7"):
        list(read_events(lines))


def test_round_trip_through_dict() -> None:
    obj = {"type": "rest", "t": 4.0, "positions": {"white": [1.0, 2.0]}, "touching": [["white", "red1"]]}
    (event,) = read_events(_lines(obj))
    assert event_to_dict(event) == obj


def test_output_validation() -> None:
    assert (
        validate_output(
            {
                "type": "score",
                "t": 1.0,
                "scores": [1, 0],
                "striker": 0,
                "break": 1,
                "ball_on": "colour",
                "reds": 14,
            }
        )
        is None
    )
    assert validate_output({"type": "call", "t": 1.0, "call": "OOPS"}) is not None
