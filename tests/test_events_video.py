"""The events-from-video benchmark's comparison: anonymous reds, cut clips, the referee's calls."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from adjudicator.eventlog import (
    Collision,
    Cushion,
    FrameStart,
    InputEvent,
    Place,
    Pot,
    Rest,
    Strike,
    event_to_dict,
)
from benchmarks.events_bench import Tally
from benchmarks.events_video import anonymous_reds, completed_strokes, referee_agreement, score_clip
from calibration.table import TABLE

SETUP = TABLE.standard_positions()
START = FrameStart(0.0, ("A", "B"), 0, positions={**SETUP, "white": (600.0, 700.0)})


def _rest(t: float, touching: tuple[tuple[str, str], ...] | None = None) -> Rest:
    return Rest(t, positions={**SETUP, "white": (600.0, 700.0)}, touching=touching)


@pytest.mark.parametrize(
    ("event", "expected"),
    [
        (Collision(1.0, ("white", "red7")), Collision(1.0, ("white", "red"))),
        (Collision(1.0, ("red12", "red3")), Collision(1.0, ("red", "red"))),
        (Pot(1.0, "red11", "top_left"), Pot(1.0, "red", "top_left")),
        (Cushion(1.0, "red1"), Cushion(1.0, "red")),
        (Place(1.0, "blue", (1.0, 2.0)), Place(1.0, "blue", (1.0, 2.0))),
        (_rest(2.0, (("white", "red15"),)), _rest(2.0, (("white", "red"),))),
        # Colours keep their names; a name that merely starts with "red" is no red.
        (Pot(1.0, "pink", "bottom_right"), Pot(1.0, "pink", "bottom_right")),
        (Strike(0.5), Strike(0.5)),
    ],
)
def test_anonymous_reds(event: InputEvent, expected: InputEvent) -> None:
    assert anonymous_reds(event) == expected


def _log(*events: InputEvent) -> list[InputEvent]:
    return [START, *events]


@pytest.mark.parametrize(
    ("truth", "inferred", "kept_truth", "kept_inferred"),
    [
        # The truth closes its last stroke: both logs whole.
        (_log(Strike(1), _rest(3)), _log(Strike(1), _rest(3)), 3, 3),
        # Cut mid-stroke 2: the truth ends at its second strike, the video's log at its own.
        (
            _log(Strike(1), _rest(3), Strike(4), Cushion(5, "white")),
            _log(Strike(1), _rest(3), Strike(4), Cushion(5, "white"), _rest(6)),
            3,
            3,
        ),
        # The video's log never found the open stroke: it is kept whole.
        (_log(Strike(1), _rest(3), Strike(4)), _log(Strike(1), _rest(3)), 3, 3),
    ],
)
def test_completed_strokes(
    truth: list[InputEvent], inferred: list[InputEvent], kept_truth: int, kept_inferred: int
) -> None:
    a, b = completed_strokes(truth, inferred)
    assert (len(a), len(b)) == (kept_truth, kept_inferred)


def test_the_referee_agrees_whatever_the_reds_are_called() -> None:
    truth = _log(Strike(1), Collision(1.5, ("white", "red3")), Pot(2, "red3", "top_left"), _rest(3))
    same = _log(Strike(1), Collision(1.5, ("white", "red9")), Pot(2, "red9", "top_left"), _rest(3))
    foul = _log(Strike(1), Collision(1.5, ("white", "blue")), _rest(3))
    assert referee_agreement(truth, same) == [True]
    assert referee_agreement(truth, foul) == [False]


def _write(path: Path, events: list[InputEvent]) -> Path:
    path.write_text("".join(json.dumps(event_to_dict(e)) + "\n" for e in events))
    return path


def test_score_clip_counts_a_false_place_and_a_missed_one(tmp_path: Path) -> None:
    """A false place of the white (the calls unchanged) and a re-spot the video missed are
    both counted against the log, though the referee's calls agree."""
    truth = _log(Strike(1), Collision(1.5, ("white", "red3")), Pot(2, "red3", "top_left"), _rest(3))
    truth += [Place(3.5, "blue", (1784.5, 889.0))]
    inferred = _log(Strike(1), Collision(1.5, ("white", "red8")), Pot(2, "red8", "top_left"), _rest(3))
    inferred += [Place(3.2, "white", (600.0, 708.0))]
    tally = Tally()
    score_clip(
        _write(tmp_path / "t.jsonl", truth), _write(tmp_path / "i.jsonl", inferred), tally, 60.0, "pot-1"
    )
    assert (tally.pot_tp, tally.pot_fp, tally.pot_fn) == (1, 0, 0)
    assert tally.first_ok == 1
    assert (tally.places_true, tally.places_ok, tally.places_false) == (1, 0, 1)
    assert (tally.referee_same, tally.referee_strokes) == (1, 1)
    assert tally.kinds == {"pot": 1}
