"""The touching-gap benchmark's pairing: true gaps, measured gaps, each ball's share of the error."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from adjudicator.eventlog import FrameStart, InputEvent, Rest, event_to_dict
from benchmarks.touch_gaps import NEAR_MM, clip_gaps, summary
from calibration.table import TABLE

D = 2.0 * TABLE.ball_radius
SETUP = TABLE.standard_positions()


def _write(path: Path, events: list[InputEvent]) -> Path:
    path.write_text("".join(json.dumps(event_to_dict(e)) + "\n" for e in events))
    return path


def _log(
    t: float, white: tuple[float, float], red: tuple[float, float], name: str, touching: bool
) -> list[InputEvent]:
    pos = {**SETUP, "white": white, name: red}
    start = FrameStart(0.0, ("A", "B"), 0, positions=pos)
    return [start, Rest(t, positions=pos, touching=(("white", name),) if touching else None)]


@pytest.mark.parametrize(
    ("true_gap", "white_off", "red_off", "called", "error", "white_along", "red_along"),
    [
        # Touching, read 2 mm wide: the white 2 mm off, away from the red.
        (0.2, -2.0, 0.0, False, 2.0, -2.0, 0.0),
        # 2.4 mm apart, read 0.9 mm narrow: the red 1.5 towards the white, the white 0.6 away.
        (2.4, -0.6, -1.5, True, -0.9, -0.6, 1.5),
        # Read exactly.
        (5.8, 0.0, 0.0, False, 0.0, 0.0, 0.0),
    ],
)
def test_pair_gap(
    tmp_path: Path,
    true_gap: float,
    white_off: float,
    red_off: float,
    called: bool,
    error: float,
    white_along: float,
    red_along: float,
) -> None:
    # The white left of the red along the table: "towards" is +x for the white, -x for the red.
    w, r = (1000.0, 800.0), (1000.0 + D + true_gap, 800.0)
    truth = _write(tmp_path / "t.jsonl", _log(3.0, w, r, "red3", true_gap < 1.0))
    got = _write(
        tmp_path / "e.jsonl",
        _log(3.2, (w[0] + white_off, w[1]), (r[0] + red_off, r[1]), "red11", called),
    )
    (pair,) = [g for g in clip_gaps("clip", truth, got) if "white" in (g.a, g.b)]
    assert pair.true_mm == pytest.approx(true_gap)
    assert pair.error_mm == pytest.approx(error)
    along = {pair.a: pair.a_along_mm, pair.b: pair.b_along_mm}
    assert along["white"] == pytest.approx(white_along)
    assert along["red3"] == pytest.approx(red_along)
    assert pair.called == called


def test_far_pairs_and_the_summary(tmp_path: Path) -> None:
    w, r = (1000.0, 800.0), (1000.0 + D + NEAR_MM + 1.0, 800.0)
    truth = _write(tmp_path / "t.jsonl", _log(3.0, w, r, "red1", False))
    gaps = clip_gaps("clip", truth, truth)
    assert not [g for g in gaps if "white" in (g.a, g.b)]
    assert summary([])[-1] == "touching missed: 0; called where not touching: 0"
