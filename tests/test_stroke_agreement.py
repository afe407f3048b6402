"""The referee benchmarks' per-stroke comparison (issue 6: the same calls on 98% of strokes)."""

from __future__ import annotations

from typing import Any

import pytest

from benchmarks.referee_bench import by_stroke, strokes_agreeing

FOUL = ("call", "FOUL", 4, "wrong_ball_first", "Player 1")


def _score(a: int, b: int, striker: str = "Player 1", on: str = "red") -> tuple[Any, ...]:
    return ("score", (a, b), striker, on)


TRUE = [_score(1, 0), FOUL, _score(1, 4, "Player 2"), _score(1, 5, "Player 2", "colour")]


@pytest.mark.parametrize(
    ("got", "agree", "total"),
    [
        # The same calls: every stroke agrees.
        (TRUE, 3, 3),
        # The foul missed: that stroke disagrees; the next adds the same point on another total.
        ([_score(1, 0), _score(1, 0, "Player 2"), _score(1, 1, "Player 2", "colour")], 2, 3),
        # The video's log ends a stroke early: the missing stroke disagrees.
        (TRUE[:3], 2, 3),
        # An extra stroke read from the video (a cue feathering taken for a stroke) disagrees.
        ([*TRUE, _score(1, 5, "Player 1")], 3, 4),
        # Nothing heard.
        ([], 0, 3),
    ],
)
def test_strokes_agreeing(got: list[tuple[Any, ...]], agree: int, total: int) -> None:
    assert strokes_agreeing(TRUE, got) == (agree, total)


def test_a_stroke_is_its_calls_and_the_points_it_added() -> None:
    strokes = by_stroke([*TRUE, ("frame_end", "Player 2", (1, 5))])
    assert strokes[1] == (FOUL, ("score", (0, 4), "Player 2", "red"))
    assert strokes[-1][-1] == ("frame_end", "Player 2")
    assert len(strokes) == 3
