"""Live view: what is printed and said for each output."""

from __future__ import annotations

import io

import pytest

from vision.live import LiveView, Speaker, announcement

PLAYERS = ("Ann", "Bob")


@pytest.mark.parametrize(
    ("output", "said"),
    [
        ({"type": "call", "t": 1.0, "call": "FOUL", "penalty": 4}, "FOUL. 4 away."),
        ({"type": "call", "t": 1.0, "call": "FREE BALL"}, "Free ball."),
        ({"type": "call", "t": 1.0, "call": "TOUCHING BALL", "balls": ["white", "red1"]}, "Touching ball."),
        (
            {"type": "frame_end", "t": 1.0, "winner": 1, "scores": [40, 72], "reason": "x"},
            "Frame to Bob, 40 72.",
        ),
        (
            {
                "type": "score",
                "t": 1.0,
                "scores": [0, 0],
                "striker": 0,
                "break": 0,
                "ball_on": "red",
                "reds": 15,
            },
            None,
        ),
    ],
)
def test_announcements(output: dict, said: str | None) -> None:
    assert announcement(output, PLAYERS) == said


def test_view_prints_scores_and_calls() -> None:
    out = io.StringIO()
    view = LiveView(PLAYERS, stream=out)
    view.show(
        {"type": "score", "t": 61.5, "scores": [8, 0], "striker": 0, "break": 8, "ball_on": "red", "reds": 14}
    )
    view.show({"type": "call", "t": 70.0, "call": "FOUL", "penalty": 5})
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("[01:01.50] *Ann 8 - 0 Bob") and "break 8" in lines[0]
    assert lines[1] == "[01:10.00] FOUL. 5 away."


def test_missing_espeak_is_said_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("shutil.which", lambda name: None)
    err = io.StringIO()
    speaker = Speaker(enabled=True, stream=err)
    speaker.say("Foul")
    assert err.getvalue().count("espeak-ng is not installed") == 1
